//! The figures the portfolio's HTML pictures show, decided here so the renderer only lays them
//! out: the heatmap's totals, pass and fail per check across the portfolio's servers, which
//! protocol revisions each server supports, and the assessed shares of every fleet run given.
//!
//! A server's revision support comes from the newest run that assessed it (its bucket), else
//! from the `probe.serves` list of its results file (a version from the modern revision on is
//! the modern revision, an earlier one the legacy), else it is unknown.

use super::bucket::Bucket;
use super::report::{CheckCounts, Report};
use super::run::Runs;
use crate::audit::portfolio::{Matrix, WORST_FIRST};
use crate::audit::results::Status;
use crate::evidence::probe::observe::NEWEST;
use serde::Serialize;
use std::collections::BTreeMap;

/// Revision support, in the order the pictures and tables show it.
pub const REVISIONS: [&str; 4] = ["legacy-only", "both", "modern-only", "unknown"];

/// The assessed buckets of a trend, in report order.
pub const ASSESSED: [&str; 3] = ["legacy-only", "both", "modern-only"];

/// One fleet run (one or more run files of its shards), as the trend shows it.
pub struct Run {
    /// When its first shard started (from the run files' headers), seconds since the epoch.
    pub started: u64,
    pub runs: Runs,
}

#[derive(Clone, Debug, Serialize)]
pub struct Share {
    pub bucket: &'static str,
    pub servers: usize,
    /// Tenths of a percent of the assessed servers, rounded in integers.
    pub tenths: u32,
    pub percent: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The day and time (UTC) the run started.
    pub label: String,
    pub declared: usize,
    pub evidenced: usize,
    pub assessed: usize,
    pub shares: Vec<Share>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ServerRevision {
    pub name: String,
    pub support: &'static str,
    /// Where it was read: `run`, `probe` (the results file), or nothing.
    pub from: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// Heatmap cells per status (`none` for a category nothing applies in), every status
    /// listed, worst first.
    pub cells: Vec<(&'static str, usize)>,
    /// Per check that applies to at least one server: servers by status (pass, fail, other).
    pub checks: BTreeMap<String, CheckCounts>,
    /// Servers per revision support, every one of `REVISIONS` listed.
    pub revisions: Vec<(&'static str, usize)>,
    pub servers: Vec<ServerRevision>,
    /// One step per run, oldest first.
    pub trend: Vec<Step>,
}

fn tenths(n: usize, of: usize) -> u32 {
    if of == 0 {
        return 0;
    }
    ((n as u128 * 1000 + of as u128 / 2) / of as u128) as u32
}

/// `YYYY-MM-DD HH:MM` (UTC) of seconds since the epoch.
fn when(secs: u64) -> String {
    let day = crate::model::date::civil_date((secs / 86_400) as i64);
    let rest = secs % 86_400;
    format!("{day} {:02}:{:02}", rest / 3600, (rest % 3600) / 60)
}

/// The revision support of a list of served versions; `None` when it names no version.
fn of_served(serves: &[String]) -> Option<&'static str> {
    let dated: Vec<&String> = serves
        .iter()
        .filter(|v| crate::model::date::is_calendar_date(v))
        .collect();
    let modern = dated.iter().any(|v| v.as_str() >= NEWEST);
    let legacy = dated.iter().any(|v| v.as_str() < NEWEST);
    match (legacy, modern) {
        (true, true) => Some("both"),
        (true, false) => Some("legacy-only"),
        (false, true) => Some("modern-only"),
        (false, false) => None,
    }
}

impl Figures {
    /// The figures of matrix `m` and of the fleet runs given (in any order).
    pub fn of(m: &Matrix, runs: Vec<Run>) -> Figures {
        let mut runs = runs;
        runs.sort_by_key(|r| r.started);
        let mut cells: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut checks: BTreeMap<String, CheckCounts> = BTreeMap::new();
        for s in &m.servers {
            for w in &s.worst {
                *cells.entry(w.map(Status::as_str).unwrap_or("none")).or_default() += 1;
            }
            for (id, status) in &s.statuses {
                let c = checks.entry(id.clone()).or_default();
                match status {
                    Status::Pass => c.pass += 1,
                    Status::Fail => c.fail += 1,
                    _ => c.other += 1,
                }
            }
        }
        let newest = runs.last();
        let servers: Vec<ServerRevision> = m
            .servers
            .iter()
            .map(|s| {
                let from_run = newest
                    .and_then(|r| r.runs.lines.get(&s.name))
                    .and_then(|l| Bucket::of_name(&l.bucket))
                    .filter(|b| b.assessed())
                    .map(Bucket::name);
                let (support, from) = match (from_run, of_served(&s.serves)) {
                    (Some(b), _) => (b, "run"),
                    (None, Some(b)) => (b, "probe"),
                    (None, None) => ("unknown", ""),
                };
                ServerRevision {
                    name: s.name.clone(),
                    support,
                    from,
                }
            })
            .collect();
        let revisions = REVISIONS
            .iter()
            .map(|r| (*r, servers.iter().filter(|s| s.support == *r).count()))
            .collect();
        let trend = runs
            .iter()
            .map(|r| {
                let rep = Report::of(&r.runs, true);
                let shares = ASSESSED
                    .iter()
                    .map(|b| {
                        let n = rep
                            .buckets
                            .iter()
                            .find(|c| c.bucket == *b)
                            .map(|c| c.servers)
                            .unwrap_or(0);
                        let t = tenths(n, rep.denominator);
                        Share {
                            bucket: b,
                            servers: n,
                            tenths: t,
                            percent: format!("{}.{}", t / 10, t % 10),
                        }
                    })
                    .collect();
                Step {
                    label: when(r.started),
                    declared: rep.declared,
                    evidenced: rep.evidenced,
                    assessed: rep.denominator,
                    shares,
                }
            })
            .collect();
        Figures {
            cells: WORST_FIRST
                .iter()
                .map(|s| s.as_str())
                .chain(["none"])
                .map(|s| (s, cells.get(s).copied().unwrap_or(0)))
                .collect(),
            checks,
            revisions,
            servers,
            trend,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn served_versions_tell_the_revisions() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(of_served(&v(&["2025-11-25"])), Some("legacy-only"));
        assert_eq!(of_served(&v(&["2025-06-18", NEWEST])), Some("both"));
        assert_eq!(of_served(&v(&[NEWEST])), Some("modern-only"));
        assert_eq!(of_served(&v(&["draft"])), None);
        assert_eq!(when(86_400 + 3_660), "1970-01-02 01:01");
        assert_eq!(tenths(1, 3), 333);
    }
}
