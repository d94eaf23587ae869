//! The named tables: `rules-table`, `category-counts`, `severity-counts`, `advisory-list`,
//! `check-index`. Each is data built here and laid out by `templates/<name>.md.tera`, so the
//! same rendering serves `auditbook table` and the generated regions `verify` keeps current.
//! Any other name is a project template (`<name>.md.tera`) given the whole catalogue.

use super::templates::Templates;
use crate::model::{Adoption, Catalogue, Check};
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub const BUILT_IN: &[&str] = &[
    "rules-table",
    "category-counts",
    "severity-counts",
    "advisory-list",
    "check-index",
];

/// Arguments a table accepts: `category=FID` and `where=EXPR` narrow the checks it shows;
/// `base=../checks/` is the link prefix to check files from where the table is written.
pub type Args = BTreeMap<String, String>;

const KNOWN_ARGS: &[&str] = &["base", "category", "where"];

/// `KEY=VALUE` arguments as the command line and region markers write them (the one parser
/// of both). Unknown keys are reported when the table is rendered.
pub fn parse_args<S: AsRef<str>>(tokens: impl IntoIterator<Item = S>) -> Result<Args, String> {
    let mut args = Args::new();
    for t in tokens {
        let t = t.as_ref();
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| format!("table argument `{t}` is not KEY=VALUE"))?;
        let k = k.trim();
        if k.is_empty() {
            return Err(format!("table argument `{t}` has no key"));
        }
        if args.insert(k.to_string(), v.trim().to_string()).is_some() {
            return Err(format!("table argument `{k}` is given twice"));
        }
    }
    Ok(args)
}

fn selected<'c>(cat: &'c Catalogue, args: &Args) -> Result<Vec<&'c Check>, String> {
    for k in args.keys() {
        if !KNOWN_ARGS.contains(&k.as_str()) {
            return Err(format!(
                "unknown table argument `{k}`; tables take {}",
                KNOWN_ARGS.join(", ")
            ));
        }
    }
    let mut checks = match args.get("where") {
        Some(src) => {
            let expr = crate::select::compile(cat, src, "where").map_err(|d| {
                d.into_iter()
                    .map(|d| d.message)
                    .collect::<Vec<_>>()
                    .join("; ")
            })?;
            crate::select::select(cat, &expr).map_err(|d| d.message)?
        }
        None => cat.checks_by_id(),
    };
    if let Some(c) = args.get("category") {
        if !cat.is_category(c) {
            return Err(format!("`{c}` is not a category of this catalogue"));
        }
        checks.retain(|x| x.category == c);
    }
    Ok(checks)
}

/// A check in a table: every field under its format key (`model::fields`), and its file.
fn check_row(c: &Check) -> Value {
    let mut row = crate::model::fields::json(c);
    row.insert("file".into(), json!(c.file));
    Value::Object(row)
}

/// The data behind a named table.
pub fn data(cat: &Catalogue, name: &str, args: &Args) -> Result<Value, String> {
    let checks = selected(cat, args)?;
    let rows = match name {
        "rules-table" => rules_rows(cat, &checks, args),
        "category-counts" => category_counts(cat, &checks, args),
        "severity-counts" => severity_counts(cat, &checks),
        "advisory-list" => json!(checks
            .iter()
            .filter(|c| c.adoption == Adoption::Advisory)
            .map(|c| check_row(c))
            .collect::<Vec<_>>()),
        "check-index" => json!(checks.iter().map(|c| check_row(c)).collect::<Vec<_>>()),
        _ => json!(checks.iter().map(|c| check_row(c)).collect::<Vec<_>>()),
    };
    Ok(json!({
        "table": name,
        "catalogue": {"name": cat.name(), "version": cat.config.version},
        "args": args,
        "base": args.get("base").map(String::as_str).unwrap_or("checks/"),
        "total": checks.len(),
        "rows": rows,
    }))
}

/// The rules and the checks each maps to; with a narrowing argument, only the rules that touch
/// a selected check.
fn rules_rows(cat: &Catalogue, checks: &[&Check], args: &Args) -> Value {
    let rules: Vec<Value> = cat
        .rules
        .iter()
        .filter(|r| {
            !(args.contains_key("category") || args.contains_key("where"))
                || r.checks().iter().any(|id| checks.iter().any(|c| c.id == *id))
        })
        .map(|r| {
            let mapped: Vec<Value> = r
                .checks()
                .into_iter()
                .map(|id| match cat.check(id) {
                    Some(c) => json!({"id": id, "exists": true, "retired": false, "severity": c.severity, "adoption": c.adoption, "title": c.title}),
                    None => json!({"id": id, "exists": false, "retired": cat.retired(id).is_some(), "severity": null, "adoption": null, "title": null}),
                })
                .collect();
            json!({
                "id": r.id,
                "title": r.title,
                "coverage": r.coverage.map(|c| c.as_str()),
                "gap": mapped.is_empty(),
                "checks": mapped,
            })
        })
        .collect();
    json!(rules)
}

/// How many of the selected checks each category has, enforced and advisory.
fn category_counts(cat: &Catalogue, checks: &[&Check], args: &Args) -> Value {
    let rows: Vec<Value> = cat
        .categories
        .iter()
        .filter(|p| args.get("category").is_none_or(|c| c == *p))
        .map(|p| {
            let of: Vec<&&Check> = checks.iter().filter(|c| c.category == p).collect();
            json!({
                "prefix": p,
                "name": cat.config.category_name(p).unwrap_or(p),
                "count": of.len(),
                "enforced": of.iter().filter(|c| c.adoption == Adoption::Enforced).count(),
                "advisory": of.iter().filter(|c| c.adoption == Adoption::Advisory).count(),
            })
        })
        .collect();
    json!(rows)
}

/// How many of the selected checks each severity has, enforced and advisory.
fn severity_counts(cat: &Catalogue, checks: &[&Check]) -> Value {
    let rows: Vec<Value> = cat
        .config
        .severities()
        .into_iter()
        .map(|s| {
            let of: Vec<&&Check> = checks.iter().filter(|c| c.severity == s).collect();
            json!({
                "severity": s,
                "count": of.len(),
                "enforced": of.iter().filter(|c| c.adoption == Adoption::Enforced).count(),
                "advisory": of.iter().filter(|c| c.adoption == Adoption::Advisory).count(),
            })
        })
        .collect();
    json!(rows)
}

/// Render a table as Markdown (through its template) or JSON.
pub fn render(
    templates: &Templates,
    cat: &Catalogue,
    name: &str,
    args: &Args,
    format: &str,
) -> Result<String, String> {
    let template = format!("{name}.md.tera");
    if !BUILT_IN.contains(&name) && !templates.has(&template) {
        return Err(format!(
            "no table `{name}`: built-in tables are {}, or add templates/{template}",
            BUILT_IN.join(", ")
        ));
    }
    let value = data(cat, name, args)?;
    if format == "json" {
        return super::emit::json_document(&value)
            .map_err(|e| format!("table `{name}` cannot be written as JSON: {e}"));
    }
    let ctx = tera::Context::from_serialize(&value).map_err(|e| e.to_string())?;
    templates.render(&template, &ctx)
}
