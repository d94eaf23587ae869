//! Fixes for findings: edits that resolve a finding, shared by `lint --fix` and the language
//! server's code actions. This version knows one fix: a link to a retired check is pointed at
//! the retired id's live successor.

use crate::diag::{codes, Diagnostic};
use crate::model::Catalogue;
use serde::Serialize;
use std::sync::Arc;

/// Whether a fix can be applied without a person reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Safety {
    Safe,
    Unsafe,
}

/// Replace bytes `start..end` of `file` (relative to the catalogue root, `/`-separated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextEdit {
    pub file: String,
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// The code of the finding the fix resolves.
    pub code: &'static str,
    pub title: String,
    pub safety: Safety,
    pub edits: Vec<TextEdit>,
}

/// The fixes for `diags`, in their order, reading file texts through `text_of`.
pub fn fixes(
    cat: &Catalogue,
    diags: &[Diagnostic],
    text_of: &dyn Fn(&str) -> Option<Arc<str>>,
) -> Vec<Fix> {
    let graph = crate::graph::Graph::build(cat);
    diags
        .iter()
        .filter(|d| d.code == codes::LINK_RETIRED.code)
        .filter_map(|d| retired_link(&graph, d, text_of))
        .collect()
}

fn retired_link(
    graph: &crate::graph::Graph,
    d: &Diagnostic,
    text_of: &dyn Fn(&str) -> Option<Arc<str>>,
) -> Option<Fix> {
    let id = d.id.as_deref()?;
    let crate::graph::Successor::Live(successor) = graph.successor(id) else {
        return None;
    };
    let file = d.file.as_deref()?;
    let text = text_of(file)?;
    let line_start = line_offset(&text, d.line?)?;
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let line = &text[line_start..line_end];
    // The column counts characters; the link around it is found in bytes.
    let at = line
        .char_indices()
        .nth(d.column?.saturating_sub(1))
        .map_or(line.len(), |(i, _)| i);
    let (span_start, span_end) = link_span(line, at)?;
    let edits: Vec<TextEdit> = id_positions(&line[span_start..span_end], id)
        .into_iter()
        .map(|p| TextEdit {
            file: file.to_string(),
            start: line_start + span_start + p,
            end: line_start + span_start + p + id.len(),
            replacement: successor.clone(),
        })
        .collect();
    (!edits.is_empty()).then(|| Fix {
        code: codes::LINK_RETIRED.code,
        title: format!("Link `{successor}` instead of the retired `{id}`"),
        safety: Safety::Safe,
        edits,
    })
}

/// Byte offset of the start of 1-based `line`.
fn line_offset(text: &str, line: usize) -> Option<usize> {
    if line == 1 {
        return Some(0);
    }
    memchr::memchr_iter(b'\n', text.as_bytes())
        .nth(line.checked_sub(2)?)
        .map(|i| i + 1)
}

/// The Markdown link (`[text](dest)` or `[text][ref]`, or a reference definition line)
/// that contains byte `at` of `line`.
fn link_span(line: &str, at: usize) -> Option<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut best = None;
    for (open, _) in line.match_indices('[') {
        if open > at {
            break;
        }
        let Some(close) = line[open..].find(']').map(|i| open + i) else {
            continue;
        };
        let end = match bytes.get(close + 1) {
            Some(b'(') => line[close..].find(')').map(|i| close + i + 1),
            Some(b'[') => line[close + 1..].find(']').map(|i| close + 1 + i + 1),
            Some(b':') => Some(line.len()),
            _ => Some(close + 1),
        };
        if let Some(end) = end.filter(|&e| at < e) {
            best = Some((open, end));
        }
    }
    best
}

/// Byte offsets of `id` in `text` as a whole word (not part of a longer id).
pub fn id_positions(text: &str, id: &str) -> Vec<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(id)
        .map(|(i, _)| i)
        .filter(|&i| {
            let before = text[..i].chars().next_back();
            let mut after = text[i + id.len()..].chars();
            let next = after.next();
            let longer = match next {
                Some('-') => after.next().is_some_and(word),
                Some(c) => word(c),
                None => false,
            };
            !before.is_some_and(|c| word(c) || c == '-') && !longer
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_as_whole_words_only() {
        assert_eq!(
            id_positions("[A-001](A-001.md) A-0011 XA-001", "A-001"),
            [1, 8]
        );
    }

    #[test]
    fn the_link_around_a_column_is_found() {
        let line = "siehe [FID-001](FID-001.md) und [B](x.md)";
        assert_eq!(link_span(line, 8), Some((6, 27)));
        assert_eq!(link_span(line, 0), None);
    }
}
