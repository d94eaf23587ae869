//! A link to a retired id moves to the live end of its successor chain (safe: the retired
//! ledger already says the successor owns the subject). Mentions are history and stay.

use super::text::{offset, token_at};
use super::{Fix, Safety, TextEdit, TextOf};
use crate::diag::{codes, Diagnostic};
use crate::graph::{Graph, Successor};

/// How far past the finding's position the link's destination may end (a long link text).
const LINK_REACH: usize = 4000;

pub fn fixes(graph: &Graph, diags: &[Diagnostic], text_of: TextOf<'_>) -> Vec<Fix> {
    let relevant: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.code == codes::LINK_RETIRED.code)
        .collect();
    if relevant.is_empty() {
        return Vec::new();
    }
    relevant
        .into_iter()
        .filter_map(|d| {
            let id = d.id.as_deref()?;
            let Successor::Live(succ) = graph.successor(id) else {
                return None;
            };
            let file = d.file.as_deref()?;
            let raw = text_of(file)?;
            let edits = link_edits(&raw, file, d.line?, d.column?, id, &succ)?;
            Some(Fix {
                code: codes::LINK_RETIRED.code,
                title: format!("link `{succ}` instead of the retired `{id}`"),
                safety: Safety::Safe,
                edits,
            })
        })
        .collect()
}

/// Edits that rename `id` to `succ` inside the link found at `line:column`: its destination
/// (`…/ID.md`) and, where the text names the id, its text.
pub fn link_edits(
    raw: &str,
    file: &str,
    line: usize,
    column: usize,
    id: &str,
    succ: &str,
) -> Option<Vec<TextEdit>> {
    let at = offset(raw, line, column)?;
    let start = if at > 0 && raw.as_bytes().get(at - 1) == Some(&b'[') {
        at - 1
    } else {
        at
    };
    let window = raw.get(start..)?;
    let limit = window.len().min(LINK_REACH);
    let target = format!("{id}.md");
    let dest = window
        .char_indices()
        .take_while(|(i, _)| *i < limit)
        .map(|(i, _)| i)
        .find(|&i| window.get(i..).is_some_and(|w| w.starts_with(&target)))?;
    let end = start + dest + id.len();
    let span = raw.get(start..end)?;
    let edits: Vec<TextEdit> = span
        .match_indices(id)
        .map(|(i, _)| start + i)
        .filter(|&i| token_at(raw, i, id.len()) || i + id.len() == end)
        .map(|i| TextEdit {
            file: file.to_string(),
            start: i,
            end: i + id.len(),
            replacement: succ.to_string(),
        })
        .collect();
    (!edits.is_empty()).then_some(edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_destination_move_and_nothing_else() {
        let raw = "Siehe [DRIFT-007](../checks/DRIFT-007.md#pass) und DRIFT-007.\n";
        let edits = link_edits(raw, "a.md", 1, 8, "DRIFT-007", "FID-006").unwrap();
        let refs: Vec<&TextEdit> = edits.iter().collect();
        assert_eq!(
            super::super::apply::splice(raw, &refs).unwrap(),
            "Siehe [FID-006](../checks/FID-006.md#pass) und DRIFT-007.\n"
        );
    }
}
