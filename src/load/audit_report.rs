//! An audit report as `auditbook audit --format json` writes it, read for the claims a
//! document makes about it (a SECURITY.md quoting "63 pass, 1 fail, 3 partial; Score 85/100").
//! Only what claims ask is read; a report without it is a finding at the report's line, never a
//! zero.

use super::text;
use crate::diag::{codes, Diagnostic};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The facts of one report that claims can ask for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// The report file as given on the command line.
    pub file: String,
    pub server: String,
    /// `production-ready` or `not-production-ready`.
    pub verdict: String,
    /// Count by status (`pass`, `fail`, `partial`, `not_verified`, `todo`, `n/a`, `missing`,
    /// `rejected`) and the named totals (`checks`, `applicable`, `findings`,
    /// `advisory_findings`, `blocking`, `would_have_blocked`).
    pub counts: BTreeMap<String, u64>,
    /// The final score; `None` while it is provisional.
    pub score: Option<f64>,
    pub provisional_score: Option<f64>,
    pub score_max: f64,
    /// Ids of `findings`, `advisory_findings`, `blocking` and `not_verified`.
    pub ids: BTreeMap<String, BTreeSet<String>>,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    server: String,
    verdict: String,
    counts: RawCounts,
    score: RawScore,
    findings: Vec<WithId>,
    advisory_findings: Vec<WithId>,
    blocking: Vec<WithId>,
    not_verified: Vec<WithId>,
}

#[derive(Deserialize)]
struct RawCounts {
    checks: u64,
    applicable: u64,
    by_status: BTreeMap<String, u64>,
    findings: u64,
    advisory_findings: u64,
    would_have_blocked: u64,
    blocking: u64,
}

#[derive(Deserialize)]
struct RawScore {
    value: Option<f64>,
    #[serde(default)]
    provisional_score: Option<f64>,
    max: f64,
}

#[derive(Deserialize)]
struct WithId {
    id: String,
}

/// Read the report at `path`; `Err` is a finding about the report file.
pub fn read(path: &Path) -> Result<Facts, Diagnostic> {
    let shown = path.display().to_string();
    let unreadable = |msg: String, line: Option<usize>| {
        let d = Diagnostic::new(&codes::REPORT_UNREADABLE, msg).file(shown.clone());
        match line {
            Some(l) => d.line(l),
            None => d,
        }
    };
    let bytes = text::read_limited(path)
        .map_err(|e| unreadable(format!("cannot read the audit report: {e}"), None))?;
    let t = text::decode(&shown, bytes)?;
    let raw: Raw = serde_json::from_str(&t.text).map_err(|e| {
        unreadable(
            format!("not an audit report written by `auditbook audit --format json`: {e}"),
            Some(e.line().max(1)),
        )
    })?;
    let mut counts = raw.counts.by_status;
    for (k, v) in [
        ("checks", raw.counts.checks),
        ("applicable", raw.counts.applicable),
        ("findings", raw.counts.findings),
        ("advisory_findings", raw.counts.advisory_findings),
        ("blocking", raw.counts.blocking),
        ("would_have_blocked", raw.counts.would_have_blocked),
    ] {
        counts.insert(k.to_string(), v);
    }
    let ids_of = |v: Vec<WithId>| v.into_iter().map(|w| w.id).collect::<BTreeSet<_>>();
    let ids = BTreeMap::from([
        ("findings".to_string(), ids_of(raw.findings)),
        (
            "advisory_findings".to_string(),
            ids_of(raw.advisory_findings),
        ),
        ("blocking".to_string(), ids_of(raw.blocking)),
        ("not_verified".to_string(), ids_of(raw.not_verified)),
    ]);
    Ok(Facts {
        file: shown,
        server: raw.server,
        verdict: raw.verdict,
        counts,
        score: raw.score.value,
        provisional_score: raw.score.provisional_score,
        score_max: raw.score.max,
        ids,
    })
}
