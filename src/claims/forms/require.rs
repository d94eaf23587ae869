//! Body requirements (`require:` in a claim): every check a `where` selects keeps the named
//! sections and a line the pattern matches — "each check written for 2025-11-25 names its
//! successor", "FID-006 keeps its section on the retired DRIFT-007". No document and no dummy
//! group: the claim states the requirement itself. A selection that names no check is a
//! finding too, so a renamed or retired check does not turn the claim silent.

use crate::claims::locate::declaration_error;
use crate::claims::memo::Memo;
use crate::diag::{codes, Diagnostic};
use crate::model::config::{ClaimDecl, RequireDecl};
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
        if let Err(ds) = crate::select::compile(cat, &r.selection, "where") {
            out.extend(ds.into_iter().map(|d| d.message));
        }
        if let Some(Err(e)) = r.pattern.as_deref().map(Regex::new) {
            out.push(format!("pattern: {e}"));
        }
        if r.sections.is_empty() && r.pattern.is_none() {
            out.push("a requirement names `sections`, a `pattern`, or both".into());
        }
    }
    out
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

fn one(cat: &Catalogue, claim: &ClaimDecl, r: &RequireDecl) -> Vec<Diagnostic> {
    let problems = {
        let mut c = claim.clone();
        c.require = vec![r.clone()];
        problems(cat, &c)
    };
    if !problems.is_empty() {
        return problems.into_iter().map(|p| bad(cat, claim, p)).collect();
    }
    let (Ok(expr), pattern) = (
        crate::select::compile(cat, &r.selection, "where"),
        r.pattern.as_deref().and_then(|p| Regex::new(p).ok()),
    ) else {
        return Vec::new();
    };
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
    let mut out = Vec::new();
    for c in checks {
        let at = |msg: String| {
            Diagnostic::new(
                &codes::CLAIM_REQUIREMENT,
                format!(
                    "claim `{}`: `{}` (selected by `where {}`) {msg}{why}",
                    claim.name, c.id, r.selection
                ),
            )
            .file(c.file.to_string())
            .line(c.body_line.max(1))
            .id(c.id.to_string())
            .help(codes::CLAIM_REQUIREMENT.help)
        };
        for s in &r.sections {
            if !c.sections.iter().any(|x| x.title.as_str() == s.as_str()) {
                out.push(at(format!("has no section `## {s}`")));
            }
        }
        let Some(re) = &pattern else { continue };
        match crate::load::source(cat, &c.file) {
            Some(text) => {
                let body = text.get(c.body_start.min(text.len())..).unwrap_or("");
                if !re.is_match(body) {
                    out.push(at(format!("has no line matching `{}`", re.as_str())));
                }
            }
            None => out.push(at(
                "changed on disk while it was read; run the command again".into(),
            )),
        }
    }
    out
}
