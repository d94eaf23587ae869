//! The key tables of `docs/catalogue-format.md`, generated from the JSON Schemas (which come
//! from the table of check fields the loader reads, `model::fields`, and the typed config), so the reference cannot list a key
//! the engine rejects or miss one it reads. The rest of that document is prose; the test
//! suite splices fresh tables between its markers and fails when they are stale.

use crate::json_schema;
use crate::model::{Catalogue, Mode};
use serde_json::Value;

/// The generated blocks, by marker name.
pub const BLOCKS: &[&str] = &["frontmatter-keys", "config-keys"];

/// The fresh text of one generated block (without its markers).
pub fn block(name: &str) -> Option<String> {
    match name {
        "frontmatter-keys" => Some(frontmatter_keys()),
        "config-keys" => Some(config_keys()),
        _ => None,
    }
}

/// `doc` with every generated block replaced by its fresh text. Markers are
/// `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; text outside them is kept.
pub fn refresh(doc: &str) -> String {
    let mut out = doc.to_string();
    for name in BLOCKS {
        let begin = format!("<!-- generated:{name} -->\n");
        let end = format!("<!-- /generated:{name} -->");
        let (Some(b), Some(e)) = (out.find(&begin), out.find(&end)) else {
            continue;
        };
        let start = b + begin.len();
        if start > e {
            continue;
        }
        let fresh = block(name).unwrap_or_default();
        out.replace_range(start..e, &fresh);
    }
    out
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The frontmatter keys, from the check schema of a catalogue with the default configuration.
fn frontmatter_keys() -> String {
    let cat = Catalogue::empty(".", Mode::Compatibility);
    let schema = json_schema::check(&cat);
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::from(
        "| key | required | type / values | default | meaning |\n|---|---|---|---|---|\n",
    );
    if let Some(props) = schema["properties"].as_object() {
        for (key, p) in props {
            out.push_str(&format!(
                "| `{key}` | {} | {} | {} | {} |\n",
                if required.contains(&key.as_str()) {
                    "yes"
                } else {
                    "no"
                },
                cell(&type_of(&schema, p)),
                cell(&default_of(p)),
                cell(p["description"].as_str().unwrap_or(""))
            ));
        }
    }
    out
}

/// Every key of `catalogue.yaml`, nested keys as dotted paths (`rules.tables[].doc`).
fn config_keys() -> String {
    let schema = json_schema::config();
    let mut rows = Vec::new();
    walk(&schema, &schema, "", &mut rows);
    let mut out = String::from("| key | type | default | meaning |\n|---|---|---|---|\n");
    for (path, ty, default, meaning) in rows {
        out.push_str(&format!(
            "| `{path}` | {} | {} | {} |\n",
            cell(&ty),
            cell(&default),
            cell(&meaning)
        ));
    }
    out
}

/// The definition a node refers to (directly, or as the non-null half of an `anyOf`).
fn resolve<'s>(root: &'s Value, node: &'s Value) -> &'s Value {
    if let Some(r) = node["$ref"].as_str() {
        let name = r.rsplit('/').next().unwrap_or("");
        return &root["definitions"][name];
    }
    if let Some(any) = node["anyOf"].as_array() {
        if let Some(inner) = any.iter().find(|v| v["type"] != "null") {
            return resolve(root, inner);
        }
    }
    node
}

fn walk(root: &Value, node: &Value, prefix: &str, out: &mut Vec<(String, String, String, String)>) {
    let node = resolve(root, node);
    let Some(props) = node["properties"].as_object() else {
        return;
    };
    let required: Vec<&str> = node["required"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (key, p) in props {
        let path = format!("{prefix}{key}");
        let def = resolve(root, p);
        let meaning = p["description"]
            .as_str()
            .or(def["description"].as_str())
            .unwrap_or("")
            .to_string();
        let mut default = default_of(p);
        if required.contains(&key.as_str()) {
            default = "required".into();
        }
        out.push((path.clone(), type_of(root, p), default, meaning));
        // Into mappings, list items and the values of open mappings.
        if def["properties"].is_object() {
            walk(root, def, &format!("{path}."), out);
        }
        let items = resolve(root, &def["items"]);
        if items["properties"].is_object() {
            walk(root, items, &format!("{path}[]."), out);
        }
        let values = resolve(root, &def["additionalProperties"]);
        if values["properties"].is_object() {
            walk(root, values, &format!("{path}.NAME."), out);
        }
    }
}

/// A short type: `string`, `one of `a`, `b``, `list of strings`, `mapping`, ….
fn type_of(root: &Value, node: &Value) -> String {
    let def = resolve(root, node);
    if let Some(values) = def["enum"].as_array() {
        let v: Vec<String> = values
            .iter()
            .map(|v| format!("`{}`", v.as_str().unwrap_or("")))
            .collect();
        return format!("one of {}", v.join(", "));
    }
    if let Some(one) = def["oneOf"].as_array() {
        let v: Vec<String> = one
            .iter()
            .filter_map(|o| o["const"].as_str().or(o["enum"][0].as_str()))
            .map(|s| format!("`{s}`"))
            .collect();
        if !v.is_empty() {
            return format!("one of {}", v.join(", "));
        }
    }
    let ty = match &def["type"] {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("")
            .to_string(),
        _ => {
            if def["properties"].is_object() {
                "object".into()
            } else {
                String::new()
            }
        }
    };
    match ty.as_str() {
        "array" => {
            let items = resolve(root, &def["items"]);
            if items["properties"].is_object() {
                "list of mappings".into()
            } else {
                let item = type_of(root, &def["items"]);
                // "one of `a`, `b`" takes no plural: "list of values, each one of …".
                match item.strip_prefix("one of ") {
                    Some(vocab) => format!("list of values, each one of {vocab}"),
                    None => format!("list of {item}s"),
                }
            }
        }
        "object" => {
            let values = &def["additionalProperties"];
            if values.is_object() && !def["properties"].is_object() {
                let inner = resolve(root, values);
                if inner["properties"].is_object() {
                    "mapping of name → mapping".into()
                } else {
                    format!("mapping of name → {}", type_of(root, values))
                }
            } else {
                "mapping".into()
            }
        }
        "integer" | "number" => "number".into(),
        "boolean" => "boolean".into(),
        "" => "any".into(),
        other => other.into(),
    }
}

fn default_of(node: &Value) -> String {
    match &node["default"] {
        Value::Null => String::new(),
        Value::Array(a) if a.is_empty() => String::new(),
        Value::Object(o) if o.is_empty() => String::new(),
        Value::String(s) => format!("`{s}`"),
        v => format!("`{v}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_config_key_is_listed() {
        let t = config_keys();
        for key in crate::model::config::TOP_LEVEL_KEYS {
            assert!(t.contains(&format!("| `{key}` |")), "{key} in {t}");
        }
        assert!(t.contains("| `links.bases` |"), "{t}");
        assert!(t.contains("| `rules.tables[].doc` |"), "{t}");
        assert!(t.contains("| `profile.fields.NAME.type` |"), "{t}");
    }

    #[test]
    fn every_frontmatter_key_is_listed() {
        let t = frontmatter_keys();
        for key in crate::model::fields::KEYS {
            assert!(t.contains(&format!("| `{key}` |")), "{key} in {t}");
        }
    }

    #[test]
    fn refresh_replaces_only_between_markers() {
        let doc =
            "before\n<!-- generated:config-keys -->\nold\n<!-- /generated:config-keys -->\nafter\n";
        let fresh = refresh(doc);
        assert!(fresh.starts_with("before\n<!-- generated:config-keys -->\n| key |"));
        assert!(fresh.ends_with("<!-- /generated:config-keys -->\nafter\n"));
        assert_eq!(refresh(&fresh), fresh);
    }
}
