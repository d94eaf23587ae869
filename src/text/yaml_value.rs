//! How a finding names a YAML value it did not expect: its kind, and a short form of a string.

use serde_yaml::Value;

/// A string cut to 40 characters, with an ellipsis when it was longer.
pub fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A value as a message names it: "the string `x`", "a list", …
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "nothing (null)".into(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{n}`"),
        Value::String(s) => format!("the string `{}`", shorten(s)),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("a value tagged `{}`", t.tag),
    }
}
