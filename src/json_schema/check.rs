//! The schema of a check's frontmatter, from the table of fields the loader reads
//! (`model::fields::FIELDS`) and the catalogue's declared vocabularies, so it fits the
//! catalogue it is generated for.

use super::{one_of, DRAFT};
use crate::model::fields::{CheckField, Kind, FIELDS, REQUIRED};
use crate::model::{Adoption, Catalogue, Mode};
use serde_json::{json, Map, Value};

fn field(cat: &Catalogue, f: &CheckField) -> Value {
    let doc = f.doc;
    let baselines = cat.config.baselines();
    match f.kind {
        Kind::Id => json!({
            "type": "string",
            "pattern": cat.config.id_pattern(),
            "description": doc,
        }),
        Kind::Title | Kind::Expression => json!({
            "type": "string",
            "minLength": 1,
            "pattern": "\\S",
            "description": doc,
        }),
        Kind::Category => match cat.mode {
            Mode::Declared => json!({
                "enum": one_of(&cat.categories),
                "description": category_help(cat),
            }),
            Mode::Compatibility => json!({
                "type": "string",
                "minLength": 1,
                "description": format!("{doc} (no catalogue.yaml: any category is accepted)."),
            }),
        },
        Kind::Severity => json!({
            "enum": one_of(&cat.config.severities()),
            "description": format!("{doc}: {}.", cat.config.severities().join(" > ")),
        }),
        Kind::Baseline => {
            let mut values = baselines.values.clone();
            values.extend(baselines.aliases.keys().cloned());
            let aliases: Vec<String> = baselines
                .aliases
                .iter()
                .map(|(a, v)| format!("`{a}` means `{v}`"))
                .collect();
            json!({
                "enum": one_of(&values),
                "default": baselines.default,
                "description": format!(
                    "{doc} (default `{}`){}.",
                    baselines.default,
                    if aliases.is_empty() { String::new() } else { format!("; {}", aliases.join(", ")) }
                ),
            })
        }
        Kind::Adoption => {
            let values: Vec<&str> = Adoption::ALL.iter().map(|a| a.as_str()).collect();
            json!({
                "enum": one_of(&values),
                "default": f.default,
                "description": doc,
            })
        }
        Kind::Count => json!({
            "type": "integer",
            "minimum": 0,
            "maximum": u32::MAX,
            "default": f.default.and_then(|d| d.parse::<u32>().ok()),
            "description": doc,
        }),
        Kind::Text => json!({
            "type": "string",
            "description": doc,
        }),
        Kind::Scan => json!({
            "description": doc,
            "type": "array",
            "items": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "string"},
                "language": {"enum": crate::model::scan::Language::ALL.iter().map(|l| l.as_str()).collect::<Vec<_>>()},
                "fact": {"enum": ["dependency-upper-bound", "lockfile", "file-present", "package-imports", "package-starts", "package-current", "package-user-agent"]},
                "rule": {"type": "object"},
                "records": {"enum": ["fail", "partial", "not_verified"]},
                "match": {"enum": ["proof", "signal"]},
                "covers": {"enum": ["all", "part"]},
                "message": {"type": "string"},
                "files": {"type": "array", "items": {"type": "string"}},
                "package": {"type": "string"},
                "paths": {"type": "array", "items": {"type": "string"}},
            }},
        }),
        Kind::Names => json!({
            "description": doc,
            "type": "array",
            "items": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]*\\*?$"},
        }),
        Kind::Probes => {
            let kinds: Vec<&str> = crate::model::probe::Kind::BUILT_IN
                .iter()
                .map(|k| k.as_str())
                .collect();
            let kind = json!({"enum": kinds});
            let records = json!({"type": "object", "additionalProperties": {"enum": ["fail", "partial", "not_verified"]}});
            json!({
                "description": doc,
                "type": "array",
                "items": {"anyOf": [
                    kind,
                    {"type": "object", "required": ["kind"], "properties": {
                        "kind": kind,
                        "covers": {"enum": ["all", "part"]},
                        "records": records,
                        "cites": {"type": "string"},
                    }},
                    {"type": "object", "required": ["name", "steps"], "properties": {
                        "name": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"},
                        "covers": {"enum": ["all", "part"]},
                        "records": records,
                        "cites": {"type": "string"},
                        "transport": {"enum": ["any", "http", "stdio"]},
                        "steps": {"type": "array", "minItems": 1, "items": {"type": "object"}},
                    }, "additionalProperties": false},
                ]},
            })
        }
    }
}

fn category_help(cat: &Catalogue) -> String {
    let names: Vec<String> = cat
        .categories
        .iter()
        .map(|p| match cat.config.category_name(p) {
            Some(n) => format!("{p} ({n})"),
            None => p.clone(),
        })
        .collect();
    format!("A declared category: {}.", names.join(", "))
}

/// The frontmatter schema of this catalogue's check files.
pub fn check(cat: &Catalogue) -> Value {
    let mut props = Map::new();
    for f in FIELDS {
        props.insert(f.key.to_string(), field(cat, f));
    }
    for extra in &cat.config.extra_fields {
        props.insert(
            extra.clone(),
            json!({"description": "Declared under extra_fields in catalogue.yaml."}),
        );
    }
    let mut schema = json!({
        "$schema": DRAFT,
        "title": format!("Check frontmatter of the {} catalogue", cat.name()),
        "description": "The YAML block between the `---` lines at the top of a check file.",
        "type": "object",
        "required": REQUIRED,
        "properties": props,
        "additionalProperties": false,
    });
    // The id's prefix must equal the category: one conditional per declared category.
    if cat.mode == Mode::Declared && !cat.categories.is_empty() {
        let rules: Vec<Value> = cat
            .categories
            .iter()
            .map(|p| {
                json!({
                    "if": {"properties": {"category": {"const": p}}, "required": ["category"]},
                    "then": {"properties": {"id": {"pattern": format!("^{}-", regex::escape(p))}}},
                })
            })
            .collect();
        schema["allOf"] = Value::Array(rules);
    }
    schema
}
