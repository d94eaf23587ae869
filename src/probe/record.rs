//! From outcomes to results: each applicable check with probes gets a status and evidence in
//! the results format (`source: probe`, the fingerprint it was recorded against), and the
//! results are merged into a results file without touching what a person recorded.

use super::judge::{self, Decision, Outcome};
use super::lock::{Drift, Fingerprint};
use super::observe::Observation;
use crate::audit::applicability::{Applicability, Status as Gate};
use crate::audit::results::PROBE_SOURCE as SOURCE;
use crate::model::probe::Covers;
use crate::model::{Catalogue, Check};
use serde::Serialize;
use serde_json::{json, Map, Value as Json};

/// One check as the probe saw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Probed {
    pub id: String,
    pub status: &'static str,
    pub evidence: Vec<String>,
    pub note: String,
    pub outcomes: Vec<Outcome>,
}

/// Judge every probe of every applicable check.
pub fn assess(
    cat: &Catalogue,
    app: &Applicability,
    obs: &Observation,
    drift: Option<&Drift>,
) -> Vec<Probed> {
    let fp = Fingerprint::of(obs);
    cat.checks_by_id()
        .into_iter()
        .filter(|c| !c.probes().is_empty())
        .filter(|c| {
            app.entries
                .iter()
                .any(|e| e.id == c.id.as_str() && e.status == Gate::Applies)
        })
        .map(|c| probed(c, obs, drift, &fp))
        .collect()
}

fn probed(c: &Check, obs: &Observation, drift: Option<&Drift>, fp: &Fingerprint) -> Probed {
    let outcomes: Vec<Outcome> = c
        .probes()
        .iter()
        .map(|s| judge::judge(s, obs, drift))
        .collect();
    let any_defect = outcomes.iter().any(|o| o.decision == Decision::Defect);
    let all_clean = outcomes.iter().all(|o| o.decision == Decision::Clean);
    let covers_all = c.probes().iter().all(|s| s.covers == Covers::All);
    let (mut status, mut note) = if any_defect {
        ("fail", "the probe observed a defect".to_string())
    } else if all_clean && covers_all {
        (
            "pass",
            "the probe observed every criterion it covers".to_string(),
        )
    } else if all_clean {
        (
            "not_verified",
            "the probe saw no defect in the part it covers; the rest of the check needs a person"
                .to_string(),
        )
    } else {
        (
            "not_verified",
            "the probe could not decide the check".to_string(),
        )
    };
    let mut evidence: Vec<String> = Vec::new();
    for o in &outcomes {
        // A failing check quotes its defects; the other outcomes say what was tried.
        if any_defect && o.decision != Decision::Defect {
            continue;
        }
        for line in &o.lines {
            evidence.push(format!("[probe {}] {line}", o.kind.as_str()));
        }
    }
    for s in c.sources.iter() {
        evidence.push(format!("held against: {} <{}>", s.label, s.url));
    }
    evidence.push(format!(
        "server: {} {} over {}, protocol {}, definitions {}",
        or_unknown(&fp.server_name),
        or_unknown(&fp.server_version),
        obs.target,
        or_unknown(&fp.protocol_version),
        fp.definitions
    ));
    let owed = c.evidence_required as usize;
    if status != "not_verified" && evidence.len() < owed {
        note = format!(
            "the probe gathered {} observations; the check asks for {owed} ({note})",
            evidence.len()
        );
        status = "not_verified";
    }
    Probed {
        id: c.id.to_string(),
        status,
        evidence,
        note,
        outcomes,
    }
}

fn or_unknown(s: &str) -> &str {
    if s.is_empty() {
        "(not stated)"
    } else {
        s
    }
}

/// The `probe` block of a results file: where and what was probed.
pub fn probe_block(obs: &Observation, fp: &Fingerprint) -> Json {
    json!({
        "target": obs.target,
        "reach": obs.reach.as_ref().map(|r| r.describe()).unwrap_or_default(),
        "server_name": fp.server_name,
        "server_version": fp.server_version,
        "protocol_version": fp.protocol_version,
        "definitions": fp.definitions,
    })
}

/// The result entry a probe writes.
pub fn entry(p: &Probed, fp: &Fingerprint) -> Json {
    json!({
        "status": p.status,
        "evidence": p.evidence,
        "gaps": [],
        "note": p.note,
        "source": SOURCE,
        "fingerprint": fp.definitions,
    })
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Merged {
    /// Ids whose person-recorded result was kept over the probe's.
    pub kept: Vec<String>,
    /// Ids the probe wrote.
    pub written: Vec<String>,
}

fn is_probe_result(v: &Json) -> bool {
    v.get("source").and_then(Json::as_str) == Some(SOURCE)
}

/// Merge probe results into a results file's value (`Json::Null` for a new file). Results a
/// person recorded are kept unless `overwrite`; a person's result without a fingerprint is
/// stamped with the fingerprint of the probe before this one (or this one, on the first), so a
/// later definition change shows which results were recorded against the old server.
pub fn merge(
    existing: Json,
    probed: &[Probed],
    obs: &Observation,
    catalogue_version: Option<&str>,
    overwrite: bool,
) -> (Json, Merged) {
    let fp = Fingerprint::of(obs);
    let mut top = match existing {
        Json::Object(m) => m,
        _ => Map::new(),
    };
    let previous = top
        .get("probe")
        .and_then(|p| p.get("definitions"))
        .and_then(Json::as_str)
        .map(String::from);
    let mut meta = match top.remove("audit_meta") {
        Some(Json::Object(m)) => m,
        _ => Map::new(),
    };
    if !meta.contains_key("server_name") && !fp.server_name.is_empty() {
        meta.insert("server_name".into(), json!(fp.server_name));
    }
    if let (false, Some(v)) = (meta.contains_key("catalogue_version"), catalogue_version) {
        meta.insert("catalogue_version".into(), json!(v));
    }
    let mut results: std::collections::BTreeMap<String, Json> = match top.remove("results") {
        Some(Json::Object(m)) => m.into_iter().collect(),
        _ => Default::default(),
    };
    let stamp = previous.clone().unwrap_or_else(|| fp.definitions.clone());
    for (_, v) in results.iter_mut() {
        if let Json::Object(m) = v {
            if !is_probe_result(&Json::Object(m.clone())) && !m.contains_key("fingerprint") {
                m.insert("fingerprint".into(), json!(stamp));
            }
        }
    }
    let mut merged = Merged::default();
    for p in probed {
        match results.get(&p.id) {
            Some(old) if !is_probe_result(old) && !overwrite => merged.kept.push(p.id.clone()),
            _ => {
                results.insert(p.id.clone(), entry(p, &fp));
                merged.written.push(p.id.clone());
            }
        }
    }
    let mut out = Map::new();
    out.insert("audit_meta".into(), Json::Object(meta));
    out.insert("probe".into(), probe_block(obs, &fp));
    out.insert(
        "results".into(),
        Json::Object(results.into_iter().collect()),
    );
    (Json::Object(out), merged)
}

/// The results file's text (YAML), with a header that says how it was written.
pub fn to_yaml(v: &Json) -> String {
    let body = serde_yaml::to_string(v).unwrap_or_default();
    format!(
        "# Results written by `auditbook probe`. Results with `source: probe` are replaced by the\n# next probe; results recorded by a person are kept unless --overwrite.\n{body}"
    )
}
