//! Evaluation against a profile (or any other field source).
//!
//! Strict: every branch is evaluated, so an error is reported even when
//! another branch would decide the value, and no error ever reads as `false`.
//! The first error in source order wins.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::ast::{Expr, ExprKind, Operand, Span, TextOp};
use super::pretty::quote;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Value {
    Str(String),
    Bool(bool),
    List(Vec<String>),
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "string",
            Value::Bool(_) => "bool",
            Value::List(_) => "list",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Str(s) => f.write_str(&quote(s)),
            Value::Bool(b) => write!(f, "{b}"),
            Value::List(items) => {
                let items: Vec<String> = items.iter().map(|s| quote(s)).collect();
                write!(f, "[{}]", items.join(", "))
            }
        }
    }
}

/// A source of field values, looked up by dotted path.
pub trait Env {
    /// `None` means the field does not exist.
    fn get(&self, path: &str) -> Option<Value>;
    /// The members of a named set (`in set("NAME")`); `None`: no such set.
    fn set(&self, _name: &str) -> Option<&[String]> {
        None
    }
}

impl Env for BTreeMap<String, Value> {
    fn get(&self, path: &str) -> Option<Value> {
        BTreeMap::get(self, path).cloned()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum EvalError {
    UnknownField { path: String, span: Span },
    TypeMismatch { message: String, span: Span },
    UnknownSet { name: String, span: Span },
}

impl EvalError {
    #[cfg(any(test, feature = "internals"))]
    pub fn span(&self) -> Span {
        match self {
            EvalError::UnknownField { span, .. }
            | EvalError::TypeMismatch { span, .. }
            | EvalError::UnknownSet { span, .. } => *span,
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::UnknownField { path, .. } => write!(f, "unknown field `{path}`"),
            EvalError::TypeMismatch { message, .. } => f.write_str(message),
            EvalError::UnknownSet { name, .. } => write!(f, "no set is named {}", quote(name)),
        }
    }
}

impl std::error::Error for EvalError {}

pub fn eval(expr: &Expr, env: &dyn Env) -> Result<bool, EvalError> {
    match &expr.kind {
        ExprKind::Or(children) => fold(children, env, false, |a, b| a || b),
        ExprKind::And(children) => fold(children, env, true, |a, b| a && b),
        ExprKind::Always => Ok(true),
        ExprKind::Bool(b) => Ok(*b),
        ExprKind::Includes { path, value } => {
            let dotted = path.dotted();
            match lookup(env, &dotted, path.span)? {
                Value::List(items) => Ok(items.contains(&value.value)),
                other => Err(EvalError::TypeMismatch {
                    message: format!(
                        "`.includes` needs a list field; `{dotted}` is a {} ({other})",
                        other.type_name()
                    ),
                    span: expr.span,
                }),
            }
        }
        ExprKind::Text { path, op, value } => {
            let dotted = path.dotted();
            match lookup(env, &dotted, path.span)? {
                Value::Str(s) => text_test(&s, *op, &value.value, expr.span),
                other => Err(EvalError::TypeMismatch {
                    message: format!(
                        "`{}` needs a string field; `{dotted}` is a {} ({other})",
                        op.as_str(),
                        other.type_name()
                    ),
                    span: expr.span,
                }),
            }
        }
        ExprKind::InSet { path, name } => {
            let dotted = path.dotted();
            let value = lookup(env, &dotted, path.span)?;
            let Some(members) = env.set(&name.value) else {
                return Err(EvalError::UnknownSet {
                    name: name.value.clone(),
                    span: name.span,
                });
            };
            match value {
                Value::Str(s) => Ok(members.contains(&s)),
                other => Err(EvalError::TypeMismatch {
                    message: format!(
                        "`in set(…)` needs a string field; `{dotted}` is a {} ({other})",
                        other.type_name()
                    ),
                    span: expr.span,
                }),
            }
        }
        ExprKind::Compare { left, op, right } => {
            // Resolve both sides before judging either, so an unknown field on
            // the right is not hidden by a type problem on the left.
            let l = operand(left, env);
            let r = operand(right, env);
            let (l, r) = (l?, r?);
            match (&l, &r) {
                (Value::Str(_), Value::Str(_)) | (Value::Bool(_), Value::Bool(_)) => {
                    Ok((l == r) == (*op == super::ast::CmpOp::Eq))
                }
                _ => Err(EvalError::TypeMismatch {
                    message: format!(
                        "cannot compare {} with {}: `{}` needs two strings or two booleans",
                        describe(left, &l),
                        describe(right, &r),
                        op.as_str()
                    ),
                    span: expr.span,
                }),
            }
        }
    }
}

fn text_test(s: &str, op: TextOp, arg: &str, span: Span) -> Result<bool, EvalError> {
    Ok(match op {
        TextOp::StartsWith => s.starts_with(arg),
        TextOp::EndsWith => s.ends_with(arg),
        TextOp::Contains => s.contains(arg),
        TextOp::Matches => matches(s, arg).map_err(|e| EvalError::TypeMismatch {
            message: format!("`matches` needs a regular expression: {e}"),
            span,
        })?,
    })
}

thread_local! {
    /// Compiled `matches` patterns: one selection evaluates the same expression per check.
    static PATTERNS: std::cell::RefCell<std::collections::HashMap<String, regex::Regex>> =
        std::cell::RefCell::default();
}

fn matches(s: &str, pattern: &str) -> Result<bool, regex::Error> {
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(re) = cache.get(pattern) {
            return Ok(re.is_match(s));
        }
        let re = regex::Regex::new(pattern)?;
        let hit = re.is_match(s);
        cache.insert(pattern.to_string(), re);
        Ok(hit)
    })
}

fn fold(
    children: &[Expr],
    env: &dyn Env,
    unit: bool,
    combine: fn(bool, bool) -> bool,
) -> Result<bool, EvalError> {
    let mut acc = unit;
    let mut first_err = None;
    for child in children {
        match eval(child, env) {
            Ok(v) => acc = combine(acc, v),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    first_err.map_or(Ok(acc), Err)
}

fn lookup(env: &dyn Env, dotted: &str, span: Span) -> Result<Value, EvalError> {
    env.get(dotted).ok_or_else(|| EvalError::UnknownField {
        path: dotted.to_string(),
        span,
    })
}

fn operand(o: &Operand, env: &dyn Env) -> Result<Value, EvalError> {
    match o {
        Operand::Path(p) => lookup(env, &p.dotted(), p.span),
        Operand::Str(s) => Ok(Value::Str(s.value.clone())),
        Operand::Bool(b, _) => Ok(Value::Bool(*b)),
    }
}

fn describe(o: &Operand, v: &Value) -> String {
    match o {
        Operand::Path(p) => format!("`{}` (a {}, {v})", p.dotted(), v.type_name()),
        _ => format!("{o} (a {})", v.type_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parser::parse;

    fn env() -> BTreeMap<String, Value> {
        [
            ("transport", Value::Str("dual".into())),
            ("write_capable", Value::Bool(true)),
            (
                "deployment",
                Value::List(vec!["Docker".into(), "Railway".into()]),
            ),
            ("data_source.is_swiss_open_data", Value::Bool(false)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    fn run(src: &str) -> Result<bool, EvalError> {
        let e = parse(src).unwrap_or_else(|e| panic!("{src}: {}", e.message));
        eval(&e, &env())
    }

    struct WithSets(BTreeMap<String, Value>, Vec<String>);

    impl Env for WithSets {
        fn get(&self, path: &str) -> Option<Value> {
            self.0.get(path).cloned()
        }
        fn set(&self, name: &str) -> Option<&[String]> {
            (name == "kohorte").then_some(self.1.as_slice())
        }
    }

    #[test]
    fn set_membership() {
        let with = WithSets(env(), vec!["dual".into()]);
        let go = |src: &str| eval(&parse(src).unwrap_or_else(|e| panic!("{e}")), &with);
        assert_eq!(go(r#"transport in set("kohorte")"#), Ok(true));
        let env2 = WithSets(env(), vec!["stdio".into()]);
        let e = parse(r#"transport in set("kohorte")"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(eval(&e, &env2), Ok(false));
        assert!(matches!(
            go(r#"transport in set("andere")"#),
            Err(EvalError::UnknownSet { .. })
        ));
        assert!(matches!(
            go(r#"deployment in set("kohorte")"#),
            Err(EvalError::TypeMismatch { .. })
        ));
        // A plain map knows no sets: never silently false.
        assert!(matches!(
            run(r#"transport in set("kohorte")"#),
            Err(EvalError::UnknownSet { .. })
        ));
    }

    #[test]
    fn each_form() {
        assert_eq!(run("always"), Ok(true));
        assert_eq!(run("false"), Ok(false));
        assert_eq!(run("true"), Ok(true));
        assert_eq!(run("transport == 'dual'"), Ok(true));
        assert_eq!(run("transport != 'dual'"), Ok(false));
        assert_eq!(run("'dual' == transport"), Ok(true));
        assert_eq!(run("write_capable == true"), Ok(true));
        assert_eq!(run("data_source.is_swiss_open_data != false"), Ok(false));
        assert_eq!(run("deployment.includes('Docker')"), Ok(true));
        assert_eq!(run("deployment.includes('docker')"), Ok(false));
        assert_eq!(run("'a' == 'a'"), Ok(true));
        assert_eq!(run("true == false"), Ok(false));
        assert_eq!(run("transport == transport"), Ok(true));
    }

    #[test]
    fn string_tests() {
        assert_eq!(run("transport starts_with 'du'"), Ok(true));
        assert_eq!(run("transport starts_with 'Du'"), Ok(false));
        assert_eq!(run("transport ends_with 'al'"), Ok(true));
        assert_eq!(run("transport contains 'ua'"), Ok(true));
        assert_eq!(run("transport contains 'x'"), Ok(false));
        assert_eq!(run("transport matches '^d.a'"), Ok(true));
        assert_eq!(run("transport matches '(?i)^DUAL$'"), Ok(true));
        assert_eq!(run("transport matches '^ual'"), Ok(false));
        assert!(matches!(
            run("deployment contains 'Docker'"),
            Err(EvalError::TypeMismatch { message, .. }) if message.contains("needs a string field")
        ));
        assert!(matches!(
            run("nope starts_with 'x'"),
            Err(EvalError::UnknownField { .. })
        ));
    }

    #[test]
    fn and_or_precedence() {
        // `true or (false and false)` — not `(true or false) and false`.
        assert_eq!(
            run("write_capable == true or transport == 'x' and transport == 'y'"),
            Ok(true)
        );
        assert_eq!(
            run("(write_capable == true or transport == 'x') and transport == 'y'"),
            Ok(false)
        );
    }

    #[test]
    fn unknown_field_is_an_error_not_false() {
        let err = run("transprt == 'dual'");
        assert_eq!(
            err,
            Err(EvalError::UnknownField {
                path: "transprt".into(),
                span: Span::new(0, 8)
            })
        );
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("unknown field `transprt`".into())
        );
    }

    #[test]
    fn type_mismatches() {
        for src in [
            "write_capable == 'true'",
            "transport == true",
            "deployment == 'Docker'",
            "transport.includes('dual')",
            "'a' != false",
        ] {
            assert!(
                matches!(run(src), Err(EvalError::TypeMismatch { .. })),
                "{src}: {:?}",
                run(src)
            );
        }
        let Err(e) = run("write_capable == 'true'") else {
            panic!("expected an error")
        };
        assert_eq!(
            e.to_string(),
            "cannot compare `write_capable` (a bool, true) with \"true\" (a string): `==` needs two strings or two booleans"
        );
        assert_eq!(e.span(), Span::new(0, 23));
    }

    #[test]
    fn three_error_kinds_are_distinct() {
        assert!(parse("transport = 'dual'").is_err());
        assert!(matches!(
            run("nope == 'x'"),
            Err(EvalError::UnknownField { .. })
        ));
        assert!(matches!(
            run("transport == false"),
            Err(EvalError::TypeMismatch { .. })
        ));
    }

    #[test]
    fn no_short_circuit_masking() {
        // `always` decides the `or`, but the unknown field is still reported.
        assert!(matches!(
            run("always or nope == 'x'"),
            Err(EvalError::UnknownField { .. })
        ));
        assert!(matches!(
            run("false and transport == true"),
            Err(EvalError::TypeMismatch { .. })
        ));
        // First error in source order.
        let Err(e) = run("transport == true or nope == 'x'") else {
            panic!("expected an error")
        };
        assert!(matches!(e, EvalError::TypeMismatch { .. }));
        let Err(e) = run("transport == nope") else {
            panic!("expected an error")
        };
        assert!(matches!(e, EvalError::UnknownField { .. }));
        let Err(e) = run("a == b") else {
            panic!("expected an error")
        };
        assert_eq!(e.span(), Span::new(0, 1));
    }

    #[test]
    fn value_display() {
        assert_eq!(
            Value::List(vec!["a".into(), "b\"".into()]).to_string(),
            r#"["a", "b\""]"#
        );
        assert_eq!(Value::Bool(false).to_string(), "false");
    }
}
