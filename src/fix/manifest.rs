//! `MANIFEST.txt` rewritten from the files: a missing id is inserted in id order, a line
//! naming no file or repeating an id is removed. Comments and blank lines stay (safe).

use super::text::{line_range, newline};
use super::{Fix, Safety, TextEdit, TextOf};
use crate::diag::{codes, Diagnostic};
use crate::model::Catalogue;

pub fn fixes(cat: &Catalogue, diags: &[Diagnostic], text_of: TextOf<'_>) -> Vec<Fix> {
    let Some(m) = &cat.manifest else {
        return Vec::new();
    };
    let Some(raw) = text_of(&m.file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in diags {
        let Some(id) = d.id.as_deref() else { continue };
        let (title, edit) =
            if d.code == codes::MANIFEST_ONLY.code || d.code == codes::MANIFEST_DUPLICATE.code {
                let Some(range) = d.line.and_then(|l| line_range(&raw, l)) else {
                    continue;
                };
                // The line must still say this id: the manifest may have changed since.
                if listed_id(raw.get(range.clone()).unwrap_or("")) != Some(id) {
                    continue;
                }
                let what = if d.code == codes::MANIFEST_ONLY.code {
                    "has no check file"
                } else {
                    "is listed twice"
                };
                (
                    format!("remove `{id}` from {} (it {what})", m.file),
                    TextEdit {
                        file: m.file.clone(),
                        start: range.start,
                        end: range.end,
                        replacement: String::new(),
                    },
                )
            } else if d.code == codes::FILE_ONLY.code {
                (
                    format!("add `{id}` to {}", m.file),
                    insertion(&raw, &m.file, id),
                )
            } else {
                continue;
            };
        out.push(Fix {
            code: d.code,
            title,
            safety: Safety::Safe,
            edits: vec![edit],
        });
    }
    out
}

/// The id a manifest line lists, if any (`# comments` and blank lines list none).
fn listed_id(line: &str) -> Option<&str> {
    let t = line.split('#').next().unwrap_or("").trim();
    (!t.is_empty()).then_some(t)
}

/// `id` on a line of its own before the first listed id that sorts after it.
fn insertion(raw: &str, file: &str, id: &str) -> TextEdit {
    let nl = newline(raw);
    let mut at = raw.len();
    let mut pos = 0;
    for line in raw.split_inclusive('\n') {
        if listed_id(line).is_some_and(|l| l > id) {
            at = pos;
            break;
        }
        pos += line.len();
    }
    let replacement = if at == raw.len() && !raw.is_empty() && !raw.ends_with('\n') {
        format!("{nl}{id}{nl}")
    } else {
        format!("{id}{nl}")
    };
    TextEdit {
        file: file.to_string(),
        start: at,
        end: at,
        replacement,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_in_id_order_after_comments() {
        let raw = "# Manifest\nFID-001\nFID-003\n";
        let e = insertion(raw, "m", "FID-002");
        assert_eq!((e.start, e.replacement.as_str()), (19, "FID-002\n"));
        let e = insertion("FID-001", "m", "FID-002");
        assert_eq!((e.start, e.replacement.as_str()), (7, "\nFID-002\n"));
    }
}
