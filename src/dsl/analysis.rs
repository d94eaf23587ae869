//! Exact semantic questions about expressions, answered by enumerating the
//! finite space of profiles that can tell them apart.
//!
//! Only the fields the expressions read matter, and for each only the values
//! they distinguish: a bool is `false`/`true`; a closed string its vocabulary;
//! an open string every literal it is compared with plus stand-ins for "any
//! other value"; a list every subset of the literals it is `.includes`-tested
//! with. Open strings compared with each other (`a == b`) share their literals
//! and get one stand-in each, so "equal" and "different" are both reachable.
//! Fields outside the schema, and ill-typed leaves, make the answer unknown
//! (type checking reports those).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::ast::{CmpOp, Expr, ExprKind, Operand};
use super::eval::Value;
use super::schema::{FieldType, Schema};

/// Most assignments enumerated for one question.
pub const MAX_ASSIGNMENTS: usize = 1 << 16;
/// Most node evaluations (assignments × nodes) spent on one question, so a
/// 16 KiB expression cannot make `lint` slow.
pub const MAX_WORK: usize = 1 << 24;
/// The first stand-in for "a value no literal names"; later ones append a number.
pub const OTHER: &str = "\u{0}other";

pub type Assignment = BTreeMap<String, Value>;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Comparison {
    Equivalent,
    /// `example`: new is true, old false.
    Widened {
        example: Assignment,
    },
    /// `example`: old is true, new false.
    Narrowed {
        example: Assignment,
    },
    Changed {
        widened: Assignment,
        narrowed: Assignment,
    },
    /// Too many profiles to enumerate, or an expression cannot be evaluated.
    Undecided,
}

/// `Some(v)` when the expression is `v` on every profile of the schema.
#[cfg(any(test, feature = "internals"))]
pub fn constant_value(expr: &Expr, schema: &Schema) -> Option<bool> {
    let space = Space::build(&[expr], schema)?;
    let mut prog = Program::default();
    let root = prog.compile(expr, &space);
    if prog.errored(root) || !space.affordable(prog.nodes.len(), MAX_WORK) {
        return None;
    }
    let (mut seen_true, mut seen_false) = (false, false);
    let mut vals = Vec::new();
    space.enumerate(|idx| {
        prog.run(&space, idx, &mut vals);
        if prog.value(&vals, root) {
            seen_true = true;
        } else {
            seen_false = true;
        }
        !(seen_true && seen_false)
    });
    match (seen_true, seen_false) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

pub fn compare(old: &Expr, new: &Expr, schema: &Schema) -> Comparison {
    let Some(space) = Space::build(&[old, new], schema) else {
        return Comparison::Undecided;
    };
    let mut prog = Program::default();
    let old_root = prog.compile(old, &space);
    let new_root = prog.compile(new, &space);
    if prog.errored(old_root)
        || prog.errored(new_root)
        || !space.affordable(prog.nodes.len(), MAX_WORK)
    {
        return Comparison::Undecided;
    }
    let (mut widened, mut narrowed) = (None, None);
    let mut vals = Vec::new();
    space.enumerate(|idx| {
        prog.run(&space, idx, &mut vals);
        match (prog.value(&vals, old_root), prog.value(&vals, new_root)) {
            (false, true) if widened.is_none() => widened = Some(space.assignment(idx)),
            (true, false) if narrowed.is_none() => narrowed = Some(space.assignment(idx)),
            _ => {}
        }
        widened.is_none() || narrowed.is_none()
    });
    match (widened, narrowed) {
        (None, None) => Comparison::Equivalent,
        (Some(example), None) => Comparison::Widened { example },
        (None, Some(example)) => Comparison::Narrowed { example },
        (Some(widened), Some(narrowed)) => Comparison::Changed { widened, narrowed },
    }
}

/// `transport = "dual", write_capable = true`; stand-ins print as `<other>`.
pub fn describe(a: &Assignment) -> String {
    if a.is_empty() {
        return "any profile".into();
    }
    let parts: Vec<String> = a
        .iter()
        .map(|(k, v)| match v {
            Value::Str(s) if s.starts_with('\u{0}') => {
                format!("{k} = <{}>", s.trim_start_matches('\u{0}'))
            }
            _ => format!("{k} = {v}"),
        })
        .collect();
    parts.join(", ")
}

/// Constancy of every node of `expr`, indexed in pre-order (parent before
/// children, children left to right). `None`: not constant, ill-typed, or too
/// costly to decide. Shares one budget across the tree; a subtree too big to
/// enumerate as a whole has its children tried separately.
pub(crate) fn node_constants(expr: &Expr, schema: &Schema) -> Vec<Option<bool>> {
    let mut out = vec![None; expr.node_count()];
    let mut budget = MAX_WORK;
    constants_of_subtree(expr, schema, 0, &mut out, &mut budget);
    out
}

fn constants_of_subtree(
    expr: &Expr,
    schema: &Schema,
    first: usize,
    out: &mut [Option<bool>],
    budget: &mut usize,
) {
    if let Some(space) = Space::build(&[expr], schema) {
        let mut prog = Program::default();
        prog.compile(expr, &space);
        if space.affordable(prog.nodes.len(), *budget) {
            *budget -= space.size * prog.nodes.len();
            let n = prog.nodes.len();
            let (mut seen_true, mut seen_false) = (vec![false; n], vec![false; n]);
            let mut vals = Vec::new();
            space.enumerate(|idx| {
                prog.run(&space, idx, &mut vals);
                for (i, v) in vals.iter().enumerate() {
                    let seen = if *v { &mut seen_true } else { &mut seen_false };
                    if let Some(s) = seen.get_mut(i) {
                        *s = true;
                    }
                }
                true
            });
            for (pre, flat) in prog.preorder.iter().enumerate() {
                let value = match (seen_true.get(*flat), seen_false.get(*flat)) {
                    _ if prog.errored(*flat) => None,
                    (Some(true), Some(false)) => Some(true),
                    (Some(false), Some(true)) => Some(false),
                    _ => None,
                };
                if let Some(slot) = out.get_mut(first + pre) {
                    *slot = value;
                }
            }
            return;
        }
    }
    let mut next = first + 1;
    for child in expr.children() {
        constants_of_subtree(child, schema, next, out, budget);
        next += child.node_count();
    }
}

enum Domain {
    Values(Vec<Value>),
    /// Subsets of these literals; assignment index `i` is the bit mask.
    Subsets(Vec<String>),
}

struct Field {
    name: String,
    ty: FieldType,
    domain: Domain,
}

impl Field {
    fn len(&self) -> Option<usize> {
        match &self.domain {
            Domain::Values(v) => Some(v.len()),
            Domain::Subsets(lits) => 1usize.checked_shl(u32::try_from(lits.len()).ok()?),
        }
    }

    fn value(&self, i: usize) -> Value {
        match &self.domain {
            Domain::Values(v) => v.get(i).cloned().unwrap_or(Value::Bool(false)),
            Domain::Subsets(lits) => Value::List(
                lits.iter()
                    .enumerate()
                    .filter(|(bit, _)| (i >> bit) & 1 == 1)
                    .map(|(_, l)| l.clone())
                    .collect(),
            ),
        }
    }
}

struct Space {
    fields: Vec<Field>,
    index: BTreeMap<String, usize>,
    size: usize,
}

/// What the expressions say about each field.
#[derive(Default)]
struct Usage {
    read: BTreeSet<String>,
    str_lits: BTreeMap<String, BTreeSet<String>>,
    list_lits: BTreeMap<String, BTreeSet<String>>,
    /// Pairs of fields compared with each other.
    links: Vec<(String, String)>,
}

impl Usage {
    fn gather(exprs: &[&Expr]) -> Usage {
        let mut u = Usage::default();
        let mut stack: Vec<&Expr> = exprs.to_vec();
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Or(c) | ExprKind::And(c) => stack.extend(c),
                ExprKind::Always | ExprKind::Bool(_) => {}
                ExprKind::Includes { path, value } => {
                    let p = path.dotted();
                    u.list_lits
                        .entry(p.clone())
                        .or_default()
                        .insert(value.value.clone());
                    u.read.insert(p);
                }
                ExprKind::Compare { left, right, .. } => {
                    u.operands(left, right);
                    u.operands(right, left);
                }
                // A string test reads its field but names no vocabulary value.
                ExprKind::Text { path, .. } | ExprKind::InSet { path, .. } => {
                    u.read.insert(path.dotted());
                }
            }
        }
        u
    }

    fn operands(&mut self, this: &Operand, other: &Operand) {
        let Operand::Path(p) = this else { return };
        let name = p.dotted();
        match other {
            Operand::Str(s) => {
                self.str_lits
                    .entry(name.clone())
                    .or_default()
                    .insert(s.value.clone());
            }
            Operand::Path(q) => self.links.push((name.clone(), q.dotted())),
            Operand::Bool(..) => {}
        }
        self.read.insert(name);
    }
}

impl Space {
    /// `None` when the space has more than [`MAX_ASSIGNMENTS`] points.
    fn build(exprs: &[&Expr], schema: &Schema) -> Option<Space> {
        let usage = Usage::gather(exprs);
        let groups = string_groups(&usage, schema);
        let mut fields = Vec::new();
        for name in &usage.read {
            let Some(spec) = schema.get(name) else {
                continue;
            };
            let domain = match spec.ty {
                FieldType::Bool => Domain::Values(vec![Value::Bool(false), Value::Bool(true)]),
                FieldType::String => match &spec.values {
                    Some(vocab) => {
                        Domain::Values(dedup(vocab).into_iter().map(Value::Str).collect())
                    }
                    None => {
                        let (pool, open_members) = groups.get(name).cloned().unwrap_or_default();
                        // A literal may itself contain NUL; stand-ins must differ from it.
                        let others: Vec<String> = (1..)
                            .map(|i| match i {
                                1 => OTHER.to_string(),
                                _ => format!("{OTHER}{i}"),
                            })
                            .filter(|o| !pool.contains(o))
                            .take(open_members.max(1))
                            .collect();
                        Domain::Values(pool.into_iter().chain(others).map(Value::Str).collect())
                    }
                },
                FieldType::List => {
                    let tested = usage.list_lits.get(name);
                    let lits: Vec<String> = match &spec.values {
                        Some(vocab) => dedup(vocab)
                            .into_iter()
                            .filter(|v| tested.is_some_and(|t| t.contains(v)))
                            .collect(),
                        None => tested
                            .map(|t| t.iter().cloned().collect())
                            .unwrap_or_default(),
                    };
                    Domain::Subsets(lits)
                }
            };
            fields.push(Field {
                name: name.clone(),
                ty: spec.ty,
                domain,
            });
        }
        let mut size = 1usize;
        for f in &fields {
            size = size.checked_mul(f.len()?)?;
            if size > MAX_ASSIGNMENTS {
                return None;
            }
        }
        let index = fields
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        Some(Space {
            fields,
            index,
            size,
        })
    }

    fn affordable(&self, nodes: usize, budget: usize) -> bool {
        self.size.checked_mul(nodes).is_some_and(|w| w <= budget)
    }

    /// Calls `f` on every assignment in a fixed order (fields by name, the
    /// first field varying slowest, each domain in its own order) until `f`
    /// returns false.
    fn enumerate(&self, mut f: impl FnMut(&[usize]) -> bool) {
        let mut idx = vec![0usize; self.fields.len()];
        if self.size == 0 {
            return;
        }
        loop {
            if !f(&idx) {
                return;
            }
            let mut pos = idx.len();
            loop {
                let Some(p) = pos.checked_sub(1) else { return };
                pos = p;
                let len = self.fields.get(p).and_then(Field::len).unwrap_or(1);
                if let Some(i) = idx.get_mut(p) {
                    *i += 1;
                    if *i < len {
                        break;
                    }
                    *i = 0;
                }
            }
        }
    }

    fn assignment(&self, idx: &[usize]) -> Assignment {
        self.fields
            .iter()
            .zip(idx)
            .map(|(f, &i)| (f.name.clone(), f.value(i)))
            .collect()
    }
}

/// For each open string field: the literals of its comparison group (fields
/// linked by `a == b`, including closed vocabularies in the group) and how
/// many open fields the group has.
fn string_groups(usage: &Usage, schema: &Schema) -> BTreeMap<String, (BTreeSet<String>, usize)> {
    let is_string = |n: &str| schema.get(n).is_some_and(|s| s.ty == FieldType::String);
    let mut group_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut members: Vec<BTreeSet<String>> = Vec::new();
    for name in usage.read.iter().filter(|n| is_string(n)) {
        group_of.insert(name.clone(), members.len());
        members.push(BTreeSet::from([name.clone()]));
    }
    for (a, b) in &usage.links {
        let (Some(&ga), Some(&gb)) = (group_of.get(a), group_of.get(b)) else {
            continue;
        };
        if ga == gb {
            continue;
        }
        let moved = members.get_mut(gb).map(std::mem::take).unwrap_or_default();
        for m in &moved {
            group_of.insert(m.clone(), ga);
        }
        if let Some(g) = members.get_mut(ga) {
            g.extend(moved);
        }
    }
    let mut out = BTreeMap::new();
    for group in &members {
        let mut pool = BTreeSet::new();
        let mut open = 0;
        for m in group {
            pool.extend(usage.str_lits.get(m).into_iter().flatten().cloned());
            match schema.get(m).and_then(|s| s.values.as_ref()) {
                Some(vocab) => pool.extend(vocab.iter().cloned()),
                None => open += 1,
            }
        }
        for m in group {
            out.insert(m.clone(), (pool.clone(), open));
        }
    }
    out
}

fn dedup(values: &[String]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    values.iter().filter(|v| seen.insert(*v)).cloned().collect()
}

enum Node {
    Const(bool),
    Or(Vec<usize>),
    And(Vec<usize>),
    /// `bit` is `None` when the literal can never be in the list.
    Includes {
        field: usize,
        bit: Option<usize>,
    },
    Cmp {
        left: Term,
        right: Term,
        eq: bool,
    },
    /// Unknown field or type mismatch.
    Error,
}

enum Term {
    Field(usize),
    Lit(Value),
}

/// An expression flattened in post-order, so one pass over `nodes` evaluates
/// every node with its children already done.
#[derive(Default)]
struct Program {
    nodes: Vec<Node>,
    errored: Vec<bool>,
    /// Flat index of each AST node, in pre-order.
    preorder: Vec<usize>,
}

impl Program {
    fn compile(&mut self, e: &Expr, space: &Space) -> usize {
        let slot = self.preorder.len();
        self.preorder.push(0);
        let (node, child_err) = match &e.kind {
            ExprKind::Or(c) | ExprKind::And(c) => {
                let kids: Vec<usize> = c.iter().map(|k| self.compile(k, space)).collect();
                let err = kids.iter().any(|&k| self.errored(k));
                let node = match e.kind {
                    ExprKind::Or(_) => Node::Or(kids),
                    _ => Node::And(kids),
                };
                (node, err)
            }
            ExprKind::Always => (Node::Const(true), false),
            ExprKind::Bool(b) => (Node::Const(*b), false),
            ExprKind::Includes { path, value } => {
                let node = match space.field(&path.dotted()) {
                    Some((field, f)) if f.ty == FieldType::List => {
                        let bit = match &f.domain {
                            Domain::Subsets(lits) => lits.iter().position(|l| *l == value.value),
                            Domain::Values(_) => None,
                        };
                        Node::Includes { field, bit }
                    }
                    _ => Node::Error,
                };
                (node, false)
            }
            // The space enumerates vocabulary values, not the texts a string test sees; the
            // test is left undecided, so no constant or unsatisfiable finding rests on it.
            ExprKind::Text { .. } => (Node::Error, false),
            // Set members are ids, not vocabulary values: likewise undecided.
            ExprKind::InSet { .. } => (Node::Error, false),
            ExprKind::Compare { left, op, right } => {
                let node = match (term(left, space), term(right, space)) {
                    (Some((l, lt)), Some((r, rt))) if lt == rt && lt != FieldType::List => {
                        Node::Cmp {
                            left: l,
                            right: r,
                            eq: *op == CmpOp::Eq,
                        }
                    }
                    _ => Node::Error,
                };
                (node, false)
            }
        };
        let err = child_err || matches!(node, Node::Error);
        self.nodes.push(node);
        self.errored.push(err);
        let flat = self.nodes.len() - 1;
        if let Some(p) = self.preorder.get_mut(slot) {
            *p = flat;
        }
        flat
    }

    fn errored(&self, i: usize) -> bool {
        self.errored.get(i).copied().unwrap_or(true)
    }

    fn value(&self, vals: &[bool], i: usize) -> bool {
        vals.get(i).copied().unwrap_or(false)
    }

    fn run(&self, space: &Space, idx: &[usize], vals: &mut Vec<bool>) {
        vals.clear();
        for node in &self.nodes {
            let v = match node {
                Node::Const(b) => *b,
                Node::Or(kids) => kids.iter().any(|&k| self.value(vals, k)),
                Node::And(kids) => kids.iter().all(|&k| self.value(vals, k)),
                Node::Includes { field, bit } => match (idx.get(*field), bit) {
                    (Some(mask), Some(bit)) => (mask >> bit) & 1 == 1,
                    _ => false,
                },
                Node::Cmp { left, right, eq } => {
                    (space.term_value(left, idx) == space.term_value(right, idx)) == *eq
                }
                Node::Error => false,
            };
            vals.push(v);
        }
    }
}

impl Space {
    fn field(&self, name: &str) -> Option<(usize, &Field)> {
        let i = *self.index.get(name)?;
        Some((i, self.fields.get(i)?))
    }

    fn term_value<'a>(&'a self, t: &'a Term, idx: &[usize]) -> Option<&'a Value> {
        match t {
            Term::Lit(v) => Some(v),
            Term::Field(f) => match &self.fields.get(*f)?.domain {
                Domain::Values(vals) => vals.get(*idx.get(*f)?),
                Domain::Subsets(_) => None,
            },
        }
    }
}

fn term(o: &Operand, space: &Space) -> Option<(Term, FieldType)> {
    match o {
        Operand::Path(p) => {
            let (i, f) = space.field(&p.dotted())?;
            Some((Term::Field(i), f.ty))
        }
        Operand::Str(s) => Some((Term::Lit(Value::Str(s.value.clone())), FieldType::String)),
        Operand::Bool(b, _) => Some((Term::Lit(Value::Bool(*b)), FieldType::Bool)),
    }
}

/// The diagnostic code a finding of the analysis is reported under.
pub fn code_for(kind: &super::FindingKind) -> &'static crate::diag::codes::Code {
    match kind {
        super::FindingKind::UnknownField => &crate::diag::codes::EXPR_UNKNOWN_FIELD,
        super::FindingKind::TypeMismatch => &crate::diag::codes::EXPR_TYPE,
        super::FindingKind::LiteralOutsideVocabulary => &crate::diag::codes::EXPR_VOCABULARY,
        super::FindingKind::IncludesOutsideVocabulary => {
            &crate::diag::codes::EXPR_INCLUDES_VOCABULARY
        }
        super::FindingKind::ConstantSubexpression => &crate::diag::codes::EXPR_CONSTANT_PART,
        super::FindingKind::AlwaysTrue => &crate::diag::codes::EXPR_ALWAYS_TRUE,
        super::FindingKind::Unsatisfiable => &crate::diag::codes::EXPR_UNSATISFIABLE,
        super::FindingKind::ReadsBaselineField => &crate::diag::codes::EXPR_BASELINE,
        super::FindingKind::UnknownSet => &crate::diag::codes::EXPR_UNKNOWN_SET,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parser::parse;
    use crate::dsl::schema::FieldSpec;

    fn p(src: &str) -> Expr {
        parse(src).unwrap_or_else(|e| panic!("{src}: {}", e.message))
    }

    fn schema() -> Schema {
        Schema::mcp_example().field(
            "deployment",
            FieldSpec::list().with_values(["local-stdio", "Railway", "Docker"]),
        )
    }

    fn konst(src: &str) -> Option<bool> {
        constant_value(&p(src), &schema())
    }

    fn assignment(pairs: &[(&str, Value)]) -> Assignment {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn closed_vocabulary_cover_is_always_true() {
        assert_eq!(
            konst(r#"transport == "stdio-only" or transport == "dual" or transport == "HTTP/SSE""#),
            Some(true)
        );
        assert_eq!(
            konst(r#"transport == "stdio-only" or transport == "dual""#),
            None
        );
    }

    #[test]
    fn constants() {
        assert_eq!(konst("always"), Some(true));
        assert_eq!(konst("write_capable == true or always"), Some(true));
        assert_eq!(konst("write_capable == true and false"), Some(false));
        assert_eq!(
            konst("write_capable == true or write_capable == false"),
            Some(true)
        );
        assert_eq!(
            konst("write_capable == true and write_capable != true"),
            Some(false)
        );
        assert_eq!(
            konst("transport == 'dual' and transport == 'stdio-only'"),
            Some(false)
        );
        assert_eq!(konst("transport == 'HTTP'"), Some(false));
        assert_eq!(konst("deployment.includes('Kubernetes')"), Some(false));
        assert_eq!(konst("'a' == 'a'"), Some(true));
        assert_eq!(konst("write_capable == true"), None);
        // An open string always has a value no literal names.
        assert_eq!(
            konst("sdk_language == 'Python' or sdk_language == 'TypeScript'"),
            None
        );
        assert_eq!(
            konst("sdk_language == 'Python' or sdk_language != 'Python'"),
            Some(true)
        );
    }

    #[test]
    fn unknown_and_ill_typed_are_not_constant() {
        assert_eq!(konst("nope == 'x' or always"), None);
        assert_eq!(konst("transport == true"), None);
        assert_eq!(konst("deployment == 'Docker'"), None);
    }

    #[test]
    fn open_fields_compared_with_each_other() {
        // Two open fields can be equal or differ, with or without literals.
        assert_eq!(konst("auth_model == data_class"), None);
        assert_eq!(
            konst("auth_model == data_class or auth_model != data_class"),
            Some(true)
        );
        assert_eq!(
            konst("auth_model == 'x' and data_class == 'y' and auth_model == data_class"),
            Some(false)
        );
        // An open field can take a closed field's values.
        assert_eq!(
            konst("sdk_language == transport and transport == 'dual'"),
            None
        );
    }

    #[test]
    fn stand_in_never_collides_with_a_literal() {
        let e = p("sdk_language == \"\u{0}other\"");
        assert_eq!(constant_value(&e, &schema()), None);
    }

    #[test]
    fn compare_widened_narrowed_equivalent() {
        let s = schema();
        let old = p("transport == 'dual'");
        let new = p("transport == 'dual' or write_capable == true");
        let example = assignment(&[
            ("transport", Value::Str("stdio-only".into())),
            ("write_capable", Value::Bool(true)),
        ]);
        assert_eq!(
            compare(&old, &new, &s),
            Comparison::Widened {
                example: example.clone()
            }
        );
        assert_eq!(compare(&new, &old, &s), Comparison::Narrowed { example });
        assert_eq!(
            compare(
                &p("transport != 'HTTP/SSE'"),
                &p("(transport == 'dual' or transport == 'stdio-only')"),
                &s
            ),
            Comparison::Equivalent
        );
        assert_eq!(
            compare(
                &p("sdk_language == 'Python'"),
                &p("sdk_language == 'Go'"),
                &s
            ),
            Comparison::Changed {
                widened: assignment(&[("sdk_language", Value::Str("Go".into()))]),
                narrowed: assignment(&[("sdk_language", Value::Str("Python".into()))]),
            }
        );
        assert_eq!(
            compare(&p("nope == 'x'"), &p("always"), &s),
            Comparison::Undecided
        );
    }

    #[test]
    fn describe_examples() {
        let a = assignment(&[
            ("transport", Value::Str("dual".into())),
            ("write_capable", Value::Bool(true)),
        ]);
        assert_eq!(describe(&a), r#"transport = "dual", write_capable = true"#);
        let Comparison::Widened { example } = compare(
            &p("sdk_language == 'Python'"),
            &p("sdk_language != 'Go'"),
            &schema(),
        ) else {
            panic!("expected a widening")
        };
        assert_eq!(describe(&example), "sdk_language = <other>");
        let Comparison::Widened { example } =
            compare(&p("false"), &p("deployment.includes('Docker')"), &schema())
        else {
            panic!("expected a widening")
        };
        assert_eq!(describe(&example), r#"deployment = ["Docker"]"#);
        assert_eq!(describe(&Assignment::new()), "any profile");
    }

    #[test]
    fn too_big_is_undecided() {
        let mut s = Schema::new();
        let mut terms = Vec::new();
        for i in 0..17 {
            s = s.field(format!("b{i}"), FieldSpec::bool());
            terms.push(format!("b{i} == true"));
        }
        let e = p(&terms.join(" or "));
        assert_eq!(constant_value(&e, &s), None);
        assert_eq!(compare(&e, &e, &s), Comparison::Undecided);
        let e16 = p(&terms[..16].join(" or "));
        assert_eq!(compare(&e16, &e16, &s), Comparison::Equivalent);
    }

    #[test]
    fn node_constants_in_preorder() {
        let e = p("(write_capable == true or always) and (false or transport == 'dual')");
        let c = node_constants(&e, &schema());
        assert_eq!(
            c,
            [None, Some(true), None, Some(true), None, Some(false), None]
        );
    }

    #[test]
    fn node_constants_fall_back_to_children_when_too_big() {
        let mut s = Schema::new();
        let mut terms = Vec::new();
        for i in 0..17 {
            s = s.field(format!("b{i}"), FieldSpec::bool());
            terms.push(format!("b{i} == true"));
        }
        let e = p(&format!("{} or (b0 == true or always)", terms.join(" or ")));
        let c = node_constants(&e, &s);
        assert_eq!(c.first(), Some(&None));
        assert_eq!(c.last(), Some(&Some(true)));
    }
}
