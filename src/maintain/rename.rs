//! `rename OLD NEW`: the check file moves to its new name, every link, mention, table cell and
//! manifest line follows, and catalogue.yaml records OLD as replaced by NEW (so the old number
//! is never reused and old links find their way). One write session: all files or none.

use super::line_endings::{self, LineEndings};
use super::retire::{config_with, Request};
use super::{manifest_with, manifest_without, Refused};
use crate::fix::text::token_at;
use crate::load::config;
use crate::model::{Catalogue, Mode};
use crate::write::{Change, Session};

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Renamed {
    /// Root-relative files whose text changed, with how many occurrences each.
    pub files: Vec<(String, usize)>,
    pub new_file: String,
}

/// `text` with every standalone `old` token replaced by `new`, and how many there were.
pub fn replace_tokens(text: &str, old: &str, new: &str) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut n = 0;
    for (i, _) in text.match_indices(old) {
        if i < at || !token_at(text, i, old.len()) {
            continue;
        }
        out.push_str(&text[at..i]);
        out.push_str(new);
        at = i + old.len();
        n += 1;
    }
    out.push_str(&text[at..]);
    (out, n)
}

pub fn rename(
    session: &Session,
    cat: &Catalogue,
    old: &str,
    new: &str,
    date: &str,
) -> Result<Renamed, Refused> {
    if cat.mode == Mode::Compatibility {
        return Err(Refused(
            "this catalogue has no catalogue.yaml to record the old id in; run `auditbook init --from-existing` first"
                .into(),
        ));
    }
    let Some(check) = cat.check(old) else {
        return Err(Refused(format!("`{old}` is not a check of this catalogue")));
    };
    if !cat.config.id_regex().is_match(new) {
        return Err(Refused(format!("`{new}` does not match the id pattern")));
    }
    if cat.known_ids().contains(new) || cat.retired(new).is_some() {
        return Err(Refused(format!(
            "`{new}` is taken (a check or a retired number)"
        )));
    }
    let prefix = new.rsplit_once('-').map(|(p, _)| p).unwrap_or("");
    if !cat.is_category(prefix) {
        return Err(Refused(format!("`{prefix}` is not a declared category")));
    }
    if !crate::model::date::is_calendar_date(date) {
        return Err(Refused(format!(
            "--date `{date}` is not a calendar day written YYYY-MM-DD"
        )));
    }
    let mut changes = Vec::new();
    let mut out = Renamed::default();
    let manifest_rel = cat.manifest.as_ref().map(|m| m.file.clone());
    let config_rel = crate::model::config::FILE_NAME;
    let old_prefix = old.rsplit_once('-').map(|(p, _)| p).unwrap_or("");
    for (file, _) in cat.texts() {
        if Some(file) == manifest_rel.as_deref() || file == config_rel {
            continue;
        }
        let path = cat.root.join(file);
        let raw = read(&path)?;
        let (mut text, mut n) = replace_tokens(&raw, old, new);
        if file == check.file.as_str() {
            if old_prefix != prefix {
                // The category follows the prefix.
                let from = format!("\ncategory: {old_prefix}");
                let to = format!("\ncategory: {prefix}");
                if text.contains(&from) {
                    text = text.replacen(&from, &to, 1);
                    n += 1;
                }
            }
            let new_file = match check.file.rsplit_once('/') {
                Some((dir, _)) => format!("{dir}/{new}.md"),
                None => format!("{new}.md"),
            };
            changes.push(Change::Create(cat.root.join(&new_file), text));
            changes.push(Change::Remove(path));
            out.new_file = new_file.clone();
            out.files.push((new_file, n));
            continue;
        }
        if n > 0 {
            changes.push(Change::Write(path, text));
            out.files.push((file.to_string(), n));
        }
    }
    if let Some(rel) = manifest_rel {
        let path = cat.root.join(&rel);
        let (lf, endings) =
            line_endings::read(&path).map_err(|e| Refused(format!("cannot read {rel}: {e}")))?;
        let text = manifest_with(&manifest_without(&lf, old), new);
        changes.push(Change::Write(path, endings.apply(&text)));
        out.files.push((rel, 1));
    }
    let config_path = cat.root.join(config_rel);
    let (lf, endings): (String, LineEndings) = line_endings::read(&config_path)
        .map_err(|e| Refused(format!("cannot read {config_rel}: {e}")))?;
    let (lf, n) = replace_tokens(&lf, old, new);
    let reason = format!("renamed to {new}");
    let updated = config_with(
        &lf,
        &Request {
            id: old,
            date,
            reason: &reason,
            merged_into: None,
            replaced_by: Some(new),
        },
    );
    let (parsed, diags) = config::parse(&updated);
    if !diags.is_empty() || !parsed.retired.iter().any(|r| r.id == old) {
        return Err(Refused(
            "could not record the old id in catalogue.yaml safely; nothing was changed".into(),
        ));
    }
    changes.push(Change::Write(config_path, endings.apply(&updated)));
    out.files.push((config_rel.to_string(), n + 1));
    out.files.sort();
    session
        .apply(&format!("rename {old} {new}"), &changes)
        .map_err(|e| Refused(format!("nothing was changed: {e}")))?;
    Ok(out)
}

fn read(path: &std::path::Path) -> Result<String, Refused> {
    crate::load::text::read_limited(path)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(|| {
            Refused(format!(
                "cannot read `{}`; nothing was changed",
                path.display()
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_standalone_tokens_are_renamed() {
        let (t, n) = replace_tokens(
            "[FID-002](../checks/FID-002.md), `FID-002`, FID-0021, XFID-002 | FID-002 |",
            "FID-002",
            "FID-009",
        );
        assert_eq!(
            t,
            "[FID-009](../checks/FID-009.md), `FID-009`, FID-0021, XFID-002 | FID-009 |"
        );
        assert_eq!(n, 4);
    }
}
