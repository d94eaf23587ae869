//! JSON Schemas of the engine's inputs, for editors: check frontmatter, profiles, results files
//! and `catalogue.yaml`. Each is generated from what the loader itself uses (its key lists, the
//! catalogue's declared vocabularies, the typed config), so a schema cannot promise what the
//! engine would reject. The engine stays the judge: a schema catches what a schema can
//! (types, vocabularies, unknown keys), the engine also checks what needs the whole catalogue.

mod check;
mod profile;
mod results;

pub use check::check;
pub use profile::profile;
pub use results::results;

use serde_json::{json, Value};

#[cfg(any(test, feature = "internals"))]
pub const KINDS: &[&str] = &["check", "profile", "results", "config"];

pub const DRAFT: &str = "http://json-schema.org/draft-07/schema#";

/// The schema of `catalogue.yaml`, derived from the typed config (`model::config::Config`).
pub fn config() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let schema = generator.into_root_schema_for::<crate::model::config::Config>();
    let mut v = serde_json::to_value(schema).unwrap_or_default();
    if let Value::Object(m) = &mut v {
        m.insert("title".into(), json!("auditbook catalogue.yaml"));
        m.insert(
            "description".into(),
            json!("The configuration of an audit catalogue: categories, vocabularies, retired ids, the profile schema, rules, documents and claims."),
        );
    }
    v
}

/// A closed list of strings as an `enum`.
pub(crate) fn one_of<S: AsRef<str>>(values: &[S]) -> Value {
    Value::Array(values.iter().map(|s| json!(s.as_ref())).collect())
}

/// Pretty JSON with a final newline, as every command prints it.
pub fn to_text(v: &Value) -> String {
    // A `serde_json::Value` always serialises (its map keys are strings): no error to lose.
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}
