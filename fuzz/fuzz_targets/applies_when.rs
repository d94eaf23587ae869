//! Arbitrary text as an `applies_when` expression: parse, type-check against a schema, evaluate
//! against a profile, decide constancy; a parsed expression must print to text that parses
//! back to the same tree.
#![no_main]

use auditbook::dsl::{self, FieldSpec, FieldType, Schema, Value};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

fn schema() -> Schema {
    let mut s = Schema::default();
    let closed = |ty, values: &[&str]| FieldSpec {
        ty,
        values: Some(values.iter().map(|v| v.to_string()).collect()),
    };
    s.fields.insert(
        "transport".into(),
        closed(FieldType::String, &["stdio-only", "dual", "HTTP/SSE"]),
    );
    s.fields.insert("sdk_language".into(), FieldSpec::string());
    s.fields.insert("write_capable".into(), FieldSpec::bool());
    s.fields.insert(
        "deployment".into(),
        closed(FieldType::List, &["local-stdio", "Railway", "Kubernetes"]),
    );
    s.fields
        .insert("data_source.is_swiss_open_data".into(), FieldSpec::bool());
    s
}

fn profile() -> BTreeMap<String, Value> {
    let mut p = BTreeMap::new();
    p.insert("transport".into(), Value::Str("dual".into()));
    p.insert("sdk_language".into(), Value::Str("rust".into()));
    p.insert("write_capable".into(), Value::Bool(false));
    p.insert(
        "deployment".into(),
        Value::List(vec!["Railway".into(), "local-stdio".into()]),
    );
    p.insert("data_source.is_swiss_open_data".into(), Value::Bool(true));
    p
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expr) = dsl::parse(src) else {
        return;
    };
    let schema = schema();
    let findings = dsl::check(&expr, &schema);
    let _ = dsl::eval(&expr, &profile());
    if findings.is_empty() {
        let _ = dsl::constant_value(&expr, &schema);
    }
    let printed = expr.to_string();
    let again = dsl::parse(&printed)
        .unwrap_or_else(|e| panic!("canonical text `{printed}` does not parse: {e}"));
    assert_eq!(again.to_string(), printed, "printing is not stable");
});
