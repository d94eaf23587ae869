//! Set claims (`members:`): what a document enumerates — numbered headings, the items of a
//! numbered or bulleted list, rule-number mentions in prose, a list split at a separator —
//! held as a set against the catalogue (rule numbers, ids, a profile field's vocabulary, the
//! literals the checks' `applies_when` compare a field with) or against what another
//! document enumerates. A member the document lacks, one it names that the other side does
//! not know, and one it names twice are findings, each at the text it read.

use crate::claims::locate::{self, declaration_error, Place};
use crate::claims::memo::Memo;
use crate::claims::query::{self, Scope, Set};
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

/// How a document is read.
#[derive(Debug)]
enum Read {
    /// Headings whose text matches; the first group (else the match) is the member.
    Headings(Regex),
    /// The numbers of a numbered list's items (`1.`, `2)`).
    List,
    /// Numbers after a keyword, with ranges and conjunctions (`Regeln 1, 3 und 8–12`).
    Mentions(Regex),
    /// The items of a bullet list: an item's code span, else its text up to a dash or colon.
    Bullets,
    /// The claim's pattern's first group, split at the separator.
    Split(String),
}

impl Read {
    fn numeric(&self) -> bool {
        matches!(self, Read::List | Read::Mentions(_))
    }
}

/// A document read, and where.
struct Source<'c> {
    place: Place<'c>,
    read: Read,
}

/// One member a document names: its text and where it was read.
#[derive(Clone, Debug)]
struct Item {
    value: String,
    offset: usize,
    width: usize,
}

/// The side a document is held against.
enum Other<'c> {
    Catalogue {
        values: BTreeSet<String>,
        text: String,
    },
    Document(Source<'c>),
}

/// Parse a read form: `headings("RE")`, `list`, `mentions("RE")`, `bullets`, `split("SEP")`.
fn parse_read(src: &str) -> Result<Read, String> {
    let src = src.trim();
    match src {
        "list" => return Ok(Read::List),
        "bullets" => return Ok(Read::Bullets),
        _ => {}
    }
    let (name, arg) = call(src).ok_or_else(|| {
        format!("`{src}` is no reading; write headings(\"REGEX\"), list, mentions(\"REGEX\"), bullets or split(\"SEPARATOR\")")
    })?;
    let regex = |a: &str| {
        Regex::new(a).map_err(|e| format!("`{src}`: not a valid regular expression: {e}"))
    };
    match name {
        "headings" => Ok(Read::Headings(regex(&arg)?)),
        "mentions" => Ok(Read::Mentions(regex(&arg)?)),
        "split" if !arg.is_empty() => Ok(Read::Split(arg)),
        "split" => Err(format!("`{src}`: the separator is empty")),
        _ => Err(format!(
            "`{src}`: unknown reading `{name}`; readings are headings, list, mentions, bullets, split"
        )),
    }
}

/// `name("ARG")` (double or single quotes, `\"` and `\\` escaped) → (name, ARG).
fn call(src: &str) -> Option<(&str, String)> {
    let open = src.find('(')?;
    let name = src.get(..open)?.trim();
    let inner = src.get(open + 1..)?.trim().strip_suffix(')')?.trim();
    let q = inner.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = inner.strip_prefix(q)?.strip_suffix(q)?;
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n) if n == q || n == '\\' => out.push(n),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Some((name, out))
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
        let read = parse_read(c.name("read").map_or("", |m| m.as_str())).map_err(|e| vec![e])?;
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
        Other::Catalogue { values, text }
    })
}

/// `numbers(rules …)`, `ids(SET …)`, `values(profile.FIELD)`, `literals(FIELD)`.
fn catalogue_set(
    cat: &Catalogue,
    src: &str,
    own: &Source<'_>,
) -> Result<(BTreeSet<String>, String), Vec<String>> {
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
        let values = a
            .selected
            .iter()
            .map(|id| normal(id.rsplit_once('-').map_or(id.as_str(), |(_, n)| n)))
            .collect();
        return Ok((values, text));
    }
    if inner("ids").is_some() {
        let q = query::parse(cat, src).map_err(|e| vec![e])?;
        let a = query::eval(cat, &q, &own.place.scope()).map_err(|e| vec![e])?;
        return Ok((a.selected, text));
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
        return Ok((values, text));
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

/// A number without leading zeros; any other text as it is.
fn normal(v: &str) -> String {
    match v.parse::<u64>() {
        Ok(n) if v.chars().all(|c| c.is_ascii_digit()) => n.to_string(),
        _ => v.to_string(),
    }
}

/// Trim a list piece of space, code and emphasis marks and closing punctuation.
fn clean(piece: &str) -> (&str, usize) {
    let trimmed = piece.trim_start_matches([' ', '\t', '\u{a0}', '`', '*', '_']);
    let lead = piece.len() - trimmed.len();
    let t = trimmed.trim_end_matches([' ', '\t', '\u{a0}', '`', '*', '_', '.', ';', ',', ':']);
    (t, lead)
}

fn read(src: &Source<'_>, skip: &[crate::model::config::SkipRegion]) -> Vec<Item> {
    let place = &src.place;
    let text = &place.doc.text;
    let section = place.text();
    let base = place.range.start;
    let mut out = Vec::new();
    let mut item = |value: String, offset: usize, width: usize| {
        out.push(Item {
            value,
            offset,
            width,
        })
    };
    match &src.read {
        Read::Headings(re) => {
            for h in &place.doc.outline.headings {
                if !place.range.contains(&h.range.start) {
                    continue;
                }
                let Some(c) = re.captures(&h.text) else {
                    continue;
                };
                let Some(m) = c.get(1).or_else(|| c.get(0)) else {
                    continue;
                };
                let raw = text.get(h.range.clone()).unwrap_or("");
                let at = raw.find(m.as_str()).unwrap_or(0);
                item(normal(m.as_str()), h.range.start + at, m.as_str().len());
            }
        }
        Read::List | Read::Bullets => {
            let mut kinds = skip.to_vec();
            kinds.push(crate::model::config::SkipRegion::Code);
            let hay = crate::claims::skip::blank(section, &kinds);
            let numbered = Regex::new(r"(?m)^[ ]{0,3}(\d{1,6})[.)][ \t]");
            let bullet = Regex::new(r"(?m)^[ ]{0,3}[-*+][ \t]+(.+)$");
            let (Ok(numbered), Ok(bullet)) = (numbered, bullet) else {
                return out;
            };
            if matches!(src.read, Read::List) {
                for c in numbered.captures_iter(&hay) {
                    if let Some(m) = c.get(1) {
                        item(normal(m.as_str()), base + m.start(), m.len());
                    }
                }
            } else {
                for c in bullet.captures_iter(&hay) {
                    let Some(m) = c.get(1) else { continue };
                    let line = m.as_str();
                    let (v, off) = bullet_value(line);
                    if !v.is_empty() {
                        item(v.to_string(), base + m.start() + off, v.len());
                    }
                }
            }
        }
        Read::Mentions(re) => {
            let mut kinds = skip.to_vec();
            kinds.push(crate::model::config::SkipRegion::Code);
            let hay = place.hay(&kinds);
            for m in crate::claims::mentions::read(re, &hay) {
                item(m.number.to_string(), base + m.offset, m.width);
            }
        }
        Read::Split(_) => {}
    }
    out
}

/// A bullet item's member: its leading code span, else its text up to ` — `, ` – `, ` - `
/// or `: `, marks trimmed.
fn bullet_value(line: &str) -> (&str, usize) {
    let l = line.trim_start_matches(['*', '_']);
    let lead = line.len() - l.len();
    if let Some(rest) = l.strip_prefix('`') {
        if let Some(end) = rest.find('`') {
            return (rest.get(..end).unwrap_or("").trim(), lead + 1);
        }
    }
    let end = [" — ", " – ", " - ", ": ", " ("]
        .iter()
        .filter_map(|s| line.find(s))
        .min()
        .unwrap_or(line.len());
    let (v, off) = clean(line.get(..end).unwrap_or(""));
    (v, off)
}

/// The pieces of every match of the claim's pattern (its first group), split at `sep`.
fn read_split(src: &Source<'_>, claim: &ClaimDecl, pattern: &Regex, sep: &str) -> Vec<Item> {
    let hay = src.place.hay(&claim.skip);
    let mut out = Vec::new();
    for c in pattern.captures_iter(&hay) {
        let group = pattern
            .capture_names()
            .flatten()
            .next()
            .and_then(|n| c.name(n))
            .or_else(|| c.get(1));
        let Some(g) = group else { continue };
        let mut start = 0;
        let whole = g.as_str();
        for piece in whole.split(sep) {
            let (v, lead) = clean(piece);
            if !v.is_empty() {
                out.push(Item {
                    value: v.to_string(),
                    offset: src.place.range.start + g.start() + start + lead,
                    width: v.len(),
                });
            }
            start += piece.len() + sep.len();
        }
    }
    out
}

/// What is wrong with a set claim's declaration, without reading its document.
#[cfg(any(test, feature = "internals"))]
fn problems(claim: &ClaimDecl, m: &MembersDecl) -> Vec<String> {
    let mut out = Vec::new();
    match parse_read(&m.read) {
        Ok(Read::Split(_)) if claim.pattern.is_empty() => {
            out.push("`split` reads the claim's `pattern`, and there is none".into())
        }
        Ok(Read::Split(_)) => {
            if let Err(e) = Regex::new(&claim.pattern) {
                out.push(format!("pattern: {e}"));
            }
        }
        Ok(_) => {}
        Err(e) => out.push(e),
    }
    let known = ["numbers(", "ids(", "values(", "literals("];
    let e = m.equals.trim();
    if !known.iter().any(|k| e.starts_with(k)) && !e.contains(" in \"") {
        out.push(format!("`{e}` is not a set the claim can be held against"));
    }
    out
}

fn check(cat: &Catalogue, claim: &ClaimDecl, m: &MembersDecl) -> Vec<Diagnostic> {
    let bad = |msg: String| declaration_error(cat, claim, &codes::CLAIM_INVALID, msg);
    if !claim.expect.is_empty() || claim.table.is_some() {
        return vec![bad(
            "a set claim (`members`) compares sets: leave out `expect` and `table`".into(),
        )];
    }
    let read_form = match parse_read(&m.read) {
        Ok(r) => r,
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
    let other = match parse_other(cat, &m.equals, &own) {
        Ok(o) => o,
        Err(es) => return es.into_iter().map(bad).collect(),
    };
    let items = match &own.read {
        Read::Split(sep) => {
            let pattern = match Regex::new(&claim.pattern) {
                Ok(p) if !claim.pattern.is_empty() => p,
                Ok(_) => {
                    return vec![bad(
                        "`split` reads the claim's `pattern`, and there is none".into(),
                    )]
                }
                Err(e) => {
                    return vec![bad(format!(
                        "the pattern is not a valid regular expression: {e}"
                    ))]
                }
            };
            read_split(&own, claim, &pattern, sep)
        }
        _ => read(&own, &claim.skip),
    };
    let (doc, heading_line) = (own.place.doc, own.place.heading_line);
    let position = |offset: usize| own.place.position(offset);
    let here = own.place.described();
    if items.is_empty() {
        return vec![Diagnostic::new(
            &codes::CLAIM_UNMATCHED,
            format!(
                "claim `{}`: `{}` reads nothing in {here} — reworded or moved? the claim would go unchecked",
                claim.name, m.read.trim()
            ),
        )
        .file(claim.doc.clone())
        .line(heading_line)
        .help(codes::CLAIM_UNMATCHED.help)];
    }
    let (expected, what) = match &other {
        Other::Catalogue { values, text } => (values.clone(), format!("`{text}`")),
        Other::Document(src) => {
            let theirs = read(src, &[]);
            if theirs.is_empty() {
                return vec![bad(format!(
                    "`{}` reads nothing in {}, so there is nothing to compare with",
                    m.equals.trim(),
                    src.place.described()
                ))];
            }
            (
                theirs.into_iter().map(|i| i.value).collect(),
                format!("`{}`", m.equals.trim()),
            )
        }
    };
    let shown = |set: &BTreeSet<String>| show(set);
    let at = |item: &Item, code: &'static Code, msg: String| {
        let (line, col) = position(item.offset);
        Diagnostic::new(code, format!("claim `{}`: {msg}", claim.name))
            .file(claim.doc.clone())
            .at(line, col)
            .width(
                doc.text
                    .get(item.offset..item.offset + item.width)
                    .map_or(1, |t| t.chars().count().max(1)),
            )
            .help(code.help)
    };
    let mut out = Vec::new();
    let mut first: BTreeMap<&str, usize> = BTreeMap::new();
    for it in &items {
        let (line, _) = position(it.offset);
        if let Some(prev) = first.get(it.value.as_str()) {
            out.push(at(
                it,
                &codes::CLAIM_SET_REPEATED,
                format!(
                    "{here} names `{}` at line {line} a second time (first at line {prev})",
                    it.value
                ),
            ));
            continue;
        }
        first.insert(&it.value, line);
        if !expected.contains(&it.value) {
            out.push(at(
                it,
                &codes::CLAIM_SET_EXTRA,
                format!(
                    "{here} names `{}` at line {line}, but {what} has no such member (it has {})",
                    it.value,
                    shown(&expected)
                ),
            ));
        }
    }
    let read_set: BTreeSet<String> = items.iter().map(|i| i.value.clone()).collect();
    let missing: Vec<&String> = expected.difference(&read_set).collect();
    if let Some(anchor) = items.first() {
        for v in missing {
            let (line, col) = position(anchor.offset);
            out.push(
                Diagnostic::new(
                    &codes::CLAIM_SET_MISSING,
                    format!(
                        "claim `{}`: {what} has `{v}`, but {here} never names it (read from line {line}: {})",
                        claim.name,
                        show(&read_set)
                    ),
                )
                .file(claim.doc.clone())
                .at(line, col)
                .help(codes::CLAIM_SET_MISSING.help),
            );
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_forms_parse() {
        assert!(matches!(parse_read("list"), Ok(Read::List)));
        assert!(matches!(
            parse_read(r#"headings("^Regel (\d+)$")"#),
            Ok(Read::Headings(_))
        ));
        assert!(matches!(parse_read("split(' / ')"), Ok(Read::Split(s)) if s == " / "));
        assert!(parse_read("split('')").is_err());
        assert!(parse_read("headings(\"(\")").is_err());
        assert!(parse_read("absaetze").is_err());
    }

    #[test]
    fn bullet_members() {
        assert_eq!(bullet_value("`stdio` — lokal").0, "stdio");
        assert_eq!(bullet_value("**http**: entfernt").0, "http");
        assert_eq!(bullet_value("sse (veraltet)").0, "sse");
        assert_eq!(bullet_value("dual").0, "dual");
    }

    #[test]
    fn pieces_are_cleaned() {
        assert_eq!(clean(" `stdio` ").0, "stdio");
        assert_eq!(clean("**sse**.").0, "sse");
        assert_eq!(normal("007"), "7");
        assert_eq!(normal("FID-001"), "FID-001");
    }
}
