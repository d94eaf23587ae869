//! A pattern with named groups (the form a claim has when no other key says otherwise),
//! matched in one section of a document, each group held to a query over the catalogue, an
//! expression, or the catalogue's version.
//!
//! The pattern is matched against the section with soft line breaks read as spaces (a sentence
//! rewrapped in the editor still matches); blank lines, list items, table rows and headings
//! still start a new line. Every match is checked, so a repeated statement cannot hide a stale
//! copy; `skip` blanks tables, code and block quotes first, so a pattern over running prose
//! reads every sentence of it and nothing else.

use crate::claims::locate::{self, Place};
use crate::claims::memo::Memo;
use crate::claims::query::{self, Answer, Kind, Query, Scope, Set};
use crate::claims::{arith, ids, numbers, strict};
use crate::diag::{codes, Code, Diagnostic};
use crate::model::config::ClaimDecl;
use crate::model::Catalogue;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};

pub struct Groups;

impl super::Form for Groups {
    fn declares(&self, _claim: &ClaimDecl) -> bool {
        true
    }

    fn check(&self, cat: &Catalogue, claim: &ClaimDecl, memo: &Memo) -> Vec<Diagnostic> {
        check(cat, claim, memo)
    }

    #[cfg(any(test, feature = "internals"))]
    fn problems(&self, cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
        problems(cat, claim)
    }
}

/// A claim that could be compiled: its pattern, its queries and where it is matched.
struct Compiled<'c> {
    place: Place<'c>,
    pattern: Regex,
    queries: Vec<(String, Query)>,
    /// Groups held to an expression (`<= $n`, `count(…) / 10`, `sum("…")`).
    exprs: Vec<(String, arith::Expectation)>,
    /// Groups that state the catalogue's version (`expect: {v: version}`).
    versions: Vec<String>,
}

fn compile<'c>(cat: &'c Catalogue, claim: &'c ClaimDecl) -> Result<Compiled<'c>, Vec<Diagnostic>> {
    let bad = |msg: String| {
        vec![locate::declaration_error(
            cat,
            claim,
            &codes::CLAIM_INVALID,
            msg,
        )]
    };
    let pattern = Regex::new(&claim.pattern).map_err(|e| {
        bad(format!(
            "the pattern is not a valid regular expression: {e}"
        ))
    })?;
    let groups: BTreeSet<&str> = pattern.capture_names().flatten().collect();
    let mut errors = Vec::new();
    let mut queries = Vec::new();
    let mut exprs = Vec::new();
    let mut versions = Vec::new();
    let mut failed: BTreeSet<&str> = BTreeSet::new();
    if claim.expect.is_empty() {
        errors.extend(bad(
            "`expect` names no group, so nothing would be checked".into()
        ));
    }
    for (group, src) in &claim.expect {
        if !groups.contains(group.as_str()) {
            let have: Vec<&str> = groups.iter().copied().collect();
            errors.extend(bad(format!(
                "`expect` names group `{group}`, but the pattern has no `(?P<{group}>…)` (it has: {})",
                if have.is_empty() { "none".to_string() } else { have.join(", ") }
            )));
            continue;
        }
        if src.trim() == "version" {
            if cat.config.version.is_none() {
                errors.extend(bad(format!(
                    "group `{group}` states the version, but catalogue.yaml declares no `version`"
                )));
            }
            versions.push(group.clone());
            continue;
        }
        if arith::is_expression(src) {
            for name in dollar_names(src) {
                if !groups.contains(name) {
                    errors.extend(bad(format!(
                        "group `{group}`: `${name}` names no group of the pattern"
                    )));
                }
            }
            match arith::parse(src) {
                Ok(e) => exprs.push((group.clone(), e)),
                Err(e) => errors.extend(bad(format!("group `{group}`: {e}"))),
            }
            continue;
        }
        match query::parse(cat, src) {
            Ok(q) => queries.push((group.clone(), q)),
            Err(e) => {
                failed.insert(group.as_str());
                errors.extend(bad(format!("group `{group}`: {e}")))
            }
        }
    }
    for group in &claim.strict {
        let ids = queries
            .iter()
            .any(|(g, q): &(String, Query)| g == group && q.kind == Kind::Ids);
        // A group whose query failed is reported once, for its query.
        if !ids && claim.expect.contains_key(group) && !failed.contains(group.as_str()) {
            errors.extend(bad(format!(
                "`strict` names group `{group}`, which is a count; only an `ids` group is a list"
            )));
        } else if !claim.expect.contains_key(group) {
            errors.extend(bad(format!(
                "`strict` names group `{group}`, which `expect` does not"
            )));
        }
    }
    let place = match locate::locate(cat, claim) {
        Ok(l) => l,
        Err(d) => {
            errors.extend(d);
            return Err(errors);
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Compiled {
        place,
        pattern,
        queries,
        exprs,
        versions,
    })
}

/// What is wrong with a claim's pattern, queries and expressions, read without its document.
#[cfg(any(test, feature = "internals"))]
fn problems(cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
    let pattern = match Regex::new(&claim.pattern) {
        Ok(p) => p,
        Err(e) => return vec![format!("pattern: {e}")],
    };
    let groups: BTreeSet<&str> = pattern.capture_names().flatten().collect();
    let mut out = Vec::new();
    for (group, src) in &claim.expect {
        if !groups.contains(group.as_str()) {
            out.push(format!("`{group}` is not a group of the pattern"));
        }
        if src.trim() == "version" {
            continue;
        }
        if arith::is_expression(src) {
            out.extend(
                dollar_names(src)
                    .into_iter()
                    .filter(|n| !groups.contains(n))
                    .map(|n| format!("`${n}` is not a group of the pattern")),
            );
            if let Err(e) = arith::parse(src) {
                out.push(e);
            }
        } else if let Err(e) = query::parse(cat, src) {
            out.push(e);
        }
    }
    out
}

/// The group names `$NAME` refers to in an expectation.
fn dollar_names(src: &str) -> Vec<&str> {
    arith::group_refs(src)
        .into_iter()
        .map(|(_, name)| name)
        .filter(|name| !name.is_empty())
        .collect()
}

fn check(cat: &Catalogue, claim: &ClaimDecl, memo: &Memo) -> Vec<Diagnostic> {
    let c = match compile(cat, claim) {
        Ok(c) => c,
        Err(d) => return d,
    };
    let place = &c.place;
    let scope = Scope::of(place.doc, place.lines());
    let mut answers: Vec<(&str, &Query, crate::claims::memo::Shared)> = Vec::new();
    let mut out = Vec::new();
    for (group, q) in &c.queries {
        match memo.answer(cat, &q.text, &scope) {
            Ok(a) => answers.push((group, q, a)),
            Err(e) => out.push(locate::declaration_error(
                cat,
                claim,
                &codes::CLAIM_INVALID,
                format!("group `{group}`: `{}` failed: {e}", q.text),
            )),
        }
    }
    if !out.is_empty() {
        return out;
    }
    let section = place.text();
    let hay = place.hay(&claim.skip);
    let where_ = place.described();
    let mut starts = Vec::new();
    for caps in c.pattern.captures_iter(&hay) {
        let Some(whole) = caps.get(0) else { continue };
        starts.push(place.range.start + whole.start());
        let (mline, _) = place.position(place.range.start + whole.start());
        let mut id_groups: Vec<IdGroup> = Vec::new();
        for (group, q, answer) in &answers {
            let answer = &answer.1;
            let Some(m) = caps.name(group) else {
                out.push(
                    Diagnostic::new(
                        &codes::CLAIM_UNMATCHED,
                        format!("claim `{}`: the pattern matched at line {mline} of {where_}, but group `{group}` took no part in the match, so `{}` goes unchecked", claim.name, q.text),
                    )
                    .file(claim.doc.clone())
                    .line(mline),
                );
                continue;
            };
            let abs = place.range.start + m.start();
            let here = |code: &'static Code, msg: String| {
                place.at_group(claim, group, (abs, m.as_str()), code, msg)
            };
            let written = &section[m.range()];
            match q.kind {
                Kind::Count => {
                    let expected = answer.selected.len() as u64;
                    match numbers::read(written) {
                        Ok(n) if q.bound.holds(n, expected) => {}
                        Ok(n) if q.bound != query::Bound::Eq => out.push(
                            here(&codes::CLAIM_COUNT, format!("the document says {n} (`{}`), which must be {} {expected} ({})", written.trim(), q.bound.as_str(), q.text))
                                .help(format!("the catalogue has {expected}: correct the number, or the bound if the sentence means something else")),
                        ),
                        Ok(n) => out.push(
                            here(&codes::CLAIM_COUNT, format!("the document says {n} (`{}`), the catalogue has {expected} ({})", written.trim(), q.text))
                                .help(format!("write {expected} here, or correct the claim's query if the sentence counts something else")),
                        ),
                        Err(numbers::Unreadable(w)) => out.push(
                            here(&codes::CLAIM_NUMBER_UNREADABLE, format!("`{w}` is not a number auditbook can read; {} is {expected}", q.text)),
                        ),
                    }
                }
                Kind::Ids if claim.strict.iter().any(|g| g == group) => {
                    for (off, piece, problem) in strict::check(written, |p| {
                        ids::extract(cat, q.set, &claim.doc, p).into_keys().collect()
                    }) {
                        let (code, msg) = match problem {
                            strict::Problem::Unknown(p) => (
                                &codes::CLAIM_LIST_UNKNOWN,
                                unknown_piece(
                                    &p,
                                    ids::extract(cat, q.set, &claim.doc, &p).into_keys().collect(),
                                    member_word(q.set),
                                ),
                            ),
                            strict::Problem::Repeated(id) => (
                                &codes::CLAIM_LIST_REPEATED,
                                format!("`{id}` is named a second time in this list"),
                            ),
                        };
                        out.push(
                            place
                                .at_group(claim, group, (abs + off, piece), code, msg)
                                .help(code.help),
                        );
                    }
                    id_groups.push(IdGroup {
                        group,
                        query: q,
                        answer,
                        found: ids::extract(cat, q.set, &claim.doc, written),
                        offset: abs,
                    });
                }
                Kind::Ids => id_groups.push(IdGroup {
                    group,
                    query: q,
                    answer,
                    found: ids::extract(cat, q.set, &claim.doc, written),
                    offset: abs,
                }),
            }
        }
        for group in &c.versions {
            let (Some(m), Some(want)) = (caps.name(group), cat.config.version.as_deref()) else {
                continue;
            };
            let written = m.as_str().trim();
            let bare = written.strip_prefix(['v', 'V']).unwrap_or(written);
            if bare != want.strip_prefix(['v', 'V']).unwrap_or(want) {
                out.push(
                    place
                        .at_group(
                            claim,
                            group,
                            (place.range.start + m.start(), written),
                            &codes::CLAIM_VERSION,
                            format!("the document says version `{written}`, catalogue.yaml says `{want}`"),
                        )
                        .help(codes::CLAIM_VERSION.help),
                );
            }
        }
        if !c.exprs.is_empty() {
            let texts: BTreeMap<String, String> = c
                .pattern
                .capture_names()
                .flatten()
                .filter_map(|n| {
                    caps.name(n)
                        .map(|m| (n.to_string(), m.as_str().to_string()))
                })
                .collect();
            let env = arith::Env {
                cat,
                scope: &scope,
                groups: &texts,
                section: &hay,
                memo,
            };
            for (group, e) in &c.exprs {
                let Some(m) = caps.name(group) else { continue };
                out.extend(expression_findings(
                    place,
                    claim,
                    group,
                    e,
                    &env,
                    (place.range.start + m.start(), m.as_str()),
                ));
            }
        }
        // In document order, so "listed under both" points at the second place.
        id_groups.sort_by_key(|g| g.offset);
        out.extend(compare_ids(cat, claim, place, &id_groups));
    }
    if starts.is_empty() {
        out.push(locate::unmatched(
            cat,
            claim,
            place,
            format!("the pattern no longer matches in {where_} — reworded? this claim would go unchecked"),
        ));
    }
    out.extend(locate::match_count(cat, claim, place, &starts));
    out
}

/// A group held to an expression: the number it states against each part.
fn expression_findings(
    place: &Place<'_>,
    claim: &ClaimDecl,
    group: &str,
    e: &arith::Expectation,
    env: &arith::Env<'_>,
    (offset, written): (usize, &str),
) -> Vec<Diagnostic> {
    let here = |code: &'static Code, msg: String| {
        place.at_group(claim, group, (offset, written), code, msg)
    };
    // The expectation as answered for this match (`$cat` bound to what the match read).
    let text = arith::shown(&e.text, env.groups);
    let n = match numbers::read(written) {
        Ok(n) => n as f64,
        Err(numbers::Unreadable(w)) => {
            return vec![here(
                &codes::CLAIM_NUMBER_UNREADABLE,
                format!(
                    "`{w}` is not a number auditbook can read (held to `{}`)",
                    text
                ),
            )]
        }
    };
    let mut out = Vec::new();
    for (bound, expr) in &e.parts {
        match arith::eval(expr, env) {
            Ok(v) if arith::holds(*bound, n, v) => {}
            Ok(v) => out.push(
                here(
                    &codes::CLAIM_COUNT,
                    format!(
                        "the document says {} (`{}`), which must be {} {} ({})",
                        arith::show(n),
                        written.trim(),
                        bound.as_str(),
                        arith::show(v),
                        text
                    ),
                )
                .help(format!(
                    "the catalogue gives {}: correct the number, or the claim if the sentence means something else",
                    arith::show(v)
                )),
            ),
            Err(msg) => out.push(
                here(
                    &codes::CLAIM_INVALID,
                    format!("`{}` cannot be evaluated for this match: {msg}", text),
                )
                .help(codes::CLAIM_INVALID.help),
            ),
        }
    }
    out
}

struct IdGroup<'a> {
    group: &'a str,
    query: &'a Query,
    answer: &'a Answer,
    /// Ids the group's text names, with their byte offset in the group.
    found: BTreeMap<String, usize>,
    /// Byte offset of the group in the document.
    offset: usize,
}

/// Compare the id lists of one match with their queries: an id in two lists, an id in a list
/// whose query does not select it, an id the query does not know, an id in no list.
fn compare_ids(
    cat: &Catalogue,
    claim: &ClaimDecl,
    place: &Place<'_>,
    groups: &[IdGroup<'_>],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at = |g: &IdGroup<'_>, id: &str, code: &'static Code, msg: String| {
        let off = g.offset + g.found.get(id).copied().unwrap_or(0);
        let (line, col) = place.position(off);
        Diagnostic::new(
            code,
            format!("claim `{}`, group `{}`: {msg}", claim.name, g.group),
        )
        .file(claim.doc.clone())
        .at(line, col)
        .width(id.chars().count())
        .id(id)
    };
    let mut in_both: BTreeSet<&str> = BTreeSet::new();
    for (i, g) in groups.iter().enumerate() {
        for id in g.found.keys() {
            if let Some(h) = groups.iter().skip(i + 1).find(|h| h.found.contains_key(id)) {
                in_both.insert(id);
                let belongs: Vec<&str> = groups
                    .iter()
                    .filter(|x| x.answer.selected.contains(id))
                    .map(|x| x.group)
                    .collect();
                out.push(
                    at(
                        h,
                        id,
                        &codes::CLAIM_ID_IN_BOTH,
                        format!(
                            "`{id}` is listed under both `{}` and `{}`; {}",
                            g.group,
                            h.group,
                            match belongs.as_slice() {
                                [] => "no list's query selects it".to_string(),
                                b => format!("it belongs under `{}` only", b.join("`, `")),
                            }
                        ),
                    ),
                );
            }
        }
    }
    for g in groups {
        for id in g.found.keys() {
            if in_both.contains(id.as_str()) || g.answer.selected.contains(id) {
                continue;
            }
            let not_a_check = g.query.set.holds_check_ids() && cat.check(id).is_none();
            if !g.answer.universe.contains(id) || not_a_check {
                out.push(
                    at(
                        g,
                        id,
                        &codes::CLAIM_ID_UNKNOWN,
                        format!(
                            "`{id}` is listed, but `{}` does not know it: {}",
                            g.query.text,
                            why_unknown(cat, g.query.set, id)
                        ),
                    ),
                );
                continue;
            }
            let home: Vec<&str> = groups
                .iter()
                .filter(|h| h.answer.selected.contains(id))
                .map(|h| h.group)
                .collect();
            out.push(
                at(
                    g,
                    id,
                    &codes::CLAIM_ID_MISPLACED,
                    format!(
                        "`{id}` is listed here, but `{}` does not select it{}",
                        g.query.text,
                        match home.as_slice() {
                            [] => " (and no other list of this claim does)".to_string(),
                            h => format!("; it belongs under `{}`", h.join("`, `")),
                        }
                    ),
                ),
            );
        }
    }
    for g in groups {
        for id in &g.answer.selected {
            if groups.iter().any(|h| h.found.contains_key(id)) {
                continue;
            }
            let (line, col) = place.position(g.offset);
            out.push(
                Diagnostic::new(
                    &codes::CLAIM_ID_MISSING,
                    format!(
                        "claim `{}`, group `{}`: `{}` selects `{id}`, but {} names it",
                        claim.name,
                        g.group,
                        g.query.text,
                        if groups.len() > 1 {
                            "none of the claim's lists"
                        } else {
                            "the list never"
                        }
                    ),
                )
                .file(claim.doc.clone())
                .at(line, col)
                .id(id.clone()),
            );
        }
    }
    out
}

/// What is wrong with a piece of a strict list that is not one member by itself, said so
/// that the fix follows: it names none, one with something else around it, or several.
fn unknown_piece(piece: &str, named: Vec<String>, word: &str) -> String {
    let separators = "`,`, `;`, `/`, `und`, `and`";
    let words = match word.strip_suffix('y') {
        Some(stem) => format!("{stem}ies"),
        None => format!("{word}s"),
    };
    match named.as_slice() {
        [] => format!(
            "`{piece}` names no {word}: a strict list holds {words} only, each by itself, separated by {separators}"
        ),
        [one] => format!(
            "`{piece}` is more than the {word} `{one}`: a strict list names each {word} alone (write `{one}`, and anything else outside the list)"
        ),
        many => format!(
            "`{piece}` names {} {words} in one piece ({}): separate them with {separators}",
            many.len(),
            many.join(", ")
        ),
    }
}

fn member_word(set: Set) -> &'static str {
    match set {
        Set::Categories => "category",
        Set::Rules => "rule id",
        _ => "check id",
    }
}

fn why_unknown(cat: &Catalogue, set: Set, id: &str) -> String {
    if let Some(r) = cat.retired(id) {
        let succ = r.merged_into.as_ref().or(r.replaced_by.as_ref());
        return match succ {
            Some(s) => format!("it was retired on {} (successor `{s}`)", r.retired),
            None => format!("it was retired on {}", r.retired),
        };
    }
    match set {
        Set::Linked if cat.check(id).is_some() => {
            "the check exists but is not linked in this section".into()
        }
        Set::Mentioned if cat.check(id).is_some() => {
            "the check exists but is not mentioned in this section".into()
        }
        Set::Categories => "it is not a category of this catalogue".into(),
        Set::Rules => "it is not a rule of this catalogue".into(),
        _ => "no check has this id".into(),
    }
}

