//! Templates can be replaced by the user (`--templates DIR`), and tera puts no bound on
//! recursion: a macro that calls itself, or a template that includes itself, overflows the
//! stack and aborts the process, which no thread or handler can catch. So recursion is refused
//! before anything is rendered, by a scan of the parsed templates: every macro call and include
//! is an edge, and a cycle is an error naming its path.

use std::collections::{BTreeMap, BTreeSet};
use tera::ast::{Expr, ExprVal, Node};
use tera::{Template, Tera};

/// A template (`macro_name` None) or a macro defined in one.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Unit {
    template: String,
    macro_name: Option<String>,
}

impl std::fmt::Display for Unit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.macro_name {
            Some(m) => write!(f, "macro `{m}` in `{}`", self.template),
            None => write!(f, "template `{}`", self.template),
        }
    }
}

/// `Err`: the first cycle found (in name order), as a message.
pub fn check(tera: &Tera) -> Result<(), String> {
    let mut graph: BTreeMap<Unit, BTreeSet<Unit>> = BTreeMap::new();
    let mut names: Vec<&str> = tera.get_template_names().collect();
    names.sort_unstable();
    for name in names {
        let Ok(t) = tera.get_template(name) else {
            continue;
        };
        let mut top = BTreeSet::new();
        if let Some(parent) = &t.parent {
            top.insert(template(parent));
        }
        nodes(tera, t, &t.ast, &mut top);
        graph.insert(template(name), top);
        for (m, def) in &t.macros {
            let mut out = BTreeSet::new();
            nodes(tera, t, &def.body, &mut out);
            graph.insert(
                Unit {
                    template: name.to_string(),
                    macro_name: Some(m.clone()),
                },
                out,
            );
        }
    }
    let mut state: BTreeMap<&Unit, Visit> = BTreeMap::new();
    for start in graph.keys() {
        let mut path = Vec::new();
        if let Some(cycle) = visit(&graph, start, &mut state, &mut path) {
            let shown: Vec<String> = cycle.iter().map(|u| u.to_string()).collect();
            return Err(format!(
                "{} calls itself ({}); recursive macros and includes are refused, because \
                 tera cannot bound their depth",
                cycle.first().map(|u| u.to_string()).unwrap_or_default(),
                shown.join(" → ")
            ));
        }
    }
    Ok(())
}

fn template(name: &str) -> Unit {
    Unit {
        template: name.to_string(),
        macro_name: None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    Open,
    Done,
}

/// Depth-first search; the path from the cycle's first unit back to it when there is one.
/// Depth is bounded by the number of units, which is small (templates and their macros).
fn visit<'g>(
    graph: &'g BTreeMap<Unit, BTreeSet<Unit>>,
    unit: &'g Unit,
    state: &mut BTreeMap<&'g Unit, Visit>,
    path: &mut Vec<&'g Unit>,
) -> Option<Vec<Unit>> {
    match state.get(unit) {
        Some(Visit::Done) => return None,
        Some(Visit::Open) => {
            let from = path.iter().position(|u| *u == unit).unwrap_or(0);
            let mut cycle: Vec<Unit> = path
                .get(from..)
                .unwrap_or_default()
                .iter()
                .map(|u| (*u).clone())
                .collect();
            cycle.push(unit.clone());
            return Some(cycle);
        }
        None => {}
    }
    state.insert(unit, Visit::Open);
    path.push(unit);
    if let Some(next) = graph.get(unit) {
        for n in next {
            // Keys are the graph's own, so the borrow lives as long as the graph.
            let Some((key, _)) = graph.get_key_value(n) else {
                continue;
            };
            if let Some(c) = visit(graph, key, state, path) {
                return Some(c);
            }
        }
    }
    path.pop();
    state.insert(unit, Visit::Done);
    None
}

/// The units `body` (in template `t`) calls or includes.
fn nodes(tera: &Tera, t: &Template, body: &[Node], out: &mut BTreeSet<Unit>) {
    for node in body {
        match node {
            Node::VariableBlock(_, e) => expr(tera, t, e, out),
            Node::Include(_, names, _) => out.extend(names.iter().map(|n| template(n))),
            Node::Set(_, s) => expr(tera, t, &s.value, out),
            Node::FilterSection(_, f, _) => {
                f.filter.args.values().for_each(|e| expr(tera, t, e, out));
                nodes(tera, t, &f.body, out);
            }
            Node::Block(_, b, _) => nodes(tera, t, &b.body, out),
            Node::Forloop(_, f, _) => {
                expr(tera, t, &f.container, out);
                nodes(tera, t, &f.body, out);
                if let Some(empty) = &f.empty_body {
                    nodes(tera, t, empty, out);
                }
            }
            Node::If(i, _) => {
                for (_, cond, body) in &i.conditions {
                    expr(tera, t, cond, out);
                    nodes(tera, t, body, out);
                }
                if let Some((_, body)) = &i.otherwise {
                    nodes(tera, t, body, out);
                }
            }
            // Macro definitions are units of their own; the rest calls nothing.
            _ => {}
        }
    }
}

fn expr(tera: &Tera, t: &Template, e: &Expr, out: &mut BTreeSet<Unit>) {
    for f in &e.filters {
        f.args.values().for_each(|a| expr(tera, t, a, out));
    }
    match &e.val {
        ExprVal::MacroCall(call) => {
            out.insert(Unit {
                template: macro_file(tera, t, &call.namespace),
                macro_name: Some(call.name.clone()),
            });
            call.args.values().for_each(|a| expr(tera, t, a, out));
        }
        ExprVal::FunctionCall(f) => f.args.values().for_each(|a| expr(tera, t, a, out)),
        ExprVal::Math(m) => {
            expr(tera, t, &m.lhs, out);
            expr(tera, t, &m.rhs, out);
        }
        ExprVal::Logic(l) => {
            expr(tera, t, &l.lhs, out);
            expr(tera, t, &l.rhs, out);
        }
        ExprVal::In(i) => {
            expr(tera, t, &i.lhs, out);
            expr(tera, t, &i.rhs, out);
        }
        ExprVal::Test(test) => test.args.iter().for_each(|a| expr(tera, t, a, out)),
        ExprVal::Array(items) => items.iter().for_each(|a| expr(tera, t, a, out)),
        ExprVal::StringConcat(c) => {
            for v in &c.values {
                if let ExprVal::MacroCall(_) | ExprVal::FunctionCall(_) = v {
                    expr(tera, t, &Expr::new(v.clone()), out);
                }
            }
        }
        _ => {}
    }
}

/// The file a macro namespace names in `t`: `self`, an import of `t`, or of a template it
/// extends (tera looks there too).
fn macro_file(tera: &Tera, t: &Template, namespace: &str) -> String {
    if namespace == "self" {
        return t.name.clone();
    }
    let chain = std::iter::once(t.name.as_str()).chain(t.parents.iter().map(String::as_str));
    for name in chain {
        if let Ok(tpl) = tera.get_template(name) {
            if let Some((file, _)) = tpl
                .imported_macro_files
                .iter()
                .find(|(_, ns)| ns == namespace)
            {
                return file.clone();
            }
        }
    }
    // Unknown namespace: tera reports it when rendering.
    format!("{namespace}::")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tera(files: &[(&str, &str)]) -> Tera {
        let mut t = Tera::default();
        t.add_raw_templates(files.to_vec()).unwrap();
        t
    }

    #[test]
    fn a_macro_calling_itself_through_another_is_a_cycle() {
        let t = tera(&[
            (
                "m.tera",
                "{% macro a(n) %}{{ self::b(n=n) }}{% endmacro a %}{% macro b(n) %}{% if n %}{{ self::a(n=n) }}{% endif %}{% endmacro b %}",
            ),
            ("x.md.tera", "{% import \"m.tera\" as m %}{{ m::a(n=1) }}"),
        ]);
        let e = check(&t).unwrap_err();
        assert!(
            e.contains("macro `a` in `m.tera` → macro `b` in `m.tera` → macro `a` in `m.tera`"),
            "{e}"
        );
    }

    #[test]
    fn a_template_including_itself_is_a_cycle_and_plain_reuse_is_not() {
        let t = tera(&[("x.md.tera", "a{% include \"x.md.tera\" %}")]);
        assert!(check(&t).unwrap_err().contains("template `x.md.tera`"));
        let t = tera(&[
            ("m.tera", "{% macro a() %}A{% endmacro a %}{% macro b() %}{{ self::a() }}{{ self::a() }}{% endmacro b %}"),
            ("x.md.tera", "{% import \"m.tera\" as m %}{{ m::b() }}{{ m::a() }}{% include \"y.md.tera\" %}"),
            ("y.md.tera", "{% import \"m.tera\" as m %}{{ m::b() }}"),
        ]);
        assert_eq!(check(&t), Ok(()));
    }
}
