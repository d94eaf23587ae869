//! `--format json`: one document with the findings and a summary.

use super::{json_document, Emitted, Emitter, Run};
use crate::diag::{Diagnostic, Summary};

pub struct Json;

impl Emitter for Json {
    fn emit(&self, run: &Run<'_>) -> Emitted {
        let mut extra = run.summary_extra.clone();
        extra.insert("suppressed".into(), run.suppressed.len().into());
        document(run.diagnostics, extra)
    }
}

/// `{"diagnostics": [...], "summary": {...}}` — `extra` adds keys to the summary.
pub fn document(
    diags: &[Diagnostic],
    extra: serde_json::Map<String, serde_json::Value>,
) -> Emitted {
    let s = Summary::of(diags);
    let mut summary = serde_json::Map::new();
    summary.insert("errors".into(), s.errors.into());
    summary.insert("warnings".into(), s.warnings.into());
    summary.insert("notes".into(), s.notes.into());
    summary.extend(extra);
    let mut doc = serde_json::Map::new();
    doc.insert("diagnostics".into(), serde_json::to_value(diags)?);
    doc.insert("summary".into(), summary.into());
    json_document(&doc)
}
