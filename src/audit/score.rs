//! The itemised quality score: the maximum minus one deduction per fail or partial result,
//! weighted by severity, with partial and advisory findings at declared fractions, never below
//! the floor. Results that were not verified, not yet looked at, missing or rejected deduct
//! nothing and are listed as unscored, with the share of applicable checks actually scored, so
//! a high score over few verified checks reads as what it is.
//!
//! Points are kept in hundredths (integers) so the arithmetic and its printing are exact and
//! identical on every run.

use super::results::Status;
use super::verdict::{Audit, Row};
use crate::model::scoring::ScoringConfig;
use crate::model::{Adoption, Catalogue};
use serde::{Serialize, Serializer};

/// Points in hundredths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Points(pub i64);

impl Points {
    pub fn from_f64(v: f64) -> Points {
        Points((v * 100.0).round() as i64)
    }
}

impl std::fmt::Display for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        let (whole, frac) = (a / 100, a % 100);
        match frac {
            0 => write!(f, "{sign}{whole}"),
            x if x % 10 == 0 => write!(f, "{sign}{whole}.{}", x / 10),
            x => write!(f, "{sign}{whole}.{x:02}"),
        }
    }
}

impl Serialize for Points {
    /// As a JSON number (`72.5`), printed from the exact hundredths.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 100 == 0 {
            s.serialize_i64(self.0 / 100)
        } else {
            s.serialize_f64(self.0 as f64 / 100.0)
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Deduction {
    pub id: String,
    pub title: String,
    pub severity: String,
    pub adoption: &'static str,
    pub status: &'static str,
    pub points: Points,
    /// How the points were computed: `high partial: 10 × 0.5`.
    pub basis: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Unscored {
    pub id: String,
    pub status: &'static str,
    pub severity: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeverityPoints {
    pub severity: String,
    pub points: Points,
}

/// The effective scoring policy, every severity's weight spelled out.
#[derive(Clone, Debug, Serialize)]
pub struct Policy {
    pub max: Points,
    pub floor: Points,
    /// Points of a fail by severity, in severity order.
    pub fail: Vec<SeverityPoints>,
    pub partial_fraction: f64,
    pub advisory_fraction: f64,
    pub waived_fraction: f64,
    /// Below this share of applicable checks scored, the score is provisional.
    pub min_scored_share: f64,
    /// Whether the catalogue declares the policy (`false`: the engine's defaults).
    pub declared: bool,
}

impl Policy {
    pub fn describe(&self) -> String {
        let weights: Vec<String> = self
            .fail
            .iter()
            .map(|w| format!("{} {}", w.severity, w.points))
            .collect();
        format!(
            "max {}, floor {}; a fail costs {}; partial × {}; advisory × {}; waived × {}; final from {}% scored{}",
            self.max,
            self.floor,
            weights.join(", "),
            self.partial_fraction,
            self.advisory_fraction,
            self.waived_fraction,
            basis_points(self.min_scored_share) as f64 / 100.0,
            if self.declared {
                ""
            } else {
                " (engine defaults: the catalogue declares no scoring)"
            }
        )
    }
}

/// A share (0–1) in hundredths of a percent, so thresholds compare exactly.
fn basis_points(share: f64) -> u64 {
    (share.clamp(0.0, 1.0) * 10_000.0).round() as u64
}

#[derive(Clone, Debug, Serialize)]
pub struct Score {
    /// The score, once enough applicable checks are scored; `None` while it is provisional.
    pub value: Option<Points>,
    /// The score as computed so far, while too few checks are scored for it to be final.
    pub provisional_score: Option<Points>,
    /// The computed number, final or not (for gates and comparisons in the engine).
    #[serde(skip)]
    pub computed: Points,
    /// `Score 85/100` or `Score — (provisional 100, 1% scored)`.
    pub headline: String,
    /// What is missing to make a provisional score final (`None` when it is final).
    pub to_final: Option<String>,
    pub max: Points,
    pub deducted: Points,
    /// Whether the floor cut the score off.
    pub floored: bool,
    /// Ordered by points (largest first), then id.
    pub deductions: Vec<Deduction>,
    pub applicable: usize,
    /// Applicable checks with a pass, fail or partial result.
    pub scored: usize,
    /// `scored` as a whole percentage of `applicable`.
    pub scored_share: u32,
    /// Applicable checks without a scorable result, by id.
    pub unscored: Vec<Unscored>,
    pub policy: Policy,
}

#[cfg(any(test, feature = "internals"))]
pub fn policy(cat: &Catalogue) -> Policy {
    let cfg = cat.config.scoring.clone().unwrap_or_default();
    scoring_policy(cat, &cfg, cat.config.scoring.is_some())
}

fn scoring_policy(cat: &Catalogue, cfg: &ScoringConfig, declared: bool) -> Policy {
    Policy {
        max: Points::from_f64(cfg.max),
        floor: Points::from_f64(cfg.floor),
        fail: cat
            .config
            .severities()
            .into_iter()
            .map(|s| {
                let points = Points::from_f64(cfg.fail_points(&s).unwrap_or(0.0));
                SeverityPoints {
                    severity: s,
                    points,
                }
            })
            .collect(),
        partial_fraction: cfg.partial_fraction,
        advisory_fraction: cfg.advisory_fraction,
        waived_fraction: cfg.waived_fraction,
        min_scored_share: cfg.min_scored_share,
        declared,
    }
}

pub fn score(cat: &Catalogue, audit: &Audit) -> Score {
    let cfg = cat.config.scoring.clone().unwrap_or_default();
    let policy = scoring_policy(cat, &cfg, cat.config.scoring.is_some());
    let mut deductions = Vec::new();
    let mut unscored = Vec::new();
    let mut applicable = 0;
    let mut scored = 0;
    for r in audit.applicable() {
        applicable += 1;
        let c = r.check;
        let status = r.status.unwrap_or(Status::Missing);
        let partial = match status {
            Status::Pass => {
                scored += 1;
                continue;
            }
            Status::Fail => false,
            Status::Partial => true,
            other => {
                unscored.push(Unscored {
                    id: c.id.to_string(),
                    status: other.as_str(),
                    severity: c.severity.to_string(),
                });
                continue;
            }
        };
        scored += 1;
        deductions.push(deduction(&cfg, r, status, partial));
    }
    deductions.sort_by(|a, b| b.points.cmp(&a.points).then_with(|| a.id.cmp(&b.id)));
    let deducted = Points(deductions.iter().map(|d| d.points.0).sum());
    let raw = policy.max.0 - deducted.0;
    let computed = Points(raw.max(policy.floor.0));
    // Scored checks needed for a final score: the declared share of the applicable ones,
    // rounded up (computed in basis points, so 80% of 10 is exactly 8).
    let needed =
        (applicable as u64 * basis_points(policy.min_scored_share)).div_ceil(10_000) as usize;
    let share = super::applicability::percent(scored, applicable);
    let provisional = scored < needed;
    let headline = if provisional {
        format!("Score — (provisional {computed}, {share}% scored)")
    } else {
        format!("Score {computed}/{}", policy.max)
    };
    let to_final = provisional.then(|| {
        format!(
            "The score is provisional: {scored} of {applicable} applicable checks are scored ({share}%), and a final score needs {}% ({needed} checks). Record pass, fail or partial for {} more of them to make it final.",
            basis_points(policy.min_scored_share) as f64 / 100.0,
            needed - scored
        )
    });
    Score {
        value: (!provisional).then_some(computed),
        provisional_score: provisional.then_some(computed),
        computed,
        headline,
        to_final,
        max: policy.max,
        deducted,
        floored: raw < policy.floor.0,
        deductions,
        applicable,
        scored,
        scored_share: share,
        unscored,
        policy,
    }
}

/// What a failing or partly failing check costs: its severity's points, times the fractions
/// for partial, advisory and waived, with the reckoning spelt out.
fn deduction(cfg: &ScoringConfig, r: &Row, status: Status, partial: bool) -> Deduction {
    let c = r.check;
    let weight = cfg.fail_points(&c.severity).unwrap_or(0.0);
    let mut factor = 1.0;
    let mut basis = format!(
        "{} {}: {}",
        c.severity,
        status.as_str(),
        Points::from_f64(weight)
    );
    if partial {
        factor *= cfg.partial_fraction;
        basis.push_str(&format!(" × {} (partial)", cfg.partial_fraction));
    }
    if c.adoption == Adoption::Advisory {
        factor *= cfg.advisory_fraction;
        basis.push_str(&format!(" × {} (advisory)", cfg.advisory_fraction));
    }
    if r.waiver.is_some() {
        factor *= cfg.waived_fraction;
        basis.push_str(&format!(" × {} (waived)", cfg.waived_fraction));
    }
    Deduction {
        id: c.id.to_string(),
        title: c.title.clone(),
        severity: c.severity.to_string(),
        adoption: c.adoption.as_str(),
        status: status.as_str(),
        points: Points::from_f64(weight * factor),
        basis,
    }
}

impl Score {
    #[cfg(any(test, feature = "internals"))]
    pub fn provisional(&self) -> bool {
        self.value.is_none()
    }

    /// `6 of 8 applicable checks scored (75%)`.
    pub fn share_line(&self) -> String {
        format!(
            "{} of {} applicable checks scored ({}%)",
            self.scored, self.applicable, self.scored_share
        )
    }

    /// How the score was computed, line by line (`audit --explain-score`).
    pub fn explain(&self) -> String {
        let mut out = Vec::new();
        out.push(format!(
            "{} — scoring policy: {}",
            self.headline,
            self.policy.describe()
        ));
        out.push(format!("  start at {}", self.max));
        for d in &self.deductions {
            out.push(format!(
                "  -{:<6} {:<10} {:<8} {:<8} {:<8} {}",
                d.points.to_string(),
                d.id,
                d.severity,
                d.adoption,
                d.status,
                d.basis
            ));
        }
        if self.deductions.is_empty() {
            out.push("  no deductions: no applicable check has a fail or partial result".into());
        }
        let raw = Points(self.max.0 - self.deducted.0);
        out.push(format!(
            "  = {} - {} = {}{}",
            self.max,
            self.deducted,
            raw,
            if self.floored {
                format!(", below the floor: {}", self.computed)
            } else {
                String::new()
            }
        ));
        out.push(format!("  {}", self.share_line()));
        if let Some(t) = &self.to_final {
            out.push(format!("  {t}"));
        }
        if self.unscored.is_empty() {
            out.push("  unscored: none".into());
        } else {
            let mut by: Vec<(&str, Vec<&str>)> = Vec::new();
            for u in &self.unscored {
                match by.iter_mut().find(|(s, _)| *s == u.status) {
                    Some((_, ids)) => ids.push(&u.id),
                    None => by.push((u.status, vec![&u.id])),
                }
            }
            by.sort();
            for (s, ids) in by {
                out.push(format!(
                    "  unscored, {s} ({}): {}",
                    ids.len(),
                    ids.join(", ")
                ));
            }
        }
        out.join("\n") + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_exactly() {
        assert_eq!(Points::from_f64(72.5).to_string(), "72.5");
        assert_eq!(Points::from_f64(73.0).to_string(), "73");
        assert_eq!(Points::from_f64(0.25).to_string(), "0.25");
        assert_eq!(Points::from_f64(2.0 * 0.5 * 0.5).to_string(), "0.5");
        assert_eq!(Points(-250).to_string(), "-2.5");
        assert_eq!(serde_json::to_string(&Points(7250)).unwrap(), "72.5");
        assert_eq!(serde_json::to_string(&Points(7300)).unwrap(), "73");
    }
}
