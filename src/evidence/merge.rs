//! One results file from every source: what the probe, the source scan, the package and the
//! conformance suite recorded, merged with what a person recorded. Each machine source writes
//! its block (`probe:`, `scan:`, `package:`, `conformance:`) and its results (`source:` naming
//! it); results of several sources on one check are combined — the worst finding wins, a
//! source that could not look gives way to one that did — and a person's result is kept
//! unless `--overwrite`. A person's result without a fingerprint is stamped with the
//! definitions of the probe before this one, so a later change of the server reopens it.

use serde::Serialize;
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeMap;

/// The machine sources, in the order their results are combined and named.
pub const SOURCES: [&str; 4] = ["scan", "package", "probe", "conformance"];

/// Whether a result's `source` names a machine (one source, or several joined by `+`).
pub fn is_machine(source: Option<&str>) -> bool {
    source.is_some_and(|s| !s.is_empty() && s.split('+').all(|p| SOURCES.contains(&p)))
}

/// What one source contributes: its block and its results.
#[derive(Clone, Debug)]
pub struct Contribution {
    pub source: &'static str,
    /// The block's value, written at the source's key.
    pub block: Json,
    /// Check id → result entry.
    pub results: Vec<(String, Json)>,
    /// The digest persons' results are stamped with (the probe's definitions), when any.
    pub stamp: Option<String>,
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Merged {
    /// Ids whose person-recorded result was kept over the machine's.
    pub kept: Vec<String>,
    /// Ids a machine wrote.
    pub written: Vec<String>,
    /// Ids where a person recorded `pass` and a machine proved `fail`.
    pub contradicted: Vec<String>,
}

/// What a machine found for a check whose result a person recorded: kept beside the person's
/// result (`machine:`), so the audit can hold the two against each other.
fn machine_view(v: &Json) -> Json {
    let mut m = Map::new();
    for k in ["status", "source", "digest", "evidence"] {
        if let Some(x) = v.get(k) {
            m.insert(k.into(), x.clone());
        }
    }
    Json::Object(m)
}

/// The digest a machine's result was taken from: the artifact's or the source tree's.
fn digest_of(v: &Json) -> Option<&str> {
    v.get("digest")
        .and_then(Json::as_str)
        .filter(|d| !d.is_empty())
}

/// The rank of a status when sources are combined: a finding first, then what waits for a
/// person, then a pass, and last "could not look".
fn rank(status: &str) -> u8 {
    match status {
        "fail" => 0,
        "partial" => 1,
        "needs_triage" => 2,
        "todo" => 3,
        "pass" => 4,
        _ => 5,
    }
}

fn status_of(v: &Json) -> &str {
    v.get("status").and_then(Json::as_str).unwrap_or("")
}

fn list_of(v: &Json, key: &str) -> Vec<Json> {
    v.get(key)
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Combine the results of several sources on one check.
fn combine(parts: Vec<(&'static str, Json)>) -> Json {
    if parts.len() == 1 {
        return parts
            .into_iter()
            .next()
            .map(|(_, v)| v)
            .unwrap_or(Json::Null);
    }
    let best = parts
        .iter()
        .min_by_key(|(_, v)| rank(status_of(v)))
        .map(|(_, v)| v.clone())
        .unwrap_or(Json::Null);
    let mut out = match best {
        Json::Object(m) => m,
        _ => Map::new(),
    };
    let mut evidence = Vec::new();
    let mut cites: Vec<Json> = Vec::new();
    let mut notes = Vec::new();
    for (src, v) in &parts {
        evidence.extend(list_of(v, "evidence"));
        for c in list_of(v, "cites") {
            if !cites.contains(&c) {
                cites.push(c);
            }
        }
        if let Some(n) = v.get("note").and_then(Json::as_str) {
            notes.push(format!("{src}: {n}"));
        }
    }
    // A part names its own source (the scan's results may be the package's); else its
    // contribution's.
    let named: Vec<&str> = parts
        .iter()
        .flat_map(|(src, v)| {
            v.get("source")
                .and_then(Json::as_str)
                .unwrap_or(src)
                .split('+')
                .collect::<Vec<_>>()
        })
        .collect();
    let names: Vec<&str> = SOURCES
        .iter()
        .copied()
        .filter(|s| named.contains(s))
        .collect();
    out.insert("source".into(), json!(names.join("+")));
    out.insert("evidence".into(), Json::Array(evidence));
    out.insert("cites".into(), Json::Array(cites));
    out.insert("note".into(), json!(notes.join("; ")));
    Json::Object(out)
}

/// Merge the contributions into a results file's value (`Json::Null` for a new file).
/// `server_name` and `catalogue_version` fill `audit_meta` where it says nothing.
pub fn merge(
    existing: Json,
    contributions: &[Contribution],
    server_name: Option<&str>,
    catalogue_version: Option<&str>,
    overwrite: bool,
) -> (Json, Merged) {
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
    if let (false, Some(n)) = (
        meta.contains_key("server_name"),
        server_name.filter(|n| !n.is_empty()),
    ) {
        meta.insert("server_name".into(), json!(n));
    }
    if let (false, Some(v)) = (meta.contains_key("catalogue_version"), catalogue_version) {
        meta.insert("catalogue_version".into(), json!(v));
    }
    let mut results: BTreeMap<String, Json> = match top.remove("results") {
        Some(Json::Object(m)) => m.into_iter().collect(),
        _ => BTreeMap::new(),
    };
    let stamp = previous.or_else(|| contributions.iter().find_map(|c| c.stamp.clone()));
    if let Some(stamp) = &stamp {
        for v in results.values_mut() {
            let machine = is_machine(v.get("source").and_then(Json::as_str));
            if let Json::Object(m) = v {
                if !machine && !m.contains_key("fingerprint") {
                    m.insert("fingerprint".into(), json!(stamp));
                }
            }
        }
    }
    let mut by_id: BTreeMap<String, Vec<(&'static str, Json)>> = BTreeMap::new();
    for c in contributions {
        for (id, v) in &c.results {
            by_id
                .entry(id.clone())
                .or_default()
                .push((c.source, v.clone()));
        }
    }
    // The digests of the artifact and the source tree the last run looked at: a person's
    // result recorded before this run judged those, not what this run sees.
    let earlier: Vec<String> = ["package", "scan"]
        .iter()
        .filter_map(|k| {
            top.get(*k)
                .and_then(|b| b.get("digest"))
                .and_then(Json::as_str)
        })
        .map(String::from)
        .collect();
    let mut merged = Merged::default();
    for (id, parts) in by_id {
        let machine = combine(parts);
        let person = results
            .get(&id)
            .is_some_and(|old| !is_machine(old.get("source").and_then(Json::as_str)));
        if person && !overwrite {
            if let Some(Json::Object(p)) = results.get_mut(&id) {
                // A person's result without a digest judged what was there before this run
                // (or, on a first run, what this run sees).
                if !p.contains_key("digest") {
                    let stamp = earlier
                        .first()
                        .cloned()
                        .or_else(|| digest_of(&machine).map(String::from));
                    if let Some(d) = stamp {
                        p.insert("digest".into(), json!(d));
                    }
                }
                let said = p.get("status").and_then(Json::as_str).unwrap_or("");
                if said == "pass" && status_of(&machine) == "fail" {
                    merged.contradicted.push(id.clone());
                }
                p.insert("machine".into(), machine_view(&machine));
            }
            merged.kept.push(id);
            continue;
        }
        results.insert(id.clone(), machine);
        merged.written.push(id);
    }
    let mut out = Map::new();
    out.insert("audit_meta".into(), Json::Object(meta));
    // Blocks of sources not in this run stay as they were.
    for key in SOURCES {
        let old = top.remove(key);
        if let Some(c) = contributions.iter().find(|c| c.source == key) {
            out.insert(key.into(), c.block.clone());
        } else if let Some(old) = old {
            out.insert(key.into(), old);
        }
    }
    for (k, v) in top {
        if k != "results" {
            out.insert(k, v);
        }
    }
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
        "# Results written by auditbook. Results with a machine `source` (probe, scan, package,\n# conformance) are replaced by the next run; results recorded by a person are kept unless\n# --overwrite.\n{body}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_finding_wins_and_a_person_is_kept() {
        let c = |source, status: &str| Contribution {
            source,
            block: json!({}),
            results: vec![(
                "A-001".into(),
                json!({"status": status, "evidence": [format!("{source} saw it")], "source": source}),
            )],
            stamp: None,
        };
        let (v, m) = merge(
            Json::Null,
            &[c("scan", "pass"), c("probe", "fail")],
            None,
            None,
            false,
        );
        assert_eq!(v["results"]["A-001"]["status"], "fail");
        assert_eq!(v["results"]["A-001"]["source"], "scan+probe");
        assert_eq!(
            v["results"]["A-001"]["evidence"].as_array().map(Vec::len),
            Some(2)
        );
        assert_eq!(m.written, vec!["A-001"]);
        let (v, _) = merge(
            Json::Null,
            &[c("scan", "pass"), c("probe", "not_verified")],
            None,
            None,
            false,
        );
        assert_eq!(v["results"]["A-001"]["status"], "pass");
        let person = json!({"results": {"A-001": {"status": "pass", "evidence": ["x"]}}});
        let (v, m) = merge(person, &[c("probe", "fail")], None, None, false);
        assert_eq!(v["results"]["A-001"]["status"], "pass");
        assert_eq!(m.kept, vec!["A-001"]);
        assert!(is_machine(Some("scan+probe")));
        let old = json!({"probe": {"target": "old", "reached": true}, "results": {}});
        let (v, _) = merge(
            old,
            &[Contribution {
                block: json!({"target": "new", "reached": false}),
                ..c("probe", "fail")
            }],
            None,
            None,
            false,
        );
        assert_eq!(
            v["probe"]["target"], "new",
            "the block of this run replaces the last one"
        );
        assert!(!is_machine(Some("alice")));
    }
}
