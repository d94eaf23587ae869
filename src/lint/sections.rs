//! Required sections and pass criteria.

use crate::diag::{codes, Diagnostic};
use crate::load::check::PASS_CRITERIA;
use crate::model::{Catalogue, Check};

#[cfg(any(test, feature = "internals"))]
pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    cat.checks.iter().flat_map(|c| one(cat, c)).collect()
}

pub fn one(cat: &Catalogue, c: &Check) -> Vec<Diagnostic> {
    let required = &cat.config.required_sections;
    let mut out = Vec::new();
    for s in required {
        if c.section(s).is_none() {
            let present: Vec<&str> = c.sections.iter().map(|s| s.title.as_str()).collect();
            out.push(
                Diagnostic::new(
                    &codes::MISSING_SECTION,
                    format!("section `## {s}` is missing"),
                )
                .file(c.file.clone())
                .line(c.body_line)
                .id(c.id.clone())
                .help(if present.is_empty() {
                    "the body has no level-2 sections".to_string()
                } else {
                    format!("sections present: {}", present.join(", "))
                }),
            );
        }
    }
    if let Some(pc) = c.section(PASS_CRITERIA) {
        if c.pass_criteria.is_empty() && required.iter().any(|s| s == PASS_CRITERIA) {
            out.push(
                Diagnostic::new(
                    &codes::NO_PASS_CRITERIA,
                    "the Pass Criteria section has no task-list items",
                )
                .file(c.file.clone())
                .line(pc.line as usize)
                .id(c.id.clone()),
            );
        }
    }
    out
}
