//! Canonical text of an expression.
//!
//! Only an `or` inside an `and` needs parentheses; everything else is printed
//! bare, strings double-quoted. Re-parsing the text gives a tree of the same
//! shape as long as the tree is canonical (what the parser produces: no `or`
//! directly inside an `or`, no `and` inside an `and`, at least two children).
//! Hand-built trees that are not canonical still print as text with the same
//! meaning; degenerate `or`/`and` with fewer than two children print as their
//! only child, or as `false`/`true` when empty.

use std::fmt;

use super::ast::{Expr, ExprKind, Operand};

/// A string literal in canonical form: double quotes, escapes for `\`, `"`,
/// newline and tab.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Path(p) => f.write_str(&p.dotted()),
            Operand::Str(s) => f.write_str(&quote(&s.value)),
            Operand::Bool(b, _) => write!(f, "{b}"),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Or(children) => join(f, children, " or ", "false", false),
            ExprKind::And(children) => join(f, children, " and ", "true", true),
            ExprKind::Always => f.write_str("always"),
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::Includes { path, value } => {
                write!(f, "{}.includes({})", path.dotted(), quote(&value.value))
            }
            ExprKind::Compare { left, op, right } => {
                write!(f, "{left} {} {right}", op.as_str())
            }
            ExprKind::InSet { path, name } => {
                write!(f, "{} in set({})", path.dotted(), quote(&name.value))
            }
            ExprKind::Text { path, op, value } => {
                write!(
                    f,
                    "{} {} {}",
                    path.dotted(),
                    op.as_str(),
                    quote(&value.value)
                )
            }
        }
    }
}

fn join(
    f: &mut fmt::Formatter<'_>,
    children: &[Expr],
    sep: &str,
    empty: &str,
    in_and: bool,
) -> fmt::Result {
    if children.is_empty() {
        return f.write_str(empty);
    }
    for (i, child) in children.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        if in_and && children.len() > 1 && needs_parens(child) {
            write!(f, "({child})")?;
        } else {
            write!(f, "{child}")?;
        }
    }
    Ok(())
}

/// An `or` that prints as more than its single child.
fn needs_parens(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Or(c) => c.len() != 1 || c.iter().any(needs_parens),
        ExprKind::And(c) => c.len() == 1 && c.iter().any(needs_parens),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parser::parse;

    fn canon(src: &str) -> String {
        match parse(src) {
            Ok(e) => e.to_string(),
            Err(e) => panic!("{src}: {}", e.message),
        }
    }

    #[test]
    fn minimal_parentheses() {
        assert_eq!(
            canon("(a == 'x') or (b == 'y' and c == 'z')"),
            r#"a == "x" or b == "y" and c == "z""#
        );
        assert_eq!(
            canon("(a == 'x' or b == 'y') and c == 'z'"),
            r#"(a == "x" or b == "y") and c == "z""#
        );
        assert_eq!(canon("((a == b))"), "a == b");
        assert_eq!(
            canon("(a == b or c == d) or e == f"),
            "a == b or c == d or e == f"
        );
    }

    #[test]
    fn every_form() {
        assert_eq!(canon("always"), "always");
        assert_eq!(canon("false"), "false");
        assert_eq!(
            canon("deployment.includes('Docker')"),
            r#"deployment.includes("Docker")"#
        );
        assert_eq!(canon("true != x.y"), "true != x.y");
        assert_eq!(
            canon(r#"a == 'it\'s "q" \\ \n\t'"#),
            r#"a == "it's \"q\" \\ \n\t""#
        );
    }

    #[test]
    fn reparse_gives_same_shape() {
        for src in [
            "a == 'x' or b == 'y' and (c == 'z' or d.includes('w'))",
            "(always or false) and (x != true or y == \"\\\\\")",
        ] {
            let e = parse(src).unwrap_or_else(|e| panic!("{}", e.message));
            let again = parse(&e.to_string()).unwrap_or_else(|e| panic!("{}", e.message));
            assert!(e.same_shape(&again), "{src}");
        }
    }

    #[test]
    fn degenerate_trees_still_print() {
        use crate::dsl::ast::Span;
        let leaf = Expr::new(ExprKind::Always, Span::default());
        let empty_or = Expr::new(ExprKind::Or(vec![]), Span::default());
        let one_or = Expr::new(ExprKind::Or(vec![leaf.clone()]), Span::default());
        let and = Expr::new(
            ExprKind::And(vec![one_or, empty_or.clone(), leaf]),
            Span::default(),
        );
        assert_eq!(empty_or.to_string(), "false");
        assert_eq!(and.to_string(), "always and (false) and always");
        assert_eq!(
            Expr::new(ExprKind::And(vec![]), Span::default()).to_string(),
            "true"
        );
    }
}
