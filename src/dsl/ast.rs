//! Syntax tree of an `applies_when` expression.
//!
//! Parentheses leave no node of their own. The parser widens the span of the
//! parenthesised expression to cover them, so a finding about `(a or b)` points
//! at the whole group including its parentheses. A parenthesised `or` directly
//! inside an `or` (and likewise for `and`) is flattened into its parent: the tree
//! is canonical, `(a or b) or c` and `a or b or c` have the same shape.

use serde::Serialize;

/// Byte offsets `[start, end)` into the source text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// 1-based column, counted in characters, of `start` within its line.
    ///
    /// Never panics: an offset past the end or inside a multibyte character is
    /// moved back to the previous character boundary.
    pub fn column(&self, src: &str) -> usize {
        let before = prefix(src, self.start);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        before.get(line_start..).map_or(0, |l| l.chars().count()) + 1
    }

    /// 1-based line of `start` (expressions may span lines in YAML block scalars).
    #[cfg(any(test, feature = "internals"))]
    pub fn line(&self, src: &str) -> usize {
        prefix(src, self.start).matches('\n').count() + 1
    }
}

fn prefix(src: &str, at: usize) -> &str {
    let mut at = at.min(src.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    src.get(..at).unwrap_or("")
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum ExprKind {
    /// At least two children, none of them an `Or`.
    Or(Vec<Expr>),
    /// At least two children, none of them an `And`.
    And(Vec<Expr>),
    Always,
    /// Bare `true`/`false` used as a whole condition (a documented extension).
    Bool(bool),
    Includes {
        path: Path,
        value: StrLit,
    },
    Compare {
        left: Operand,
        op: CmpOp,
        right: Operand,
    },
    /// A string test: `field starts_with "x"`, `ends_with`, `contains`, `matches` (a regular
    /// expression, checked when parsed).
    Text {
        path: Path,
        op: TextOp,
        value: StrLit,
    },
    /// Membership in a named set of `catalogue.yaml` (`id in set("migration-cohort")`).
    InSet {
        path: Path,
        name: StrLit,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Path {
    pub segments: Vec<String>,
    pub span: Span,
}

impl Path {
    pub fn dotted(&self) -> String {
        self.segments.join(".")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StrLit {
    /// The value with escapes resolved.
    pub value: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Operand {
    Path(Path),
    Str(StrLit),
    Bool(bool, Span),
}

impl Operand {
    pub fn span(&self) -> Span {
        match self {
            Operand::Path(p) => p.span,
            Operand::Str(s) => s.span,
            Operand::Bool(_, span) => *span,
        }
    }

    #[cfg(any(test, feature = "internals"))]
    fn same_shape(&self, other: &Operand) -> bool {
        match (self, other) {
            (Operand::Path(a), Operand::Path(b)) => a.segments == b.segments,
            (Operand::Str(a), Operand::Str(b)) => a.value == b.value,
            (Operand::Bool(a, _), Operand::Bool(b, _)) => a == b,
            _ => false,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CmpOp {
    Eq,
    Ne,
}

/// The string tests, each written as a word between a field and a string.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TextOp {
    StartsWith,
    EndsWith,
    Contains,
    Matches,
}

impl TextOp {
    pub const ALL: [TextOp; 4] = [
        TextOp::StartsWith,
        TextOp::EndsWith,
        TextOp::Contains,
        TextOp::Matches,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TextOp::StartsWith => "starts_with",
            TextOp::EndsWith => "ends_with",
            TextOp::Contains => "contains",
            TextOp::Matches => "matches",
        }
    }

    pub fn from_word(word: &str) -> Option<TextOp> {
        TextOp::ALL.into_iter().find(|op| op.as_str() == word)
    }
}

impl CmpOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }

    /// Children of `Or`/`And`; empty for leaves.
    pub fn children(&self) -> &[Expr] {
        match &self.kind {
            ExprKind::Or(c) | ExprKind::And(c) => c,
            _ => &[],
        }
    }

    /// Every field path the expression reads, in source order.
    pub fn paths(&self) -> Vec<&Path> {
        let mut out = Vec::new();
        // Explicit stack: callers may hand us hand-built trees deeper than the
        // parser would allow.
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Or(c) | ExprKind::And(c) => stack.extend(c.iter().rev()),
                ExprKind::Always | ExprKind::Bool(_) => {}
                ExprKind::Includes { path, .. }
                | ExprKind::Text { path, .. }
                | ExprKind::InSet { path, .. } => out.push(path),
                ExprKind::Compare { left, right, .. } => {
                    for o in [left, right] {
                        if let Operand::Path(p) = o {
                            out.push(p);
                        }
                    }
                }
            }
        }
        out
    }

    /// Structural equality ignoring spans.
    #[cfg(any(test, feature = "internals"))]
    pub fn same_shape(&self, other: &Expr) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            let same = match (&a.kind, &b.kind) {
                (ExprKind::Or(x), ExprKind::Or(y)) | (ExprKind::And(x), ExprKind::And(y)) => {
                    if x.len() != y.len() {
                        return false;
                    }
                    stack.extend(x.iter().zip(y.iter()));
                    true
                }
                (ExprKind::Always, ExprKind::Always) => true,
                (ExprKind::Bool(x), ExprKind::Bool(y)) => x == y,
                (
                    ExprKind::Includes { path: p, value: v },
                    ExprKind::Includes { path: q, value: w },
                ) => p.segments == q.segments && v.value == w.value,
                (
                    ExprKind::Text {
                        path: p,
                        op: o1,
                        value: v,
                    },
                    ExprKind::Text {
                        path: q,
                        op: o2,
                        value: w,
                    },
                ) => o1 == o2 && p.segments == q.segments && v.value == w.value,
                (ExprKind::InSet { path: p, name: n }, ExprKind::InSet { path: q, name: m }) => {
                    p.segments == q.segments && n.value == m.value
                }
                (
                    ExprKind::Compare {
                        left: l1,
                        op: o1,
                        right: r1,
                    },
                    ExprKind::Compare {
                        left: l2,
                        op: o2,
                        right: r2,
                    },
                ) => o1 == o2 && l1.same_shape(l2) && r1.same_shape(r2),
                _ => false,
            };
            if !same {
                return false;
            }
        }
        true
    }

    /// Number of `Expr` nodes in the tree (pre-order numbering uses this).
    pub fn node_count(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            n += 1;
            stack.extend(e.children());
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(s: &str, start: usize) -> Path {
        Path {
            segments: s.split('.').map(String::from).collect(),
            span: Span::new(start, start + s.len()),
        }
    }

    fn cmp(p: &str, v: &str, start: usize) -> Expr {
        Expr::new(
            ExprKind::Compare {
                left: Operand::Path(path(p, start)),
                op: CmpOp::Eq,
                right: Operand::Str(StrLit {
                    value: v.into(),
                    span: Span::default(),
                }),
            },
            Span::new(start, start + 1),
        )
    }

    #[test]
    fn column_counts_chars_on_the_current_line() {
        let src = "a == \"é\" or\n  b";
        assert_eq!(Span::new(0, 1).column(src), 1);
        assert_eq!(Span::new(10, 12).column(src), 10); // `or`, after a 2-byte char
        assert_eq!(Span::new(15, 16).column(src), 3);
        assert_eq!(Span::new(15, 16).line(src), 2);
    }

    #[test]
    fn column_never_panics_on_bad_offsets() {
        let src = "é";
        assert_eq!(Span::new(1, 1).column(src), 1); // inside the 2-byte char
        assert_eq!(Span::new(99, 99).column(src), 2);
        assert_eq!(Span::new(0, 0).column(""), 1);
    }

    #[test]
    fn dotted_joins_segments() {
        assert_eq!(
            path("data_source.is_swiss_open_data", 0).dotted(),
            "data_source.is_swiss_open_data"
        );
    }

    #[test]
    fn paths_in_source_order() {
        let e = Expr::new(
            ExprKind::Or(vec![
                cmp("a", "x", 0),
                cmp("b.c", "y", 10),
                cmp("d", "z", 20),
            ]),
            Span::new(0, 30),
        );
        let names: Vec<String> = e.paths().iter().map(|p| p.dotted()).collect();
        assert_eq!(names, ["a", "b.c", "d"]);
        assert_eq!(e.node_count(), 4);
    }

    #[test]
    fn same_shape_ignores_spans_only() {
        let a = cmp("a", "x", 0);
        let b = cmp("a", "x", 7);
        assert!(a.same_shape(&b));
        assert!(!a.same_shape(&cmp("a", "y", 0)));
        assert!(!a.same_shape(&cmp("b", "x", 0)));
        let or1 = Expr::new(ExprKind::Or(vec![a.clone(), b.clone()]), Span::default());
        let and1 = Expr::new(ExprKind::And(vec![a.clone(), b]), Span::default());
        assert!(!or1.same_shape(&and1));
        let short = Expr::new(ExprKind::Or(vec![a]), Span::default());
        assert!(!or1.same_shape(&short));
    }
}
