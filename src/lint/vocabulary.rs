//! Dead vocabulary values: a value of a closed vocabulary of a single-valued (string) profile
//! field that no check's applies_when compares, while some check selects other values of the
//! field (`==` or a string test). A server whose profile picks it fails every such test, so the
//! value can quietly shrink its audit — the class of mistake of a transport spelt `HTTP` that
//! no check compares.
//!
//! A field tested only with `!=` selects every value it does not name, so none shrinks an
//! audit. A list field is left alone: its entries add up, and an entry no check selects takes
//! nothing away from what the profile's other entries select.
//!
//! A note, not a warning: a vocabulary also records what servers honestly say, and a value
//! can rightly select nothing of its own (`stdio-only` where every check asks for HTTP); the
//! engine cannot tell intent, so it states the fact and leaves the judgement to the reader.
//!
//! A value counts as compared when an expression names it with `==` or `!=`, or satisfies a
//! string test on the field (`starts_with`, `ends_with`, `contains`, `matches`). A field
//! compared with another field counts every value of both as compared; the baseline field is
//! read by the baseline gate, not by expressions, and is left alone.

use crate::diag::{codes, Diagnostic};
use crate::dsl::{self, CmpOp, Expr, ExprKind, Operand, TextOp};
use crate::model::Catalogue;
use std::collections::{BTreeMap, BTreeSet};

/// What the expressions say about each field: the literals they compare it against, the
/// string tests they put to it, and whether it is compared with another field.
#[derive(Default)]
struct Uses {
    literals: BTreeSet<String>,
    tests: Vec<(TextOp, String)>,
    whole: bool,
    /// Some test selects values of the field (`==`, `includes` or a string test).
    selects: bool,
}

pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let Some(decl) = &cat.config.profile else {
        return Vec::new();
    };
    // A check that did not load may hold the only comparison of a value: judging without it
    // would report values that are not dead. Its own errors come first.
    if !cat.broken.is_empty() {
        return Vec::new();
    }
    let mut uses: BTreeMap<String, Uses> = BTreeMap::new();
    // Text of expressions that do not parse: a quoted value in one is taken as compared.
    let mut unparsed = Vec::new();
    for c in &cat.checks {
        match dsl::parse(&c.applies_when) {
            Ok(e) => collect(&e, &mut uses),
            Err(_) => unparsed.push(c.applies_when.as_str()),
        }
    }
    for f in decl.fields.values() {
        if let Some(rule) = f.derived.as_ref().and_then(|d| d.any_other_than.as_ref()) {
            let u = uses.entry(rule.field.clone()).or_default();
            u.literals.extend(rule.values.iter().cloned());
        }
    }
    let baseline = cat.config.baselines().profile_field;
    let mut out = Vec::new();
    for (field, f) in &decl.fields {
        let Some(values) = f
            .values
            .as_ref()
            .filter(|_| !f.open && f.ty == dsl::FieldType::String)
        else {
            continue;
        };
        if *field == baseline {
            continue;
        }
        // A field no expression reads has no dead values, only no use; one compared with
        // another field may take any value; one only excluded from (`!=`) loses nothing.
        let Some(u) = uses.get(field).filter(|u| !u.whole && u.selects) else {
            continue;
        };
        let dead: Vec<&str> = values
            .iter()
            .map(String::as_str)
            .filter(|v| !compared(u, v))
            .filter(|v| !unparsed.iter().any(|t| t.contains(&format!("\"{v}\""))))
            .collect();
        if dead.is_empty() {
            continue;
        }
        let key = format!("profile.fields.{field}.values");
        let line = cat.config.positions.line_of(&key).unwrap_or(1);
        // The first dead value as written on that line, else the line's first character.
        let column = cat
            .sources
            .get(crate::model::config::FILE_NAME)
            .and_then(|t| t.lines().nth(line.saturating_sub(1)))
            .map(|l| column_of(l, dead[0]))
            .unwrap_or(1);
        let listed: Vec<String> = dead.iter().map(|v| format!("`{v}`")).collect();
        let noun = if dead.len() == 1 { "value" } else { "values" };
        out.push(
            Diagnostic::new(
                &codes::VOCABULARY_VALUE_DEAD,
                format!(
                    "profile field `{field}` declares the {noun} {}, which no check's applies_when compares: a profile that picks one is selected by none of the checks that select other values of `{field}`",
                    listed.join(", ")
                ),
            )
            .file(crate::model::config::FILE_NAME)
            .at(line, column)
            .width(dead[0].chars().count()),
        );
    }
    out
}

/// The 1-based character column of `value` on `line` as a whole word (not inside a longer
/// value), else of the line's first non-blank character.
fn column_of(line: &str, value: &str) -> usize {
    let is_word = |c: char| c.is_alphanumeric() || c == '-' || c == '_' || c == '/';
    let at = line.match_indices(value).map(|(i, _)| i).find(|&i| {
        let before = line[..i].chars().next_back();
        let after = line[i + value.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    });
    let byte = at.unwrap_or(line.len() - line.trim_start().len());
    line[..byte].chars().count() + 1
}

fn compared(u: &Uses, v: &str) -> bool {
    u.literals.contains(v) || u.tests.iter().any(|(op, arg)| holds(*op, v, arg))
}

/// Whether the string test `v OP arg` is true; a pattern that does not compile (already an
/// expression finding) tells nothing apart.
fn holds(op: TextOp, v: &str, arg: &str) -> bool {
    match op {
        TextOp::StartsWith => v.starts_with(arg),
        TextOp::EndsWith => v.ends_with(arg),
        TextOp::Contains => v.contains(arg),
        TextOp::Matches => regex::Regex::new(arg).is_ok_and(|re| re.is_match(v)),
    }
}

fn collect(expr: &Expr, uses: &mut BTreeMap<String, Uses>) {
    // Explicit stack: an expression may be deeper than a recursion should go.
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Or(c) | ExprKind::And(c) => stack.extend(c.iter()),
            // A named set holds check ids, never profile values.
            ExprKind::Always | ExprKind::Bool(_) | ExprKind::InSet { .. } => {}
            ExprKind::Includes { path, value } => {
                let u = uses.entry(path.dotted()).or_default();
                u.literals.insert(value.value.clone());
                u.selects = true;
            }
            ExprKind::Text { path, op, value } => {
                let u = uses.entry(path.dotted()).or_default();
                u.tests.push((*op, value.value.clone()));
                u.selects = true;
            }
            ExprKind::Compare { left, op, right } => match (left, right) {
                (Operand::Path(p), Operand::Str(s)) | (Operand::Str(s), Operand::Path(p)) => {
                    let u = uses.entry(p.dotted()).or_default();
                    u.literals.insert(s.value.clone());
                    u.selects |= *op == CmpOp::Eq;
                }
                (Operand::Path(a), Operand::Path(b)) => {
                    uses.entry(a.dotted()).or_default().whole = true;
                    uses.entry(b.dotted()).or_default().whole = true;
                }
                _ => {}
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses_of(src: &str) -> BTreeMap<String, Uses> {
        let mut u = BTreeMap::new();
        collect(&dsl::parse(src).unwrap(), &mut u);
        u
    }

    #[test]
    fn every_comparison_form_counts() {
        let u = uses_of(
            r#"transport != "stdio-only" or (deployment.includes("Railway") and auth_model starts_with "OAuth")"#,
        );
        assert!(compared(&u["transport"], "stdio-only"));
        assert!(!compared(&u["transport"], "dual"));
        assert!(!u["transport"].selects, "`!=` only excludes");
        assert!(u["deployment"].selects && u["auth_model"].selects);
        assert!(compared(&u["deployment"], "Railway"));
        assert!(compared(&u["auth_model"], "OAuth-Proxy"));
        assert!(!compared(&u["auth_model"], "OIDC"));
        let u = uses_of(r#"data_class matches "^(PII|Verw)""#);
        assert!(compared(&u["data_class"], "Verwaltungsdaten"));
        assert!(!compared(&u["data_class"], "Public Open Data"));
        let u = uses_of("transport == fallback");
        assert!(u["transport"].whole && u["fallback"].whole);
    }
}
