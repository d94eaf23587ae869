//! The fields an expression may read, with their types and vocabularies.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(
    Copy,
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    String,
    Bool,
    List,
}

impl FieldType {
    pub fn name(self) -> &'static str {
        match self {
            FieldType::String => "string",
            FieldType::Bool => "bool",
            FieldType::List => "list",
        }
    }
}

/// Unknown keys (e.g. `required`) are ignored so a `profile.fields` entry of
/// `catalogue.yaml` deserialises directly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldSpec {
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// `Some` = closed vocabulary (for a list: of its elements).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
}

impl FieldSpec {
    pub fn bool() -> Self {
        FieldSpec {
            ty: FieldType::Bool,
            values: None,
        }
    }

    pub fn string() -> Self {
        FieldSpec {
            ty: FieldType::String,
            values: None,
        }
    }

    pub fn list() -> Self {
        FieldSpec {
            ty: FieldType::List,
            values: None,
        }
    }

    /// Closes the vocabulary.
    pub fn with_values<S: Into<String>>(mut self, values: impl IntoIterator<Item = S>) -> Self {
        self.values = Some(values.into_iter().map(Into::into).collect());
        self
    }

    pub fn is_closed(&self) -> bool {
        self.values.is_some()
    }

    /// Whether `v` is allowed; always true for an open vocabulary.
    pub fn allows(&self, v: &str) -> bool {
        self.values
            .as_ref()
            .is_none_or(|vs| vs.iter().any(|x| x == v))
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schema {
    /// Keyed by dotted path (`data_source.is_swiss_open_data`).
    #[serde(default)]
    pub fields: BTreeMap<String, FieldSpec>,
    /// The field only the baseline gate may read.
    #[serde(default)]
    pub baseline_field: Option<String>,
    /// Named sets `FIELD in set("NAME")` may test (catalogue.yaml `sets:`); none for profiles.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sets: BTreeMap<String, Vec<String>>,
}

impl Schema {
    pub fn new() -> Self {
        Schema::default()
    }

    pub fn field(mut self, path: impl Into<String>, spec: FieldSpec) -> Self {
        self.fields.insert(path.into(), spec);
        self
    }

    pub fn with_baseline(mut self, path: impl Into<String>) -> Self {
        self.baseline_field = Some(path.into());
        self
    }

    pub fn get(&self, path: &str) -> Option<&FieldSpec> {
        self.fields.get(path)
    }

    /// The profile schema of `/work/shared/reference/profile-schema.md` as used
    /// by the MCP audit catalogue; handy for tests and examples.
    pub fn mcp_example() -> Self {
        let mut s = Schema::new()
            .field(
                "transport",
                FieldSpec::string().with_values(["stdio-only", "dual", "HTTP/SSE"]),
            )
            .field("sdk_language", FieldSpec::string())
            .field(
                "mcp_spec_version",
                FieldSpec::string().with_values(["2025-11-25", "2026-07-28"]),
            )
            .field("auth_model", FieldSpec::string())
            .field("data_class", FieldSpec::string())
            .field("deployment", FieldSpec::list())
            .field("data_source.is_swiss_open_data", FieldSpec::bool())
            .with_baseline("mcp_spec_version");
        for b in [
            "write_capable",
            "is_cloud_deployed",
            "uses_sampling",
            "uses_sequential_thinking",
            "tools_include_filesystem",
            "tools_make_external_requests",
            "stadt_zuerich_context",
            "schulamt_context",
            "volksschule_context",
            "enterprise_context",
        ] {
            s = s.field(b, FieldSpec::bool());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deserialises_catalogue_profile_fields() {
        let json = r#"{
            "fields": {
                "transport": {"type": "string", "values": ["stdio-only", "dual", "HTTP/SSE"]},
                "write_capable": {"type": "bool"},
                "deployment": {"type": "list", "values": ["Docker"], "required": false}
            },
            "baseline_field": "mcp_spec_version"
        }"#;
        let s: Schema = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.get("write_capable"), Some(&FieldSpec::bool()));
        assert_eq!(
            s.get("deployment"),
            Some(&FieldSpec::list().with_values(["Docker"]))
        );
        assert_eq!(s.baseline_field.as_deref(), Some("mcp_spec_version"));
        let back = serde_json::to_value(FieldSpec::string()).unwrap_or_default();
        assert_eq!(back, serde_json::json!({"type": "string"}));
    }

    #[test]
    fn vocabulary() {
        let t = FieldSpec::string().with_values(["a", "b"]);
        assert!(t.is_closed() && t.allows("a") && !t.allows("c"));
        assert!(FieldSpec::string().allows("anything"));
        assert_eq!(Schema::mcp_example().get("transport"), Some(&t_transport()));
    }

    fn t_transport() -> FieldSpec {
        FieldSpec::string().with_values(["stdio-only", "dual", "HTTP/SSE"])
    }
}
