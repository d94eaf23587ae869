//! A missing standard section added as a stub, in the order `required_sections` gives
//! (unsafe: the stub is a placeholder a person must fill).

use super::text::newline;
use super::{Fix, Safety, TextEdit, TextOf};
use crate::diag::{codes, Diagnostic};
use crate::load::check::PASS_CRITERIA;
use crate::model::Catalogue;

pub fn fixes(cat: &Catalogue, diags: &[Diagnostic], text_of: TextOf<'_>) -> Vec<Fix> {
    let required = &cat.config.required_sections;
    let mut out = Vec::new();
    for d in diags
        .iter()
        .filter(|d| d.code == codes::MISSING_SECTION.code)
    {
        let Some(file) = d.file.as_deref() else {
            continue;
        };
        let Some(name) = d
            .message
            .strip_prefix("section `## ")
            .and_then(|m| m.strip_suffix("` is missing"))
        else {
            continue;
        };
        let Some(raw) = text_of(file) else { continue };
        let headings = level2_headings(&raw);
        if headings.iter().any(|(_, t)| t == name) {
            continue;
        }
        let rank = |t: &str| required.iter().position(|r| r == t);
        let Some(mine) = rank(name) else { continue };
        // Before the first present required section that comes after this one.
        let at = headings
            .iter()
            .find(|(_, t)| rank(t).is_some_and(|r| r > mine))
            .map(|(at, _)| *at);
        let nl = newline(&raw);
        let placeholder = if name == PASS_CRITERIA {
            "- [ ] TODO: state what must hold.".to_string()
        } else {
            "TODO: write this section.".to_string()
        };
        let (at, replacement) = match at {
            Some(at) => (at, format!("## {name}{nl}{nl}{placeholder}{nl}{nl}")),
            None => {
                let lead = if raw.ends_with("\n\n") || raw.ends_with("\r\n\r\n") {
                    String::new()
                } else if raw.ends_with('\n') {
                    nl.to_string()
                } else {
                    format!("{nl}{nl}")
                };
                (
                    raw.len(),
                    format!("{lead}## {name}{nl}{nl}{placeholder}{nl}"),
                )
            }
        };
        out.push(Fix {
            code: codes::MISSING_SECTION.code,
            title: format!("add a stub `## {name}` section"),
            safety: Safety::Unsafe,
            edits: vec![TextEdit {
                file: file.to_string(),
                start: at,
                end: at,
                replacement,
            }],
        });
    }
    out
}

/// Start offset and title of each `## ` heading outside fenced code and the frontmatter.
fn level2_headings(raw: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut fence: Option<&str> = None;
    let mut in_front = raw.trim_start_matches('\u{feff}').starts_with("---");
    for (i, line) in raw.split_inclusive('\n').enumerate() {
        let here = pos;
        pos += line.len();
        let t = line.trim_start_matches('\u{feff}').trim_end();
        if in_front {
            if i > 0 && t == "---" {
                in_front = false;
            }
            continue;
        }
        let trimmed = t.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") {
            fence = Some("```");
        } else if trimmed.starts_with("~~~") {
            fence = Some("~~~");
        } else if let Some(title) = t.strip_prefix("## ") {
            out.push((here, title.trim().trim_end_matches('#').trim().to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_in_code_and_frontmatter_are_not_sections() {
        let raw = "---\nid: X\n---\n## A\n```\n## B\n```\n## C ##\n";
        let h: Vec<String> = level2_headings(raw).into_iter().map(|(_, t)| t).collect();
        assert_eq!(h, ["A", "C"]);
    }
}
