//! Set claims (`members:`): what a document enumerates — read by `readings` — held as a set
//! against the catalogue (rule numbers, ids, a profile field's vocabulary, the literals the
//! checks' `applies_when` compare a field with) or against what another document enumerates.
//! `equals` holds the set both ways: a member the document lacks, one it names that the other
//! side does not know, and one a list names twice are findings. `includes` holds only the
//! first ("every rule is mentioned"), repeats and other members allowed. `contiguous` holds
//! numbers to running without a gap, `ordered` the members to the other side's order. Every
//! finding is at the text it read.

use crate::claims::locate::{self, declaration_error, Place};
use crate::claims::memo::Memo;
use crate::claims::query::{self, Scope, Set};
use crate::claims::readings::{self, normal, Item, Read};
use crate::diag::{codes, Code, Diagnostic};
use crate::dsl::{ExprKind, Operand};
use crate::model::config::{ClaimDecl, MembersDecl};
use crate::model::Catalogue;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};

pub struct Members;

impl super::Form for Members {
    fn declares(&self, claim: &ClaimDecl) -> bool {
        claim.members.is_some()
    }

    fn check(&self, cat: &Catalogue, claim: &ClaimDecl, _memo: &Memo) -> Vec<Diagnostic> {
        match &claim.members {
            Some(m) => check(cat, claim, m),
            None => Vec::new(),
        }
    }

    #[cfg(any(test, feature = "internals"))]
    fn problems(&self, _cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
        match &claim.members {
            Some(m) => problems(claim, m),
            None => Vec::new(),
        }
    }
}

/// A document read, and where.
struct Source<'c> {
    place: Place<'c>,
    read: Read,
}

/// The side a document is held against: its members in its own order.
enum Other<'c> {
    Catalogue { values: Vec<String>, text: String },
    Document(Source<'c>),
}

/// How the members read stand to the other side.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Relation {
    /// The same set: nothing missing, nothing unknown, nothing named twice in a list.
    Equals,
    /// A superset: every member of the other side is named, at least once.
    Includes,
}

/// The relation the declaration states and the other side's text.
fn relation(m: &MembersDecl) -> Result<(Relation, &str), String> {
    match (&m.equals, &m.includes) {
        (Some(e), None) => Ok((Relation::Equals, e.as_str())),
        (None, Some(i)) => Ok((Relation::Includes, i.as_str())),
        (Some(_), Some(_)) => Err("a set claim states one relation: `equals` or `includes`, not both".into()),
        (None, None) => Err("a set claim names the set it is held to: `equals: SET` (the same members) or `includes: SET` (every one of them, and possibly more)".into()),
    }
}

/// The other side: `READ in "DOC" [section "TITLE"]`, or a set of the catalogue.
fn parse_other<'c>(
    cat: &'c Catalogue,
    src: &str,
    own: &Source<'_>,
) -> Result<Other<'c>, Vec<String>> {
    let src = src.trim();
    let in_doc = Regex::new(
        r#"^(?s)(?P<read>.+?)\s+in\s+"(?P<doc>[^"]+)"(?:\s+section\s+"(?P<sec>[^"]+)")?$"#,
    )
    .map_err(|e| vec![e.to_string()])?;
    if let Some(c) = in_doc.captures(src) {
        let read = readings::parse(c.name("read").map_or("", |m| m.as_str())).map_err(|e| vec![e])?;
        let path = c.name("doc").map_or("", |m| m.as_str());
        let section = c.name("sec").map(|m| m.as_str());
        let place = locate::locate_in(cat, path, section).map_err(|e| vec![e])?;
        return Ok(Other::Document(Source { place, read }));
    }
    let numeric_own = own.read.numeric();
    catalogue_set(cat, src, own).map(|(mut values, text)| {
        if numeric_own {
            values = values.into_iter().map(|v| normal(&v)).collect();
        }
        let mut seen = BTreeSet::new();
        values.retain(|v| seen.insert(v.clone()));
        Other::Catalogue { values, text }
    })
}

/// `numbers(rules …)`, `ids(SET …)`, `values(profile.FIELD)`, `literals(FIELD)`: the members
/// in the catalogue's order (numbers ascending, categories and vocabulary values as declared,
/// ids by prefix and number).
fn catalogue_set(
    cat: &Catalogue,
    src: &str,
    own: &Source<'_>,
) -> Result<(Vec<String>, String), Vec<String>> {
    let text = src.to_string();
    let inner = |prefix: &str| {
        src.strip_prefix(prefix)
            .map(str::trim)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
            .map(str::trim)
    };
    if let Some(set) = inner("numbers") {
        let q = query::parse(cat, &format!("ids({set})")).map_err(|e| vec![e])?;
        if q.set != Set::Rules {
            return Err(vec![format!(
                "`{src}`: numbers are read from rules only (`numbers(rules where set == \"NAME\")`)"
            )]);
        }
        let a = query::eval(cat, &q, &Scope::default()).map_err(|e| vec![e])?;
        let mut values: Vec<String> = a
            .selected
            .iter()
            .map(|id| normal(id.rsplit_once('-').map_or(id.as_str(), |(_, n)| n)))
            .collect();
        values.sort_by_key(|v| (v.parse::<u64>().unwrap_or(u64::MAX), v.clone()));
        return Ok((values, text));
    }
    if inner("ids").is_some() {
        let q = query::parse(cat, src).map_err(|e| vec![e])?;
        let scope = Scope::of(own.place.doc, own.place.lines());
        let a = query::eval(cat, &q, &scope).map_err(|e| vec![e])?;
        let values = if q.set == Set::Categories {
            cat.categories
                .iter()
                .filter(|c| a.selected.contains(*c))
                .cloned()
                .collect()
        } else {
            let mut ids: Vec<String> = a.selected.into_iter().collect();
            ids.sort_by_key(|id| id_order(id));
            ids
        };
        return Ok((values, text));
    }
    if let Some(field) = inner("values") {
        let name = field.strip_prefix("profile.").unwrap_or(field);
        let decl = cat.config.profile.as_ref().and_then(|p| p.fields.get(name));
        return match decl {
            None => {
                let known = cat
                    .config
                    .profile
                    .as_ref()
                    .map(|p| p.fields.keys().map(String::as_str).collect::<Vec<_>>())
                    .unwrap_or_default();
                let hint = crate::text::suggest::suggest(name, known.iter().copied())
                    .map(|s| format!("; did you mean `profile.{s}`?"))
                    .unwrap_or_default();
                Err(vec![format!(
                    "`{src}`: the profile schema has no field `{name}`{hint}"
                )])
            }
            Some(f) if f.open || f.values.is_none() => Err(vec![format!(
                "`{src}`: `{name}` has no closed vocabulary (`values` without `open: true`)"
            )]),
            Some(f) => Ok((f.values.iter().flatten().cloned().collect(), text)),
        };
    }
    if let Some(field) = inner("literals") {
        let name = field.strip_prefix("profile.").unwrap_or(field);
        let values = literals(cat, name);
        if values.is_empty() {
            return Err(vec![format!(
                "`{src}`: no check's `applies_when` compares `{name}` with a literal"
            )]);
        }
        return Ok((values.into_iter().collect(), text));
    }
    Err(vec![format!(
        "`{src}` is not a set; write numbers(rules …), ids(SET …), values(profile.FIELD), literals(FIELD), or a reading `in \"DOC\"`"
    )])
}

/// The string literals every check's `applies_when` compares `field` with (`==`, `!=`,
/// `.includes`).
pub fn literals(cat: &Catalogue, field: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for c in &cat.checks {
        let Ok(expr) = crate::dsl::parse(&c.applies_when) else {
            continue;
        };
        let mut stack = vec![&expr];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Or(k) | ExprKind::And(k) => stack.extend(k),
                ExprKind::Includes { path, value } if path.dotted() == field => {
                    out.insert(value.value.clone());
                }
                ExprKind::Compare { left, right, .. } => {
                    for (a, b) in [(left, right), (right, left)] {
                        if let (Operand::Path(p), Operand::Str(s)) = (a, b) {
                            if p.dotted() == field {
                                out.insert(s.value.clone());
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// What is wrong with a set claim's declaration, without reading its document.
#[cfg(any(test, feature = "internals"))]
fn problems(claim: &ClaimDecl, m: &MembersDecl) -> Vec<String> {
    let mut out = Vec::new();
    match readings::parse(&m.read) {
        Ok(read) => {
            if let Err(e) = pattern_of(claim, &read) {
                out.push(e);
            }
        }
        Err(e) => out.push(e),
    }
    match relation(m) {
        Ok((_, e)) => {
            let known = ["numbers(", "ids(", "values(", "literals("];
            let e = e.trim();
            if !known.iter().any(|k| e.starts_with(k)) && !e.contains(" in \"") {
                out.push(format!("`{e}` is not a set the claim can be held against"));
            }
        }
        Err(e) => out.push(e),
    }
    out
}

/// The claim's pattern, for a reading that reads one: `split` needs it, `mentions` may have
/// it; the other readings read the document's structure, and a pattern beside them would
/// silently be ignored.
fn pattern_of(claim: &ClaimDecl, read: &Read) -> Result<Option<Regex>, String> {
    if claim.pattern.is_empty() {
        return match read {
            Read::Split(_) => Err("`split` reads the claim's `pattern`, and there is none".into()),
            _ => Ok(None),
        };
    }
    if !read.reads_pattern() {
        return Err(
            "only `split` and `mentions` read the claim's `pattern`; `headings`, `list` and `bullets` read the document's structure: leave `pattern` out".into(),
        );
    }
    Regex::new(&claim.pattern)
        .map(Some)
        .map_err(|e| format!("the pattern is not a valid regular expression: {e}"))
}

fn check(cat: &Catalogue, claim: &ClaimDecl, m: &MembersDecl) -> Vec<Diagnostic> {
    let bad = |msg: String| declaration_error(cat, claim, &codes::CLAIM_INVALID, msg);
    if !claim.expect.is_empty() || claim.table.is_some() {
        return vec![bad(
            "a set claim (`members`) compares sets: leave out `expect` and `table`".into(),
        )];
    }
    let read_form = match readings::parse(&m.read) {
        Ok(r) => r,
        Err(e) => return vec![bad(e)],
    };
    let (rel, other_src) = match relation(m) {
        Ok(r) => r,
        Err(e) => return vec![bad(e)],
    };
    if m.contiguous && !read_form.numeric() && !matches!(read_form, Read::Headings(_)) {
        return vec![bad(format!(
            "`contiguous` holds numbers, and `{}` reads words; read headings, a numbered list or mentions",
            m.read.trim()
        ))];
    }
    let pattern = match pattern_of(claim, &read_form) {
        Ok(p) => p,
        Err(e) => return vec![bad(e)],
    };
    let place = match locate::locate(cat, claim) {
        Ok(l) => l,
        Err(d) => return d,
    };
    let own = Source {
        place,
        read: read_form,
    };
    let other = match parse_other(cat, other_src, &own) {
        Ok(o) => o,
        Err(es) => return es.into_iter().map(bad).collect(),
    };
    let reading = readings::read(&own.place, &own.read, &claim.skip, pattern.as_ref());
    let items = reading.items;
    let here = own.place.described();
    let mut out = locate::match_count(cat, claim, &own.place, &reading.matches);
    if items.is_empty() {
        out.push(locate::unmatched(
            cat,
            claim,
            &own.place,
            format!(
                "`{}` reads nothing in {here} — reworded or moved? the claim would go unchecked",
                m.read.trim()
            ),
        ));
        return out;
    }
    let (expected, what) = match &other {
        Other::Catalogue { values, text } => (values.clone(), format!("`{text}`")),
        Other::Document(src) => {
            let theirs = readings::read(&src.place, &src.read, &[], None).items;
            if theirs.is_empty() {
                return vec![bad(format!(
                    "`{}` reads nothing in {}, so there is nothing to compare with",
                    other_src.trim(),
                    src.place.described()
                ))];
            }
            let mut seen = BTreeSet::new();
            let order = theirs
                .into_iter()
                .map(|i| i.value)
                .filter(|v| seen.insert(v.clone()))
                .collect();
            (order, format!("`{}`", other_src.trim()))
        }
    };
    let held = Held {
        claim,
        place: &own.place,
        items: &items,
        what: &what,
    };
    // Prose mentions a rule as often as it needs to; a list or a heading that repeats a
    // member has one too many.
    let repeats = rel == Relation::Equals && !matches!(own.read, Read::Mentions(_));
    out.extend(held.as_set(&expected, rel, repeats));
    if m.contiguous {
        out.extend(held.contiguous());
    }
    if m.ordered {
        out.extend(held.ordered(&expected));
    }
    out
}

/// The members one reading found, to be held to the other side.
struct Held<'a> {
    claim: &'a ClaimDecl,
    place: &'a Place<'a>,
    items: &'a [Item],
    /// How findings name the other side.
    what: &'a str,
}

impl Held<'_> {
    fn at(&self, item: &Item, code: &'static Code, msg: String) -> Diagnostic {
        let (line, col) = self.place.position(item.offset);
        Diagnostic::new(code, format!("claim `{}`: {msg}", self.claim.name))
            .file(self.claim.doc.clone())
            .at(line, col)
            .width(
                self.place
                    .doc
                    .text
                    .get(item.offset..item.offset + item.width)
                    .map_or(1, |t| t.chars().count().max(1)),
            )
            .help(code.help)
    }

    fn line(&self, item: &Item) -> usize {
        self.place.position(item.offset).0
    }

    /// Missing members; with `equals`, unknown ones and (when `repeats`) ones named twice.
    fn as_set(&self, expected: &[String], rel: Relation, repeats: bool) -> Vec<Diagnostic> {
        let here = self.place.described();
        let expected_set: BTreeSet<String> = expected.iter().cloned().collect();
        let mut out = Vec::new();
        let mut first: BTreeMap<&str, usize> = BTreeMap::new();
        for it in self.items {
            let line = self.line(it);
            if let Some(prev) = first.get(it.value.as_str()) {
                if repeats {
                    out.push(self.at(
                        it,
                        &codes::CLAIM_SET_REPEATED,
                        format!(
                            "{here} names `{}` at line {line} a second time (first at line {prev})",
                            it.value
                        ),
                    ));
                }
                continue;
            }
            first.insert(&it.value, line);
            if rel == Relation::Equals && !expected_set.contains(&it.value) {
                out.push(self.at(
                    it,
                    &codes::CLAIM_SET_EXTRA,
                    format!(
                        "{here} names `{}` at line {line}, but {} has no such member (it has {})",
                        it.value,
                        self.what,
                        show(&expected_set)
                    ),
                ));
            }
        }
        let read_set: BTreeSet<String> = self.items.iter().map(|i| i.value.clone()).collect();
        if let Some(anchor) = self.items.first() {
            let (line, col) = self.place.position(anchor.offset);
            for v in expected_set.difference(&read_set) {
                out.push(
                    Diagnostic::new(
                        &codes::CLAIM_SET_MISSING,
                        format!(
                            "claim `{}`: {} has `{v}`, but {here} never names it (read from line {line}: {})",
                            self.claim.name,
                            self.what,
                            show(&read_set)
                        ),
                    )
                    .file(self.claim.doc.clone())
                    .at(line, col)
                    .help(codes::CLAIM_SET_MISSING.help),
                );
            }
        }
        out
    }

    /// The numbers read run from the smallest to the largest without a gap: each number
    /// after a gap is a finding, naming what is missing before it.
    fn contiguous(&self) -> Vec<Diagnostic> {
        let mut numbers: BTreeMap<u64, &Item> = BTreeMap::new();
        let mut out = Vec::new();
        for it in self.items {
            match it.value.parse::<u64>() {
                Ok(n) => {
                    numbers.entry(n).or_insert(it);
                }
                Err(_) => out.push(self.at(
                    it,
                    &codes::CLAIM_NUMBERING_GAP,
                    format!(
                        "`{}` is no number, and `contiguous` holds the numbering of {}",
                        it.value,
                        self.place.described()
                    ),
                )),
            }
        }
        let all: Vec<u64> = numbers.keys().copied().collect();
        for pair in all.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            if after == before + 1 {
                continue;
            }
            let Some(item) = numbers.get(&after) else { continue };
            let missing = if after == before + 2 {
                format!("{} is missing", before + 1)
            } else {
                format!("{}–{} are missing", before + 1, after - 1)
            };
            out.push(self.at(
                item,
                &codes::CLAIM_NUMBERING_GAP,
                format!(
                    "the numbering of {} jumps from {before} to {after}: {missing} (read: {})",
                    self.place.described(),
                    all.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        out
    }

    /// The members read, each at its first mention, come in the order `expected` has them:
    /// a member read after one the other side puts behind it is a finding.
    fn ordered(&self, expected: &[String]) -> Vec<Diagnostic> {
        let rank: BTreeMap<&str, usize> = expected
            .iter()
            .enumerate()
            .map(|(i, v)| (v.as_str(), i))
            .collect();
        let mut seen = BTreeSet::new();
        let mut latest: Option<(&Item, usize)> = None;
        let mut out = Vec::new();
        for it in self.items {
            if !seen.insert(it.value.as_str()) {
                continue;
            }
            let Some(&r) = rank.get(it.value.as_str()) else { continue };
            match latest {
                Some((prev, pr)) if r < pr => out.push(self.at(
                    it,
                    &codes::CLAIM_SET_ORDER,
                    format!(
                        "`{}` (line {}) comes after `{}` (line {}), but {} puts it before: {}",
                        it.value,
                        self.line(it),
                        prev.value,
                        self.line(prev),
                        self.what,
                        expected.join(", ")
                    ),
                )),
                _ => latest = Some((it, r)),
            }
        }
        out
    }
}

/// A set as `a, b, c`, numbers in numeric order.
fn show(set: &BTreeSet<String>) -> String {
    let mut v: Vec<&String> = set.iter().collect();
    v.sort_by_key(|s| (s.parse::<u64>().unwrap_or(u64::MAX), s.to_string()));
    let s: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
    if s.is_empty() {
        "none".into()
    } else {
        s.join(", ")
    }
}

/// How ids sort when the catalogue has no order of its own for them: by prefix, then by
/// number (`FID-2` before `FID-10`).
fn id_order(id: &str) -> (String, u64, String) {
    match id.rsplit_once('-') {
        Some((p, n)) if n.chars().all(|c| c.is_ascii_digit()) => {
            (p.to_string(), n.parse().unwrap_or(u64::MAX), id.to_string())
        }
        _ => (id.to_string(), 0, id.to_string()),
    }
}
