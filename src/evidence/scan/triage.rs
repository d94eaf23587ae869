//! A person's decisions on the scan's signals, kept in the results file under `triage:`: for
//! each finding (by the fingerprint of its code) whether it is real or a false positive, why,
//! who and when, optionally until a day. A changed line has another fingerprint, so its
//! decision no longer applies and the signal opens again; an unchanged line stays decided.

use serde_json::{json, Value as Json};

/// One decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub check: String,
    pub finding: String,
    pub real: bool,
    pub reason: String,
    pub until: Option<String>,
    pub decided: String,
}

/// The decisions of a results file.
#[derive(Clone, Debug, Default)]
pub struct Decisions(pub Vec<Decision>);

impl Decisions {
    /// Read `triage:` from a results file's value; entries that are not decisions are left out.
    pub fn of_results(v: &Json) -> Decisions {
        let items = v.get("triage").and_then(Json::as_array);
        Decisions(
            items
                .into_iter()
                .flatten()
                .filter_map(|d| {
                    Some(Decision {
                        check: d.get("check")?.as_str()?.to_string(),
                        finding: d
                            .get("finding")?
                            .as_str()?
                            .trim_start_matches('#')
                            .to_string(),
                        real: match d.get("decision")?.as_str()? {
                            "real" => true,
                            "false-positive" => false,
                            _ => return None,
                        },
                        reason: d
                            .get("reason")
                            .and_then(Json::as_str)
                            .unwrap_or("")
                            .to_string(),
                        until: d.get("until").and_then(Json::as_str).map(String::from),
                        decided: d
                            .get("decided")
                            .and_then(Json::as_str)
                            .unwrap_or("")
                            .to_string(),
                    })
                })
                .collect(),
        )
    }

    /// The decision on a finding that still holds on `today`: `Some(true)` real,
    /// `Some(false)` a false positive, `None` undecided or lapsed.
    pub fn of(&self, check: &str, finding: &str, today: &str) -> Option<bool> {
        self.0
            .iter()
            .rev()
            .find(|d| d.check == check && d.finding == finding)
            .filter(|d| d.until.as_deref().is_none_or(|u| u >= today))
            .map(|d| d.real)
    }
}

/// The results file's value with `decision` recorded (replacing an earlier decision on the same
/// finding).
pub fn record(existing: Json, d: &Decision) -> Json {
    let mut top = match existing {
        Json::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    let mut list: Vec<Json> = top
        .remove("triage")
        .and_then(|t| match t {
            Json::Array(a) => Some(a),
            _ => None,
        })
        .unwrap_or_default();
    list.retain(|x| {
        !(x.get("check").and_then(Json::as_str) == Some(d.check.as_str())
            && x.get("finding")
                .and_then(Json::as_str)
                .map(|f| f.trim_start_matches('#'))
                == Some(d.finding.as_str()))
    });
    let mut entry = json!({
        "check": d.check,
        "finding": d.finding,
        "decision": if d.real { "real" } else { "false-positive" },
        "reason": d.reason,
        "decided": d.decided,
    });
    if let Some(u) = &d.until {
        entry["until"] = json!(u);
    }
    list.push(entry);
    list.sort_by(|a, b| {
        let k = |x: &Json| {
            (
                x.get("check")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string(),
                x.get("finding")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string(),
            )
        };
        k(a).cmp(&k(b))
    });
    top.insert("triage".into(), Json::Array(list));
    Json::Object(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_holds_until_its_day_and_is_replaced_by_the_next() {
        let d = |real, until: Option<&str>| Decision {
            check: "IDENT-002".into(),
            finding: "abc123abc123".into(),
            real,
            reason: "r".into(),
            until: until.map(String::from),
            decided: "2026-12-01".into(),
        };
        let v = record(Json::Null, &d(false, Some("2026-12-31")));
        let ds = Decisions::of_results(&v);
        assert_eq!(
            ds.of("IDENT-002", "abc123abc123", "2026-12-02"),
            Some(false)
        );
        assert_eq!(ds.of("IDENT-002", "abc123abc123", "2027-01-01"), None);
        assert_eq!(ds.of("IDENT-002", "other", "2026-12-02"), None);
        let v = record(v, &d(true, None));
        assert_eq!(v["triage"].as_array().map(Vec::len), Some(1));
        assert_eq!(
            Decisions::of_results(&v).of("IDENT-002", "abc123abc123", "2030-01-01"),
            Some(true)
        );
    }
}
