//! Applying fixes to texts: choose the fixes whose edits do not collide, splice each file's
//! edits, and say what would change. Pure: reading and writing are the caller's.

use super::{Fix, TextEdit};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One file's text before and after its edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edited {
    pub file: String,
    pub before: Arc<str>,
    pub after: String,
}

/// The fixes that can be applied together, in order: a fix whose edits overlap an earlier
/// chosen fix's waits for the next run (after the first is applied it may no longer apply).
pub fn compatible(fixes: &[Fix]) -> (Vec<&Fix>, Vec<&Fix>) {
    let mut taken: Vec<&TextEdit> = Vec::new();
    let (mut chosen, mut left) = (Vec::new(), Vec::new());
    for f in fixes {
        let clash = f.edits.iter().any(|e| {
            taken.iter().any(|t| overlaps(t, e))
                || f.edits
                    .iter()
                    .any(|o| !std::ptr::eq(o, e) && overlaps(o, e))
        });
        if clash {
            left.push(f);
        } else {
            taken.extend(&f.edits);
            chosen.push(f);
        }
    }
    (chosen, left)
}

fn overlaps(a: &TextEdit, b: &TextEdit) -> bool {
    a.file == b.file && a.start < b.end && b.start < a.end
}

/// The texts after applying `fixes` (edits at one offset land in the order given). A file
/// `text_of` cannot read, or an edit outside its text or inside a character, is an `Err`.
pub fn edit(fixes: &[&Fix], text_of: super::TextOf<'_>) -> Result<Vec<Edited>, String> {
    let mut by_file: BTreeMap<&str, Vec<&TextEdit>> = BTreeMap::new();
    for f in fixes {
        for e in &f.edits {
            by_file.entry(e.file.as_str()).or_default().push(e);
        }
    }
    let mut out = Vec::new();
    for (file, mut edits) in by_file {
        let before = text_of(file).ok_or_else(|| format!("cannot read `{file}`"))?;
        edits.sort_by_key(|e| (e.start, e.end));
        let after = splice(&before, &edits).ok_or_else(|| {
            format!("`{file}` changed since its findings were computed; run the command again")
        })?;
        if after != *before {
            out.push(Edited {
                file: file.to_string(),
                before,
                after,
            });
        }
    }
    Ok(out)
}

/// `text` with sorted, non-overlapping edits applied; None when a span does not fit.
pub fn splice(text: &str, edits: &[&TextEdit]) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.start < at || e.end < e.start {
            return None;
        }
        out.push_str(text.get(at..e.start)?);
        text.get(e.start..e.end)?;
        out.push_str(&e.replacement);
        at = e.end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// A unified diff of every edited file, as `--diff` prints it.
pub fn diff(edited: &[Edited], prefix: &str) -> String {
    let mut out = String::new();
    for e in edited {
        let path = crate::render::diagnostics::join(prefix, &e.file);
        out.push_str(
            &similar::TextDiff::from_lines(&*e.before, e.after.as_str())
                .unified_diff()
                .context_radius(2)
                .header(&path, &path)
                .to_string(),
        );
    }
    out
}

/// Every edited file still reads as it did when its edits were computed (`Err`: the first
/// that does not). Called under the catalogue lock, right before the write.
pub fn unchanged(edited: &[Edited], read_now: super::TextOf<'_>) -> Result<(), String> {
    for e in edited {
        if read_now(&e.file).as_deref() != Some(&*e.before) {
            return Err(e.file.clone());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::Safety;

    fn fix(start: usize, end: usize, r: &str) -> Fix {
        Fix {
            code: "AB000",
            title: r.into(),
            safety: Safety::Safe,
            edits: vec![TextEdit {
                file: "a.md".into(),
                start,
                end,
                replacement: r.into(),
            }],
        }
    }

    #[test]
    fn overlapping_fixes_wait_and_inserts_keep_their_order() {
        let fixes = [
            fix(0, 1, "X"),
            fix(0, 2, "Y"),
            fix(3, 3, "1"),
            fix(3, 3, "2"),
        ];
        let (chosen, left) = compatible(&fixes);
        assert_eq!(chosen.len(), 3);
        assert_eq!(left.len(), 1);
        let text: Arc<str> = Arc::from("abcd");
        let out = edit(&chosen, &|_| Some(Arc::clone(&text))).unwrap();
        assert_eq!(out[0].after, "Xbc12d");
    }

    #[test]
    fn a_span_inside_a_character_is_refused() {
        let f = fix(1, 2, "x");
        assert!(edit(&[&f], &|_| Some(Arc::from("çx"))).is_err());
    }
}
