//! Fixes: for a finding the engine knows how to repair, the edits on the file's own text that
//! repair it. A fix is data (file, byte span, replacement), never a write: `lint --fix` applies
//! the edits through `write`, an editor shows them as code actions, `--diff` prints them.
//!
//! Edits are computed on the text as read (BOM and CRLF included) so nothing outside an
//! edited span changes. Safe fixes cannot change what the catalogue means beyond the finding;
//! unsafe ones (a stub section, a number in prose) want a person to read the result.

pub mod apply;
pub mod claims;
pub mod frontmatter;
pub mod links;
pub mod manifest;
pub mod regions;
pub mod sections;
pub mod text;

pub use text::id_positions;

use crate::diag::Diagnostic;
use crate::model::Catalogue;
use crate::render::templates::Templates;
use serde::Serialize;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Safety {
    Safe,
    Unsafe,
}

/// One replacement of `start..end` (byte offsets into the file's text as read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TextEdit {
    /// Path relative to the catalogue root, `/`-separated (as diagnostics name files).
    pub file: String,
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// The diagnostic code this fix repairs.
    pub code: &'static str,
    pub title: String,
    pub safety: Safety,
    pub edits: Vec<TextEdit>,
}

/// Reads a file's current text by root-relative path; an editor passes unsaved buffers.
pub type TextOf<'a> = &'a dyn Fn(&str) -> Option<Arc<str>>;

/// Every fix the engine knows for these findings, reading file texts through `text_of`
/// (so an editor can pass unsaved buffers). Regions render with the embedded templates.
pub fn fixes(
    cat: &Catalogue,
    graph: &crate::graph::Graph,
    diags: &[Diagnostic],
    text_of: &dyn Fn(&str) -> Option<Arc<str>>,
) -> Vec<Fix> {
    match Templates::new(None) {
        Ok(t) => fixes_with(cat, graph, diags, text_of, &t),
        Err(_) => fixes_without_regions(cat, graph, diags, text_of),
    }
}

/// `fixes` with the command's templates (`--templates DIR`) for generated regions.
pub fn fixes_with(
    cat: &Catalogue,
    graph: &crate::graph::Graph,
    diags: &[Diagnostic],
    text_of: TextOf<'_>,
    templates: &Templates,
) -> Vec<Fix> {
    let mut out = fixes_without_regions(cat, graph, diags, text_of);
    out.extend(regions::fixes(cat, diags, text_of, templates));
    finish(out)
}

fn fixes_without_regions(
    cat: &Catalogue,
    graph: &crate::graph::Graph,
    diags: &[Diagnostic],
    text_of: TextOf<'_>,
) -> Vec<Fix> {
    let mut out = Vec::new();
    out.extend(links::fixes(graph, diags, text_of));
    out.extend(manifest::fixes(cat, diags, text_of));
    out.extend(frontmatter::fixes(cat, diags, text_of));
    out.extend(sections::fixes(cat, diags, text_of));
    out.extend(claims::fixes(diags, text_of));
    finish(out)
}

/// Fixes with at least one edit, in a total order (file and offset of the first edit, then
/// code and title); an exact repeat (two findings at one fact) is dropped.
fn finish(mut fixes: Vec<Fix>) -> Vec<Fix> {
    fixes.retain(|f| !f.edits.is_empty());
    fixes.sort_by(|a, b| key(a).cmp(&key(b)));
    fixes.dedup();
    fixes
}

fn key(f: &Fix) -> (&str, usize, usize, &str, &str) {
    let first = f.edits.first();
    (
        first.map(|e| e.file.as_str()).unwrap_or(""),
        first.map(|e| e.start).unwrap_or(0),
        first.map(|e| e.end).unwrap_or(0),
        f.code,
        f.title.as_str(),
    )
}
