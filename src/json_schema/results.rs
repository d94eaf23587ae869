//! The schema of a results file (catalogue format, section 5), from the audit's own constants
//! (`audit::results::{TOP_KEYS, RESULT_KEYS, EFFORTS, Status::RECORDABLE}`) and the catalogue's
//! check ids, with each check's evidence requirement.

use super::{one_of, DRAFT};
use crate::audit::results::{Status, EFFORTS, RESULT_KEYS, TOP_KEYS};
use crate::model::{Catalogue, Check};
use serde_json::{json, Map, Value};

fn result_key(key: &str) -> Value {
    let lines = json!({"type": "array", "items": {"type": "string"}});
    match key {
        "status" => {
            let values: Vec<&str> = Status::RECORDABLE.iter().map(|s| s.as_str()).collect();
            json!({
                "enum": one_of(&values),
                "description": "pass, fail, partial, not_verified (looked, could not tell), todo (not yet looked), needs_triage (a machine's signal waits for a person's decision), n/a.",
            })
        }
        "evidence" => {
            let mut v = lines;
            v["description"] = json!("What was observed, one item per observation.");
            v
        }
        "gaps" => {
            let mut v = lines;
            v["description"] = json!("What is still missing for a pass.");
            v
        }
        "effort" => {
            // The engine compares efforts case-insensitively.
            let mut values: Vec<String> = EFFORTS.iter().map(|e| e.to_string()).collect();
            values.extend(EFFORTS.iter().map(|e| e.to_lowercase()));
            values.dedup();
            let mut any = one_of(&values);
            if let Value::Array(a) = &mut any {
                a.push(Value::Null);
            }
            json!({"enum": any, "description": "Remediation effort."})
        }
        "source" => json!({
            "type": "string",
            "description": "Who recorded the result: a machine source (`probe`, `scan`, `package`, `conformance`, or several joined by `+`; the next run replaces it); absent when a person did.",
        }),
        "fingerprint" => json!({
            "type": "string",
            "description": "The digest of the server's definitions the result was recorded against (see `probe.definitions`).",
        }),
        "cites" => {
            let mut v = lines;
            v["description"] = json!("The specification sections and sources the evidence is held against (written by machine sources; they do not count as evidence).");
            v
        }
        "digest" => json!({
            "type": "string",
            "description": "The digest of the source tree or package the result was taken from.",
        }),
        "severity" | "category" | "adoption" | "title" => json!({
            "type": ["string", "number", "boolean", "null"],
            "description": "Informational: the catalogue's value is used; a different one is a warning.",
        }),
        _ => json!({"type": ["string", "number", "boolean", "null"]}),
    }
}

fn result_def() -> Value {
    let mut props = Map::new();
    for key in RESULT_KEYS {
        props.insert(key.to_string(), result_key(key));
    }
    json!({
        "type": "object",
        "required": ["status"],
        "properties": props,
        "additionalProperties": false,
    })
}

/// A check's result: the shared shape, plus the evidence this check's verdicts owe.
fn result_for(c: &Check) -> Value {
    let mut rules = vec![json!({"$ref": "#/definitions/result"})];
    if c.evidence_required > 0 {
        rules.push(json!({
            "if": {"properties": {"status": {"enum": ["pass", "fail", "partial"]}}, "required": ["status"]},
            "then": {"required": ["evidence"], "properties": {"evidence": {"minItems": c.evidence_required}}},
        }));
    }
    rules.push(json!({
        "if": {"properties": {"status": {"const": "not_verified"}}, "required": ["status"]},
        "then": {"required": ["evidence"], "properties": {"evidence": {"minItems": 1}}},
    }));
    json!({
        "description": format!(
            "{} — {} ({}, {}); pass/fail/partial owe {} evidence item(s).",
            c.id, c.title, c.severity, c.adoption.as_str(), c.evidence_required
        ),
        "allOf": rules,
    })
}

fn top_key(cat: &Catalogue, key: &str) -> Value {
    match key {
        "audit_meta" => {
            let text = json!({"type": ["string", "number", "boolean"]});
            let mut version = text.clone();
            if let Some(v) = &cat.config.version {
                version["examples"] = json!([v]);
                version["description"] = json!(format!(
                    "The catalogue version the results were recorded against ({v} is loaded)."
                ));
            }
            json!({
                "type": "object",
                "description": "Who audited what, when.",
                "properties": {
                    "server_name": text,
                    "audit_date": text,
                    "auditor": text,
                    "catalogue_version": version,
                },
                "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
            })
        }
        "probe" => {
            let text = json!({"type": "string"});
            json!({
                "type": "object",
                "description": "The latest probe of the server: where it was reached and the fingerprints of what it showed.",
                "properties": {
                    "target": text, "reach": text, "server_name": text, "server_version": text,
                    "protocol_version": text, "definitions": text, "sandbox": text,
                    "reached": {"type": "boolean", "description": "Whether the probe reached the server as MCP; `false` makes an audit of these results incomplete."},
                    "serves": {"type": "array", "items": {"type": "string"}, "description": "The protocol versions the server served."},
                },
                "additionalProperties": false,
            })
        }
        "results" => {
            let mut props = Map::new();
            for c in cat.checks_by_id() {
                props.insert(c.id.to_string(), result_for(c));
            }
            for r in &cat.config.retired {
                let to = r
                    .merged_into
                    .as_deref()
                    .or(r.replaced_by.as_deref())
                    .map(|s| format!("; record the result on {s}"))
                    .unwrap_or_default();
                props.entry(r.id.clone()).or_insert_with(|| {
                    json!({
                        "not": {},
                        "description": format!("{} was retired on {}{to}.", r.id, r.retired),
                    })
                });
            }
            json!({
                "type": "object",
                "description": "One result per check id.",
                "properties": props,
                "additionalProperties": false,
            })
        }
        "waivers" => waivers(cat),
        "triage" => json!({
            "type": "array",
            "description": "A person's decisions on the scan's signals (`auditbook triage`): each by check and finding fingerprint.",
            "items": {
                "type": "object",
                "required": ["check", "finding", "decision"],
                "properties": {
                    "check": {"type": "string"},
                    "finding": {"type": "string"},
                    "decision": {"enum": ["real", "false-positive"]},
                    "reason": {"type": "string"},
                    "until": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                    "decided": {"type": "string"},
                },
            },
        }),
        "scan" | "package" | "conformance" => json!({
            "type": "object",
            "description": format!("What the {key} looked at (`auditbook {}`): the target, its digest, and whether it could look (`reached`).", if key == "conformance" { "probe --conformance" } else { "collect" }),
            "properties": {"reached": {"type": "boolean"}},
        }),
        _ => json!({}),
    }
}

/// A `waivers:` list (`audit::waivers`): one accepted risk per check, with an end date.
pub fn waivers(cat: &Catalogue) -> Value {
    let ids: Vec<String> = cat
        .checks_by_id()
        .iter()
        .map(|c| c.id.to_string())
        .collect();
    let date = json!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"});
    let text = json!({"type": "string", "minLength": 1});
    json!({
        "type": "array",
        "description": "Accepted risks: a fail or partial accepted by an approver until a date.",
        "items": {
            "type": "object",
            "required": crate::audit::waivers::WAIVER_KEYS,
            "properties": {
                "check": {"type": "string", "enum": ids},
                "reason": text,
                "approved_by": text,
                "date": date,
                "until": date,
            },
            "additionalProperties": false,
        },
    })
}

/// The results-file schema of this catalogue.
pub fn results(cat: &Catalogue) -> Value {
    let mut props = Map::new();
    for key in TOP_KEYS {
        props.insert(key.to_string(), top_key(cat, key));
    }
    json!({
        "$schema": DRAFT,
        "title": format!("Audit results for the {} catalogue", cat.name()),
        "description": "What an auditor observed, one result per check (YAML or JSON).",
        "type": "object",
        "required": ["results"],
        "properties": props,
        "additionalProperties": false,
        "definitions": {"result": result_def()},
    })
}
