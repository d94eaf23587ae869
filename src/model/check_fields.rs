//! Checks as records for the expression language: `list --where`, claims and
//! `require_coverage` select checks with the same expressions profiles are matched with.

use super::{fields, Catalogue, Check};
use crate::dsl::{Env, FieldSpec, FieldType, Schema, Value};
use std::collections::BTreeMap;

/// The typed fields of a check (every exposed field of `fields::FIELDS`), closed where the
/// catalogue declares the vocabulary.
pub fn schema(cat: &Catalogue) -> Schema {
    let fields = fields::exposed()
        .map(|f| {
            let spec = FieldSpec {
                ty: FieldType::String,
                values: fields::vocabulary(f.kind, cat),
            };
            (f.key.to_string(), spec)
        })
        .collect::<BTreeMap<_, _>>();
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
        let f = fields::field(path).filter(|f| f.exposed)?;
        Some(Value::Str((f.value)(self.0).to_text()))
    }

    fn set(&self, name: &str) -> Option<&[String]> {
        self.1.get(name).map(Vec::as_slice)
    }
}
