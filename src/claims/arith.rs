//! Comparisons and arithmetic in claims: what a `count` group, or a policy with no document,
//! is held to when one query is not enough.
//!
//! An expectation is one or more parts joined by `and`, each an optional relation (`==`, `<=`,
//! `>=`, `<`, `>`; `==` when left out) and an expression: numbers, `count(SET [where …])`,
//! `$GROUP` (the number another group of the same match states), `sum("REGEX")` (the numbers
//! the regular expression's first group reads in every match in the claim's section), joined
//! by `+ - * /` and parentheses. Inside a `count(…)`, `$GROUP` is that group's text as a string
//! (`count(checks where category == $cat)`).

use super::numbers;
use super::query::{Bound, Kind, Scope};
use crate::model::Catalogue;
use regex::Regex;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub enum Expr {
    Num(f64),
    /// A `count(…)` query as written (`$GROUP` still in it).
    Count(String),
    Group(String),
    Sum(Regex),
    Bin(char, Box<Expr>, Box<Expr>),
}

/// `RELATION EXPR [and RELATION EXPR …]`.
#[derive(Clone, Debug)]
pub struct Expectation {
    pub parts: Vec<(Bound, Expr)>,
    pub text: String,
}

/// What an expression reads besides the catalogue: the texts of the match's groups and the
/// section the claim reads (skip regions blanked).
pub struct Env<'a> {
    pub cat: &'a Catalogue,
    pub scope: &'a Scope,
    pub groups: &'a BTreeMap<String, String>,
    pub section: &'a str,
    pub memo: &'a super::memo::Memo,
}

/// Whether a group's expectation needs this module rather than a plain query: it refers to a
/// group, sums, computes, or joins parts.
pub fn is_expression(src: &str) -> bool {
    let t = src.trim();
    let body = Bound::parse_prefix(t).1;
    if body.starts_with("ids") {
        return false;
    }
    let outside = outside_parens(body);
    !group_refs(t).is_empty()
        || t.contains("sum(")
        || outside.contains([' ', '+', '-', '*', '/'])
        || body.starts_with(|c: char| c.is_ascii_digit() || c == '(')
}

/// `s` with everything inside parentheses and quotes removed (to look at its top level).
fn outside_parens(s: &str) -> String {
    let mut depth = 0usize;
    let mut quote = false;
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => quote = !quote,
            '(' if !quote => depth += 1,
            ')' if !quote => depth = depth.saturating_sub(1),
            c if depth == 0 && !quote => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// Split at ` and ` outside parentheses and quotes.
fn split_and(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, false, 0);
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < s.len() {
        match bytes[i] {
            b'"' => quote = !quote,
            b'(' if !quote => depth += 1,
            b')' if !quote => depth = depth.saturating_sub(1),
            b' ' if !quote && depth == 0 && s[i..].starts_with(" and ") => {
                parts.push(&s[start..i]);
                start = i + 5;
                i += 5;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&s[start..]);
    parts
}

pub fn parse(src: &str) -> Result<Expectation, String> {
    let text = src.trim();
    let mut parts = Vec::new();
    for part in split_and(text) {
        let (bound, body) = Bound::parse_prefix(part.trim());
        let mut p = Parser {
            s: body,
            at: 0,
            whole: text,
        };
        let e = p.expr()?;
        p.space();
        if p.at < p.s.len() {
            return Err(format!(
                "`{text}`: cannot read `{}`; an expression joins numbers, count(…), $GROUP and sum(\"REGEX\") with + - * /",
                &p.s[p.at..]
            ));
        }
        parts.push((bound, e));
    }
    Ok(Expectation {
        parts,
        text: text.to_string(),
    })
}

struct Parser<'s> {
    s: &'s str,
    at: usize,
    whole: &'s str,
}

impl Parser<'_> {
    fn space(&mut self) {
        let rest = &self.s[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.space();
        self.s[self.at..].chars().next()
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let mut left = self.term()?;
        while let Some(op @ ('+' | '-')) = self.peek() {
            self.at += 1;
            let right = self.term()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn term(&mut self) -> Result<Expr, String> {
        let mut left = self.atom()?;
        while let Some(op @ ('*' | '/')) = self.peek() {
            self.at += 1;
            let right = self.atom()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    /// The text up to the parenthesis closing the one at `self.at` (quotes respected).
    fn parenthesised(&mut self) -> Result<&str, String> {
        let rest = &self.s[self.at..];
        let (mut depth, mut quote, mut escaped) = (0usize, false, false);
        for (i, c) in rest.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if quote => escaped = true,
                '"' => quote = !quote,
                '(' if !quote => depth += 1,
                ')' if !quote => {
                    depth -= 1;
                    if depth == 0 {
                        self.at += i + 1;
                        return Ok(&rest[1..i]);
                    }
                }
                _ => {}
            }
        }
        Err(format!("`{}`: a parenthesis is not closed", self.whole))
    }

    fn atom(&mut self) -> Result<Expr, String> {
        let whole = self.whole;
        let rest = {
            self.space();
            &self.s[self.at..]
        };
        if rest.starts_with('(') {
            let inner = self.parenthesised()?.to_string();
            let mut p = Parser {
                s: &inner,
                at: 0,
                whole,
            };
            let e = p.expr()?;
            p.space();
            if p.at < inner.len() {
                return Err(format!("`{whole}`: cannot read `{}`", &inner[p.at..]));
            }
            return Ok(e);
        }
        if let Some(r) = rest.strip_prefix('$') {
            let name: String = r
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                return Err(format!("`{whole}`: `$` must name a group, as in $n"));
            }
            self.at += 1 + name.len();
            return Ok(Expr::Group(name));
        }
        if rest.starts_with("count") {
            self.at += "count".len();
            self.space();
            if self.s[self.at..].starts_with('(') {
                let inner = self.parenthesised()?;
                return Ok(Expr::Count(format!("count({inner})")));
            }
            return Err(format!("`{whole}`: write count(SET)"));
        }
        if rest.starts_with("sum") {
            self.at += "sum".len();
            self.space();
            let inner = self.parenthesised()?.trim().to_string();
            let pattern = inner
                .strip_prefix('"')
                .and_then(|r| r.strip_suffix('"'))
                .map(|p| p.replace("\\\"", "\""))
                .ok_or_else(|| {
                    format!("`{whole}`: sum takes a quoted regular expression, as in sum(\"(\\d+) Checks\")")
                })?;
            let re = Regex::new(&pattern).map_err(|e| {
                format!("`{whole}`: sum's pattern is not a regular expression: {e}")
            })?;
            if re.captures_len() < 2 {
                return Err(format!(
                    "`{whole}`: sum's pattern needs a group `( … )` around the number it adds up"
                ));
            }
            return Ok(Expr::Sum(re));
        }
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            self.at += digits.len();
            return digits
                .parse()
                .map(Expr::Num)
                .map_err(|_| format!("`{whole}`: `{digits}` is too large"));
        }
        Err(format!(
            "`{whole}`: expected a number, count(…), $GROUP or sum(\"REGEX\") at `{}`",
            rest.chars().take(20).collect::<String>()
        ))
    }
}

/// A policy, `LEFT RELATION RIGHT [and RELATION RIGHT …]`: the left expression and what it
/// must stand in.
pub fn parse_policy(src: &str) -> Result<(Expr, Expectation), String> {
    let text = src.trim();
    let (mut depth, mut quote) = (0usize, false);
    let mut split = None;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quote = !quote,
            '(' if !quote => depth += 1,
            ')' if !quote => depth = depth.saturating_sub(1),
            '<' | '>' | '=' if !quote && depth == 0 => {
                split = Some(i);
                break;
            }
            _ => {}
        }
    }
    let at = split.ok_or_else(|| {
        format!("`{text}`: a policy compares two sides, as in count(…) * 10 <= count(checks)")
    })?;
    let mut p = Parser {
        s: &text[..at],
        at: 0,
        whole: text,
    };
    let left = p.expr()?;
    p.space();
    if p.at < at {
        return Err(format!("`{text}`: cannot read `{}`", &text[p.at..at]));
    }
    let right = &text[at..];
    if !right.starts_with(['<', '>']) && !right.starts_with("==") {
        return Err(format!(
            "`{text}`: write the relation as ==, <=, >=, < or >"
        ));
    }
    Ok((left, parse(right)?))
}

/// Each `$GROUP` of `text` outside its string literals, as (byte offset of the `$`, the name
/// after it, empty when none follows): a `$` inside a string is the string's (`id matches
/// "^FID-00\\d$"`), never a group.
pub fn group_refs(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '$') => {
                let rest = &text[i + 1..];
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                out.push((i, &rest[..end]));
            }
            (None, _) => {}
        }
    }
    out
}

/// `text` with each `$GROUP` (outside string literals) replaced by `value(name)`.
fn substitute(
    text: &str,
    mut value: impl FnMut(usize, &str) -> Result<Option<String>, String>,
) -> Result<String, String> {
    let mut out = String::new();
    let mut at = 0;
    for (i, name) in group_refs(text) {
        if let Some(v) = value(i, name)? {
            out.push_str(&text[at..i]);
            out.push_str(&v);
            at = i + 1 + name.len();
        }
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// A group's text as a string literal of the expression language.
fn literal(value: &str) -> String {
    let plain = value.trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '`'));
    format!("\"{}\"", plain.replace('"', "\\\""))
}

/// `text` with each `$GROUP` replaced by that group's text as a string literal.
fn bind(text: &str, groups: &BTreeMap<String, String>) -> Result<String, String> {
    substitute(text, |_, name| {
        groups
            .get(name)
            .map(|v| Some(literal(v)))
            .ok_or_else(|| format!("`${name}` names no group of the pattern"))
    })
}

/// `text` as a finding about one match shows it: each `$GROUP` inside `count(…)` replaced by
/// the string the group read (`category == "FID"`), so the message names the query that was
/// answered; a `$GROUP` that stands for a number (`<= $n`) stays, the number is in the message.
pub fn shown(text: &str, groups: &BTreeMap<String, String>) -> String {
    let in_count = |i: usize| {
        // Inside a `count(` not yet closed before `i`.
        let before = &text[..i];
        before.rfind("count(").is_some_and(|open| {
            let mut depth = 0i32;
            for c in before[open + "count".len()..].chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            depth > 0
        })
    };
    substitute(text, |i, name| {
        Ok(groups
            .get(name)
            .filter(|_| in_count(i))
            .map(|v| literal(v)))
    })
    .unwrap_or_else(|_| text.to_string())
}

/// The value of `e`; `Err` says why it has none (a group that is not a number, a query that
/// does not parse, a division by zero).
pub fn eval(e: &Expr, env: &Env<'_>) -> Result<f64, String> {
    Ok(match e {
        Expr::Num(n) => *n,
        Expr::Group(g) => {
            let text = env
                .groups
                .get(g)
                .ok_or_else(|| format!("`${g}` names no group of the pattern"))?;
            numbers::read(text).map_err(|numbers::Unreadable(w)| {
                format!("`${g}` reads `{w}`, which is not a number")
            })? as f64
        }
        Expr::Count(src) => {
            let qa = env
                .memo
                .answer(env.cat, &bind(src, env.groups)?, env.scope)?;
            if qa.0.kind != Kind::Count {
                return Err(format!("`{}` is not a count", qa.0.text));
            }
            qa.1.selected.len() as f64
        }
        Expr::Sum(re) => {
            let mut total = 0.0;
            for caps in re.captures_iter(env.section) {
                if let Some(m) = caps.get(1) {
                    total += numbers::read(m.as_str()).map_err(|numbers::Unreadable(w)| {
                        format!("sum(\"{}\") read `{w}`, which is not a number", re.as_str())
                    })? as f64;
                }
            }
            total
        }
        Expr::Bin(op, a, b) => {
            let (x, y) = (eval(a, env)?, eval(b, env)?);
            match op {
                '+' => x + y,
                '-' => x - y,
                '*' => x * y,
                _ if y == 0.0 => return Err("a division by zero".into()),
                _ => x / y,
            }
        }
    })
}

/// A number as a finding writes it: whole numbers without a fraction.
pub fn show(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n:.2}")
    }
}

/// Whether `written` stands in `bound` to `value`.
pub fn holds(bound: Bound, written: f64, value: f64) -> bool {
    match bound {
        Bound::Eq => written == value,
        Bound::Le => written <= value,
        Bound::Ge => written >= value,
        Bound::Lt => written < value,
        Bound::Gt => written > value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn what_needs_an_expression() {
        for e in [
            "<= $n",
            "count(checks) / 10",
            "sum(\"(\\d+)\")",
            ">= 3 and <= 5",
            "count(checks where category == $cat)",
            "12",
        ] {
            assert!(is_expression(e), "{e}");
        }
        for q in [
            "count(checks)",
            "<= count(checks where title contains \"a b\")",
            "ids(checks)",
            // A `$` in a string is the regular expression's anchor, not a group.
            "count(checks where id matches \"^FID-00\\\\d$\")",
            "count(checks where title matches '(?i)tests$')",
        ] {
            assert!(!is_expression(q), "{q}");
        }
    }

    #[test]
    fn parses_precedence_parentheses_and_parts() {
        let e = parse(">= (2 + 3) * 4 - 1 and < 100 / $n").unwrap();
        assert_eq!(e.parts.len(), 2);
        let env_groups = groups(&[("n", "zehn")]);
        let cat = crate::model::Catalogue::empty(".", crate::model::Mode::Compatibility);
        let scope = Scope::default();
        let memo = crate::claims::memo::Memo::default();
        let env = Env {
            cat: &cat,
            scope: &scope,
            groups: &env_groups,
            section: "| 5–8 | x |\n| 10–12 | y |",
            memo: &memo,
        };
        assert_eq!(eval(&e.parts[0].1, &env), Ok(19.0));
        assert_eq!(eval(&e.parts[1].1, &env), Ok(10.0));
        let s = parse("sum(\"(\\d+)–\\d+\") + sum(\"\\d+–(\\d+)\")").unwrap();
        assert_eq!(eval(&s.parts[0].1, &env), Ok(35.0));
        for bad in [
            "1 +",
            "count checks",
            "sum(x)",
            "sum(\"\\d+\")",
            "$",
            "(1 + 2",
            "3 4",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(eval(&parse("1 / 0").unwrap().parts[0].1, &env).is_err());
        assert_eq!(
            bind(
                "count(checks where category == $c)",
                &groups(&[("c", "`FID`")])
            ),
            Ok("count(checks where category == \"FID\")".to_string())
        );
        assert_eq!(
            shown(
                "<= $n and == count(checks where category == $c) + (1)",
                &groups(&[("c", "`FID`"), ("n", " 7")])
            ),
            "<= $n and == count(checks where category == \"FID\") + (1)"
        );
    }
}
