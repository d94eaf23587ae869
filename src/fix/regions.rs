//! A stale generated region rendered afresh: only the bytes between its markers change, in the
//! file's line endings (safe: the region belongs to the engine).

use super::{Fix, Safety, TextEdit, TextOf};
use crate::claims::regions;
use crate::diag::{codes, Diagnostic};
use crate::model::Catalogue;
use crate::render::templates::Templates;

pub fn fixes(
    cat: &Catalogue,
    diags: &[Diagnostic],
    text_of: TextOf<'_>,
    templates: &Templates,
) -> Vec<Fix> {
    diags
        .iter()
        .filter(|d| d.code == codes::REGION_STALE.code)
        .filter_map(|d| {
            let file = d.file.as_deref()?;
            let raw = text_of(file)?;
            let bom = if raw.starts_with('\u{feff}') { 3 } else { 0 };
            let body = raw.get(bom..)?;
            let parsed = regions::parse(body);
            if !parsed.problems.is_empty() {
                return None;
            }
            let region = parsed
                .regions
                .iter()
                .find(|r| Some(r.begin_line) == d.line)?;
            let fresh = crate::claims::fresh_region(cat, templates, region)?;
            let content = regions::content_for(&fresh, super::text::newline(body) == "\r\n");
            if body.get(region.content.clone()) == Some(content.as_str()) {
                return None;
            }
            Some(Fix {
                code: codes::REGION_STALE.code,
                title: format!("regenerate the region `{}`", region.label()),
                safety: Safety::Safe,
                edits: vec![TextEdit {
                    file: file.to_string(),
                    start: bom + region.content.start,
                    end: bom + region.content.end,
                    replacement: content,
                }],
            })
        })
        .collect()
}
