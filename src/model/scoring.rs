//! The `scoring:` block of `catalogue.yaml`: how many points each finding costs the 0–100
//! quality score of an audit report. Typed with `deny_unknown_fields` so a misspelt weight is
//! an error, never a silent default.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Keys of the block, for "did you mean" and the documentation.
pub const KEYS: &[&str] = &[
    "max",
    "floor",
    "fail",
    "partial_fraction",
    "advisory_fraction",
    "min_scored_share",
    "waived_fraction",
];

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoringConfig {
    /// The score of an audit with no deductions.
    #[serde(default = "default_max")]
    pub max: f64,
    /// The score never drops below this.
    #[serde(default)]
    pub floor: f64,
    /// Points a `fail` costs, by severity. Severities not listed cost their default.
    #[serde(default)]
    pub fail: BTreeMap<String, f64>,
    /// A `partial` costs this fraction of a `fail` of the same severity.
    #[serde(default = "half")]
    pub partial_fraction: f64,
    /// A finding on an advisory check costs this fraction of the same finding on an enforced one.
    #[serde(default = "half")]
    pub advisory_fraction: f64,
    /// Below this share of applicable checks scored (pass, fail or partial), the score is
    /// provisional: shown beside the share, never as the audit's score.
    #[serde(default = "default_min_scored_share")]
    pub min_scored_share: f64,
    /// A waived fail or partial (an accepted risk) costs this fraction of what it would cost
    /// unwaived: 1 keeps the risk in the score, 0 removes it.
    #[serde(default = "one")]
    pub waived_fraction: f64,
}

fn default_max() -> f64 {
    100.0
}
fn half() -> f64 {
    0.5
}
fn one() -> f64 {
    1.0
}
fn default_min_scored_share() -> f64 {
    0.8
}

impl Default for ScoringConfig {
    fn default() -> Self {
        ScoringConfig {
            max: default_max(),
            floor: 0.0,
            fail: BTreeMap::new(),
            partial_fraction: half(),
            advisory_fraction: half(),
            min_scored_share: default_min_scored_share(),
            waived_fraction: one(),
        }
    }
}

/// Points of a `fail` for the default severities; other severities must be listed.
pub fn default_fail_points(severity: &str) -> Option<f64> {
    match severity {
        "critical" => Some(20.0),
        "high" => Some(10.0),
        "medium" => Some(5.0),
        "low" => Some(2.0),
        _ => None,
    }
}

impl ScoringConfig {
    /// Points of a `fail` on an enforced check of this severity (`None`: no weight known).
    pub fn fail_points(&self, severity: &str) -> Option<f64> {
        self.fail
            .get(severity)
            .copied()
            .or_else(|| default_fail_points(severity))
    }

    /// Every problem with the values, as (key path, message). Shape errors are serde's.
    pub fn problems(&self, severities: &[String]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let number = |out: &mut Vec<(String, String)>, key: String, v: f64| {
            if !v.is_finite() || v < 0.0 {
                out.push((
                    key.clone(),
                    format!("{key} must be a number ≥ 0; found {v}"),
                ));
                false
            } else {
                true
            }
        };
        let max_ok = number(&mut out, "scoring.max".into(), self.max);
        let floor_ok = number(&mut out, "scoring.floor".into(), self.floor);
        for (sev, v) in &self.fail {
            number(&mut out, format!("scoring.fail.{sev}"), *v);
        }
        for (key, v) in [
            ("partial_fraction", self.partial_fraction),
            ("advisory_fraction", self.advisory_fraction),
            ("min_scored_share", self.min_scored_share),
            ("waived_fraction", self.waived_fraction),
        ] {
            if number(&mut out, format!("scoring.{key}"), v) && v > 1.0 {
                out.push((
                    format!("scoring.{key}"),
                    format!("scoring.{key} is a fraction between 0 and 1; found {v}"),
                ));
            }
        }
        if max_ok && floor_ok && self.floor > self.max {
            out.push((
                "scoring.floor".into(),
                format!(
                    "scoring.floor ({}) is above scoring.max ({})",
                    self.floor, self.max
                ),
            ));
        }
        for sev in self.fail.keys() {
            if !severities.contains(sev) {
                let hint =
                    crate::text::suggest::did_you_mean(sev, severities.iter().map(|s| s.as_str()))
                        .map(|s| format!("; {s}"))
                        .unwrap_or_default();
                out.push((
                    format!("scoring.fail.{sev}"),
                    format!(
                        "scoring.fail names severity `{sev}`, which is not declared (severities: {}){hint}",
                        severities.join(", ")
                    ),
                ));
            }
        }
        for sev in severities {
            if self.fail_points(sev).is_none() {
                out.push((
                    "scoring.fail".into(),
                    format!(
                        "scoring.fail has no points for severity `{sev}` and it has no default"
                    ),
                ));
            }
        }
        out
    }
}
