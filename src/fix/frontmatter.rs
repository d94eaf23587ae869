//! Frontmatter spelling: a key whose only fault is its case (`Severity:`) when exactly one
//! format key matches it, and a bare date as `spec_baseline` put in quotes. Both safe: the
//! engine already reads the intended meaning, the fix makes the file say it.

use super::text::line_range;
use super::{Fix, Safety, TextEdit, TextOf};
use crate::diag::{codes, Diagnostic};
use crate::load::check::is_bare_date;
use crate::model::fields::{OPTIONAL, REQUIRED};
use crate::model::Catalogue;

pub fn fixes(cat: &Catalogue, diags: &[Diagnostic], text_of: TextOf<'_>) -> Vec<Fix> {
    let mut out = Vec::new();
    for d in diags {
        let (Some(file), Some(line)) = (d.file.as_deref(), d.line) else {
            continue;
        };
        let fix = if d.code == codes::UNKNOWN_FIELD.code {
            key_case(cat, diags, d, file, line, text_of)
        } else if d.code == codes::DATE_UNQUOTED.code {
            quote_date(file, line, text_of)
        } else {
            None
        };
        out.extend(fix);
    }
    out
}

/// The key a finding of AB106 names (`unknown field `Severity``).
fn named_key(d: &Diagnostic) -> Option<&str> {
    d.message.strip_prefix("unknown field `")?.strip_suffix('`')
}

fn key_case(
    cat: &Catalogue,
    diags: &[Diagnostic],
    d: &Diagnostic,
    file: &str,
    line: usize,
    text_of: TextOf<'_>,
) -> Option<Fix> {
    let key = named_key(d)?;
    let lower = key.to_lowercase();
    let known = REQUIRED
        .iter()
        .chain(OPTIONAL)
        .copied()
        .chain(cat.config.extra_fields.iter().map(String::as_str))
        .any(|k| k == lower);
    if !known || lower == key {
        return None;
    }
    // Unambiguous only when no other key of this file folds to the same name.
    let rivals = diags.iter().filter(|o| {
        o.code == codes::UNKNOWN_FIELD.code
            && o.file.as_deref() == Some(file)
            && named_key(o).is_some_and(|k| k.to_lowercase() == lower)
    });
    if rivals.count() > 1 {
        return None;
    }
    let raw = text_of(file)?;
    if frontmatter_keys(&raw).iter().any(|k| *k == lower) {
        return None;
    }
    let range = line_range(&raw, line)?;
    let text = raw.get(range.clone())?;
    let bom = if range.start == 0 && text.starts_with('\u{feff}') {
        3
    } else {
        0
    };
    if !text.get(bom..)?.starts_with(&format!("{key}:")) {
        return None;
    }
    let start = range.start + bom;
    Some(Fix {
        code: codes::UNKNOWN_FIELD.code,
        title: format!("write the key `{key}` as `{lower}`"),
        safety: Safety::Safe,
        edits: vec![TextEdit {
            file: file.to_string(),
            start,
            end: start + key.len(),
            replacement: lower,
        }],
    })
}

/// Top-level keys of the frontmatter block as written (unquoted ones).
fn frontmatter_keys(raw: &str) -> Vec<&str> {
    let body = raw.strip_prefix('\u{feff}').unwrap_or(raw);
    let mut lines = body.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return Vec::new();
    }
    lines
        .take_while(|l| l.trim_end() != "---")
        .filter(|l| !l.starts_with([' ', '\t', '#', '-']))
        .filter_map(|l| l.split_once(':').map(|(k, _)| k.trim()))
        .collect()
}

fn quote_date(file: &str, line: usize, text_of: TextOf<'_>) -> Option<Fix> {
    let raw = text_of(file)?;
    let range = line_range(&raw, line)?;
    let text = raw.get(range.clone())?;
    let (key, value) = text.split_once(':')?;
    if key.trim() != "spec_baseline" {
        return None;
    }
    let lead = value.len() - value.trim_start().len();
    let date = value.trim_start().get(..10)?;
    if !is_bare_date(date) {
        return None;
    }
    let start = range.start + key.len() + 1 + lead;
    Some(Fix {
        code: codes::DATE_UNQUOTED.code,
        title: format!("quote `spec_baseline: {date}`"),
        safety: Safety::Safe,
        edits: vec![TextEdit {
            file: file.to_string(),
            start,
            end: start + 10,
            replacement: format!("\"{date}\""),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_the_block_only() {
        let raw = "---\nid: X-001\nSeverity: high\nprobe:\n  - kind: x\n---\nseverity: body\n";
        assert_eq!(frontmatter_keys(raw), ["id", "Severity", "probe"]);
    }
}
