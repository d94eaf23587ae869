//! From outcomes to results: each applicable check with probes gets a status and evidence in
//! the results format (`source: probe`, the definitions fingerprint when the server showed its
//! definitions whole), and the sections the evidence is held against in `cites`.
//!
//! The status follows the check's own rules: the worst status its defects record (a proof
//! `fail`, a heuristic `partial`), `pass` only when every probe looked, saw nothing and covers
//! the whole check, `not_verified` otherwise. Evidence is what the server showed — the
//! references go to `cites` — so `evidence_required` counts observations only.

use super::judge::{self, Context, Decision, Outcome};
use super::lock::{Drift, Fingerprint};
use super::observe::Observation;
use crate::evidence::untrusted;
use crate::model::declared::{Covers, Records};
use crate::model::{Catalogue, Check};
use serde::Serialize;
use serde_json::{json, Value as Json};

/// The value of `source` on a result the probe recorded.
pub const SOURCE: &str = "probe";

/// At most this many lines of evidence per result.
const EVIDENCE_LINES: usize = 40;

/// One check as the probe saw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Probed {
    pub id: String,
    pub status: &'static str,
    pub evidence: Vec<String>,
    /// The specification sections and the check's sources the evidence is held against.
    pub cites: Vec<String>,
    pub note: String,
    pub outcomes: Vec<Outcome>,
}

/// The key of a check's declared probe in `Observation::steps`.
pub fn step_key(id: &str, index: usize) -> String {
    format!("{id}#{}", index + 1)
}

/// Judge every probe of every check in `ids` (the applicable ones, in id order).
pub fn assess(
    cat: &Catalogue,
    ids: &[String],
    obs: &Observation,
    drift: Option<&Drift>,
    revision: Option<&str>,
) -> Vec<Probed> {
    ids.iter()
        .filter_map(|id| cat.check(id))
        .filter(|c| !c.probes().is_empty())
        .map(|c| probed(c, obs, drift, revision))
        .collect()
}

fn probed(c: &Check, obs: &Observation, drift: Option<&Drift>, revision: Option<&str>) -> Probed {
    let outcomes: Vec<Outcome> = c
        .probes()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let key = step_key(c.id.as_str(), i);
            let ctx = Context {
                drift,
                revision,
                key: Some(&key),
            };
            judge::judge(s, obs, &ctx)
        })
        .collect();
    let worst = outcomes
        .iter()
        .filter(|o| o.decision == Decision::Defect)
        .filter_map(|o| o.records)
        .reduce(Records::worst);
    let all_clean = outcomes.iter().all(|o| o.decision == Decision::Clean);
    let covers_all = c.probes().iter().all(|s| s.covers == Covers::All);
    let (status, note) = match worst {
        Some(r) => (
            r.as_str(),
            format!(
                "the probe observed {} (each line names the observation and what it records)",
                match r {
                    Records::Fail => "a defect",
                    Records::Partial => "a partial finding",
                    Records::NotVerified => "something a person must judge",
                }
            ),
        ),
        None if all_clean && covers_all => (
            "pass",
            "the probe observed every criterion it covers".to_string(),
        ),
        None if all_clean => (
            "not_verified",
            "the probe saw no defect in the part it covers; the rest of the check needs a person"
                .to_string(),
        ),
        None => (
            "not_verified",
            "the probe could not decide the check".to_string(),
        ),
    };
    let mut evidence: Vec<String> = Vec::new();
    for o in &outcomes {
        // A check with a finding quotes its findings; otherwise every outcome says what was
        // tried.
        if worst.is_some() && o.decision != Decision::Defect {
            continue;
        }
        for line in &o.lines {
            evidence.push(format!("[probe {}] {line}", o.label));
        }
    }
    let mut evidence = untrusted::bounded(evidence, EVIDENCE_LINES);
    let mut cites: Vec<String> = Vec::new();
    for o in &outcomes {
        if !cites.contains(&o.cites) {
            cites.push(o.cites.clone());
        }
    }
    for s in c.sources.iter() {
        let line = format!("{} <{}>", s.label, s.url);
        if !cites.contains(&line) {
            cites.push(line);
        }
    }
    // A pass or a finding owes the check's evidence_required observations. A pass with fewer
    // is left open (`not_verified`); a finding with fewer is `todo`, which keeps the audit
    // incomplete until a person completes the evidence: a defect seen on the wire never fades
    // into a status no gate looks at.
    let owed = c.evidence_required as usize;
    let (status, note) = if status != "not_verified" && evidence.len() < owed {
        let next = if worst.is_some() {
            "todo"
        } else {
            "not_verified"
        };
        (
            next,
            format!(
                "the probe made {} observation(s) toward a {status}; the check asks for {owed}, so a person completes the evidence ({note})",
                evidence.len()
            ),
        )
    } else {
        (status, note)
    };
    if evidence.is_empty() {
        evidence.push(format!("[probe] {}: nothing was observed", obs.target));
    }
    Probed {
        id: c.id.to_string(),
        status,
        evidence,
        cites,
        note,
        outcomes,
    }
}

/// The `probe` block of a results file: where and what was probed, and whether it was reached.
pub fn probe_block(obs: &Observation) -> Json {
    let fp = Fingerprint::of(obs);
    let mut block = json!({
        "target": obs.target,
        "reached": obs.reached(),
        "reach": obs.reach.as_ref().map(|r| r.describe()).unwrap_or_else(|| "not probed".into()),
        "server_name": obs.server_name,
        "server_version": obs.server_version,
        "protocol_version": obs.protocol_version,
        "serves": obs.openings.iter().filter(|o| o.answered.is_ok()).map(|o| o.answered.clone().unwrap_or_default()).collect::<Vec<_>>(),
    });
    if let Some(fp) = fp {
        block["definitions"] = json!(fp.definitions);
    }
    if let Some(s) = &obs.sandbox {
        block["sandbox"] = json!(s.how);
    }
    block
}

/// The result entry a probe writes.
pub fn entry(p: &Probed, fp: Option<&Fingerprint>) -> Json {
    let mut e = json!({
        "status": p.status,
        "evidence": p.evidence,
        "cites": p.cites,
        "note": p.note,
        "source": SOURCE,
    });
    if let Some(fp) = fp {
        e["fingerprint"] = json!(fp.definitions);
    }
    e
}
