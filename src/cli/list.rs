//! `auditbook list [--where EXPR]`

use super::args::{Cli, ListArgs};
use super::common::{self, Failure};
use super::formats::ListFormat;
use crate::model::{fields, Catalogue, Check};
use crate::render::{csv, diagnostics, text_table};
use serde_json::json;

/// The columns of the table and CSV: the fields the table of fields places as columns.
pub fn columns() -> Vec<&'static str> {
    fields::columns().iter().map(|f| f.key).collect()
}

/// A check's effective fields as JSON: what the engine uses after defaults, plus which
/// values came from defaults.
pub fn effective(c: &Check) -> serde_json::Value {
    let mut v = fields::json(c);
    v.insert("extra".into(), json!(c.extra()));
    v.insert("defaulted".into(), json!(c.defaulted()));
    v.insert("file".into(), json!(c.file));
    serde_json::Value::Object(v)
}

fn row(c: &Check) -> Vec<String> {
    fields::columns()
        .iter()
        .map(|f| (f.value)(c).to_text())
        .collect()
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
        ListFormat::Csv => csv::render(&columns(), &rows),
        ListFormat::Table => text_table::render(&columns(), &rows),
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
