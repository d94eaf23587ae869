//! Declared claims (`claims:` in catalogue.yaml): a pattern with named groups, matched in one
//! section of a document, each group compared with a query over the catalogue.
//!
//! The pattern is matched against the section with soft line breaks read as spaces (a sentence
//! rewrapped in the editor still matches); blank lines, list items, table rows and headings
//! still start a new line. Every match is checked, so a repeated statement cannot hide a stale
//! copy; `skip` blanks tables, code and block quotes first, so a pattern over running prose
//! reads every sentence of it and nothing else.

use super::numbers;
use super::query::{self, Answer, Kind, Query, Scope, Set};
use crate::diag::{codes, Code, Diagnostic};
use crate::load::markdown;
use crate::text::line_index::LineIndex;
use crate::model::config::ClaimDecl;
use crate::model::{Catalogue, Document};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};

pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let memo = super::memo::Memo::default();
    for claim in &cat.config.claims {
        // A claim over a glob holds every file it matched (none: `globs` reports it).
        match cat.config.doc_globs.get(&claim.doc) {
            Some(files) => {
                for f in files {
                    let mut one = claim.clone();
                    one.doc = f.clone();
                    out.extend(check_one(cat, &one, &memo));
                }
            }
            None => out.extend(check_one(cat, claim, &memo)),
        }
    }
    out
}

/// A claim that could be compiled: its pattern, its queries and where it is matched.
struct Compiled<'c> {
    doc: &'c Document,
    pattern: Regex,
    queries: Vec<(String, Query)>,
    /// Groups held to an expression (`<= $n`, `count(…) / 10`, `sum("…")`).
    exprs: Vec<(String, super::arith::Expectation)>,
    /// Groups that state the catalogue's version (`expect: {v: version}`).
    versions: Vec<String>,
    range: std::ops::Range<usize>,
    heading_line: usize,
}

pub(super) fn config_error(
    cat: &Catalogue,
    claim: &ClaimDecl,
    code: &'static Code,
    msg: String,
) -> Diagnostic {
    Diagnostic::new(code, format!("claim `{}`: {msg}", claim.name))
        .file(crate::model::config::FILE_NAME)
        .line(crate::graph::config_line(
            cat,
            &format!("name: {}", claim.name),
        ))
}

fn compile<'c>(cat: &'c Catalogue, claim: &'c ClaimDecl) -> Result<Compiled<'c>, Vec<Diagnostic>> {
    let bad = |msg: String| vec![config_error(cat, claim, &codes::CLAIM_INVALID, msg)];
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
        if super::arith::is_expression(src) {
            for name in dollar_names(src) {
                if !groups.contains(name) {
                    errors.extend(bad(format!(
                        "group `{group}`: `${name}` names no group of the pattern"
                    )));
                }
            }
            match super::arith::parse(src) {
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
    let (doc, range, heading_line) = match locate(cat, claim) {
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
        doc,
        pattern,
        queries,
        exprs,
        versions,
        range,
        heading_line,
    })
}

/// The claim's document, the byte range it reads (its section, or all of it) and the line of
/// that section's heading (1 for a whole document).
pub(super) fn locate<'c>(
    cat: &'c Catalogue,
    claim: &ClaimDecl,
) -> Result<(&'c Document, std::ops::Range<usize>, usize), Vec<Diagnostic>> {
    if claim.doc.is_empty() {
        return Err(vec![config_error(
            cat,
            claim,
            &codes::CLAIM_INVALID,
            "names no `doc` to read (only a policy, `holds:`, reads none)".into(),
        )]);
    }
    let Some(doc) = cat.document(&claim.doc) else {
        return Err(vec![config_error(
            cat,
            claim,
            &codes::CLAIM_INVALID,
            format!(
                "document `{}` could not be read (see the error for that file), so the claim is not checked",
                claim.doc
            ),
        )]);
    };
    match &claim.section {
        None => Ok((doc, 0..doc.text.len(), 1)),
        Some(title) => match doc.section(title) {
            Some((idx, range)) => Ok((
                doc,
                range,
                doc.outline.headings.get(idx).map(|h| h.line).unwrap_or(1),
            )),
            None => Err(vec![config_error(
                cat,
                claim,
                &codes::CLAIM_SECTION_MISSING,
                format!(
                    "`{}` has no heading \"{title}\", so the claim goes unchecked",
                    claim.doc
                ),
            )]),
        },
    }
}

/// A declared document `path` (not a claim's), the byte range of its section `title` (or all of
/// it) and that section's heading line.
pub(super) fn locate_in<'c>(
    cat: &'c Catalogue,
    path: &str,
    title: Option<&str>,
) -> Result<(&'c Document, std::ops::Range<usize>, usize), String> {
    let Some(doc) = cat.document(path) else {
        return Err(format!(
            "document `{path}` could not be read (is it declared under `docs`?)"
        ));
    };
    match title {
        None => Ok((doc, 0..doc.text.len(), 1)),
        Some(t) => doc
            .section(t)
            .map(|(idx, range)| {
                (
                    doc,
                    range,
                    doc.outline.headings.get(idx).map(|h| h.line).unwrap_or(1),
                )
            })
            .ok_or_else(|| format!("`{path}` has no heading \"{t}\"")),
    }
}

/// What is wrong with a claim's pattern, queries and expressions, read without its document
/// (the examples of the format reference are held to this).
#[cfg(any(test, feature = "internals"))]
pub fn problems(cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
    if let Some(src) = &claim.holds {
        return match super::arith::parse_policy(src) {
            Err(e) => vec![e],
            Ok(_) => Vec::new(),
        };
    }
    if let Some(table) = &claim.table {
        return super::table::problems(cat, table);
    }
    if let Some(m) = &claim.members {
        return super::members::problems(claim, m);
    }
    if !claim.require.is_empty() {
        return super::require::problems(cat, claim);
    }
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
        if super::arith::is_expression(src) {
            out.extend(
                dollar_names(src)
                    .into_iter()
                    .filter(|n| !groups.contains(n))
                    .map(|n| format!("`${n}` is not a group of the pattern")),
            );
            if let Err(e) = super::arith::parse(src) {
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
    src.match_indices('$')
        .filter_map(|(i, _)| {
            let rest = src.get(i + 1..)?;
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (end > 0).then(|| &rest[..end])
        })
        .collect()
}

fn check_one(cat: &Catalogue, claim: &ClaimDecl, memo: &super::memo::Memo) -> Vec<Diagnostic> {
    if let Some(policy) = &claim.holds {
        return super::policy::check(cat, claim, policy, memo);
    }
    if !claim.require.is_empty() {
        return super::require::check(cat, claim);
    }
    if let Some(table) = &claim.table {
        return super::table::check(cat, claim, table, memo);
    }
    if let Some(m) = &claim.members {
        return super::members::check(cat, claim, m);
    }
    let c = match compile(cat, claim) {
        Ok(c) => c,
        Err(d) => return d,
    };
    let text = &c.doc.text;
    let index = LineIndex::new(text);
    let first_line = index.position(text, c.range.start).0;
    let last_line = index
        .position(text, c.range.end.saturating_sub(1).max(c.range.start))
        .0;
    let scope = Scope::of(c.doc, first_line.min(c.heading_line)..=last_line);
    let mut answers: Vec<(&str, &Query, super::memo::Shared)> = Vec::new();
    let mut out = Vec::new();
    for (group, q) in &c.queries {
        match memo.answer(cat, &q.text, &scope) {
            Ok(a) => answers.push((group, q, a)),
            Err(e) => out.push(config_error(
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
    let section = text.get(c.range.clone()).unwrap_or("");
    let hay = unwrap_soft_breaks(&super::skip::blank(section, &claim.skip));
    let where_ = match &claim.section {
        Some(s) => format!("section \"{s}\" of `{}`", claim.doc),
        None => format!("`{}`", claim.doc),
    };
    let mut matched = false;
    for caps in c.pattern.captures_iter(&hay) {
        matched = true;
        let Some(whole) = caps.get(0) else { continue };
        let (mline, _) = index.position(text, c.range.start + whole.start());
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
            let abs = c.range.start + m.start();
            let (line, col) = index.position(text, abs);
            let here = |code: &'static Code, msg: String| {
                Diagnostic::new(
                    code,
                    format!("claim `{}`, group `{group}`: {msg}", claim.name),
                )
                .file(claim.doc.clone())
                .at(line, col)
                .width(m.as_str().chars().count())
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
                    for (off, piece, problem) in super::strict::check(written, |p| {
                        extract(cat, q.set, &claim.doc, p).into_keys().collect()
                    }) {
                        let (line, col) = index.position(text, abs + off);
                        let (code, msg) = match problem {
                            super::strict::Problem::Unknown(p) => (
                                &codes::CLAIM_LIST_UNKNOWN,
                                format!("`{p}` is not one {} by itself; a strict list names each member alone", member_word(q.set)),
                            ),
                            super::strict::Problem::Repeated(id) => (
                                &codes::CLAIM_LIST_REPEATED,
                                format!("`{id}` is named a second time in this list"),
                            ),
                        };
                        out.push(
                            Diagnostic::new(
                                code,
                                format!("claim `{}`, group `{group}`: {msg}", claim.name),
                            )
                            .file(claim.doc.clone())
                            .at(line, col)
                            .width(piece.chars().count()),
                        );
                    }
                    id_groups.push(IdGroup {
                        group,
                        query: q,
                        answer,
                        found: extract(cat, q.set, &claim.doc, written),
                        offset: abs,
                    });
                }
                Kind::Ids => id_groups.push(IdGroup {
                    group,
                    query: q,
                    answer,
                    found: extract(cat, q.set, &claim.doc, written),
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
                let (line, col) = index.position(text, c.range.start + m.start());
                out.push(
                    Diagnostic::new(
                        &codes::CLAIM_VERSION,
                        format!(
                            "claim `{}`, group `{group}`: the document says version `{written}`, catalogue.yaml says `{want}`",
                            claim.name
                        ),
                    )
                    .file(claim.doc.clone())
                    .at(line, col)
                    .width(written.chars().count()),
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
            let env = super::arith::Env {
                cat,
                scope: &scope,
                groups: &texts,
                section: &hay,
                memo,
            };
            for (group, e) in &c.exprs {
                let Some(m) = caps.name(group) else { continue };
                let (line, col) = index.position(text, c.range.start + m.start());
                out.extend(expression_findings(
                    claim,
                    group,
                    e,
                    &env,
                    m.as_str(),
                    (line, col),
                ));
            }
        }
        // In document order, so "listed under both" points at the second place.
        id_groups.sort_by_key(|g| g.offset);
        out.extend(compare_ids(cat, claim, text, &index, &id_groups));
    }
    if !matched {
        out.push(
            Diagnostic::new(
                &codes::CLAIM_UNMATCHED,
                format!(
                    "claim `{}`: the pattern no longer matches in {where_} — reworded? this claim would go unchecked",
                    claim.name
                ),
            )
            .file(claim.doc.clone())
            .line(c.heading_line),
        );
    }
    out
}

/// A group held to an expression: the number it states against each part.
fn expression_findings(
    claim: &ClaimDecl,
    group: &str,
    e: &super::arith::Expectation,
    env: &super::arith::Env<'_>,
    written: &str,
    (line, col): (usize, usize),
) -> Vec<Diagnostic> {
    let here = |code: &'static Code, msg: String| {
        Diagnostic::new(
            code,
            format!("claim `{}`, group `{group}`: {msg}", claim.name),
        )
        .file(claim.doc.clone())
        .at(line, col)
        .width(written.chars().count())
    };
    let n = match numbers::read(written) {
        Ok(n) => n as f64,
        Err(numbers::Unreadable(w)) => {
            return vec![here(
                &codes::CLAIM_NUMBER_UNREADABLE,
                format!(
                    "`{w}` is not a number auditbook can read (held to `{}`)",
                    e.text
                ),
            )]
        }
    };
    let mut out = Vec::new();
    for (bound, expr) in &e.parts {
        match super::arith::eval(expr, env) {
            Ok(v) if super::arith::holds(*bound, n, v) => {}
            Ok(v) => out.push(
                here(
                    &codes::CLAIM_COUNT,
                    format!(
                        "the document says {} (`{}`), which must be {} {} ({})",
                        super::arith::show(n),
                        written.trim(),
                        bound.as_str(),
                        super::arith::show(v),
                        e.text
                    ),
                )
                .help(format!(
                    "the catalogue gives {}: correct the number, or the claim if the sentence means something else",
                    super::arith::show(v)
                )),
            ),
            Err(msg) => out.push(
                here(
                    &codes::CLAIM_INVALID,
                    format!("`{}` cannot be evaluated for this match: {msg}", e.text),
                ),
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
    text: &str,
    index: &LineIndex,
    groups: &[IdGroup<'_>],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at = |g: &IdGroup<'_>, id: &str, code: &'static Code, msg: String| {
        let off = g.offset + g.found.get(id).copied().unwrap_or(0);
        let (line, col) = index.position(text, off);
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
            let (line, col) = index.position(text, g.offset);
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

/// The ids a group's text names: check ids as links and mentions are read everywhere else,
/// category prefixes as words, rule ids as `PREFIX-N` with a known rule prefix.
pub(super) fn extract(
    cat: &Catalogue,
    set: Set,
    doc: &str,
    written: &str,
) -> BTreeMap<String, usize> {
    let mut found = BTreeMap::new();
    if set.holds_check_ids() {
        let link_rules = markdown::LinkRules::of(cat);
        let rules = link_rules.with(&cat.categories);
        for r in markdown::outline(written, 1, doc, &rules, None).references {
            let off = written.find(r.target.as_str()).unwrap_or(0);
            found.entry(r.target.to_string()).or_insert(off);
        }
        return found;
    }
    let prefixes: BTreeSet<&str> = cat
        .rules
        .iter()
        .filter_map(|r| r.id.rsplit_once('-').map(|(p, _)| p))
        .collect();
    for (off, tok) in words(written) {
        let keep = match set {
            Set::Categories => cat.is_category(tok),
            _ => tok.rsplit_once('-').is_some_and(|(p, n)| {
                prefixes.contains(p) && !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
            }),
        };
        if keep {
            found.entry(tok.to_string()).or_insert(off);
        }
    }
    found
}

fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    std::iter::once(0)
        .chain(
            s.match_indices(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .map(|(i, d)| i + d.len()),
        )
        .filter_map(move |start| {
            let rest = s.get(start..)?;
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(rest.len());
            (end > 0).then(|| (start, &rest[..end]))
        })
}

/// Soft line breaks become spaces, byte for byte, so offsets stay those of the document.
pub(crate) fn unwrap_soft_breaks(s: &str) -> String {
    let lines: Vec<&str> = s.split('\n').collect();
    let mut out = String::with_capacity(s.len());
    for (i, l) in lines.iter().enumerate() {
        out.push_str(l);
        let Some(next) = lines.get(i + 1) else { break };
        let n = next.trim_start();
        let block_start = n.is_empty()
            || l.trim().is_empty()
            || n.starts_with(['|', '#', '>', '-', '*', '+'])
            || n.starts_with("```")
            || n.starts_with("<!--")
            || n.split_once(". ")
                .is_some_and(|(d, _)| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        out.push(if block_start { '\n' } else { ' ' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_breaks_join_but_blocks_stay_apart() {
        let s = "a sentence\nwrapped here.\n\n- item\n| x |\n1. one\ntext";
        let u = unwrap_soft_breaks(s);
        assert_eq!(u.len(), s.len());
        assert_eq!(u, "a sentence wrapped here.\n\n- item\n| x |\n1. one text");
    }

    #[test]
    fn words_with_offsets() {
        let w: Vec<_> = words("FID und `DRIFT`, FIDELITY-12.").collect();
        assert!(w.contains(&(0, "FID")));
        assert!(w.contains(&(9, "DRIFT")));
        assert!(w.contains(&(17, "FIDELITY-12")));
    }
}
