//! CI gates on an audit report: a minimum score and a severity no finding may reach. A gate
//! is breached with a reason a person can act on; the verdict's own exit code is separate.

use super::report::Report;
use super::score::Points;
use crate::model::Catalogue;

#[derive(Clone, Debug, Default)]
pub struct Gates {
    pub min_score: Option<Points>,
    /// The least severe severity that fails the gate (its rank and name).
    pub fail_on: Option<(usize, String)>,
}

impl Gates {
    /// Gates as given on the command line; a severity the catalogue does not declare or a
    /// score that is not a number ≥ 0 is refused (the caller exits 2).
    pub fn new(
        cat: &Catalogue,
        min_score: Option<f64>,
        fail_on: Option<&str>,
    ) -> Result<Gates, String> {
        let min_score = match min_score {
            Some(n) if !n.is_finite() || n < 0.0 => {
                return Err(format!("--min-score must be a number ≥ 0; found {n}"))
            }
            other => other.map(Points::from_f64),
        };
        let fail_on = match fail_on {
            None => None,
            Some(s) => {
                let all = cat.config.severities();
                match all.iter().position(|x| x == s) {
                    Some(rank) => Some((rank, s.to_string())),
                    None => {
                        return Err(format!(
                            "--fail-on `{s}` is not a severity of this catalogue (severities: {})",
                            all.join(", ")
                        ))
                    }
                }
            }
        };
        Ok(Gates { min_score, fail_on })
    }

    /// Why the report breaches each gate (empty: every gate holds).
    pub fn breaches(&self, cat: &Catalogue, rep: &Report) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(min) = self.min_score {
            match rep.score.value {
                None => out.push(format!(
                    "--min-score {min}: the score is provisional ({} of {} applicable checks scored, {}%), so it cannot meet a minimum",
                    rep.score.scored, rep.score.applicable, rep.score.scored_share
                )),
                Some(v) if v < min => out.push(format!(
                    "--min-score {min}: the score is {v}"
                )),
                Some(_) => {}
            }
        }
        if let Some((rank, name)) = &self.fail_on {
            let hits: Vec<String> = rep
                .findings
                .iter()
                .chain(&rep.advisory_findings)
                .filter(|f| cat.config.severity_rank(&f.severity) <= *rank)
                .map(|f| format!("{} ({} {})", f.id, f.severity, f.status))
                .collect();
            if !hits.is_empty() {
                out.push(format!(
                    "--fail-on {name}: {} finding(s) of severity {name} or worse: {}",
                    hits.len(),
                    hits.join(", ")
                ));
            }
        }
        out
    }
}
