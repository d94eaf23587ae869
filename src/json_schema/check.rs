//! The schema of a check's frontmatter, from the loader's key lists (`load::check::REQUIRED`,
//! `OPTIONAL`) and the catalogue's declared vocabularies, so it fits the catalogue it is
//! generated for.

use super::{one_of, DRAFT};
use crate::load::check::{OPTIONAL, REQUIRED};
use crate::model::{Adoption, Catalogue, Mode};
use serde_json::{json, Map, Value};

fn field(cat: &Catalogue, key: &str) -> Value {
    let baselines = cat.config.baselines();
    match key {
        "id" => json!({
            "type": "string",
            "pattern": cat.config.id_pattern(),
            "description": "The check's id; equal to the file name without `.md`, its prefix equal to `category`.",
        }),
        "title" => json!({
            "type": "string",
            "minLength": 1,
            "pattern": "\\S",
            "description": "What the check asks, in one line.",
        }),
        "category" => match cat.mode {
            Mode::Declared => json!({
                "enum": one_of(&cat.categories),
                "description": category_help(cat),
            }),
            Mode::Compatibility => json!({
                "type": "string",
                "minLength": 1,
                "description": "The category prefix (no catalogue.yaml: any category is accepted).",
            }),
        },
        "severity" => json!({
            "enum": one_of(&cat.config.severities()),
            "description": format!("How severe a failure is, most severe first: {}.", cat.config.severities().join(" > ")),
        }),
        "applies_when" => json!({
            "type": "string",
            "minLength": 1,
            "pattern": "\\S",
            "description": "When the check applies to a server profile: an expression such as `transport != \"stdio-only\"`, or `always`.",
        }),
        "spec_baseline" => {
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
                    "The protocol revision the check is written for (default `{}`){}.",
                    baselines.default,
                    if aliases.is_empty() { String::new() } else { format!("; {}", aliases.join(", ")) }
                ),
            })
        }
        "adoption" => {
            let values: Vec<&str> = Adoption::ALL.iter().map(|a| a.as_str()).collect();
            json!({
                "enum": one_of(&values),
                "default": Adoption::Enforced.as_str(),
                "description": "Whether a failure can block production readiness (`enforced`) or is reported by name only (`advisory`).",
            })
        }
        "evidence_required" => json!({
            "type": "integer",
            "minimum": 0,
            "maximum": u32::MAX,
            "default": 1,
            "description": "How many observations a verdict on this check must carry.",
        }),
        "pdf_ref" | "spec_ref" => json!({
            "type": "string",
            "description": "Provenance of the check.",
        }),
        "probe" => {
            let kinds: Vec<&str> = crate::model::probe::Kind::ALL
                .iter()
                .map(|k| k.as_str())
                .collect();
            let kind = json!({"enum": kinds});
            json!({
                "description": "Built-in probes that observe the check on a live server (`auditbook probe`).",
                "type": "array",
                "items": {"anyOf": [
                    kind,
                    {"type": "object", "required": ["kind"], "properties": {
                        "kind": kind,
                        "covers": {"enum": ["all", "part"]},
                    }},
                ]},
            })
        }
        // A key the loader knows but this schema does not describe yet: allowed, unconstrained.
        _ => json!({}),
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
    for key in REQUIRED.iter().chain(OPTIONAL) {
        props.insert(key.to_string(), field(cat, key));
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
