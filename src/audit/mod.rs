//! Audits: a server profile decides which checks apply, a results file says what an auditor
//! observed, and the two become a verdict, a score and a report.
//!
//! profile ──check──▶ Profile ──▶ Applicability ──┐
//! results ──validate (against applicability)──▶ Results ──▶ Audit (verdict) ──▶ Score ──▶ Report
//!
//! Each step takes the previous one's value; rendering (templates, json) only lays out the
//! `report::Report` value.

pub mod applicability;
pub mod evidence_by;
pub mod examples;
pub mod gate;
pub mod portfolio;
pub mod profile;
pub mod report;
pub mod results;
pub mod score;
pub mod verdict;
pub mod waivers;

use crate::load::data_file::DataFile;
use crate::model::Catalogue;
use crate::text::suggest::unknown_keys;
use serde_json::Value as Json;

/// Everything one audit computed.
pub struct Run<'c> {
    pub applicability: applicability::Applicability,
    pub results: Option<results::Results>,
    pub audit: verdict::Audit<'c>,
}

/// Waivers from outside the results file, and the day they are judged on.
#[derive(Clone, Copy)]
pub struct Waiving<'a> {
    /// A waivers file (`--waivers`, or a portfolio server's `waivers:`).
    pub file: Option<&'a DataFile>,
    /// `YYYY-MM-DD`.
    pub as_of: &'a str,
}

/// Applicability, results validation and the verdict for one profile.
pub fn run<'c>(
    cat: &'c Catalogue,
    checked: &profile::Checked,
    results_file: Option<&DataFile>,
    policy: verdict::Policy,
) -> Run<'c> {
    let today = crate::model::date::today();
    run_with(
        cat,
        &applicability::Prepared::new(cat),
        checked,
        results_file,
        Waiving {
            file: None,
            as_of: &today,
        },
        policy,
    )
}

/// `run` with the catalogue's expressions prepared once (for many profiles).
pub fn run_with<'c>(
    cat: &'c Catalogue,
    prepared: &applicability::Prepared<'_>,
    checked: &profile::Checked,
    results_file: Option<&DataFile>,
    waiving: Waiving<'_>,
    policy: verdict::Policy,
) -> Run<'c> {
    let app = applicability::compute_with(prepared, &checked.profile);
    let mut problems = checked.diagnostics.clone();
    applicability_errors(&app, checked, &mut problems);
    let results = results_file.map(|f| {
        let (r, d) = results::validate(cat, &app, f);
        problems.extend(d);
        r
    });
    let mut written = Vec::new();
    for f in results_file.into_iter().chain(waiving.file) {
        written.extend(waivers::read(cat, f, &mut problems));
    }
    if let Some(f) = waiving.file {
        waivers_file(f, &mut problems);
    }
    let kept = one_waiver_per_check(written, &mut problems);
    let judged = waivers::judge(kept, &app, results.as_ref(), waiving.as_of, &mut problems);
    crate::diag::normalise(&mut problems);
    let audit = verdict::assess(cat, &app, results.as_ref(), judged, problems, policy);
    Run {
        applicability: app,
        results,
        audit,
    }
}

/// An expression that cannot be evaluated against the profile, at the line of the first
/// field it reads.
fn applicability_errors(
    app: &applicability::Applicability,
    checked: &profile::Checked,
    problems: &mut Vec<crate::diag::Diagnostic>,
) {
    for e in &app.entries {
        if e.status == applicability::Status::Error {
            // The line of the first field the expression reads (or of its parent) in the profile.
            let at = e.reads.first().map(String::as_str).unwrap_or("");
            problems.push(
                crate::diag::Diagnostic::new(
                    &crate::diag::codes::APPLICABILITY_ERROR,
                    format!("{}: {}", e.id, e.reason),
                )
                .id(e.id.clone())
                .file(checked.profile.source.shown.clone())
                .line(checked.profile.source.line(at)),
            );
        }
    }
}

/// A waivers file is a mapping with a `waivers` list and nothing else.
fn waivers_file(f: &DataFile, problems: &mut Vec<crate::diag::Diagnostic>) {
    problems.extend(f.notes.iter().cloned());
    if let Json::Object(top) = &f.value {
        for (k, help) in unknown_keys(top.keys().map(String::as_str), &["waivers"]) {
            problems.push(
                f.at(
                    &crate::diag::codes::WAIVER_INVALID,
                    k,
                    format!("unknown key `{k}` in the waivers file"),
                )
                .help_if(help),
            );
        }
    } else {
        problems.push(f.at(
            &crate::diag::codes::WAIVER_INVALID,
            "",
            "a waivers file is a mapping with a `waivers` list",
        ));
    }
}

/// Two waivers for one check from two files: the first (the results file's) is kept.
fn one_waiver_per_check(
    written: Vec<waivers::Waiver>,
    problems: &mut Vec<crate::diag::Diagnostic>,
) -> Vec<waivers::Waiver> {
    let mut kept: Vec<waivers::Waiver> = Vec::new();
    for w in written {
        if kept.iter().any(|k| k.check == w.check) {
            problems.push(
                crate::diag::Diagnostic::new(
                    &crate::diag::codes::WAIVER_INVALID,
                    format!("{} has a second waiver; one check has one waiver", w.check),
                )
                .id(w.check.clone())
                .file(w.file.clone())
                .line(w.line),
            );
        } else {
            kept.push(w);
        }
    }
    kept
}
