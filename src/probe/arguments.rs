//! Arguments made from a tool's input schema: a plausible valid set for sampling its output,
//! and a set that breaks the schema for the error probe. Only required properties are filled;
//! a schema the probe cannot read gives no arguments (the tool is then not called).

use serde_json::{Map, Value as Json};

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

fn first_type(prop: &Json) -> Option<&str> {
    match prop.get("type") {
        Some(Json::String(s)) => Some(s),
        Some(Json::Array(a)) => a.iter().filter_map(Json::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// A value the property accepts: its default, first example, const or first enum value, or a
/// plain value of its type.
fn plausible(prop: &Json) -> Option<Json> {
    if let Some(v) = prop.get("default") {
        return Some(v.clone());
    }
    if let Some(v) = prop
        .get("examples")
        .and_then(Json::as_array)
        .and_then(|a| a.first())
    {
        return Some(v.clone());
    }
    if let Some(v) = prop.get("const") {
        return Some(v.clone());
    }
    if let Some(v) = prop
        .get("enum")
        .and_then(Json::as_array)
        .and_then(|a| a.first())
    {
        return Some(v.clone());
    }
    Some(match first_type(prop)? {
        "string" => Json::String("probe".into()),
        "integer" => Json::from(1),
        "number" => Json::from(1.0),
        "boolean" => Json::Bool(false),
        "array" => Json::Array(Vec::new()),
        "object" => Json::Object(Map::new()),
        _ => return None,
    })
}

/// Arguments that satisfy the required part of the schema, when it can be read.
pub fn sample(schema: &Json) -> Option<Map<String, Json>> {
    let props = schema.get("properties").and_then(Json::as_object);
    let mut out = Map::new();
    for name in required(schema) {
        let prop = props.and_then(|p| p.get(&name))?;
        out.insert(name, plausible(prop)?);
    }
    Some(out)
}

/// Arguments that break the schema: a required property left out, or else a typed property
/// given a value of another type. `None` when the schema requires and types nothing.
pub fn breaking(schema: &Json) -> Option<Map<String, Json>> {
    if !required(schema).is_empty() {
        return Some(Map::new());
    }
    let props = schema.get("properties").and_then(Json::as_object)?;
    for (name, prop) in props {
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
}
