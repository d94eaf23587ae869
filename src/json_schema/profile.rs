//! The schema of a server profile, from the catalogue's declared `profile.fields`: dotted
//! field names become nested mappings, closed vocabularies become enums, open ones examples.

use super::{one_of, DRAFT};
use crate::dsl::FieldType;
use crate::model::config::ProfileFieldDecl;
use crate::model::Catalogue;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Not blank and not an obvious placeholder (`...`, `…`, `<…>`); the engine knows a few more.
const ANSWER: &str = "^(?!\\s*(\\.\\.\\.|…|<.*>)\\s*$).*\\S";

fn leaf(decl: &ProfileFieldDecl) -> Value {
    let closed = decl.values.as_ref().filter(|_| !decl.open);
    let mut v = match decl.ty {
        FieldType::Bool => json!({"type": "boolean"}),
        FieldType::String => match closed {
            Some(values) => json!({"enum": one_of(values)}),
            None => json!({"type": "string", "pattern": ANSWER}),
        },
        FieldType::List => {
            let items = match closed {
                Some(values) => json!({"enum": one_of(values)}),
                None => json!({"type": "string", "pattern": ANSWER}),
            };
            json!({"type": "array", "minItems": 1, "items": items})
        }
    };
    let mut help = decl.description.clone().unwrap_or_default();
    if let (Some(values), true) = (&decl.values, decl.open) {
        v["examples"] = match decl.ty {
            FieldType::List => json!([values]),
            _ => one_of(values),
        };
        push(
            &mut help,
            &format!("Known values: {} (others are valid).", values.join(", ")),
        );
    }
    if let Some(rule) = decl
        .derived
        .as_ref()
        .and_then(|d| d.any_other_than.as_ref())
    {
        push(
            &mut help,
            &format!(
                "Must be true exactly when `{}` has an entry other than {}.",
                rule.field,
                rule.values.join(", ")
            ),
        );
    }
    if !help.is_empty() {
        v["description"] = json!(help);
    }
    v
}

fn push(text: &mut String, more: &str) {
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(more);
}

/// A mapping level of the profile: its own fields and the nested mappings below it.
#[derive(Default)]
struct Level<'a> {
    leaves: BTreeMap<&'a str, &'a ProfileFieldDecl>,
    nested: BTreeMap<&'a str, Level<'a>>,
}

impl<'a> Level<'a> {
    fn insert(&mut self, path: &'a str, decl: &'a ProfileFieldDecl) {
        match path.split_once('.') {
            None => {
                self.leaves.insert(path, decl);
            }
            Some((head, rest)) => self.nested.entry(head).or_default().insert(rest, decl),
        }
    }

    fn schema(&self) -> Value {
        let mut props = Map::new();
        let mut required = Vec::new();
        for (name, level) in &self.nested {
            props.insert(name.to_string(), level.schema());
            if level.any_required() {
                required.push(name.to_string());
            }
        }
        // A field declared both as a leaf and as a parent is read as the leaf, as the engine does.
        for (name, decl) in &self.leaves {
            props.insert(name.to_string(), leaf(decl));
            if decl.required && !required.iter().any(|r| r == name) {
                required.push(name.to_string());
            }
        }
        required.sort();
        json!({
            "type": "object",
            "required": required,
            "properties": props,
            "additionalProperties": false,
        })
    }

    fn any_required(&self) -> bool {
        self.leaves.values().any(|d| d.required) || self.nested.values().any(Level::any_required)
    }
}

/// The profile schema of this catalogue; `None` when it declares none.
pub fn profile(cat: &Catalogue) -> Option<Value> {
    let decls = &cat.config.profile.as_ref()?.fields;
    let mut root = Level::default();
    for (path, decl) in decls {
        root.insert(path, decl);
    }
    let mut schema = root.schema();
    if let Value::Object(m) = &mut schema {
        let mut head = Map::new();
        head.insert("$schema".into(), json!(DRAFT));
        head.insert(
            "title".into(),
            json!(format!("Server profile for the {} catalogue", cat.name())),
        );
        head.insert(
            "description".into(),
            json!("One server's answers to the catalogue's profile fields (YAML or JSON)."),
        );
        head.append(m);
        *m = head;
    }
    Some(schema)
}
