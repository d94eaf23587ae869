//! Checks as records for the expression language: `list --where`, claims and
//! `require_coverage` select checks with the same expressions profiles are matched with.

use super::{Catalogue, Check};
use crate::dsl::{Env, FieldSpec, FieldType, Schema, Value};
use std::collections::BTreeMap;

/// The typed fields of a check, closed where the catalogue declares the vocabulary.
pub fn schema(cat: &Catalogue) -> Schema {
    let open = |ty: FieldType| FieldSpec { ty, values: None };
    let closed = |values: Vec<String>| FieldSpec {
        ty: FieldType::String,
        values: Some(values),
    };
    let baselines = cat.config.baselines();
    let fields = BTreeMap::from([
        ("id".to_string(), open(FieldType::String)),
        ("title".to_string(), open(FieldType::String)),
        ("category".to_string(), closed(cat.categories.clone())),
        ("severity".to_string(), closed(cat.config.severities())),
        (
            "adoption".to_string(),
            closed(vec!["enforced".into(), "advisory".into()]),
        ),
        ("spec_baseline".to_string(), closed(baselines.values)),
        ("applies_when".to_string(), open(FieldType::String)),
        ("evidence_required".to_string(), open(FieldType::String)),
        ("pdf_ref".to_string(), open(FieldType::String)),
        ("spec_ref".to_string(), open(FieldType::String)),
    ]);
    Schema {
        fields,
        baseline_field: None,
        sets: cat.config.sets.clone(),
    }
}

/// A check seen as an expression environment, with the catalogue's named sets. Numbers are
/// compared as their decimal text (the language has strings and booleans only); absent
/// references read as "".
pub struct CheckEnv<'c>(pub &'c Check, pub &'c BTreeMap<String, Vec<String>>);

impl Env for CheckEnv<'_> {
    fn get(&self, path: &str) -> Option<Value> {
        let c = self.0;
        let s = |v: &str| Some(Value::Str(v.to_string()));
        match path {
            "id" => s(&c.id),
            "title" => s(&c.title),
            "category" => s(&c.category),
            "severity" => s(&c.severity),
            "adoption" => s(c.adoption.as_str()),
            "spec_baseline" => s(&c.spec_baseline),
            "applies_when" => s(&c.applies_when),
            "evidence_required" => Some(Value::Str(c.evidence_required.to_string())),
            "pdf_ref" => s(c.pdf_ref().unwrap_or("")),
            "spec_ref" => s(c.spec_ref().unwrap_or("")),
            _ => None,
        }
    }

    fn set(&self, name: &str) -> Option<&[String]> {
        self.1.get(name).map(Vec::as_slice)
    }
}
