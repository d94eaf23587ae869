//! Property tests across the whole language module.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::analysis::{compare, constant_value, Comparison};
use super::ast::{CmpOp, Expr, ExprKind, Operand, Path, Span, StrLit};
use super::eval::{eval, Value};
use super::parser::parse;
use super::schema::{FieldSpec, Schema};
use super::typeck::check;

const KEYWORDS: [&str; 5] = ["and", "or", "always", "true", "false"];

fn ident() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["a", "b", "c", "d", "e", "includes", "True", "AND"])
            .prop_map(String::from),
        1 => "[A-Za-z_][A-Za-z0-9_]{0,5}",
    ]
    .prop_filter("keywords are not identifiers", |s| {
        !KEYWORDS.contains(&s.as_str())
    })
}

fn path() -> impl Strategy<Value = Path> {
    prop::collection::vec(ident(), 1..3)
        .prop_filter("`.includes` after a dot is the method", |segs| {
            segs.iter().skip(1).all(|s| s != "includes")
        })
        .prop_map(|segments| Path {
            segments,
            span: Span::default(),
        })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => prop::sample::select(vec!["x", "y", "z", "", "it's", "\"q\"", "a\\b", "\n\t", "é"])
            .prop_map(String::from),
        1 => prop::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter),
    ]
}

fn lit() -> impl Strategy<Value = StrLit> {
    text().prop_map(|value| StrLit {
        value,
        span: Span::default(),
    })
}

fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        path().prop_map(Operand::Path),
        lit().prop_map(Operand::Str),
        any::<bool>().prop_map(|b| Operand::Bool(b, Span::default())),
    ]
}

fn leaf() -> impl Strategy<Value = Expr> {
    let kind = prop_oneof![
        1 => Just(ExprKind::Always),
        1 => any::<bool>().prop_map(ExprKind::Bool),
        2 => (path(), lit()).prop_map(|(path, value)| ExprKind::Includes { path, value }),
        4 => (operand(), any::<bool>(), operand()).prop_map(|(left, eq, right)| ExprKind::Compare {
            left,
            op: if eq { CmpOp::Eq } else { CmpOp::Ne },
            right,
        }),
    ];
    kind.prop_map(|k| Expr::new(k, Span::default()))
}

/// Random canonical trees (no `or` directly in an `or`, no `and` in an `and`).
fn expr() -> impl Strategy<Value = Expr> {
    leaf()
        .prop_recursive(4, 48, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 2..4)
                    .prop_map(|c| Expr::new(ExprKind::Or(c), Span::default())),
                prop::collection::vec(inner, 2..4)
                    .prop_map(|c| Expr::new(ExprKind::And(c), Span::default())),
            ]
        })
        .prop_map(normalize)
}

fn normalize(e: Expr) -> Expr {
    let is_or = matches!(e.kind, ExprKind::Or(_));
    match e.kind {
        ExprKind::Or(c) | ExprKind::And(c) => {
            let mut flat = Vec::new();
            for child in c.into_iter().map(normalize) {
                match child.kind {
                    ExprKind::Or(g) if is_or => flat.extend(g),
                    ExprKind::And(g) if !is_or => flat.extend(g),
                    kind => flat.push(Expr::new(kind, child.span)),
                }
            }
            let kind = if is_or {
                ExprKind::Or(flat)
            } else {
                ExprKind::And(flat)
            };
            Expr::new(kind, e.span)
        }
        kind => Expr::new(kind, e.span),
    }
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        text().prop_map(Value::Str),
        any::<bool>().prop_map(Value::Bool),
        prop::collection::vec(text(), 0..3).prop_map(Value::List),
    ]
}

fn any_env() -> impl Strategy<Value = BTreeMap<String, Value>> {
    prop::collection::btree_map(path().prop_map(|p| p.dotted()), value(), 0..6)
}

fn any_schema() -> impl Strategy<Value = Schema> {
    let spec = prop_oneof![
        Just(FieldSpec::bool()),
        Just(FieldSpec::string()),
        Just(FieldSpec::list()),
        prop::collection::vec(text(), 0..3).prop_map(|v| FieldSpec::string().with_values(v)),
        prop::collection::vec(text(), 0..3).prop_map(|v| FieldSpec::list().with_values(v)),
    ];
    (
        prop::collection::btree_map(path().prop_map(|p| p.dotted()), spec, 0..6),
        prop::option::of(path().prop_map(|p| p.dotted())),
    )
        .prop_map(|(fields, baseline_field)| Schema {
            fields,
            baseline_field,
            sets: Default::default(),
        })
}

/// A fixed schema over the names the tree strategies favour, and profiles
/// valid for it, to test the analysis against evaluation.
fn typed_schema() -> Schema {
    Schema::new()
        .field("a", FieldSpec::bool())
        .field("b", FieldSpec::string())
        .field("c", FieldSpec::string().with_values(["x", "y"]))
        .field("d", FieldSpec::list())
        .field("e", FieldSpec::list().with_values(["x", "y"]))
        .field("AND", FieldSpec::string())
}

fn typed_env() -> impl Strategy<Value = BTreeMap<String, Value>> {
    let s = |v: &[&str]| prop::sample::select(v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
    let sub = |v: &[&str]| {
        prop::sample::subsequence(
            v.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            0..=v.len(),
        )
    };
    (
        any::<bool>(),
        s(&["x", "y", "z", "w"]),
        s(&["x", "y"]),
        sub(&["x", "y", "z", "w"]),
        sub(&["x", "y"]),
        s(&["x", "y", "z", "v"]),
    )
        .prop_map(|(a, b, c, d, e, and)| {
            [
                ("a", Value::Bool(a)),
                ("b", Value::Str(b)),
                ("c", Value::Str(c)),
                ("d", Value::List(d)),
                ("e", Value::List(e)),
                ("AND", Value::Str(and)),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
        })
}

fn field(name: &str) -> Operand {
    Operand::Path(Path {
        segments: vec![name.to_string()],
        span: Span::default(),
    })
}

/// Well-typed leaves over [`typed_schema`], so the analysis is exercised
/// rather than bailing out on type errors.
fn typed_leaf() -> impl Strategy<Value = Expr> {
    let word = || prop::sample::select(vec!["x", "y", "z", "q"]).prop_map(String::from);
    let string_side = prop_oneof![
        prop::sample::select(vec!["b", "c", "AND"]).prop_map(field),
        word().prop_map(|value| Operand::Str(StrLit {
            value,
            span: Span::default()
        })),
    ];
    let bool_side = prop_oneof![
        Just(field("a")),
        any::<bool>().prop_map(|b| Operand::Bool(b, Span::default())),
    ];
    let op = any::<bool>().prop_map(|eq| if eq { CmpOp::Eq } else { CmpOp::Ne });
    let kind = prop_oneof![
        1 => Just(ExprKind::Always),
        1 => any::<bool>().prop_map(ExprKind::Bool),
        2 => (prop::sample::select(vec!["d", "e"]), word()).prop_map(|(f, value)| ExprKind::Includes {
            path: Path { segments: vec![f.to_string()], span: Span::default() },
            value: StrLit { value, span: Span::default() },
        }),
        3 => (string_side.clone(), op.clone(), string_side)
            .prop_map(|(left, op, right)| ExprKind::Compare { left, op, right }),
        2 => (bool_side.clone(), op, bool_side)
            .prop_map(|(left, op, right)| ExprKind::Compare { left, op, right }),
    ];
    kind.prop_map(|k| Expr::new(k, Span::default()))
}

fn typed_expr() -> impl Strategy<Value = Expr> {
    typed_leaf()
        .prop_recursive(3, 24, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 2..4)
                    .prop_map(|c| Expr::new(ExprKind::Or(c), Span::default())),
                prop::collection::vec(inner, 2..4)
                    .prop_map(|c| Expr::new(ExprKind::And(c), Span::default())),
            ]
        })
        .prop_map(normalize)
}

fn token_soup() -> impl Strategy<Value = String> {
    let tok = prop::sample::select(vec![
        "(",
        ")",
        "and",
        "or",
        "always",
        "true",
        "false",
        "a",
        "b.c",
        ".",
        "==",
        "!=",
        "=",
        "\"x\"",
        "'y'",
        ".includes(",
        "'",
        "\"",
        "\\",
        "&&",
        "||",
        "é",
        "AND",
        "True",
        " ",
        "\n",
        "1",
    ]);
    prop::collection::vec(tok, 0..40).prop_map(|t| t.concat())
}

proptest! {
    #[test]
    fn parse_never_panics(s in any::<String>()) {
        let _ = parse(&s);
    }

    #[test]
    fn parse_never_panics_on_token_soup(s in token_soup()) {
        if let Ok(e) = parse(&s) {
            let again = parse(&e.to_string());
            prop_assert!(again.as_ref().is_ok_and(|a| a.same_shape(&e)), "{s:?} → {e} → {again:?}");
        } else if let Err(err) = parse(&s) {
            prop_assert!(err.span.start <= s.len() && err.span.end <= s.len());
            prop_assert!(s.is_char_boundary(err.span.start) && s.is_char_boundary(err.span.end));
        }
    }

    #[test]
    fn pretty_then_parse_is_same_shape(e in expr()) {
        let text = e.to_string();
        match parse(&text) {
            Ok(back) => prop_assert!(back.same_shape(&e), "{text}\n{back:?}\n{e:?}"),
            Err(err) => prop_assert!(false, "{text}: {}", err.message),
        }
    }

    #[test]
    fn eval_never_panics_and_survives_printing(e in expr(), env in any_env()) {
        let direct = eval(&e, &env);
        if let Ok(back) = parse(&e.to_string()) {
            // Spans differ, so compare outcomes, not errors.
            prop_assert_eq!(direct.is_ok(), eval(&back, &env).is_ok());
            prop_assert_eq!(direct.ok(), eval(&back, &env).ok());
        }
    }

    #[test]
    fn checking_never_panics(e in expr(), f in expr(), schema in any_schema()) {
        let findings = check(&e, &schema);
        prop_assert!(findings.windows(2).all(|w| matches!(w, [a, b] if (a.span, a.kind) < (b.span, b.kind))));
        let _ = constant_value(&e, &schema);
        let _ = compare(&e, &f, &schema);
    }

    #[test]
    fn constants_agree_with_evaluation(e in typed_expr(), env in typed_env()) {
        if let Some(v) = constant_value(&e, &typed_schema()) {
            prop_assert_eq!(eval(&e, &env), Ok(v), "{}", e);
        }
    }

    #[test]
    fn comparison_agrees_with_evaluation(old in typed_expr(), new in typed_expr(), env in typed_env()) {
        let schema = typed_schema();
        let result = compare(&old, &new, &schema);
        let on = |a: &BTreeMap<String, Value>| (eval(&old, a), eval(&new, a));
        match &result {
            Comparison::Equivalent => {
                let (o, n) = on(&env);
                prop_assert_eq!(o, n, "{} vs {}", old, new);
            }
            Comparison::Widened { example } => {
                prop_assert_eq!(on(example), (Ok(false), Ok(true)));
                let (o, n) = on(&env);
                prop_assert!(!(o == Ok(true) && n == Ok(false)), "{} vs {}", old, new);
            }
            Comparison::Narrowed { example } => {
                prop_assert_eq!(on(example), (Ok(true), Ok(false)));
                let (o, n) = on(&env);
                prop_assert!(!(o == Ok(false) && n == Ok(true)), "{} vs {}", old, new);
            }
            Comparison::Changed { widened, narrowed } => {
                prop_assert_eq!(on(widened), (Ok(false), Ok(true)));
                prop_assert_eq!(on(narrowed), (Ok(true), Ok(false)));
            }
            Comparison::Undecided => {}
        }
    }
}
