//! `auditbook list [--where EXPR]`

use super::args::{Cli, ListArgs};
use super::common::{self, Failure};
use super::formats::ListFormat;
use crate::model::{Catalogue, Check};
use crate::render::{csv, diagnostics, text_table};
use serde_json::json;

pub const COLUMNS: &[&str] = &[
    "id",
    "category",
    "severity",
    "adoption",
    "spec_baseline",
    "evidence_required",
    "applies_when",
    "title",
];

/// A check's effective fields as JSON: what the engine uses after defaults, plus which
/// values came from defaults.
pub fn effective(c: &Check) -> serde_json::Value {
    json!({
        "id": c.id,
        "title": c.title,
        "category": c.category,
        "severity": c.severity,
        "applies_when": c.applies_when,
        "spec_baseline": c.spec_baseline,
        "adoption": c.adoption,
        "evidence_required": c.evidence_required,
        "pdf_ref": c.pdf_ref(),
        "spec_ref": c.spec_ref(),
        "extra": c.extra(),
        "defaulted": c.defaulted(),
        "file": c.file,
    })
}

fn row(c: &Check) -> Vec<String> {
    vec![
        c.id.to_string(),
        c.category.to_string(),
        c.severity.to_string(),
        c.adoption.as_str().to_string(),
        c.spec_baseline.to_string(),
        c.evidence_required.to_string(),
        c.applies_when.to_string(),
        c.title.clone(),
    ]
}

pub fn selected<'c>(
    cat: &'c Catalogue,
    filter: Option<&str>,
) -> Result<Vec<&'c Check>, Vec<crate::diag::Diagnostic>> {
    match filter {
        None => Ok(cat.checks_by_id()),
        Some(src) => {
            let expr = crate::select::compile(cat, src, "--where")?;
            crate::select::select(cat, &expr).map_err(|d| vec![d])
        }
    }
}

pub fn run(cli: &Cli, args: &ListArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::FRONTMATTER)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let checks = match selected(&loaded.catalogue, args.filter.as_deref()) {
        Ok(c) => c,
        Err(diags) => {
            let text = diagnostics::human(&diags, &std::collections::BTreeMap::new(), "", false);
            super::output::eprint(&text);
            return Ok(super::EXIT_FAILURE);
        }
    };
    let rows: Vec<Vec<String>> = checks.iter().map(|c| row(c)).collect();
    let text = match fmt {
        ListFormat::Json => {
            let v: Vec<_> = checks.iter().map(|c| effective(c)).collect();
            common::json_text(&v)?
        }
        ListFormat::Csv => csv::render(COLUMNS, &rows),
        ListFormat::Table => text_table::render(COLUMNS, &rows),
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
