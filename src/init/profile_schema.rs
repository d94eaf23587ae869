//! The profile schema a catalogue's `applies_when` expressions imply: every field they read,
//! typed by how it is used (compared to `true`/`false`: bool; to strings or by a string test:
//! string; `.includes(…)`: list), with the literals they compare against as its vocabulary.

use crate::dsl::ast::{Expr, ExprKind, Operand};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Field {
    /// Every way the expressions use the field (`bool`, `string`, `list`); more than one is a
    /// conflict for the maintainer to settle.
    pub uses: BTreeSet<&'static str>,
    /// String literals compared against it.
    pub values: BTreeSet<String>,
    /// Whether a text test (`starts_with`, `matches`, …) reads it: its values are not a list.
    pub text_tests: bool,
    /// Checks whose expression reads it.
    pub readers: BTreeSet<String>,
}

impl Field {
    pub fn ty(&self) -> &'static str {
        // A conflict resolves to the widest reading; the comment says so.
        if self.uses.contains("list") {
            "list"
        } else if self.uses.contains("string") {
            "string"
        } else {
            "bool"
        }
    }

    /// A closed vocabulary: strings compared only for equality with at least two literals.
    /// One literal (`auth_model == "OAuth"`) says nothing about the other values; a list
    /// grows with deployments; a text test reads values no list names.
    pub fn closed(&self) -> bool {
        self.ty() == "string" && !self.text_tests && self.values.len() >= 2
    }
}

/// Fields by dotted name, from the expressions that parse (the others are lint's to report).
pub fn infer<'a>(
    expressions: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> BTreeMap<String, Field> {
    let mut out = BTreeMap::new();
    for (id, src) in expressions {
        if let Ok(e) = crate::dsl::parser::parse(src) {
            walk(&e, id, &mut out);
        }
    }
    out
}

fn field<'m>(out: &'m mut BTreeMap<String, Field>, name: String, id: &str) -> &'m mut Field {
    let f = out.entry(name).or_default();
    f.readers.insert(id.to_string());
    f
}

fn walk(e: &Expr, id: &str, out: &mut BTreeMap<String, Field>) {
    match &e.kind {
        ExprKind::Or(items) | ExprKind::And(items) => {
            for i in items {
                walk(i, id, out);
            }
        }
        ExprKind::Always | ExprKind::Bool(_) => {}
        ExprKind::Includes { path, value } => {
            let f = field(out, path.dotted(), id);
            f.uses.insert("list");
            f.values.insert(value.value.clone());
        }
        ExprKind::InSet { path, .. } => {
            field(out, path.dotted(), id).uses.insert("string");
        }
        ExprKind::Text { path, .. } => {
            let f = field(out, path.dotted(), id);
            f.uses.insert("string");
            f.text_tests = true;
        }
        ExprKind::Compare { left, right, .. } => match (left, right) {
            (Operand::Path(p), Operand::Bool(..)) | (Operand::Bool(..), Operand::Path(p)) => {
                field(out, p.dotted(), id).uses.insert("bool");
            }
            (Operand::Path(p), Operand::Str(s)) | (Operand::Str(s), Operand::Path(p)) => {
                let f = field(out, p.dotted(), id);
                f.uses.insert("string");
                f.values.insert(s.value.clone());
            }
            (Operand::Path(a), Operand::Path(b)) => {
                field(out, a.dotted(), id).uses.insert("string");
                field(out, b.dotted(), id).uses.insert("string");
            }
            _ => {}
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_vocabularies_follow_use() {
        let fields = infer([
            (
                "A-001",
                r#"transport == "dual" or transport != "stdio-only""#,
            ),
            (
                "A-002",
                r#"deployment.includes("Railway") and write_capable == true"#,
            ),
            ("A-003", r#"auth_model == "OAuth""#),
        ]);
        let t = &fields["transport"];
        assert_eq!((t.ty(), t.closed()), ("string", true));
        assert_eq!(fields["deployment"].ty(), "list");
        assert!(!fields["deployment"].closed());
        assert_eq!(fields["write_capable"].ty(), "bool");
        assert!(
            !fields["auth_model"].closed(),
            "one literal says nothing of the rest"
        );
    }
}
