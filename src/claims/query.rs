//! The query a claim's group must equal: `count(SET)` or `ids(SET)`, SET one of `checks`,
//! `categories`, `rules`, `retired`, `linked`, `mentioned`, optionally `where EXPR` over check
//! fields (the applies_when language).
//!
//! `where` selects checks; for the sets that are not checks it keeps what touches a selected
//! check: a category with a selected check, a rule mapping one. `retired` ids are not checks,
//! so `retired where …` is refused rather than answered with an empty set.

use crate::dsl::Expr;
use crate::model::{Catalogue, RefKind};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Count,
    Ids,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    Checks,
    Categories,
    Rules,
    Retired,
    Linked,
    Mentioned,
}

impl Set {
    const ALL: &'static [(&'static str, Set)] = &[
        ("checks", Set::Checks),
        ("categories", Set::Categories),
        ("rules", Set::Rules),
        ("retired", Set::Retired),
        ("linked", Set::Linked),
        ("mentioned", Set::Mentioned),
    ];

    #[cfg(any(test, feature = "internals"))]
    pub fn name(self) -> &'static str {
        Set::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map(|(n, _)| *n)
            .unwrap_or("")
    }

    /// Whether the members of this set are check-like ids (as opposed to category prefixes
    /// or rule ids), which decides how a group's text is read.
    pub fn holds_check_ids(self) -> bool {
        matches!(
            self,
            Set::Checks | Set::Retired | Set::Linked | Set::Mentioned
        )
    }
}

/// How a `count` group is held to its query: `== count(…)` (the default), or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Eq,
    Le,
    Ge,
    Lt,
    Gt,
}

impl Bound {
    /// Longest first, so `<=` is not read as `<`.
    const ALL: [(&'static str, Bound); 5] = [
        ("==", Bound::Eq),
        ("<=", Bound::Le),
        (">=", Bound::Ge),
        ("<", Bound::Lt),
        (">", Bound::Gt),
    ];

    pub fn as_str(self) -> &'static str {
        Bound::ALL
            .iter()
            .find(|(_, b)| *b == self)
            .map(|(s, _)| *s)
            .unwrap_or("==")
    }

    /// The relation `text` starts with (`==` when it starts with none) and the rest after it.
    pub fn parse_prefix(text: &str) -> (Bound, &str) {
        Bound::ALL
            .iter()
            .find_map(|(s, b)| text.strip_prefix(s).map(|r| (*b, r.trim_start())))
            .unwrap_or((Bound::Eq, text))
    }

    /// Whether the number the document states, `written`, stands in this relation to `value`.
    pub fn holds(self, written: u64, value: u64) -> bool {
        match self {
            Bound::Eq => written == value,
            Bound::Le => written <= value,
            Bound::Ge => written >= value,
            Bound::Lt => written < value,
            Bound::Gt => written > value,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Query {
    /// The relation a `count` group must stand in to the query's number.
    pub bound: Bound,
    pub kind: Kind,
    pub set: Set,
    pub filter: Option<Expr>,
    /// `rules where set == "NAME" [and EXPR]`: the rules of one rule set (a `rules.tables` entry).
    pub rule_set: Option<String>,
    /// The query as written, for messages.
    pub text: String,
}

/// Parse a query; `Err` says what is wrong in a sentence. The `where` expression is typed
/// against the check fields here, so a typo'd field is a claim error, not an empty set.
pub fn parse(cat: &Catalogue, src: &str) -> Result<Query, String> {
    let text = src.trim();
    let (bound, body) = Bound::ALL
        .iter()
        .find_map(|(s, b)| text.strip_prefix(s).map(|r| (*b, r.trim_start())))
        .unwrap_or((Bound::Eq, text));
    let (kind, rest) = if let Some(r) = body.strip_prefix("count") {
        (Kind::Count, r)
    } else if let Some(r) = body.strip_prefix("ids") {
        if bound != Bound::Eq {
            return Err(format!(
                "`{text}`: `{}` compares numbers; an `ids` list is compared as a set",
                bound.as_str()
            ));
        }
        (Kind::Ids, r)
    } else {
        return Err(format!(
            "`{text}` is not a query; write count(SET) or ids(SET)"
        ));
    };
    let inner = rest
        .trim_start()
        .strip_prefix('(')
        .and_then(|r| r.trim_end().strip_suffix(')'))
        .ok_or_else(|| {
            format!("`{text}`: the set must be written in parentheses, as in count(checks)")
        })?;
    let inner = inner.trim();
    let (set_name, filter_src) = match inner.split_once(char::is_whitespace) {
        Some((s, r)) => {
            let r = r.trim_start();
            let Some(expr) = r
                .strip_prefix("where")
                .filter(|e| e.starts_with(char::is_whitespace))
            else {
                return Err(format!(
                    "`{text}`: after `{s}` only `where EXPR` may follow"
                ));
            };
            (s, Some(expr.trim()))
        }
        None => (inner, None),
    };
    let set = Set::ALL
        .iter()
        .find(|(n, _)| *n == set_name)
        .map(|(_, s)| *s)
        .ok_or_else(|| {
            let names: Vec<&str> = Set::ALL.iter().map(|(n, _)| *n).collect();
            format!(
                "`{text}`: unknown set `{set_name}`; sets are {}",
                names.join(", ")
            )
        })?;
    let (rule_set, filter_src) = match filter_src {
        Some(f) if set == Set::Rules && f.starts_with("set ") => {
            let (name, rest) = rule_set(cat, f).map_err(|e| format!("`{text}`: {e}"))?;
            (Some(name), rest)
        }
        f => (None, f),
    };
    let filter = match filter_src {
        None => None,
        Some("") => {
            return Err(format!(
                "`{text}`: `where` needs an expression over check fields"
            ))
        }
        Some(_) if set == Set::Retired => {
            return Err(format!(
                "`{text}`: retired ids are not checks, so `where` cannot select among them"
            ))
        }
        Some(e) => Some(compile_where(cat, e)?),
    };
    Ok(Query {
        bound,
        kind,
        set,
        filter,
        rule_set,
        text: text.to_string(),
    })
}

/// A `where` expression over check fields, compiled; `Err` says what is wrong in a sentence,
/// with the fix when one is known (a backslash in a string is written `\\`, so
/// `matches "^FID-\\d+$"` in a single-quoted YAML value).
pub fn compile_where(cat: &Catalogue, src: &str) -> Result<Expr, String> {
    if let Err(e) = crate::dsl::parse(src) {
        return Err(format!(
            "where `{src}` does not parse at column {}: {}{}",
            e.span.column(src),
            e.message,
            e.help.map(|h| format!(" ({h})")).unwrap_or_default()
        ));
    }
    crate::select::compile(cat, src, "where").map_err(|ds| {
        ds.into_iter()
            .map(|d| match d.help {
                // An unknown set's message alone does not say which names there are.
                Some(h) if d.code == crate::diag::codes::EXPR_UNKNOWN_SET.code => {
                    format!("{} ({h})", d.message)
                }
                _ => d.message,
            })
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// `set == "NAME" [and REST]`: the set's name (one the configuration declares) and the rest.
fn rule_set<'s>(cat: &Catalogue, f: &'s str) -> Result<(String, Option<&'s str>), String> {
    let err = || "write `set == \"NAME\"`, optionally followed by `and EXPR`".to_string();
    let r = f
        .strip_prefix("set")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix("=="))
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('"'))
        .ok_or_else(err)?;
    let (name, rest) = r.split_once('"').ok_or_else(err)?;
    let rest = rest.trim();
    let rest = match rest {
        "" => None,
        r => Some(
            r.strip_prefix("and")
                .filter(|e| e.starts_with(char::is_whitespace))
                .map(str::trim)
                .ok_or_else(err)?,
        ),
    };
    let mut sets: Vec<&str> = cat
        .rules
        .iter()
        .filter_map(|r| cat.config.rules.as_ref().map(|c| c.set_of(&r.id)))
        .collect();
    sets.sort_unstable();
    sets.dedup();
    if !sets.contains(&name) {
        return Err(format!(
            "no rule set `{name}`; the rule sets are {}",
            if sets.is_empty() {
                "none".to_string()
            } else {
                sets.join(", ")
            }
        ));
    }
    Ok((name.to_string(), rest))
}

/// What the links and mentions of a claim's section are.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub linked: BTreeSet<String>,
    pub mentioned: BTreeSet<String>,
}

impl Scope {
    /// References of `doc` on lines `lines` (inclusive).
    pub fn of(doc: &crate::model::Document, lines: std::ops::RangeInclusive<usize>) -> Scope {
        let mut s = Scope::default();
        for r in doc
            .outline
            .references
            .iter()
            .filter(|r| lines.contains(&r.line))
        {
            match r.kind {
                RefKind::Link => s.linked.insert(r.target.to_string()),
                RefKind::Mention => s.mentioned.insert(r.target.to_string()),
            };
        }
        s
    }
}

/// A query's answer: the members of its set before `where` (the ids the query knows) and the
/// members it selects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub universe: BTreeSet<String>,
    pub selected: BTreeSet<String>,
}

pub fn eval(cat: &Catalogue, q: &Query, scope: &Scope) -> Result<Answer, String> {
    let selected_checks: Option<BTreeSet<&str>> = match &q.filter {
        None => None,
        Some(expr) => Some(
            crate::select::select(cat, expr)
                .map_err(|d| d.message)?
                .into_iter()
                .map(|c| c.id.as_str())
                .collect(),
        ),
    };
    let keep_check = |id: &str| selected_checks.as_ref().is_none_or(|s| s.contains(id));
    let universe: BTreeSet<String> = match q.set {
        Set::Checks => cat.checks.iter().map(|c| c.id.to_string()).collect(),
        Set::Categories => cat.categories.iter().cloned().collect(),
        Set::Rules => cat
            .rules
            .iter()
            .filter(|r| {
                q.rule_set
                    .as_deref()
                    .is_none_or(|s| cat.config.rules.as_ref().map(|c| c.set_of(&r.id)) == Some(s))
            })
            .map(|r| r.id.clone())
            .collect(),
        Set::Retired => cat.config.retired.iter().map(|r| r.id.clone()).collect(),
        Set::Linked => scope.linked.clone(),
        Set::Mentioned => scope.mentioned.clone(),
    };
    let selected = match (q.set, &selected_checks) {
        (_, None) => universe.clone(),
        (Set::Categories, Some(s)) => universe
            .iter()
            .filter(|p| {
                cat.checks
                    .iter()
                    .any(|c| c.category == p && s.contains(c.id.as_str()))
            })
            .cloned()
            .collect(),
        (Set::Rules, Some(_)) => universe
            .iter()
            .filter(|r| {
                cat.rule(r)
                    .is_some_and(|r| r.checks().iter().any(|id| keep_check(id)))
            })
            .cloned()
            .collect(),
        // Linked or mentioned ids that are not checks (retired, unknown) have no fields to
        // select on; the always-on reference findings report them.
        (_, Some(s)) => universe
            .iter()
            .filter(|id| s.contains(id.as_str()))
            .cloned()
            .collect(),
    };
    Ok(Answer { universe, selected })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat() -> Catalogue {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph");
        crate::load::load(&root).unwrap().catalogue
    }

    #[test]
    fn parses_the_forms_of_the_spec() {
        let c = cat();
        let q = parse(&c, "count(checks)").unwrap();
        assert_eq!((q.kind, q.set), (Kind::Count, Set::Checks));
        assert!(q.filter.is_none());
        let q = parse(&c, r#" ids( linked where adoption == "enforced" ) "#).unwrap();
        assert_eq!((q.kind, q.set), (Kind::Ids, Set::Linked));
        assert!(q.filter.is_some());
        assert!(parse(&c, "count(categories)").is_ok());
        assert!(parse(&c, "ids(rules where category == \"FID\")").is_ok());
    }

    #[test]
    fn refuses_what_it_cannot_answer() {
        let c = cat();
        for bad in [
            "checks",
            "count checks",
            "count(check)",
            "count(checks when x)",
            "count(checks where)",
            "count(checks where adoptoin == \"enforced\")",
            "count(checks where category == \"NOPE\")",
            "ids(retired where category == \"FID\")",
            "sum(checks)",
        ] {
            assert!(parse(&c, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bounds_before_a_count() {
        let c = cat();
        for (src, want) in [
            ("<= count(checks)", Bound::Le),
            (">=count(checks)", Bound::Ge),
            ("< count(rules)", Bound::Lt),
            ("> count(categories)", Bound::Gt),
            ("== count(checks)", Bound::Eq),
            ("count(checks)", Bound::Eq),
        ] {
            assert_eq!(parse(&c, src).unwrap().bound, want, "{src}");
        }
        assert!(parse(&c, "<= ids(checks)").is_err());
        assert!(parse(&c, "=< count(checks)").is_err());
        assert!(Bound::Le.holds(3, 3) && !Bound::Lt.holds(3, 3) && Bound::Gt.holds(4, 3));
    }

    #[test]
    fn evaluates_sets_with_and_without_where() {
        let c = cat();
        let scope = Scope::default();
        let n = |src: &str| {
            eval(&c, &parse(&c, src).unwrap(), &scope)
                .unwrap()
                .selected
                .len()
        };
        assert_eq!(n("count(checks)"), 13);
        assert_eq!(n("count(categories)"), 2);
        assert_eq!(n(r#"count(checks where category == "FID")"#), 6);
        assert_eq!(n(r#"count(categories where category == "FID")"#), 1);
        assert_eq!(n("count(retired)"), 1);
    }
}
