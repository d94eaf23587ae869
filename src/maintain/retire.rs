//! `retire ID --date D --reason R [--merged-into ID2 | --replaced-by ID2]`: record the
//! retirement in catalogue.yaml, remove the file and its manifest line, in one step.

use super::{line_endings, manifest_without, Refused};
use crate::load::{config, manifest};
use crate::model::{Catalogue, Mode};
use crate::write::{Change, Session};

pub struct Request<'a> {
    pub id: &'a str,
    pub date: &'a str,
    pub reason: &'a str,
    pub merged_into: Option<&'a str>,
    pub replaced_by: Option<&'a str>,
}

fn quoted(s: &str) -> String {
    // A JSON string is a valid YAML double-quoted scalar.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// catalogue.yaml with one more entry in `retired:`, editing text so comments and order stay.
pub fn config_with(text: &str, req: &Request<'_>) -> String {
    let mut entry = format!("  - id: {}\n    retired: {}\n", req.id, quoted(req.date));
    if let Some(m) = req.merged_into {
        entry.push_str(&format!("    merged_into: {m}\n"));
    }
    if let Some(r) = req.replaced_by {
        entry.push_str(&format!("    replaced_by: {r}\n"));
    }
    entry.push_str(&format!("    reason: {}\n", quoted(req.reason)));

    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let key = lines.iter().position(|l| l.starts_with("retired:"));
    let mut out = String::new();
    match key {
        None => {
            out.push_str(text);
            if !text.ends_with('\n') && !text.is_empty() {
                out.push('\n');
            }
            out.push_str("retired:\n");
            out.push_str(&entry);
        }
        Some(k) => {
            let inline_empty = lines.get(k).is_some_and(|l| l.trim_end() == "retired: []");
            // The block ends at the next line starting at column 0 that is not a comment.
            let end = lines
                .iter()
                .enumerate()
                .skip(k + 1)
                .find(|(_, l)| {
                    let first = l.chars().next().unwrap_or(' ');
                    !first.is_whitespace() && first != '#' && first != '-'
                })
                .map(|(i, _)| i)
                .unwrap_or(lines.len());
            // Insert after the block's last entry line: blank lines and column-0 comments
            // before the next key belong to that key.
            let mut insert_at = end;
            while insert_at > k + 1
                && lines
                    .get(insert_at - 1)
                    .is_some_and(|l| l.trim().is_empty() || l.starts_with('#'))
            {
                insert_at -= 1;
            }
            for (i, l) in lines.iter().enumerate() {
                if i == k && inline_empty {
                    out.push_str("retired:\n");
                    continue;
                }
                if i == insert_at {
                    out.push_str(&entry);
                }
                out.push_str(l);
            }
            if insert_at >= lines.len() {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(&entry);
            }
        }
    }
    out
}

/// Record the retirement, remove the file and its manifest line, in `session` (the catalogue
/// lock, taken before `cat` was loaded).
pub fn retire(session: &Session, cat: &Catalogue, req: &Request<'_>) -> Result<(), Refused> {
    let changes = plan(cat, req)?;
    session
        .apply(&format!("retire {}", req.id), &changes)
        .map_err(|e| Refused(format!("nothing was changed: {e}")))
}

/// The changes `retire` makes, validated, not yet applied.
pub fn plan(cat: &Catalogue, req: &Request<'_>) -> Result<Vec<Change>, Refused> {
    if cat.mode == Mode::Compatibility {
        return Err(Refused(
            "this catalogue has no catalogue.yaml to record the retirement in; create one first"
                .into(),
        ));
    }
    let Some(check) = cat.check(req.id) else {
        return Err(Refused(format!(
            "`{}` is not a check of this catalogue",
            req.id
        )));
    };
    if cat.retired(req.id).is_some() {
        return Err(Refused(format!("`{}` is already retired", req.id)));
    }
    if !crate::model::date::is_calendar_date(req.date) {
        return Err(Refused(format!(
            "--date `{}` is not a calendar day written YYYY-MM-DD",
            req.date
        )));
    }
    if req.reason.trim().is_empty() {
        return Err(Refused("--reason must say why the check is retired".into()));
    }
    for succ in [req.merged_into, req.replaced_by].into_iter().flatten() {
        if succ == req.id {
            return Err(Refused("a check cannot be its own successor".into()));
        }
        if cat.check(succ).is_none() {
            return Err(Refused(format!(
                "successor `{succ}` is not a live check of this catalogue"
            )));
        }
    }
    let config_path = cat.root.join(crate::model::config::FILE_NAME);
    let (current, config_endings) = line_endings::read(&config_path)
        .map_err(|e| Refused(format!("cannot read {}: {e}", config_path.display())))?;
    let updated = config_with(&current, req);
    // Refuse rather than write a configuration the engine itself would reject.
    let (parsed, diags) = config::parse(&updated);
    if !diags.is_empty() || !parsed.retired.iter().any(|r| r.id == req.id) {
        return Err(Refused(format!(
            "could not add the entry to catalogue.yaml safely ({}); nothing was changed",
            diags
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_else(|| "entry not found after the edit".into())
        )));
    }
    let mut changes = vec![Change::Write(config_path, config_endings.apply(&updated))];
    let checks_dir = cat.root.join(cat.config.checks_dir());
    let manifest_path = checks_dir.join(manifest::FILE_NAME);
    if cat.manifest.is_some() {
        let (text, endings) = line_endings::read(&manifest_path)
            .map_err(|e| Refused(format!("cannot read {}: {e}", manifest_path.display())))?;
        changes.push(Change::Write(
            manifest_path,
            endings.apply(&manifest_without(&text, req.id)),
        ));
    }
    changes.push(Change::Remove(cat.root.join(&check.file)));
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> Request<'static> {
        Request {
            id: "X-002",
            date: "2026-01-02",
            reason: "merged: \"quoted\"",
            merged_into: Some("X-001"),
            replaced_by: None,
        }
    }

    #[test]
    fn appends_to_an_existing_block_before_the_next_key() {
        let text = "name: x\nretired:\n  - id: X-009\n    retired: \"2025-01-01\"\n\n# rules next\nrules:\n  dir: rules\n";
        let out = config_with(text, &req());
        assert_eq!(out, "name: x\nretired:\n  - id: X-009\n    retired: \"2025-01-01\"\n  - id: X-002\n    retired: \"2026-01-02\"\n    merged_into: X-001\n    reason: \"merged: \\\"quoted\\\"\"\n\n# rules next\nrules:\n  dir: rules\n");
    }

    #[test]
    fn replaces_an_empty_list_and_adds_a_missing_key() {
        let out = config_with("retired: []\nname: x\n", &req());
        assert!(out.starts_with("retired:\n  - id: X-002\n"), "{out}");
        let out = config_with("name: x", &req());
        assert!(
            out.starts_with("name: x\nretired:\n  - id: X-002\n"),
            "{out}"
        );
    }
}
