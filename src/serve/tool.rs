//! What every tool is made of: its name and hints, its input schema (from the argument type),
//! its output schema, and a function from the arguments to a result or a refusal that says
//! how to correct the call.

use super::state::State;
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

/// The four hints a client reads before it calls a tool.
#[derive(Clone, Copy)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// Reads the loaded catalogue and nothing else: the same call gives the same answer.
pub const READ_ONLY: Hints = Hints {
    read_only: true,
    destructive: false,
    idempotent: true,
    open_world: false,
};

pub struct Def {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub hints: Hints,
    pub input: fn() -> Map<String, Value>,
    pub output: fn() -> Map<String, Value>,
    pub run: fn(&State, Value) -> Result<Done, Refusal>,
}

/// A tool's answer: the structured value, and the text shown beside it (the value as JSON
/// unless the tool has a better text, such as a Markdown report).
pub struct Done {
    pub value: Value,
    pub text: Option<String>,
}

impl Done {
    pub fn value(value: Value) -> Done {
        Done { value, text: None }
    }
}

/// A call the tool cannot answer, with what to change in it.
#[derive(Debug)]
pub struct Refusal {
    pub message: String,
    pub fix: String,
}

impl Refusal {
    pub fn new(message: impl Into<String>, fix: impl Into<String>) -> Refusal {
        Refusal {
            message: message.into(),
            fix: fix.into(),
        }
    }

    pub fn text(&self) -> String {
        format!("{}\nHow to fix the call: {}", self.message, self.fix)
    }
}

/// The arguments of `tool` as its argument type, or a refusal naming what is wrong.
pub fn args<T: DeserializeOwned>(tool: &str, v: Value) -> Result<T, Refusal> {
    serde_json::from_value(v).map_err(|e| {
        Refusal::new(
            format!("the arguments of `{tool}` do not fit its input schema: {e}"),
            format!("send the fields the `inputSchema` of `{tool}` in tools/list names, with the types it gives"),
        )
    })
}

/// The JSON Schema of an argument type, as the object `inputSchema` holds.
pub fn schema_of<T: schemars::JsonSchema>() -> Map<String, Value> {
    let schema = schemars::schema_for!(T);
    match serde_json::to_value(schema) {
        Ok(Value::Object(mut m)) => {
            m.remove("$schema");
            m.remove("title");
            m
        }
        _ => object(json!({"type": "object"})),
    }
}

/// A JSON object literal as a map (anything else is an empty object schema).
pub fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// An output schema: an object with these required properties.
pub fn output(properties: Value, required: &[&str]) -> Map<String, Value> {
    object(json!({
        "type": "object",
        "properties": properties,
        "required": required,
    }))
}
