//! Recursive-descent parser for `applies_when` expressions.
//!
//! Recursion depth is bounded by [`MAX_DEPTH`] (parentheses are the only way
//! to nest), so every later pass that recurses over the tree is bounded too.

use std::fmt;

use serde::Serialize;

use super::ast::{CmpOp, Expr, ExprKind, Operand, Path, Span, StrLit, TextOp};
use super::lexer::{lex, miscased_keyword, Token, TokenKind};

/// Deepest parenthesis nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// Longest source accepted, in bytes.
pub const MAX_LEN: usize = 16 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParseError {
    /// States what was expected and what was found.
    pub message: String,
    pub span: Span,
    /// What would have been accepted at `span`, each in display form (`` `==` ``).
    pub expected: Vec<String>,
    /// A likely fix, when one is known.
    pub help: Option<String>,
}

impl ParseError {
    pub fn new(message: impl Into<String>, span: Span, expected: Vec<String>) -> Self {
        ParseError {
            message: message.into(),
            span,
            expected,
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// 1-based column of the error in `src` (the text that was parsed).
    #[cfg(any(test, feature = "internals"))]
    pub fn column(&self, src: &str) -> usize {
        self.span.column(src)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

pub fn parse(src: &str) -> Result<Expr, ParseError> {
    if src.len() > MAX_LEN {
        return Err(ParseError::new(
            format!(
                "expression is {} bytes long; the limit is {MAX_LEN} bytes (16 KiB)",
                src.len()
            ),
            Span::new(0, src.len()),
            vec![],
        ));
    }
    let end = Span::new(src.len(), src.len());
    let mut p = Parser {
        src,
        toks: lex(src),
        pos: 0,
        depth: 0,
        eof: Token {
            kind: TokenKind::Eof,
            span: end,
        },
    };
    let expr = p.or_expr("")?;
    if p.kind() == &TokenKind::Eof {
        return Ok(expr);
    }
    Err(p.unexpected(&["`and`", "`or`", "end of input"], None, ""))
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    eof: Token,
}

impl Parser<'_> {
    fn tok(&self, ahead: usize) -> &Token {
        self.toks.get(self.pos + ahead).unwrap_or(&self.eof)
    }

    fn kind(&self) -> &TokenKind {
        &self.tok(0).kind
    }

    fn bump(&mut self) -> Token {
        let t = self.tok(0).clone();
        if !matches!(t.kind, TokenKind::Eof | TokenKind::Error(_)) {
            self.pos += 1;
        }
        t
    }

    /// The error for the current token: its own lexical error if it is one,
    /// otherwise "expected …`ctx`, found …".
    fn unexpected(&self, expected: &[&str], summary: Option<&str>, ctx: &str) -> ParseError {
        let tok = self.tok(0);
        if let TokenKind::Error(e) = &tok.kind {
            return (**e).clone();
        }
        let list = join_or(expected);
        let what = summary.unwrap_or(&list);
        let err = ParseError::new(
            format!("expected {what}{ctx}, found {}", tok.kind.describe()),
            tok.span,
            expected.iter().map(|s| s.to_string()).collect(),
        );
        match self.found_hint() {
            Some(h) => err.with_help(h),
            None => err,
        }
    }

    fn found_hint(&self) -> Option<String> {
        match self.kind() {
            TokenKind::Ident(w) => ident_hint(w),
            TokenKind::RParen if self.depth == 0 => Some("this `)` has no matching `(`".into()),
            TokenKind::EqEq | TokenKind::NotEq => Some(
                "a comparison is `operand == operand` with one field, string or boolean on each side"
                    .into(),
            ),
            _ => None,
        }
    }

    fn or_expr(&mut self, ctx: &str) -> Result<Expr, ParseError> {
        let first = self.and_expr(ctx)?;
        if self.kind() != &TokenKind::Or {
            return Ok(first);
        }
        let mut span = first.span;
        let mut items = Vec::new();
        push_flat(&mut items, first, true);
        while self.kind() == &TokenKind::Or {
            self.bump();
            let next = self.and_expr(" after `or`")?;
            span = span.to(next.span);
            push_flat(&mut items, next, true);
        }
        Ok(Expr::new(ExprKind::Or(items), span))
    }

    fn and_expr(&mut self, ctx: &str) -> Result<Expr, ParseError> {
        let first = self.primary(ctx)?;
        if self.kind() != &TokenKind::And {
            return Ok(first);
        }
        let mut span = first.span;
        let mut items = Vec::new();
        push_flat(&mut items, first, false);
        while self.kind() == &TokenKind::And {
            self.bump();
            let next = self.primary(" after `and`")?;
            span = span.to(next.span);
            push_flat(&mut items, next, false);
        }
        Ok(Expr::new(ExprKind::And(items), span))
    }

    fn primary(&mut self, ctx: &str) -> Result<Expr, ParseError> {
        let tok = self.tok(0).clone();
        match tok.kind {
            TokenKind::LParen => self.group(tok.span),
            TokenKind::Always => {
                self.bump();
                Ok(Expr::new(ExprKind::Always, tok.span))
            }
            TokenKind::True | TokenKind::False
                if !matches!(self.tok(1).kind, TokenKind::EqEq | TokenKind::NotEq) =>
            {
                self.bump();
                Ok(Expr::new(
                    ExprKind::Bool(tok.kind == TokenKind::True),
                    tok.span,
                ))
            }
            TokenKind::True | TokenKind::False | TokenKind::Str(_) | TokenKind::Ident(_) => {
                self.comparison()
            }
            _ => Err(self.unexpected(
                &[
                    "`(`",
                    "`always`",
                    "a field name",
                    "a string",
                    "`true`",
                    "`false`",
                ],
                Some("an expression"),
                ctx,
            )),
        }
    }

    fn group(&mut self, open: Span) -> Result<Expr, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(
                format!("expression nests deeper than {MAX_DEPTH} levels"),
                open,
                vec![],
            )
            .with_help("remove redundant parentheses or split the condition"));
        }
        self.depth += 1;
        self.bump();
        let mut inner = self.or_expr(" after `(`")?;
        if self.kind() != &TokenKind::RParen {
            let summary = format!("`)` to close the `(` at column {}", open.column(self.src));
            return Err(self.unexpected(&["`)`", "`and`", "`or`"], Some(&summary), ""));
        }
        let close = self.bump();
        self.depth -= 1;
        inner.span = open.to(close.span);
        Ok(inner)
    }

    fn comparison(&mut self) -> Result<Expr, ParseError> {
        let left = self.operand("")?;
        if let Operand::Path(path) = &left {
            if self.at_includes() {
                return self.includes(path.clone());
            }
            if let Some(op) = self.at_text_op() {
                return self.text_test(path.clone(), op);
            }
            if matches!(self.kind(), TokenKind::Ident(w) if w == "in") {
                return self.in_set(path.clone());
            }
        }
        let op = match self.kind() {
            TokenKind::EqEq => CmpOp::Eq,
            TokenKind::NotEq => CmpOp::Ne,
            _ => return Err(self.missing_operator(&left)),
        };
        self.bump();
        let ctx = format!(" after `{}`", op.as_str());
        let right = self.operand(&ctx)?;
        if self.at_includes() {
            return Err(ParseError::new(
                "`.includes(…)` is a test on its own and cannot be compared",
                self.tok(1).span,
                vec!["`and`".into(), "`or`".into(), "end of input".into()],
            )
            .with_help("write `field.includes(\"…\")` by itself; it is already true or false"));
        }
        let span = left.span().to(right.span());
        Ok(Expr::new(ExprKind::Compare { left, op, right }, span))
    }

    fn missing_operator(&self, left: &Operand) -> ParseError {
        let (expected, shown): (&[&str], String) = match left {
            Operand::Path(p) => (
                &["`==`", "`!=`", "`.includes(…)`"],
                format!("`{}`", p.dotted()),
            ),
            Operand::Str(s) => (&["`==`", "`!=`"], super::pretty::quote(&s.value)),
            Operand::Bool(b, _) => (&["`==`", "`!=`"], format!("`{b}`")),
        };
        let err = self.unexpected(expected, None, &format!(" after {shown}"));
        if err.help.is_some() || matches!(self.kind(), TokenKind::Error(_)) {
            return err;
        }
        let hint = match left {
            Operand::Path(p) => match p.segments.as_slice() {
                [one] => ident_hint(one),
                [.., last] if self.kind() == &TokenKind::LParen => (miscased_keyword(last)
                    == Some("includes"))
                .then(|| "keywords are lowercase: write `.includes(…)`".to_string()),
                _ => None,
            },
            _ => None,
        };
        match hint {
            Some(h) => err.with_help(h),
            None => err,
        }
    }

    fn operand(&mut self, ctx: &str) -> Result<Operand, ParseError> {
        let tok = self.tok(0).clone();
        match tok.kind {
            TokenKind::Ident(_) => self.path().map(Operand::Path),
            TokenKind::Str(value) => {
                self.bump();
                Ok(Operand::Str(StrLit {
                    value,
                    span: tok.span,
                }))
            }
            TokenKind::True | TokenKind::False => {
                self.bump();
                Ok(Operand::Bool(tok.kind == TokenKind::True, tok.span))
            }
            _ => Err(self.unexpected(
                &["a field name", "a string", "`true`", "`false`"],
                None,
                ctx,
            )),
        }
    }

    /// A string test's word after a field: `starts_with`, `ends_with`, `contains`, `matches`.
    /// They are words only in this place, so a field may still be called `contains`.
    fn at_text_op(&self) -> Option<TextOp> {
        match self.kind() {
            TokenKind::Ident(w) => TextOp::from_word(w),
            _ => None,
        }
    }

    fn text_test(&mut self, path: Path, op: TextOp) -> Result<Expr, ParseError> {
        self.bump(); // the word
        let tok = self.tok(0).clone();
        let ctx = format!(" after `{}`", op.as_str());
        let TokenKind::Str(value) = tok.kind else {
            let err = self.unexpected(&["a string"], None, &ctx);
            let quote_it = matches!(
                self.kind(),
                TokenKind::Ident(_) | TokenKind::True | TokenKind::False
            );
            return Err(if quote_it && err.help.is_none() {
                err.with_help(format!(
                    "a string test compares with a quoted string: `{} {} \"…\"`",
                    path.dotted(),
                    op.as_str()
                ))
            } else {
                err
            });
        };
        if op == TextOp::Matches {
            if let Err(e) = regex::Regex::new(&value) {
                return Err(ParseError::new(
                    format!("`matches` needs a regular expression: {e}"),
                    tok.span,
                    vec!["a regular expression".into()],
                )
                .with_help(
                    "escape a metacharacter with a backslash, or use `contains` for plain text",
                ));
            }
        }
        self.bump();
        let span = path.span.to(tok.span);
        Ok(Expr::new(
            ExprKind::Text {
                path,
                op,
                value: StrLit {
                    value,
                    span: tok.span,
                },
            },
            span,
        ))
    }

    /// `FIELD in set("NAME")`: `in` and `set` are words only here, so fields may bear them.
    fn in_set(&mut self, path: Path) -> Result<Expr, ParseError> {
        self.bump(); // `in`
        if !matches!(self.kind(), TokenKind::Ident(w) if w == "set") {
            return Err(self.unexpected(&["`set(\"…\")`"], None, " after `in`"));
        }
        self.bump();
        if self.kind() != &TokenKind::LParen {
            return Err(self.unexpected(&["`(`"], None, " after `in set`"));
        }
        self.bump();
        let tok = self.tok(0).clone();
        let TokenKind::Str(name) = tok.kind else {
            let err = self.unexpected(&["a string"], None, " after `set(`");
            return Err(if err.help.is_none() {
                err.with_help("name the set in quotes: `id in set(\"migration-cohort\")`")
            } else {
                err
            });
        };
        self.bump();
        if self.kind() != &TokenKind::RParen {
            return Err(self.unexpected(&["`)`"], None, " after the set's name"));
        }
        let close = self.bump();
        let span = path.span.to(close.span);
        Ok(Expr::new(
            ExprKind::InSet {
                path,
                name: StrLit {
                    value: name,
                    span: tok.span,
                },
            },
            span,
        ))
    }

    /// `.includes` after a path is the method, never a field segment.
    fn at_includes(&self) -> bool {
        self.kind() == &TokenKind::Dot
            && matches!(&self.tok(1).kind, TokenKind::Ident(w) if w == "includes")
    }

    fn path(&mut self) -> Result<Path, ParseError> {
        let first = self.bump();
        let TokenKind::Ident(name) = first.kind else {
            return Err(self.unexpected(&["a field name"], None, ""));
        };
        let mut path = Path {
            segments: vec![name],
            span: first.span,
        };
        while self.kind() == &TokenKind::Dot && !self.at_includes() {
            self.bump();
            let TokenKind::Ident(seg) = self.kind().clone() else {
                let err = self.unexpected(&["a field name"], None, " after `.`");
                let keyword = matches!(
                    self.kind(),
                    TokenKind::And
                        | TokenKind::Or
                        | TokenKind::Always
                        | TokenKind::True
                        | TokenKind::False
                );
                return Err(if keyword {
                    err.with_help("a field name cannot be a keyword")
                } else {
                    err
                });
            };
            let t = self.bump();
            path.segments.push(seg);
            path.span = path.span.to(t.span);
        }
        Ok(path)
    }

    fn includes(&mut self, path: Path) -> Result<Expr, ParseError> {
        self.bump(); // `.`
        self.bump(); // `includes`
        if self.kind() != &TokenKind::LParen {
            return Err(self.unexpected(&["`(`"], None, " after `.includes`"));
        }
        self.bump();
        let tok = self.tok(0).clone();
        let TokenKind::Str(value) = tok.kind else {
            let err = self.unexpected(&["a string"], None, " after `.includes(`");
            let quote_it = matches!(
                self.kind(),
                TokenKind::Ident(_) | TokenKind::True | TokenKind::False
            );
            return Err(if quote_it && err.help.is_none() {
                err.with_help("quote the value: `.includes(\"…\")`")
            } else {
                err
            });
        };
        self.bump();
        if self.kind() != &TokenKind::RParen {
            return Err(self.unexpected(&["`)`"], None, " after the string in `.includes(…)`"));
        }
        let close = self.bump();
        let span = path.span.to(close.span);
        Ok(Expr::new(
            ExprKind::Includes {
                path,
                value: StrLit {
                    value,
                    span: tok.span,
                },
            },
            span,
        ))
    }
}

fn ident_hint(word: &str) -> Option<String> {
    if let Some(kw) = miscased_keyword(word) {
        return Some(format!(
            "keywords are lowercase: write `{kw}`, not `{word}`"
        ));
    }
    match word {
        "not" | "NOT" | "Not" => Some("there is no `not`; negate a comparison with `!=`".into()),
        _ => None,
    }
}

fn push_flat(items: &mut Vec<Expr>, e: Expr, or: bool) {
    match e.kind {
        ExprKind::Or(children) if or => items.extend(children),
        ExprKind::And(children) if !or => items.extend(children),
        kind => items.push(Expr::new(kind, e.span)),
    }
}

/// "a", "a or b", "a, b or c".
fn join_or(items: &[&str]) -> String {
    match items {
        [] => "nothing".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> Expr {
        parse(src).unwrap_or_else(|e| panic!("{src}: {}", e.message))
    }

    fn err(src: &str) -> ParseError {
        match parse(src) {
            Ok(e) => panic!("{src}: parsed as {e}"),
            Err(e) => e,
        }
    }

    /// (message, 1-based column, help)
    fn err_at(src: &str) -> (String, usize, Option<String>) {
        let e = err(src);
        let col = e.column(src);
        (e.message, col, e.help)
    }

    fn path(segments: &[&str]) -> Vec<String> {
        segments.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn comparison_and_operands() {
        let e = ok("transport == \"dual\"");
        let ExprKind::Compare { left, op, right } = &e.kind else {
            panic!("{e:?}")
        };
        assert!(matches!(left, Operand::Path(p) if p.segments == path(&["transport"])));
        assert_eq!(*op, CmpOp::Eq);
        assert!(
            matches!(right, Operand::Str(s) if s.value == "dual" && s.span == Span::new(13, 19))
        );
        assert_eq!(e.span, Span::new(0, 19));
        let e = ok("true != data_source.is_swiss_open_data");
        let ExprKind::Compare { left, op, right } = &e.kind else {
            panic!("{e:?}")
        };
        assert!(matches!(left, Operand::Bool(true, s) if *s == Span::new(0, 4)));
        assert_eq!(*op, CmpOp::Ne);
        assert!(matches!(right, Operand::Path(p)
            if p.segments == path(&["data_source", "is_swiss_open_data"]) && p.span == Span::new(8, 38)));
        assert!(matches!(ok("'a' == false").kind, ExprKind::Compare { .. }));
    }

    #[test]
    fn includes() {
        let e = ok("deployment.includes('Docker')");
        let ExprKind::Includes { path: p, value } = &e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(p.segments, path(&["deployment"]));
        assert_eq!(value.value, "Docker");
        assert_eq!(e.span, Span::new(0, 29));
        let e = ok("a.b.includes ( \"x\" )");
        assert!(
            matches!(&e.kind, ExprKind::Includes { path: p, .. } if p.segments == path(&["a", "b"]))
        );
        // `includes` is an ordinary name except after a dot.
        assert!(matches!(
            ok("includes == 'x'").kind,
            ExprKind::Compare { .. }
        ));
    }

    #[test]
    fn string_tests() {
        for (src, want) in [
            ("pdf_ref starts_with \"Custom\"", TextOp::StartsWith),
            ("title ends_with 'tests'", TextOp::EndsWith),
            ("a.b contains \"x\"", TextOp::Contains),
            ("id matches '^FID-0[0-9]+$'", TextOp::Matches),
        ] {
            let e = ok(src);
            let ExprKind::Text { op, value, .. } = &e.kind else {
                panic!("{src}: {e:?}")
            };
            assert_eq!(*op, want);
            assert_eq!(e.span, Span::new(0, src.len()));
            assert_eq!(value.span.end, src.len());
            // The pretty printer writes what parses back to the same tree.
            assert!(ok(&e.to_string()).same_shape(&e), "{e}");
        }
        // The words are words only after a field: a field may be called `contains`.
        assert!(matches!(
            ok("contains == 'x'").kind,
            ExprKind::Compare { .. }
        ));
        assert!(matches!(
            ok("contains contains 'x' and id == 'y'").kind,
            ExprKind::And(_)
        ));
        let (m, col, help) = err_at("title starts_with Custom");
        assert_eq!(col, 19, "{m}");
        assert!(help.unwrap_or_default().contains("quoted string"));
        let (m, col, _) = err_at("id matches '(unclosed'");
        assert!(m.starts_with("`matches` needs a regular expression"), "{m}");
        assert_eq!(col, 12);
        let (_, _, help) = err_at("title Starts_With 'x'");
        assert_eq!(
            help.as_deref(),
            Some("keywords are lowercase: write `starts_with`, not `Starts_With`")
        );
    }

    #[test]
    fn set_membership() {
        let e = ok(r#"id in set("migration-cohort") and category == "FID""#);
        let ExprKind::And(parts) = &e.kind else {
            panic!("{e:?}")
        };
        let Some(ExprKind::InSet { path: p, name }) = parts.first().map(|x| &x.kind) else {
            panic!("{parts:?}")
        };
        assert_eq!(p.segments, path(&["id"]));
        assert_eq!(name.value, "migration-cohort");
        assert_eq!(
            e.to_string(),
            r#"id in set("migration-cohort") and category == "FID""#
        );
        assert!(err("id in cohort").message.contains("set("));
        assert!(err("id in set(cohort)").message.contains("string"));
        assert!(err(r#"id in set("a""#).message.contains(")"));
        // `in` stays a field name elsewhere.
        assert!(matches!(ok(r#"in == "x""#).kind, ExprKind::Compare { .. }));
    }

    #[test]
    fn always_and_bare_booleans() {
        assert_eq!(ok("always").kind, ExprKind::Always);
        assert_eq!(ok(" true ").kind, ExprKind::Bool(true));
        assert_eq!(ok(" true ").span, Span::new(1, 5));
        let e = ok("x == 'y' and false");
        assert!(
            matches!(&e.kind, ExprKind::And(c) if c.get(1).map(|c| &c.kind) == Some(&ExprKind::Bool(false)))
        );
    }

    #[test]
    fn precedence_and_binds_tighter() {
        let e = ok("a == 'x' or b == 'y' and c == 'z'");
        let ExprKind::Or(items) = &e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(items.len(), 2);
        assert!(matches!(&items[1].kind, ExprKind::And(c) if c.len() == 2));
        let e = ok("a == 'x' and b == 'y' or c == 'z'");
        assert!(matches!(&e.kind, ExprKind::Or(c) if matches!(&c[0].kind, ExprKind::And(_))));
    }

    #[test]
    fn flattening_and_paren_spans() {
        let e = ok("a == b or c == d or e == f");
        assert!(matches!(&e.kind, ExprKind::Or(c) if c.len() == 3));
        let e = ok("(a == b or c == d) or e == f");
        assert!(matches!(&e.kind, ExprKind::Or(c) if c.len() == 3));
        assert_eq!(e.span, Span::new(0, 28));
        let e = ok("x == y and (a == b or c == d)");
        let ExprKind::And(c) = &e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(
            c[1].span,
            Span::new(11, 29),
            "parentheses belong to the group's span"
        );
        assert_eq!(ok("((always))").span, Span::new(0, 10));
    }

    #[test]
    fn whitespace_and_quotes() {
        let e = ok("a\t==\n'b'\r\n or \"c\" == d");
        assert!(matches!(&e.kind, ExprKind::Or(c) if c.len() == 2));
        let e = ok(r#"x == 'it\'s' or x == "say \"hi\"\n\t\\""#);
        let ExprKind::Or(c) = &e.kind else { panic!() };
        let values: Vec<&str> = c
            .iter()
            .filter_map(|c| match &c.kind {
                ExprKind::Compare {
                    right: Operand::Str(s),
                    ..
                } => Some(s.value.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(values, ["it's", "say \"hi\"\n\t\\"]);
    }

    #[test]
    fn keywords_are_lowercase_only() {
        // As operands they are field names.
        let e = ok("x == True");
        assert!(
            matches!(&e.kind, ExprKind::Compare { right: Operand::Path(p), .. } if p.segments == path(&["True"]))
        );
        let (msg, col, help) = err_at("a == 'x' AND b == 'y'");
        assert_eq!(msg, "expected `and`, `or` or end of input, found `AND`");
        assert_eq!(col, 10);
        assert_eq!(
            help.as_deref(),
            Some("keywords are lowercase: write `and`, not `AND`")
        );
        let (msg, col, help) = err_at("Always");
        assert_eq!(
            msg,
            "expected `==`, `!=` or `.includes(…)` after `Always`, found end of input"
        );
        assert_eq!(col, 7);
        assert_eq!(
            help.as_deref(),
            Some("keywords are lowercase: write `always`, not `Always`")
        );
        let (_, _, help) = err_at("True or x == y");
        assert!(help.is_some_and(|h| h.contains("`true`")));
        let (_, _, help) = err_at("a == b Or c == d");
        assert!(help.is_some_and(|h| h.contains("`or`")));
        let (_, _, help) = err_at("d.Includes('x')");
        assert!(help.is_some_and(|h| h.contains("`.includes(…)`")));
        let (_, _, help) = err_at("not a == b");
        assert!(help.is_some_and(|h| h.contains("`!=`")));
    }

    #[test]
    fn missing_operator() {
        let e = err("transport");
        assert_eq!(
            e.message,
            "expected `==`, `!=` or `.includes(…)` after `transport`, found end of input"
        );
        assert_eq!(e.expected, ["`==`", "`!=`", "`.includes(…)`"]);
        assert_eq!(e.column("transport"), 10);
        let (msg, col, _) = err_at("'x' and y");
        assert_eq!(
            msg,
            "expected `==` or `!=` after \"x\", found keyword `and`"
        );
        assert_eq!(col, 5);
    }

    #[test]
    fn missing_operand() {
        let (msg, col, _) = err_at("transport ==");
        assert_eq!(
            msg,
            "expected a field name, a string, `true` or `false` after `==`, found end of input"
        );
        assert_eq!(col, 13);
        let (msg, col, _) = err_at("a != )");
        assert!(msg.ends_with("after `!=`, found `)`"), "{msg}");
        assert_eq!(col, 6);
    }

    #[test]
    fn missing_expression() {
        let (msg, col, _) = err_at("");
        assert_eq!(msg, "expected an expression, found end of input");
        assert_eq!(col, 1);
        let (msg, col, _) = err_at("a == b and ");
        assert_eq!(
            msg,
            "expected an expression after `and`, found end of input"
        );
        assert_eq!(col, 12);
        let (msg, col, _) = err_at("a == b or or");
        assert_eq!(msg, "expected an expression after `or`, found keyword `or`");
        assert_eq!(col, 11);
        let (msg, _, help) = err_at("== 'x'");
        assert_eq!(msg, "expected an expression, found `==`");
        assert!(help.is_some());
        let (msg, _, _) = err_at("()");
        assert_eq!(msg, "expected an expression after `(`, found `)`");
    }

    #[test]
    fn parentheses_errors() {
        let (msg, col, _) = err_at("x == y and (a == b");
        assert_eq!(
            msg,
            "expected `)` to close the `(` at column 12, found end of input"
        );
        assert_eq!(col, 19);
        let (msg, col, help) = err_at("a == b)");
        assert_eq!(msg, "expected `and`, `or` or end of input, found `)`");
        assert_eq!(col, 7);
        assert_eq!(help.as_deref(), Some("this `)` has no matching `(`"));
    }

    #[test]
    fn path_and_includes_errors() {
        let (msg, col, _) = err_at("a. == b");
        assert_eq!(msg, "expected a field name after `.`, found `==`");
        assert_eq!(col, 4);
        let (_, _, help) = err_at("a.and == b");
        assert_eq!(help.as_deref(), Some("a field name cannot be a keyword"));
        let (msg, col, _) = err_at("d.includes 'x'");
        assert_eq!(msg, "expected `(` after `.includes`, found string \"x\"");
        assert_eq!(col, 12);
        let (msg, _, help) = err_at("d.includes(Docker)");
        assert_eq!(msg, "expected a string after `.includes(`, found `Docker`");
        assert!(help.is_some_and(|h| h.contains("quote")));
        let (msg, col, _) = err_at("d.includes('x'");
        assert_eq!(
            msg,
            "expected `)` after the string in `.includes(…)`, found end of input"
        );
        assert_eq!(col, 15);
        let (msg, col, _) = err_at("a == d.includes('x')");
        assert_eq!(
            msg,
            "`.includes(…)` is a test on its own and cannot be compared"
        );
        assert_eq!(col, 8);
    }

    #[test]
    fn lexical_errors_with_columns() {
        let (msg, col, help) = err_at("transport = 'dual'");
        assert_eq!(msg, "expected `==`, found `=`");
        assert_eq!(col, 11);
        assert!(help.is_some_and(|h| h.contains("did you mean `==`")));
        let (_, col, help) = err_at("a == b && c == d");
        assert_eq!(col, 8);
        assert!(help.is_some_and(|h| h.contains("`and`")));
        let (_, col, help) = err_at("a == b || c == d");
        assert_eq!(col, 8);
        assert!(help.is_some_and(|h| h.contains("`or`")));
        let (msg, col, _) = err_at("é == 'x'");
        assert!(
            msg.starts_with("unexpected character `é`: expected"),
            "{msg}"
        );
        assert_eq!(col, 1);
        let (msg, col, _) = err_at("a == \"é\\x\"");
        assert_eq!(msg, "unknown escape `\\x` in string");
        assert_eq!(col, 8);
        let (msg, col, _) = err_at("a == 'open");
        assert!(msg.starts_with("unterminated string"));
        assert_eq!(col, 6);
    }

    #[test]
    fn earlier_syntax_error_wins_over_later_lexical_error() {
        let (msg, col, _) = err_at("a == b) = c");
        assert_eq!(msg, "expected `and`, `or` or end of input, found `)`");
        assert_eq!(col, 7);
    }

    #[test]
    fn depth_limit() {
        let deep = |n: usize| format!("{}always{}", "(".repeat(n), ")".repeat(n));
        assert!(parse(&deep(MAX_DEPTH)).is_ok());
        let src = deep(MAX_DEPTH + 1);
        let (msg, col, _) = err_at(&src);
        assert_eq!(msg, "expression nests deeper than 64 levels");
        assert_eq!(col, 65);
        // Unbalanced deep input fails fast too.
        assert!(parse(&"(".repeat(10_000)).is_err());
    }

    #[test]
    fn length_limit() {
        let long = format!("a == '{}'", "x".repeat(MAX_LEN));
        let e = err(&long);
        assert!(
            e.message.contains("the limit is 16384 bytes"),
            "{}",
            e.message
        );
        let fits = format!("a == '{}'", "x".repeat(MAX_LEN - 7));
        assert!(parse(&fits).is_ok());
    }

    #[test]
    fn error_display_is_the_message() {
        let e = err("a ==");
        assert_eq!(e.to_string(), e.message);
    }
}
