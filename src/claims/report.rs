//! Claims over an audit report (`verify --claims claims.yaml --report audit.json`): the same
//! claims (`pattern`, named groups, `expect`) with queries that read the report instead of the
//! catalogue — `count(audit.pass)`, `count(audit.findings)`, `audit.score`, `audit.verdict`,
//! `audit.statuses`, `ids(audit.blocking)` — so "63 bestanden, 1 nicht bestanden, 3 teilweise;
//! Score 85/100" in a SECURITY.md is held to the report it quotes. Status and verdict words
//! are read in German and English; a word this does not know is a finding, never a guess.

use super::numbers;
use super::query::Bound;
use crate::diag::{codes, Code, Diagnostic};
use crate::load::audit_report::Facts;
use crate::model::config::ClaimDecl;
use crate::model::Catalogue;
use regex::Regex;
use std::collections::BTreeSet;

/// The prefix that makes a query one over the report.
pub const PREFIX: &str = "audit.";

/// Whether a claim reads the audit report (any of its queries names `audit.…`).
pub fn is_report_claim(c: &ClaimDecl) -> bool {
    c.expect.values().any(|q| q.contains(PREFIX))
}

/// Counts a query may name: the statuses, then the report's totals.
const COUNTS: &[&str] = &[
    "pass",
    "fail",
    "partial",
    "not_verified",
    "todo",
    "n/a",
    "missing",
    "rejected",
    "checks",
    "applicable",
    "findings",
    "advisory_findings",
    "blocking",
    "would_have_blocked",
];

const ID_LISTS: &[&str] = &["findings", "advisory_findings", "blocking", "not_verified"];

/// Status words as German and English prose writes them, folded to lower case.
const STATUS_WORDS: &[(&str, &[&str])] = &[
    ("pass", &["pass", "passed", "bestanden", "erfüllt"]),
    (
        "fail",
        &[
            "fail",
            "failed",
            "failing",
            "nicht bestanden",
            "durchgefallen",
            "nicht erfüllt",
        ],
    ),
    (
        "partial",
        &[
            "partial",
            "partially",
            "partly",
            "teilweise",
            "teilweise erfüllt",
            "teilweise bestanden",
        ],
    ),
    (
        "not_verified",
        &[
            "not verified",
            "not_verified",
            "unverified",
            "nicht geprüft",
            "nicht verifiziert",
            "ungeprüft",
        ],
    ),
    ("todo", &["todo", "to do", "open", "offen"]),
    (
        "n/a",
        &[
            "n/a",
            "not applicable",
            "nicht anwendbar",
            "entfällt",
            "nicht zutreffend",
        ],
    ),
    ("missing", &["missing", "fehlend", "fehlt"]),
    (
        "rejected",
        &["rejected", "abgelehnt", "zurückgewiesen", "verworfen"],
    ),
];

const VERDICT_WORDS: &[(&str, &[&str])] = &[
    (
        "production-ready",
        &[
            "production-ready",
            "production ready",
            "ready for production",
            "produktionsreif",
            "produktionsbereit",
            "bereit für den produktivbetrieb",
        ],
    ),
    (
        "not-production-ready",
        &[
            "not-production-ready",
            "not production-ready",
            "not production ready",
            "not ready for production",
            "nicht produktionsreif",
            "nicht produktionsbereit",
            "nicht bereit für den produktivbetrieb",
        ],
    ),
];

#[derive(Clone, Debug, PartialEq)]
enum Query {
    Count(Bound, &'static str),
    Score(Bound),
    ScoreMax,
    Verdict,
    Statuses,
    Ids(&'static str),
}

/// `( audit.NAME )` → `NAME`.
fn inner(r: &str) -> Option<&str> {
    r.trim_start()
        .strip_prefix('(')
        .and_then(|r| r.trim_end().strip_suffix(')'))
        .map(str::trim)
        .and_then(|r| r.strip_prefix(PREFIX))
}

fn parse(src: &str) -> Result<Query, String> {
    let text = src.trim();
    let (bound, body) = [
        ("==", Bound::Eq),
        ("<=", Bound::Le),
        (">=", Bound::Ge),
        ("<", Bound::Lt),
        (">", Bound::Gt),
    ]
    .iter()
    .find_map(|(s, b)| text.strip_prefix(s).map(|r| (*b, r.trim_start())))
    .unwrap_or((Bound::Eq, text));
    let known = |list: &[&'static str], name: &str| list.iter().copied().find(|k| *k == name);
    let not_a_number = || {
        format!(
            "`{text}`: `{}` compares numbers; this query is not one",
            bound.as_str()
        )
    };
    if let Some(r) = body.strip_prefix("count") {
        let name = inner(r).ok_or_else(|| {
            format!(
                "`{text}`: write count(audit.NAME), NAME one of {}",
                COUNTS.join(", ")
            )
        })?;
        let key = known(COUNTS, name).ok_or_else(|| {
            format!(
                "`{text}`: the report has no count `{name}`; counts are {}",
                COUNTS.join(", ")
            )
        })?;
        return Ok(Query::Count(bound, key));
    }
    if let Some(r) = body.strip_prefix("ids") {
        if bound != Bound::Eq {
            return Err(not_a_number());
        }
        let name = inner(r).ok_or_else(|| {
            format!(
                "`{text}`: write ids(audit.LIST), LIST one of {}",
                ID_LISTS.join(", ")
            )
        })?;
        let key = known(ID_LISTS, name).ok_or_else(|| {
            format!(
                "`{text}`: the report has no id list `{name}`; lists are {}",
                ID_LISTS.join(", ")
            )
        })?;
        return Ok(Query::Ids(key));
    }
    match body.strip_prefix(PREFIX) {
        Some("score") => Ok(Query::Score(bound)),
        Some(_) if bound != Bound::Eq => Err(not_a_number()),
        Some("score_max") => Ok(Query::ScoreMax),
        Some("verdict") => Ok(Query::Verdict),
        Some("statuses") => Ok(Query::Statuses),
        _ => Err(format!(
            "`{text}` is not a report query; write count(audit.NAME), ids(audit.LIST), audit.score, audit.score_max, audit.verdict or audit.statuses"
        )),
    }
}

/// Every finding of the report claims of a claims file.
pub fn check(
    cat: &Catalogue,
    claims: &[ClaimDecl],
    facts: &Facts,
    file: &str,
) -> Vec<Diagnostic> {
    claims
        .iter()
        .flat_map(|c| check_one(cat, c, facts, file))
        .collect()
}

/// A finding about a report claim's declaration, at its line in the claims file `file`.
fn config_error(cat: &Catalogue, claim: &ClaimDecl, file: &str, msg: String) -> Diagnostic {
    super::locate::declaration_error(cat, claim, &codes::CLAIM_INVALID, msg).file(file)
}

fn check_one(
    cat: &Catalogue,
    claim: &ClaimDecl,
    facts: &Facts,
    file: &str,
) -> Vec<Diagnostic> {
    let bad = |msg: String| config_error(cat, claim, file, msg);
    let pattern = match Regex::new(&claim.pattern) {
        Ok(p) => p,
        Err(e) => {
            return vec![bad(format!(
                "the pattern is not a valid regular expression: {e}"
            ))]
        }
    };
    let groups: BTreeSet<&str> = pattern.capture_names().flatten().collect();
    let mut errors = Vec::new();
    let mut queries = Vec::new();
    for (group, src) in &claim.expect {
        if !groups.contains(group.as_str()) {
            errors.push(bad(format!(
                "`expect` names group `{group}`, but the pattern has no `(?P<{group}>…)`"
            )));
            continue;
        }
        if !src.contains(PREFIX) {
            errors.push(bad(format!(
                "group `{group}`: `{src}` reads the catalogue, the claim's other groups read the audit report; split the claim in two"
            )));
            continue;
        }
        match parse(src) {
            Ok(q) => queries.push((group.as_str(), src.trim(), q)),
            Err(e) => errors.push(bad(format!("group `{group}`: {e}"))),
        }
    }
    let place = match super::locate::locate(cat, claim) {
        Ok(p) => p,
        Err(found) => {
            errors.extend(found);
            return errors;
        }
    };
    if !errors.is_empty() {
        return errors;
    }
    let section = place.text();
    let hay = place.hay(&claim.skip);
    let mut out = Vec::new();
    let mut matched = false;
    for caps in pattern.captures_iter(&hay) {
        matched = true;
        for (group, src, q) in &queries {
            let Some(m) = caps.name(group) else { continue };
            let abs = place.range.start + m.start();
            let here = |code: &'static Code, msg: String| {
                place.at_group(claim, group, (abs, m.as_str()), code, msg)
            };
            let written = section.get(m.range()).unwrap_or("");
            out.extend(judge(q, src, written, facts, &here, &|off| {
                place.position(abs + off)
            }));
        }
    }
    if !matched {
        out.push(super::locate::unmatched(
            cat,
            claim,
            &place,
            format!(
                "the pattern no longer matches in {} — reworded? this claim would go unchecked",
                place.described()
            ),
        ));
    }
    out
}

type Here<'a> = dyn Fn(&'static Code, String) -> Diagnostic + 'a;

fn judge(
    q: &Query,
    src: &str,
    written: &str,
    f: &Facts,
    here: &Here<'_>,
    at: &dyn Fn(usize) -> (usize, usize),
) -> Vec<Diagnostic> {
    let report = &f.file;
    let number = |expected: u64, bound: Bound, what: &str| -> Option<Diagnostic> {
        match numbers::read(written) {
            Ok(n) if bound.holds(n, expected) => None,
            Ok(n) => Some(
                here(&codes::CLAIM_COUNT, format!("the document says {n} (`{}`), the audit report `{report}` has {expected} ({what})", written.trim()))
                    .help(format!("write {expected} here, or correct the claim's query if the sentence counts something else")),
            ),
            Err(numbers::Unreadable(w)) => Some(
                here(&codes::CLAIM_NUMBER_UNREADABLE, format!("`{w}` is not a number auditbook can read; {what} is {expected}")),
            ),
        }
    };
    match q {
        Query::Count(bound, key) => {
            let expected = f.counts.get(*key).copied().unwrap_or(0);
            number(expected, *bound, src).into_iter().collect()
        }
        Query::ScoreMax => number(f.score_max.round() as u64, Bound::Eq, src).into_iter().collect(),
        Query::Score(bound) => match f.score {
            Some(v) => number(v.round() as u64, *bound, src).into_iter().collect(),
            None => vec![here(
                &codes::CLAIM_COUNT,
                format!(
                    "the document states a score, but the audit report `{report}` has no final score{}",
                    f.provisional_score.map(|p| format!(" (provisional {p}: too few checks were scored)")).unwrap_or_default()
                ),
            )
            .help("say that the score is provisional, or complete the audit")],
        },
        Query::Verdict => {
            let w = fold(written);
            match VERDICT_WORDS.iter().find(|(_, words)| words.contains(&w.as_str())) {
                Some((v, _)) if *v == f.verdict => vec![],
                Some((v, _)) => vec![here(
                    &codes::REPORT_VERDICT_DRIFT,
                    format!("the document says `{}` ({v}), the audit report `{report}` says {}", written.trim(), f.verdict),
                )],
                None => vec![here(&codes::REPORT_WORD_UNKNOWN, format!("`{}` is not a verdict auditbook knows", written.trim()))
                    .help("write production-ready / produktionsreif or not production-ready / nicht produktionsreif")],
            }
        }
        Query::Statuses => statuses(written, f, here, at),
        Query::Ids(key) => {
            let want = f.ids.get(*key).cloned().unwrap_or_default();
            let found = ids_in(written);
            let mut out = Vec::new();
            for (id, off) in &found {
                if !want.contains(id) {
                    let (line, col) = at(*off);
                    out.push(
                        here(&codes::CLAIM_ID_UNKNOWN, format!("the document lists `{id}`, which is not among the report's {key} ({src})"))
                            .at(line, col)
                            .width(id.chars().count())
                            .id(id.clone()),
                    );
                }
            }
            for id in want.iter().filter(|id| !found.iter().any(|(f, _)| f == *id)) {
                out.push(
                    here(&codes::CLAIM_ID_MISSING, format!("the audit report `{report}` lists `{id}` under {key}, the document does not"))
                        .id(id.clone()),
                );
            }
            out
        }
    }
}

/// "63 pass, 1 fail, 3 partial" / "63 bestanden, 1 nicht bestanden und 3 teilweise": each
/// piece a number and a status word, each held to the report's count.
fn statuses(
    written: &str,
    f: &Facts,
    group: &Here<'_>,
    at: &dyn Fn(usize) -> (usize, usize),
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (off, piece) in pieces(written) {
        let (line, col) = at(off);
        let here = |code: &'static Code, msg: String| {
            group(code, msg).at(line, col).width(piece.chars().count())
        };
        let (num, word) = piece.split_once(char::is_whitespace).unwrap_or((piece, ""));
        let w = fold(word);
        let Some((status, _)) = STATUS_WORDS
            .iter()
            .find(|(_, words)| words.contains(&w.as_str()))
        else {
            out.push(
                here(
                    &codes::REPORT_WORD_UNKNOWN,
                    format!("`{}` is not a status auditbook knows", word.trim()),
                ),
            );
            continue;
        };
        let expected = f.counts.get(*status).copied().unwrap_or(0);
        match numbers::read(num) {
            Ok(n) if n == expected => {}
            Ok(n) => out.push(
                here(&codes::CLAIM_COUNT, format!("the document says {n} {} , the audit report `{}` has {expected} {status}", word.trim(), f.file).replace(" ,", ","))
                    .help(format!("write {expected} here")),
            ),
            Err(numbers::Unreadable(u)) => out.push(here(&codes::CLAIM_NUMBER_UNREADABLE, format!("`{u}` is not a number auditbook can read; the report has {expected} {status}"))),
        }
    }
    out
}

/// The pieces of a list with their byte offsets: split at `,`, `;`, ` und `, ` and `.
fn pieces(s: &str) -> Vec<(usize, &str)> {
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for sep in [",", ";", " und ", " and ", " sowie "] {
        cuts.extend(s.match_indices(sep).map(|(i, m)| (i, i + m.len())));
    }
    cuts.sort();
    let mut out = Vec::new();
    let mut at = 0;
    for (start, end) in cuts.into_iter().chain(std::iter::once((s.len(), s.len()))) {
        if start < at {
            continue;
        }
        let raw = &s[at..start];
        let lead = raw.len() - raw.trim_start().len();
        let t = raw.trim();
        if !t.is_empty() {
            out.push((at + lead, t));
        }
        at = end;
    }
    out
}

/// Ids in a group's text: `PREFIX-NUMBER` words.
fn ids_in(s: &str) -> Vec<(String, usize)> {
    let re = Regex::new(r"\b[A-Z][A-Z0-9]*-[0-9]+\b");
    let mut out: Vec<(String, usize)> = Vec::new();
    if let Ok(re) = re {
        for m in re.find_iter(s) {
            if !out.iter().any(|(id, _)| id == m.as_str()) {
                out.push((m.as_str().to_string(), m.start()));
            }
        }
    }
    out
}

/// Lower case, emphasis and spacing normalised: `**Nicht  bestanden**` reads `nicht bestanden`.
fn fold(s: &str) -> String {
    s.trim_matches(|c: char| {
        matches!(c, '*' | '_' | '`' | '~' | '.' | ':' | '(' | ')') || c.is_whitespace()
    })
    .split_whitespace()
    .collect::<Vec<_>>()
    .join(" ")
    .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_queries_parse_and_refuse() {
        assert_eq!(
            parse("count(audit.pass)"),
            Ok(Query::Count(Bound::Eq, "pass"))
        );
        assert_eq!(
            parse("<= count( audit.findings )"),
            Ok(Query::Count(Bound::Le, "findings"))
        );
        assert_eq!(parse("audit.score"), Ok(Query::Score(Bound::Eq)));
        assert_eq!(parse(">= audit.score"), Ok(Query::Score(Bound::Ge)));
        assert_eq!(parse("ids(audit.blocking)"), Ok(Query::Ids("blocking")));
        assert_eq!(parse("audit.statuses"), Ok(Query::Statuses));
        for bad in [
            "count(audit.passed)",
            "count(pass)",
            "audit.scor",
            "<= audit.verdict",
            "ids(audit.pass)",
            "<= ids(audit.findings)",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pieces_keep_offsets() {
        let s = "63 bestanden, 1 nicht bestanden und 3 teilweise";
        let p = pieces(s);
        assert_eq!(
            p,
            vec![
                (0, "63 bestanden"),
                (14, "1 nicht bestanden"),
                (36, "3 teilweise")
            ]
        );
        for (off, t) in p {
            assert_eq!(&s[off..off + t.len()], t);
        }
    }

    #[test]
    fn words_in_both_languages() {
        for (w, s) in [
            ("bestanden", "pass"),
            ("**Nicht  bestanden**", "fail"),
            ("teilweise", "partial"),
            ("nicht geprüft", "not_verified"),
            ("partial", "partial"),
            ("n/a", "n/a"),
        ] {
            let f = fold(w);
            let found = STATUS_WORDS
                .iter()
                .find(|(_, ws)| ws.contains(&f.as_str()))
                .map(|(k, _)| *k);
            assert_eq!(found, Some(s), "{w}");
        }
        assert!(STATUS_WORDS.iter().all(|(_, ws)| !ws.contains(&"bestandn")));
    }
}
