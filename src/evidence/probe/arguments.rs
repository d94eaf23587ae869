//! Arguments made from a tool's input schema: a plausible valid set for sampling its output,
//! and a set that breaks the schema for the error probe. Required properties are filled,
//! nested objects too; local `$ref`s (`#/$defs/…`, `#/definitions/…`) are followed, the first
//! branch of an `anyOf`/`oneOf` is taken, string lengths are met. A schema the probe cannot
//! read gives no arguments (the tool is then not called). Depth is bounded: a schema is
//! someone else's input.

use serde_json::{Map, Value as Json};

const DEPTH: usize = 8;

fn required(schema: &Json) -> Vec<String> {
    schema
        .get("required")
        .and_then(Json::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Json::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Follow a local `$ref`, and take the first non-null branch of `anyOf`/`oneOf`/`allOf`.
fn resolve<'a>(root: &'a Json, s: &'a Json, depth: usize) -> Option<&'a Json> {
    if depth > DEPTH {
        return None;
    }
    if let Some(r) = s.get("$ref").and_then(Json::as_str) {
        let target = root.pointer(r.strip_prefix('#')?)?;
        return resolve(root, target, depth + 1);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = s.get(key).and_then(Json::as_array) {
            let first = branches
                .iter()
                .find(|b| b.get("type").and_then(Json::as_str) != Some("null"))?;
            return resolve(root, first, depth + 1);
        }
    }
    Some(s)
}

fn first_type(prop: &Json) -> Option<&str> {
    match prop.get("type") {
        Some(Json::String(s)) => Some(s),
        Some(Json::Array(a)) => a.iter().filter_map(Json::as_str).find(|t| *t != "null"),
        None if prop.get("properties").is_some() => Some("object"),
        _ => None,
    }
}

/// A value the property accepts: its default, first example, const or first enum value, or a
/// plain value of its type.
fn plausible(root: &Json, raw: &Json, depth: usize) -> Option<Json> {
    // A default or example written beside a `$ref` wins over the referenced schema's.
    for s in [Some(raw), resolve(root, raw, depth)].into_iter().flatten() {
        if let Some(v) = s.get("default") {
            return Some(v.clone());
        }
        if let Some(v) = s
            .get("examples")
            .and_then(Json::as_array)
            .and_then(|a| a.first())
        {
            return Some(v.clone());
        }
        if let Some(v) = s.get("const") {
            return Some(v.clone());
        }
        if let Some(v) = s
            .get("enum")
            .and_then(Json::as_array)
            .and_then(|a| a.first())
        {
            return Some(v.clone());
        }
    }
    let prop = resolve(root, raw, depth)?;
    Some(match first_type(prop)? {
        "string" => {
            let min = prop.get("minLength").and_then(Json::as_u64).unwrap_or(0) as usize;
            let mut s = "probe".to_string();
            while s.chars().count() < min.min(256) {
                s.push_str("-probe");
            }
            if let Some(max) = prop.get("maxLength").and_then(Json::as_u64) {
                s = s.chars().take(max as usize).collect();
            }
            Json::String(s)
        }
        "integer" => Json::from(prop.get("minimum").and_then(Json::as_i64).unwrap_or(1)),
        "number" => Json::from(prop.get("minimum").and_then(Json::as_f64).unwrap_or(1.0)),
        "boolean" => Json::Bool(false),
        "array" => Json::Array(Vec::new()),
        "object" => Json::Object(fill(root, prop, depth + 1)?),
        _ => return None,
    })
}

/// The required properties of an object schema, filled.
fn fill(root: &Json, schema: &Json, depth: usize) -> Option<Map<String, Json>> {
    if depth > DEPTH {
        return None;
    }
    let schema = resolve(root, schema, depth)?;
    let props = schema.get("properties").and_then(Json::as_object);
    let mut out = Map::new();
    for name in required(schema) {
        let prop = props.and_then(|p| p.get(&name))?;
        out.insert(name, plausible(root, prop, depth + 1)?);
    }
    Some(out)
}

/// Arguments that satisfy the required part of the schema, when it can be read.
pub fn sample(schema: &Json) -> Option<Map<String, Json>> {
    fill(schema, schema, 0)
}

/// Arguments that break the schema: a required property left out, or else a typed property
/// given a value of another type. `None` when the schema requires and types nothing.
pub fn breaking(schema: &Json) -> Option<Map<String, Json>> {
    if !required(schema).is_empty() {
        return Some(Map::new());
    }
    let props = schema.get("properties").and_then(Json::as_object)?;
    for (name, raw) in props {
        let prop = resolve(schema, raw, 0).unwrap_or(raw);
        let wrong = match first_type(prop) {
            Some("string") => Json::from(12345),
            Some("integer" | "number" | "boolean" | "array" | "object") => {
                Json::String("not of the declared type".into())
            }
            _ => continue,
        };
        let mut out = Map::new();
        out.insert(name.clone(), wrong);
        return Some(out);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn required_properties_are_filled_and_broken() {
        let s = json!({"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer", "default": 3}, "opt": {"type": "string"}}, "required": ["q", "n"]});
        assert_eq!(
            sample(&s),
            json!({"q": "probe", "n": 3}).as_object().cloned()
        );
        assert_eq!(breaking(&s), Some(Map::new()));
        let loose = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        assert_eq!(
            breaking(&loose),
            json!({"n": "not of the declared type"})
                .as_object()
                .cloned()
        );
        assert_eq!(breaking(&json!({"type": "object"})), None);
        assert_eq!(sample(&json!({"required": ["x"]})), None);
    }

    #[test]
    fn references_nesting_and_lengths_are_followed() {
        let s = json!({"type": "object", "$defs": {"In": {"type": "object", "properties": {"id": {"type": "string", "minLength": 8}, "fmt": {"$ref": "#/$defs/F", "default": "json"}}, "required": ["id", "fmt"]}, "F": {"enum": ["md", "json"]}}, "properties": {"params": {"$ref": "#/$defs/In"}}, "required": ["params"]});
        assert_eq!(
            sample(&s),
            json!({"params": {"id": "probe-probe", "fmt": "json"}})
                .as_object()
                .cloned()
        );
        let looped = json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]});
        assert_eq!(sample(&looped), None);
    }
}
