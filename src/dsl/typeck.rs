//! Static checks of an expression against a schema.
//!
//! Constant findings are reported at the innermost cause: when `X or always`
//! sits inside an `and`, only `always` is reported, not also the `or` it
//! makes constant, and the whole expression is reported as always true or
//! unsatisfiable only when no reported part already explains it. Nothing is
//! reported as constant inside a subexpression that has a type or vocabulary
//! error (its value is not meaningful).

use serde::Serialize;

use super::analysis::node_constants;
use super::ast::{CmpOp, Expr, ExprKind, Operand, Path, Span, StrLit, TextOp};
use super::lexer::miscased_keyword;
use super::pretty::quote;
use super::schema::{FieldSpec, FieldType, Schema};

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum FindingKind {
    UnknownField,
    TypeMismatch,
    LiteralOutsideVocabulary,
    IncludesOutsideVocabulary,
    ConstantSubexpression,
    AlwaysTrue,
    Unsatisfiable,
    ReadsBaselineField,
    UnknownSet,
}

impl FindingKind {
    #[cfg(any(test, feature = "internals"))]
    pub fn code_suffix(&self) -> &'static str {
        match self {
            FindingKind::UnknownField => "unknown-field",
            FindingKind::TypeMismatch => "type-mismatch",
            FindingKind::LiteralOutsideVocabulary => "literal-outside-vocabulary",
            FindingKind::IncludesOutsideVocabulary => "includes-outside-vocabulary",
            FindingKind::ConstantSubexpression => "constant-subexpression",
            FindingKind::AlwaysTrue => "always-true",
            FindingKind::Unsatisfiable => "unsatisfiable",
            FindingKind::ReadsBaselineField => "reads-baseline-field",
            FindingKind::UnknownSet => "unknown-set",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

/// All findings, sorted by span then kind, without duplicates.
pub fn check(expr: &Expr, schema: &Schema) -> Vec<Finding> {
    let mut ck = Checker {
        schema,
        findings: Vec::new(),
        errs: Vec::new(),
    };
    ck.leaves(expr);
    for path in expr.paths() {
        ck.baseline(path);
    }
    let consts = node_constants(expr, schema);
    let facts = Facts {
        consts: &consts,
        errs: &ck.errs,
    };
    let mut found = facts.children_constants(expr, 0);
    found.extend(facts.whole(expr));
    ck.findings.extend(found);
    let mut out = ck.findings;
    out.sort_by_key(|f| (f.span, f.kind));
    out.dedup_by(|a, b| (a.span, a.kind) == (b.span, b.kind));
    out
}

struct Checker<'a> {
    schema: &'a Schema,
    findings: Vec<Finding>,
    /// Per node in pre-order: its subtree has a type or vocabulary error.
    errs: Vec<bool>,
}

impl Checker<'_> {
    fn report(&mut self, kind: FindingKind, span: Span, message: String, help: Option<String>) {
        self.findings.push(Finding {
            kind,
            span,
            message,
            help,
        });
    }

    /// Checks every leaf; returns whether `e`'s subtree has an error.
    fn leaves(&mut self, e: &Expr) -> bool {
        let me = self.errs.len();
        self.errs.push(false);
        let err = match &e.kind {
            ExprKind::Or(c) | ExprKind::And(c) => {
                let mut any = false;
                for child in c {
                    any |= self.leaves(child);
                }
                any
            }
            ExprKind::Always | ExprKind::Bool(_) => false,
            ExprKind::Includes { path, value } => self.includes(e.span, path, value),
            ExprKind::Text { path, op, value } => self.text(e.span, path, *op, value),
            ExprKind::InSet { path, name } => self.in_set(e.span, path, name),
            ExprKind::Compare { left, op, right } => self.compare(e, left, *op, right),
        };
        if let Some(slot) = self.errs.get_mut(me) {
            *slot = err;
        }
        err
    }

    fn is_baseline(&self, path: &Path) -> bool {
        self.schema.baseline_field.as_deref() == Some(path.dotted().as_str())
    }

    fn baseline(&mut self, path: &Path) {
        if self.is_baseline(path) {
            self.report(
                FindingKind::ReadsBaselineField,
                path.span,
                format!(
                    "`{}` is the baseline field, which expressions may not read",
                    path.dotted()
                ),
                Some(
                    "the baseline has its own gate: set the check's `spec_baseline` instead".into(),
                ),
            );
        }
    }

    /// The field's spec, reporting it when unknown.
    fn field(&mut self, path: &Path) -> Option<FieldSpec> {
        let name = path.dotted();
        if let Some(spec) = self.schema.get(&name) {
            return Some(spec.clone());
        }
        if !self.is_baseline(path) {
            let help = field_help(&name, self.schema);
            self.report(
                FindingKind::UnknownField,
                path.span,
                format!("unknown field `{name}`"),
                help,
            );
        }
        None
    }

    /// A string test reads a string field; against a closed vocabulary, a test no value
    /// passes is never true and reported like a literal outside the vocabulary.
    fn text(&mut self, span: Span, path: &Path, op: TextOp, value: &StrLit) -> bool {
        let Some(spec) = self.field(path) else {
            return true;
        };
        let name = path.dotted();
        if spec.ty != FieldType::String {
            let help = match spec.ty {
                FieldType::List => format!(
                    "test an element instead: `{name}.includes({})`",
                    quote(&value.value)
                ),
                _ => format!("compare it instead: `{name} == true`"),
            };
            self.report(
                FindingKind::TypeMismatch,
                span,
                format!(
                    "`{}` needs a string field; `{name}` is a {}",
                    op.as_str(),
                    spec.ty.name()
                ),
                Some(help),
            );
            return true;
        }
        let Some(values) = &spec.values else {
            return false;
        };
        let passes = |v: &str| match op {
            TextOp::StartsWith => v.starts_with(value.value.as_str()),
            TextOp::EndsWith => v.ends_with(value.value.as_str()),
            TextOp::Contains => v.contains(value.value.as_str()),
            // The parser refused an invalid pattern; one that fails here again is no finding.
            TextOp::Matches => regex::Regex::new(&value.value).map_or(true, |re| re.is_match(v)),
        };
        if values.iter().any(|v| passes(v)) {
            return false;
        }
        self.report(
            FindingKind::LiteralOutsideVocabulary,
            value.span,
            format!(
                "no value of `{name}` ({}) {} {}, so this test is never true",
                vocabulary(&spec),
                match op {
                    TextOp::StartsWith => "starts with",
                    TextOp::EndsWith => "ends with",
                    TextOp::Contains => "contains",
                    TextOp::Matches => "matches",
                },
                quote(&value.value)
            ),
            None,
        );
        true
    }

    /// A set test reads a string field and names a declared set.
    fn in_set(&mut self, span: Span, path: &Path, name: &StrLit) -> bool {
        let mut err = false;
        if let Some(spec) = self.field(path) {
            if spec.ty != FieldType::String {
                self.report(
                    FindingKind::TypeMismatch,
                    span,
                    format!(
                        "`in set(…)` needs a string field; `{}` is a {}",
                        path.dotted(),
                        spec.ty.name()
                    ),
                    None,
                );
                err = true;
            }
        } else {
            err = true;
        }
        if !self.schema.sets.contains_key(&name.value) {
            let help = match crate::text::suggest::suggest(
                &name.value,
                self.schema.sets.keys().map(String::as_str),
            ) {
                Some(s) => crate::text::suggest::phrase(&format!("`set({})`", quote(s))),
                None if self.schema.sets.is_empty() => "no set is declared for these \
expressions: named sets (`sets:` in catalogue.yaml) hold check ids, for `where` over check fields"
                    .to_string(),
                None => format!(
                    "the declared sets are {}",
                    self.schema
                        .sets
                        .keys()
                        .map(|k| quote(k))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            self.report(
                FindingKind::UnknownSet,
                name.span,
                format!("no set is named {}", quote(&name.value)),
                Some(help),
            );
            err = true;
        }
        err
    }

    fn includes(&mut self, span: Span, path: &Path, value: &StrLit) -> bool {
        let Some(spec) = self.field(path) else {
            return true;
        };
        let name = path.dotted();
        if spec.ty != FieldType::List {
            self.report(
                FindingKind::TypeMismatch,
                span,
                format!(
                    "`.includes` needs a list field; `{name}` is a {}",
                    spec.ty.name()
                ),
                Some(format!(
                    "compare it instead: `{name} == {}`",
                    quote(&value.value)
                )),
            );
            return true;
        }
        if spec.allows(&value.value) {
            return false;
        }
        self.report(
            FindingKind::IncludesOutsideVocabulary,
            value.span,
            format!(
                "{} is not a value of `{name}` ({}), so this test is never true",
                quote(&value.value),
                vocabulary(&spec)
            ),
            closest(&value.value, &spec).map(|v| crate::text::suggest::phrase(&quote(&v))),
        );
        true
    }

    fn compare(&mut self, e: &Expr, left: &Operand, op: CmpOp, right: &Operand) -> bool {
        let l = self.operand(left);
        let r = self.operand(right);
        let (Some(lt), Some(rt)) = (l, r) else {
            return true;
        };
        if lt.ty == FieldType::List || rt.ty == FieldType::List {
            let (list, other) = if lt.ty == FieldType::List {
                (left, right)
            } else {
                (right, left)
            };
            let help = match other {
                Operand::Str(s) => format!("write `{list}.includes({})`", quote(&s.value)),
                _ => "test a list's elements with `.includes(\"…\")`".into(),
            };
            self.report(
                FindingKind::TypeMismatch,
                e.span,
                format!("`{list}` is a list; `{}` cannot compare it", op.as_str()),
                Some(help),
            );
            return true;
        }
        if lt.ty != rt.ty {
            self.report(
                FindingKind::TypeMismatch,
                e.span,
                format!(
                    "cannot compare {} with {}: `{}` needs two strings or two booleans",
                    typed(left, lt.ty),
                    typed(right, rt.ty),
                    op.as_str()
                ),
                Some(mismatch_help(left, right)),
            );
            return true;
        }
        let outside = [(left, right, &lt), (right, left, &rt)]
            .into_iter()
            .filter_map(|(field, lit, spec)| match (field, lit) {
                (Operand::Path(_), Operand::Str(s)) if !spec.allows(&s.value) => {
                    Some((field, s, spec))
                }
                _ => None,
            })
            .collect::<Vec<_>>();
        for (field, lit, spec) in &outside {
            let verdict = match op {
                CmpOp::Eq => "can never be true",
                CmpOp::Ne => "is always true",
            };
            self.report(
                FindingKind::LiteralOutsideVocabulary,
                lit.span,
                format!(
                    "{} is not a value of `{field}` ({}), so `{e}` {verdict}",
                    quote(&lit.value),
                    vocabulary(spec)
                ),
                closest(&lit.value, spec).map(|v| crate::text::suggest::phrase(&quote(&v))),
            );
        }
        !outside.is_empty()
    }

    fn operand(&mut self, o: &Operand) -> Option<FieldSpec> {
        match o {
            Operand::Path(p) => self.field(p),
            Operand::Str(_) => Some(FieldSpec::string()),
            Operand::Bool(..) => Some(FieldSpec::bool()),
        }
    }
}

/// Constancy facts, both indexed by pre-order position.
struct Facts<'a> {
    consts: &'a [Option<bool>],
    errs: &'a [bool],
}

impl Facts<'_> {
    fn value(&self, pre: usize) -> Option<bool> {
        match self.errs.get(pre) {
            Some(false) => self.consts.get(pre).copied().flatten(),
            _ => None,
        }
    }

    /// A constant `e` (at `pre`) owes its value to a constant child.
    fn explained(&self, e: &Expr, pre: usize) -> bool {
        let Some(v) = self.value(pre) else {
            return false;
        };
        let mut next = pre + 1;
        e.children().iter().any(|c| {
            let at = next;
            next += c.node_count();
            self.value(at) == Some(v)
        })
    }

    fn children_constants(&self, e: &Expr, pre: usize) -> Vec<Finding> {
        let mut out = Vec::new();
        let in_or = matches!(e.kind, ExprKind::Or(_));
        let mut next = pre + 1;
        for child in e.children() {
            let at = next;
            next += child.node_count();
            out.extend(self.children_constants(child, at));
            let Some(v) = self.value(at) else { continue };
            if self.explained(child, at) {
                continue;
            }
            out.push(constant_child(child, in_or, v));
        }
        out
    }

    fn whole(&self, e: &Expr) -> Option<Finding> {
        let v = self.value(0)?;
        if matches!(e.kind, ExprKind::Always) || self.explained(e, 0) {
            return None;
        }
        let shown = snippet(e);
        Some(if v {
            Finding {
                kind: FindingKind::AlwaysTrue,
                span: e.span,
                message: format!("`{shown}` is true for every profile: it is equivalent to `always`"),
                help: Some("write `always` if the check applies to every server; otherwise a comparison is wrong".into()),
            }
        } else {
            Finding {
                kind: FindingKind::Unsatisfiable,
                span: e.span,
                message: format!("`{shown}` is true for no profile, so the check never applies"),
                help: Some("fix the comparisons, or retire the check if that is intended".into()),
            }
        })
    }
}

fn constant_child(child: &Expr, in_or: bool, v: bool) -> Finding {
    let literal = matches!(child.kind, ExprKind::Always | ExprKind::Bool(_));
    let shown = snippet(child);
    let (parent, is) = (
        if in_or { "or" } else { "and" },
        if v { "always" } else { "never" },
    );
    let subject = if literal {
        format!("`{shown}`")
    } else {
        format!("`{shown}` is {is} true, which")
    };
    let (message, help) = match (in_or, v) {
        (true, true) | (false, false) => (
            format!("{subject} makes this `{parent}` {is} true"),
            if v {
                "the whole `or` is equivalent to `always`; write `always` if that is intended"
            } else {
                "no profile satisfies this `and`; remove or fix the constant part"
            },
        ),
        _ => (
            format!("{subject} adds nothing to this `{parent}`"),
            "remove it",
        ),
    };
    Finding {
        kind: FindingKind::ConstantSubexpression,
        span: child.span,
        message,
        help: Some(help.into()),
    }
}

/// Canonical text, shortened for messages.
fn snippet(e: &Expr) -> String {
    const MAX: usize = 60;
    let s = e.to_string();
    if s.chars().count() <= MAX {
        return s;
    }
    let cut: String = s.chars().take(MAX - 1).collect();
    format!("{cut}…")
}

fn typed(o: &Operand, ty: FieldType) -> String {
    match o {
        Operand::Path(p) => format!("`{}` ({})", p.dotted(), ty.name()),
        _ => format!("`{o}` ({})", ty.name()),
    }
}

fn mismatch_help(left: &Operand, right: &Operand) -> String {
    for o in [left, right] {
        match o {
            Operand::Str(s) if s.value == "true" || s.value == "false" => {
                return format!("drop the quotes: `{}`", s.value)
            }
            Operand::Bool(b, _) => return format!("quote it: `\"{b}\"`"),
            _ => {}
        }
    }
    "`==` and `!=` need two strings or two booleans".into()
}

fn vocabulary(spec: &FieldSpec) -> String {
    match &spec.values {
        Some(vs) if vs.is_empty() => "its vocabulary is empty".into(),
        Some(vs) => {
            let vs: Vec<String> = vs.iter().map(|v| quote(v)).collect();
            format!("one of {}", vs.join(", "))
        }
        None => "an open vocabulary".into(),
    }
}

/// The vocabulary value `v` was most likely meant to be.
fn closest(v: &str, spec: &FieldSpec) -> Option<String> {
    let values = spec.values.as_ref()?;
    if let Some(same) = values.iter().find(|x| x.eq_ignore_ascii_case(v)) {
        return Some(same.clone());
    }
    crate::text::suggest::suggest(v, values.iter().map(String::as_str)).map(str::to_string)
}

fn field_help(name: &str, schema: &Schema) -> Option<String> {
    if let Some(kw) = miscased_keyword(name) {
        if kw != "and" && kw != "or" && kw != "includes" {
            return Some(format!("keywords are lowercase: write `{kw}`"));
        }
    }
    let prefix = format!("{name}.");
    let nested: Vec<&str> = schema
        .fields
        .keys()
        .filter(|k| k.starts_with(&prefix))
        .map(String::as_str)
        .collect();
    if !nested.is_empty() {
        return Some(format!(
            "`{name}` is a group; its fields are `{}`",
            nested.join("`, `")
        ));
    }
    crate::text::suggest::did_you_mean(name, schema.fields.keys().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parser::parse;

    fn schema() -> Schema {
        Schema::mcp_example().field(
            "deployment",
            FieldSpec::list().with_values(["local-stdio", "Railway", "Docker"]),
        )
    }

    fn findings(src: &str) -> Vec<Finding> {
        let e = parse(src).unwrap_or_else(|e| panic!("{src}: {}", e.message));
        check(&e, &schema())
    }

    fn kinds(src: &str) -> Vec<FindingKind> {
        findings(src).into_iter().map(|f| f.kind).collect()
    }

    fn only(src: &str, kind: FindingKind) -> Finding {
        let mut f = findings(src);
        assert_eq!(f.len(), 1, "{src}: {f:#?}");
        let f = f.remove(0);
        assert_eq!(f.kind, kind, "{src}: {f:#?}");
        f
    }

    fn clean(src: &str) {
        assert_eq!(findings(src), [], "{src}");
    }

    #[test]
    fn string_tests() {
        clean("transport starts_with 'HTTP'");
        clean("transport matches '^(dual|stdio)'");
        clean("sdk_language contains 'Rust'");
        let f = only(
            "transport ends_with 'TCP'",
            FindingKind::LiteralOutsideVocabulary,
        );
        assert!(
            f.message.contains("no value of `transport`"),
            "{}",
            f.message
        );
        only("write_capable contains 'x'", FindingKind::TypeMismatch);
        let f = only("deployment starts_with 'Rail'", FindingKind::TypeMismatch);
        assert_eq!(
            f.help.as_deref(),
            Some("test an element instead: `deployment.includes(\"Rail\")`")
        );
        only("sdk_langauge ends_with 'x'", FindingKind::UnknownField);
        // A string test is never taken for a constant: `always` beside it is no finding.
        clean("transport contains 'a' or sdk_language == 'Go'");
    }

    #[test]
    fn named_sets() {
        let mut schema = schema();
        schema
            .sets
            .insert("migration-cohort".into(), vec!["SEC-001".into()]);
        let run = |src: &str| {
            let e = parse(src).unwrap_or_else(|e| panic!("{src}: {}", e.message));
            check(&e, &schema)
        };
        assert!(run(r#"auth_model in set("migration-cohort")"#).is_empty());
        let f = run(r#"auth_model in set("migration-cohort2")"#);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].kind, FindingKind::UnknownSet);
        assert_eq!(
            f[0].help.as_deref(),
            Some(r#"did you mean `set("migration-cohort")`?"#)
        );
        assert_eq!(f[0].span, Span::new(18, 37));
        let f = run(r#"deployment in set("migration-cohort")"#);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].kind, FindingKind::TypeMismatch);
        // Without declared sets, the help says where to declare one.
        let f = only(r#"auth_model in set("x")"#, FindingKind::UnknownSet);
        assert!(f.help.as_deref().is_some_and(|h| h.contains("sets:")));
    }

    #[test]
    fn unknown_field_with_suggestion() {
        let f = only("transprt == 'dual'", FindingKind::UnknownField);
        assert_eq!(f.message, "unknown field `transprt`");
        assert_eq!(f.help.as_deref(), Some("did you mean `transport`?"));
        assert_eq!(f.span, Span::new(0, 8));
        clean("transport == 'dual'");
        let f = only("write_capable == True", FindingKind::UnknownField);
        assert_eq!(
            f.help.as_deref(),
            Some("keywords are lowercase: write `true`")
        );
        let f = only("data_source == 'x'", FindingKind::UnknownField);
        assert!(f
            .help
            .as_deref()
            .is_some_and(|h| h.contains("data_source.is_swiss_open_data")));
        let f = only("zzz == 'x'", FindingKind::UnknownField);
        assert_eq!(f.help, None);
    }

    #[test]
    fn type_mismatches() {
        let f = only("write_capable == 'true'", FindingKind::TypeMismatch);
        assert_eq!(
            f.message,
            "cannot compare `write_capable` (bool) with `\"true\"` (string): `==` needs two strings or two booleans"
        );
        assert_eq!(f.help.as_deref(), Some("drop the quotes: `true`"));
        clean("write_capable == true");
        let f = only("transport != false", FindingKind::TypeMismatch);
        assert_eq!(f.help.as_deref(), Some("quote it: `\"false\"`"));
        only("transport == write_capable", FindingKind::TypeMismatch);
        clean("transport == sdk_language");
        only("'a' == true", FindingKind::TypeMismatch);
        clean("'a' != sdk_language and write_capable == true");
    }

    #[test]
    fn list_rules() {
        let f = only("deployment == 'Docker'", FindingKind::TypeMismatch);
        assert_eq!(
            f.help.as_deref(),
            Some("write `deployment.includes(\"Docker\")`")
        );
        clean("deployment.includes('Docker')");
        let f = only("transport.includes('dual')", FindingKind::TypeMismatch);
        assert_eq!(
            f.message,
            "`.includes` needs a list field; `transport` is a string"
        );
        assert_eq!(f.span, Span::new(0, 26));
        clean("transport == 'dual'");
    }

    #[test]
    fn literal_outside_vocabulary() {
        let f = only(
            "transport == \"HTTP\"",
            FindingKind::LiteralOutsideVocabulary,
        );
        assert_eq!(
            f.message,
            "\"HTTP\" is not a value of `transport` (one of \"stdio-only\", \"dual\", \"HTTP/SSE\"), so `transport == \"HTTP\"` can never be true"
        );
        assert_eq!(f.help.as_deref(), Some("did you mean \"HTTP/SSE\"?"));
        assert_eq!(f.span, Span::new(13, 19));
        let f = only("'Dual' != transport", FindingKind::LiteralOutsideVocabulary);
        assert!(f.message.ends_with("is always true"));
        assert_eq!(f.help.as_deref(), Some("did you mean \"dual\"?"));
        clean("transport == \"HTTP/SSE\"");
        clean("sdk_language == 'Rust'"); // open vocabulary
    }

    #[test]
    fn includes_outside_vocabulary() {
        let f = only(
            "deployment.includes('Heroku')",
            FindingKind::IncludesOutsideVocabulary,
        );
        assert_eq!(f.span, Span::new(20, 28));
        clean("deployment.includes('Railway')");
    }

    #[test]
    fn constant_subexpressions() {
        let f = only(
            "write_capable == true or always",
            FindingKind::ConstantSubexpression,
        );
        assert_eq!(f.message, "`always` makes this `or` always true");
        assert_eq!(f.span, Span::new(25, 31));
        let f = only(
            "write_capable == true and false",
            FindingKind::ConstantSubexpression,
        );
        assert_eq!(f.message, "`false` makes this `and` never true");
        let f = only(
            "write_capable == true and true",
            FindingKind::ConstantSubexpression,
        );
        assert_eq!(f.message, "`true` adds nothing to this `and`");
        let f = only(
            "write_capable == true or false",
            FindingKind::ConstantSubexpression,
        );
        assert_eq!(f.message, "`false` adds nothing to this `or`");
        let f = only(
            "uses_sampling == true and (write_capable == true or write_capable != true)",
            FindingKind::ConstantSubexpression,
        );
        assert_eq!(
            f.message,
            "`write_capable == true or write_capable != true` is always true, which adds nothing to this `and`"
        );
        assert_eq!(f.span, Span::new(26, 74));
        clean("uses_sampling == true and (write_capable == true or transport != 'dual')");
        clean("write_capable == true or uses_sampling == true");
    }

    #[test]
    fn constant_reported_at_innermost_cause_only() {
        let f = findings("(write_capable == true or always) and uses_sampling == true");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f.first().map(|f| f.span), Some(Span::new(26, 32)));
    }

    #[test]
    fn whole_expression_always_true() {
        let f = only(
            r#"transport == "stdio-only" or transport == "dual" or transport == "HTTP/SSE""#,
            FindingKind::AlwaysTrue,
        );
        assert!(f.message.ends_with("equivalent to `always`"));
        only("true", FindingKind::AlwaysTrue);
        clean("always");
        clean(r#"transport == "stdio-only" or transport == "dual""#);
    }

    #[test]
    fn whole_expression_unsatisfiable() {
        only(
            "transport == 'dual' and transport == 'stdio-only'",
            FindingKind::Unsatisfiable,
        );
        only("false", FindingKind::Unsatisfiable);
        clean("transport == 'dual' and write_capable == true");
    }

    #[test]
    fn no_constant_findings_inside_type_errors() {
        // Never true, but because of the bad literal: reported once, as that.
        assert_eq!(
            kinds("transport == 'HTTP'"),
            [FindingKind::LiteralOutsideVocabulary]
        );
        assert_eq!(
            kinds("deployment.includes('Heroku') and always"),
            [
                FindingKind::IncludesOutsideVocabulary,
                FindingKind::ConstantSubexpression
            ]
        );
        assert_eq!(
            kinds("nope == 'x' or always"),
            [
                FindingKind::UnknownField,
                FindingKind::ConstantSubexpression
            ]
        );
    }

    #[test]
    fn reads_baseline_field() {
        let f = only(
            "mcp_spec_version == '2025-11-25'",
            FindingKind::ReadsBaselineField,
        );
        assert!(f
            .help
            .as_deref()
            .is_some_and(|h| h.contains("the baseline has its own gate")));
        assert_eq!(f.span, Span::new(0, 16));
        clean(
            "transport == '2025-11-25'"
                .replace("2025-11-25", "dual")
                .as_str(),
        );
    }

    #[test]
    fn sorted_and_deduplicated() {
        let f = findings("b == 'x' or a == true or transport.includes('q')");
        let spans: Vec<usize> = f.iter().map(|f| f.span.start).collect();
        assert_eq!(spans, [0, 12, 25]);
        assert!(f
            .windows(2)
            .all(|w| matches!(w, [a, b] if (a.span, a.kind) < (b.span, b.kind))));
    }

    #[test]
    fn code_suffixes_are_kebab_case() {
        assert_eq!(
            FindingKind::LiteralOutsideVocabulary.code_suffix(),
            "literal-outside-vocabulary"
        );
        assert_eq!(
            FindingKind::ReadsBaselineField.code_suffix(),
            "reads-baseline-field"
        );
    }
}
