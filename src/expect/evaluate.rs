//! Running cases against the catalogue: each outcome carries what was expected and what the
//! catalogue decided, line by line, so a failure shows as a diff.

use super::cases::{Case, Kind, Score};
use super::outcome::Outcome;
use crate::audit::applicability::{self, Status};
use crate::audit::{profile, score, verdict};
use crate::confine::Fence;
use crate::diag::{codes, Diagnostic};
use crate::graph::Graph;
use crate::load::data_file::{self, DataError};
use crate::model::Catalogue;
use crate::render::templates::Templates;
use std::path::PathBuf;

pub fn evaluate(
    cat: &Catalogue,
    graph: &Graph,
    templates: &Templates,
    cases: &[Case],
) -> Vec<Outcome> {
    let mut claim_findings: Option<Vec<Diagnostic>> = None;
    let mut outcomes: Vec<Outcome> = cases
        .iter()
        .map(|case| {
            let mut o = Outcome {
                name: case.name.clone(),
                file: case.file.clone(),
                line: case.line,
                expected: Vec::new(),
                actual: Vec::new(),
                problems: Vec::new(),
            };
            match &case.kind {
                Kind::Profile { .. } => profile_case(cat, case, &mut o),
                Kind::Scan {
                    check,
                    rule,
                    matched,
                    clean,
                } => super::scan_cases::evaluate(cat, check, rule, matched, clean, &mut o),
                Kind::Document { document, claims } => {
                    let found = claim_findings
                        .get_or_insert_with(|| crate::claims::verify(cat, graph, templates));
                    for c in claims {
                        o.expected.push(format!("claim {c}: passes"));
                        let head = format!("claim `{c}`");
                        let first = found.iter().find(|d| {
                            d.file.as_deref() == Some(document.as_str())
                                && d.message.starts_with(&head)
                        });
                        o.actual.push(match first {
                            None => format!("claim {c}: passes"),
                            Some(d) => format!(
                                "claim {c}: fails at line {} ({})",
                                d.line.unwrap_or(0),
                                d.message
                            ),
                        });
                    }
                }
            }
            o
        })
        .collect();
    // A catalogue that declares its own tests owes a case to every rule a sample can hold.
    if !cases.is_empty() {
        let held = cases
            .iter()
            .filter_map(|c| match &c.kind {
                Kind::Scan { check, rule, .. } => Some((check.clone(), rule.clone())),
                _ => None,
            })
            .collect();
        outcomes.extend(super::scan_cases::uncovered(cat, &held));
    }
    outcomes
}

fn path(cat: &Catalogue, written: &str) -> Result<PathBuf, String> {
    let fence = Fence::repository_of(&cat.root);
    fence
        .resolve(&cat.root, written)
        .map_err(|e| format!("`{written}` {}", e.reason("the catalogue's repository")))
}

fn profile_case(cat: &Catalogue, case: &Case, o: &mut Outcome) {
    let Kind::Profile {
        profile: profile_path,
        must_apply,
        must_not_apply,
        results,
        verdict: want_verdict,
        score: want_score,
    } = &case.kind
    else {
        return;
    };
    let checked = match path(cat, profile_path).and_then(|p| {
        data_file::read(&p, profile_path, &codes::PROFILE_INVALID)
            .and_then(|f| profile::of_file(cat, f))
            .map_err(|e| unusable(profile_path, e))
    }) {
        Ok(c) => c,
        Err(m) => {
            o.problems.push(m);
            return;
        }
    };
    let errors: Vec<&Diagnostic> = checked
        .diagnostics
        .iter()
        .filter(|d| d.level == crate::diag::Level::Error)
        .collect();
    if let Some(d) = errors.first() {
        o.problems.push(format!(
            "profile `{profile_path}` has {} error(s), first at line {}: {}",
            errors.len(),
            d.line.unwrap_or(0),
            d.message
        ));
        return;
    }
    let app = applicability::compute(cat, &checked.profile);
    let status = |id: &str| app.get(id).map(|e| (e.status, e.reason.clone()));
    for id in must_apply {
        o.expected.push(format!("{id}: applies"));
        o.actual.push(match status(id) {
            Some((Status::Applies, _)) => format!("{id}: applies"),
            Some((s, why)) => format!("{id}: {} ({why})", s.as_str()),
            None => format!("{id}: not a check"),
        });
    }
    for (id, reason) in must_not_apply {
        let want = match reason {
            Some(r) => format!("{id}: does not apply ({r})"),
            None => format!("{id}: does not apply"),
        };
        o.expected.push(want.clone());
        o.actual.push(match status(id) {
            Some((Status::Applies, why)) => format!("{id}: applies ({why})"),
            Some((Status::Error, why)) => format!("{id}: error ({why})"),
            Some((s, why)) => match reason {
                Some(r) if r == s.as_str() => want,
                Some(_) => format!("{id}: does not apply ({}: {why})", s.as_str()),
                None => want,
            },
            None => format!("{id}: not a check"),
        });
    }
    let Some(results_path) = results else {
        return;
    };
    let file = match path(cat, results_path).and_then(|p| {
        data_file::read(&p, results_path, &codes::RESULTS_INVALID)
            .map_err(|e| unusable(results_path, e))
    }) {
        Ok(f) => f,
        Err(m) => {
            o.problems.push(m);
            return;
        }
    };
    let run = crate::audit::run(cat, &checked, Some(&file), verdict::Policy::FailOrPartial);
    if let Some(v) = want_verdict {
        o.expected.push(format!("verdict: {v}"));
        o.actual
            .push(format!("verdict: {}", run.audit.verdict.as_str()));
    }
    if let Some(s) = want_score {
        let got = score::score(cat, &run.audit);
        o.expected.push(match s {
            Score::Final(h) => format!("score: {}", score::Points(*h)),
            Score::Provisional => "score: provisional".into(),
        });
        o.actual.push(match got.value {
            Some(p) => format!("score: {p}"),
            None => format!(
                "score: provisional ({})",
                got.provisional_score.unwrap_or(got.computed)
            ),
        });
        if matches!(s, Score::Provisional) && got.value.is_none() {
            if let Some(last) = o.actual.last_mut() {
                *last = "score: provisional".into();
            }
        }
    }
}

fn unusable(shown: &str, e: DataError) -> String {
    match e {
        DataError::Unreadable(m) => m,
        DataError::Invalid { diagnostics, .. } => {
            let first = diagnostics.first();
            format!(
                "`{shown}` is not usable ({} finding(s)); first at line {}: {}",
                diagnostics.len(),
                first.and_then(|d| d.line).unwrap_or(0),
                first.map(|d| d.message.as_str()).unwrap_or("")
            )
        }
    }
}
