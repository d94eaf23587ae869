//! Body requirements (`require:` in a claim): every check a `where` selects keeps the named
//! sections and a line the pattern matches — "each check written for 2025-11-25 names its
//! successor", "FID-006 keeps its section on the retired DRIFT-007" —, has no match of a
//! forbidden pattern (`forbid`), and states only values of a set where a pattern reads one
//! (`each`); `section` narrows all three to one `## ` section. No document and no dummy
//! group: the claim states the requirement itself. A selection that names no check is a
//! finding too, so a renamed or retired check does not turn the claim silent.

use crate::claims::locate::declaration_error;
use crate::claims::memo::Memo;
use crate::diag::{codes, Diagnostic};
use crate::model::config::{ClaimDecl, RequireDecl};
use crate::text::line_index::LineIndex;
use crate::model::Catalogue;
use regex::Regex;

pub struct Require;

impl super::Form for Require {
    fn declares(&self, claim: &ClaimDecl) -> bool {
        !claim.require.is_empty()
    }

    fn check(&self, cat: &Catalogue, claim: &ClaimDecl, _memo: &Memo) -> Vec<Diagnostic> {
        check(cat, claim)
    }

    #[cfg(any(test, feature = "internals"))]
    fn problems(&self, cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
        problems(cat, claim)
    }
}

fn bad(cat: &Catalogue, claim: &ClaimDecl, msg: String) -> Diagnostic {
    declaration_error(cat, claim, &codes::CLAIM_INVALID, msg)
}

/// Problems with the requirements themselves.
fn problems(cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
    let mut out = Vec::new();
    for r in &claim.require {
        if let Err(e) = crate::claims::query::compile_where(cat, &r.selection) {
            out.push(e);
        }
        for (key, p) in patterns(r) {
            if let Err(e) = Regex::new(p) {
                out.push(format!("{key}: {e}"));
            }
        }
        if r.sections.is_empty() && r.pattern.is_none() && r.forbid.is_none() && r.each.is_none()
        {
            out.push(
                "a requirement names `sections`, a `pattern`, a `forbid` or an `each`".into(),
            );
        }
        if r.section.as_deref().is_some_and(|s| s.trim().is_empty()) {
            out.push("`section` is empty; name a `## ` section of the checks".into());
        }
    }
    out
}

/// The regular expressions of a requirement, by key.
fn patterns(r: &RequireDecl) -> Vec<(&'static str, &str)> {
    [
        ("pattern", r.pattern.as_deref()),
        ("forbid", r.forbid.as_deref()),
        ("each.pattern", r.each.as_ref().map(|e| e.pattern.as_str())),
    ]
    .into_iter()
    .filter_map(|(k, p)| p.map(|p| (k, p)))
    .collect()
}

fn check(cat: &Catalogue, claim: &ClaimDecl) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !claim.doc.is_empty() || !claim.pattern.is_empty() || !claim.expect.is_empty() {
        out.push(bad(
            cat,
            claim,
            "a claim with `require` reads the checks: leave out `doc`, `pattern` and `expect`"
                .into(),
        ));
    }
    for r in &claim.require {
        out.extend(one(cat, claim, r));
    }
    out
}

/// A requirement's patterns, compiled (they were checked by `problems`).
struct Compiled {
    pattern: Option<Regex>,
    forbid: Option<Regex>,
    each: Option<(Regex, Vec<String>)>,
}

impl Compiled {
    fn of(r: &RequireDecl) -> Compiled {
        let re = |p: Option<&str>| p.and_then(|p| Regex::new(p).ok());
        Compiled {
            pattern: re(r.pattern.as_deref()),
            forbid: re(r.forbid.as_deref()),
            each: r.each.as_ref().and_then(|e| {
                Regex::new(&e.pattern)
                    .ok()
                    .map(|re| (re, e.values.clone()))
            }),
        }
    }

    fn reads_text(&self) -> bool {
        self.pattern.is_some() || self.forbid.is_some() || self.each.is_some()
    }
}

fn one(cat: &Catalogue, claim: &ClaimDecl, r: &RequireDecl) -> Vec<Diagnostic> {
    let problems = {
        let mut c = claim.clone();
        c.require = vec![r.clone()];
        problems(cat, &c)
    };
    if !problems.is_empty() {
        return problems.into_iter().map(|p| bad(cat, claim, p)).collect();
    }
    let Ok(expr) = crate::claims::query::compile_where(cat, &r.selection) else {
        return Vec::new();
    };
    let compiled = Compiled::of(r);
    let checks = match crate::select::select(cat, &expr) {
        Ok(c) => c,
        Err(d) => return vec![bad(cat, claim, d.message)],
    };
    let why = r
        .message
        .as_deref()
        .map(|m| format!(" — {m}"))
        .unwrap_or_default();
    if checks.is_empty() {
        return vec![declaration_error(
            cat,
            claim,
            &codes::CLAIM_REQUIREMENT,
            format!(
                "`where {}` selects no check, so the requirement holds for nothing{why}",
                r.selection
            ),
        )];
    }
    let within = r
        .section
        .as_deref()
        .map(|s| format!(" in `## {s}`"))
        .unwrap_or_default();
    let mut out = Vec::new();
    for c in checks {
        let finding = |msg: String| {
            Diagnostic::new(
                &codes::CLAIM_REQUIREMENT,
                format!(
                    "claim `{}`: `{}` (selected by `where {}`) {msg}{why}",
                    claim.name, c.id, r.selection
                ),
            )
            .file(c.file.to_string())
            .id(c.id.to_string())
            .help(codes::CLAIM_REQUIREMENT.help)
        };
        let at_body = |msg: String| finding(msg).line(c.body_line.max(1));
        for s in &r.sections {
            if !c.sections.iter().any(|x| x.title.as_str() == s.as_str()) {
                out.push(at_body(format!("has no section `## {s}`")));
            }
        }
        if !compiled.reads_text() {
            continue;
        }
        let Some(text) = crate::load::source(cat, &c.file) else {
            out.push(at_body(
                "changed on disk while it was read; run the command again".into(),
            ));
            continue;
        };
        let body_start = c.body_start.min(text.len());
        let body = text.get(body_start..).unwrap_or("");
        // What the requirement reads: the body, or one section of it.
        let (read, start) = match r.section.as_deref() {
            None => (body, body_start),
            Some(title) => match c.sections.iter().find(|x| x.title.as_str() == title) {
                Some(sec) => (
                    body.get(sec.content()).unwrap_or(""),
                    body_start + sec.content().start,
                ),
                None => {
                    // Said once: `sections` already names it missing.
                    if !r.sections.iter().any(|s| s == title) {
                        out.push(at_body(format!(
                            "has no section `## {title}`, which the requirement reads"
                        )));
                    }
                    continue;
                }
            },
        };
        let index = LineIndex::new(&text);
        let at = |offset: usize, width: usize, msg: String| {
            let (line, col) = index.position(&text, start + offset);
            finding(msg).at(line, col).width(width)
        };
        if let Some(re) = &compiled.pattern {
            if !re.is_match(read) {
                out.push(at_body(format!(
                    "has no line matching `{}`{within}",
                    re.as_str()
                )));
            }
        }
        if let Some(re) = &compiled.forbid {
            for m in re.find_iter(read) {
                out.push(at(
                    m.start(),
                    m.as_str().chars().count(),
                    format!(
                        "has `{}`{within}, which `forbid: {}` rules out",
                        m.as_str().trim(),
                        re.as_str()
                    ),
                ));
            }
        }
        if let Some((re, values)) = &compiled.each {
            for caps in re.captures_iter(read) {
                let Some(m) = caps.get(1).or_else(|| caps.get(0)) else {
                    continue;
                };
                let value = m.as_str().trim();
                if !values.iter().any(|v| v == value) {
                    out.push(at(
                        m.start(),
                        m.as_str().chars().count(),
                        format!(
                            "says `{value}`{within} where `{}` reads one of {}",
                            re.as_str(),
                            values.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    out
}
