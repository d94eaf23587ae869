//! The fleet report: every declared server in one bucket, the shares of the assessed ones over
//! that denominator (stated), pass and fail per probed check, and the run's coverage — which
//! declared servers it did not evidence. Without all of them there is no overall verdict unless
//! the caller accepts a partial one. The named detail is for the local report; the "state of"
//! summary counts and names no server.

use super::bucket::Bucket;
use super::run::{Line, Runs};
use serde::Serialize;
use std::collections::BTreeMap;

/// The bucket of a server the run could not start.
pub const SKIPPED: &str = "skipped";

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BucketCount {
    pub bucket: &'static str,
    pub servers: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Share {
    pub bucket: &'static str,
    pub servers: usize,
    /// Percent of the assessed servers, one decimal.
    pub percent: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CheckCounts {
    pub pass: usize,
    pub fail: usize,
    /// Probed, but neither (not verified, todo).
    pub other: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Missing {
    pub name: String,
    pub why: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Every declared server was evidenced (it has a bucket).
    pub complete: bool,
    /// Shards of the run no run file held.
    pub missing_shards: Vec<String>,
    /// Declared servers without evidence, by name, and why.
    pub not_evidenced: Vec<Missing>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServerRow {
    pub name: String,
    pub bucket: String,
    pub detail: Option<String>,
    pub failed: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub portfolio: String,
    pub catalogue: String,
    pub declared: usize,
    /// Servers with a bucket.
    pub evidenced: usize,
    /// The assessed servers: what every share is a share of.
    pub denominator: usize,
    /// Servers per bucket, every bucket listed, in report order.
    pub buckets: Vec<BucketCount>,
    /// The assessed buckets as shares of the denominator.
    pub shares: Vec<Share>,
    /// Per probed check, assessed servers by status.
    pub checks: BTreeMap<String, CheckCounts>,
    /// Servers whose results were kept from an earlier run (nothing they are judged on changed).
    pub reused: usize,
    /// Of those, kept without contacting the server (`--fresh-for`).
    pub uncontacted: usize,
    pub coverage: Coverage,
    /// The caller accepted a verdict over fewer servers than were declared.
    pub partial: bool,
    /// `pass` or `fail` over the assessed servers; none while coverage is incomplete and not
    /// accepted as partial.
    pub verdict: Option<&'static str>,
    /// Every server with its bucket, by name: the local report's detail.
    pub servers: Vec<ServerRow>,
}

/// The "state of" summary's figures: counts and shares only, no server's name, so whatever
/// renders it (the HTML template, one a user gives) cannot name one either.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateOf {
    pub declared: usize,
    pub evidenced: usize,
    /// The assessed servers, what every share is of.
    pub assessed: usize,
    /// Every bucket with its servers and, for the assessed ones, the share (`50.0 %`).
    pub buckets: Vec<StateBucket>,
    pub checks: BTreeMap<String, CheckCounts>,
    pub reused: usize,
    /// How many shards of the run no run file held.
    pub missing_shards: usize,
    /// `pass`, `fail`, `pass (partial)`, or why there is none.
    pub verdict: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateBucket {
    pub bucket: &'static str,
    pub servers: usize,
    pub share: Option<String>,
}

fn percent(n: usize, of: usize) -> f64 {
    if of == 0 {
        return 0.0;
    }
    // Rounded in integers, so the figure is the same on every machine.
    ((n as u128 * 1000 + of as u128 / 2) / of as u128) as f64 / 10.0
}

fn failed(l: &Line) -> Vec<String> {
    l.checks
        .iter()
        .filter(|(_, s)| s.as_str() == "fail")
        .map(|(id, _)| id.clone())
        .collect()
}

impl Report {
    /// The report of what run files held.
    pub fn of(runs: &Runs, partial: bool) -> Report {
        let declared = runs.declared();
        let first = runs.headers.first();
        let mut counts: BTreeMap<&'static str, usize> =
            Bucket::names().into_iter().map(|n| (n, 0)).collect();
        let mut checks: BTreeMap<String, CheckCounts> = BTreeMap::new();
        let mut not_evidenced = Vec::new();
        let mut servers = Vec::new();
        let mut reused = 0;
        let mut uncontacted = 0;
        let mut fails = false;
        for name in &declared {
            let Some(l) = runs.lines.get(name) else {
                not_evidenced.push(Missing {
                    name: name.clone(),
                    why: "no line in the run files (not collected yet, or its run stopped)".into(),
                });
                continue;
            };
            let bucket = Bucket::of_name(&l.bucket);
            match bucket {
                Some(b) => *counts.entry(b.name()).or_default() += 1,
                None => not_evidenced.push(Missing {
                    name: name.clone(),
                    why: l
                        .detail
                        .clone()
                        .unwrap_or_else(|| "the run did not start it".into()),
                }),
            }
            reused += usize::from(l.reused);
            uncontacted += usize::from(l.uncontacted);
            if bucket.is_some_and(Bucket::assessed) {
                for (id, status) in &l.checks {
                    let c = checks.entry(id.clone()).or_default();
                    match status.as_str() {
                        "pass" => c.pass += 1,
                        "fail" => {
                            c.fail += 1;
                            fails = true;
                        }
                        _ => c.other += 1,
                    }
                }
            }
            servers.push(ServerRow {
                name: name.clone(),
                bucket: l.bucket.clone(),
                detail: l.detail.clone(),
                failed: failed(l),
            });
        }
        let buckets: Vec<BucketCount> = Bucket::names()
            .into_iter()
            .map(|b| BucketCount {
                bucket: b,
                servers: counts.get(b).copied().unwrap_or(0),
            })
            .collect();
        let denominator: usize = Bucket::ALL
            .iter()
            .filter(|b| b.assessed())
            .map(|b| counts.get(b.name()).copied().unwrap_or(0))
            .sum();
        let shares = Bucket::ALL
            .iter()
            .filter(|b| b.assessed())
            .map(|b| {
                let n = counts.get(b.name()).copied().unwrap_or(0);
                Share {
                    bucket: b.name(),
                    servers: n,
                    percent: percent(n, denominator),
                }
            })
            .collect();
        let missing_shards = runs.missing_shards();
        let complete = not_evidenced.is_empty() && missing_shards.is_empty() && first.is_some();
        // A verdict is over assessed servers: with none assessed there is nothing it could say.
        let verdict = (denominator > 0 && (complete || partial)).then_some(if fails {
            "fail"
        } else {
            "pass"
        });
        Report {
            portfolio: first.map(|h| h.portfolio.clone()).unwrap_or_default(),
            catalogue: first.map(|h| h.catalogue.clone()).unwrap_or_default(),
            declared: declared.len(),
            evidenced: declared.len() - not_evidenced.len(),
            denominator,
            buckets,
            shares,
            checks,
            reused,
            uncontacted,
            coverage: Coverage {
                complete,
                missing_shards,
                not_evidenced,
            },
            partial: partial && !complete,
            verdict,
            servers,
        }
    }

    /// Whether a run should exit clean: a verdict, and it passes.
    pub fn clean(&self) -> bool {
        self.verdict == Some("pass")
    }

    fn count(&self, bucket: &str) -> usize {
        self.buckets
            .iter()
            .find(|b| b.bucket == bucket)
            .map(|b| b.servers)
            .unwrap_or(0)
    }

    fn verdict_line(&self) -> String {
        match self.verdict {
            Some(v) if self.partial => format!(
                "{v}, partial: over {} of {} declared servers (--partial)",
                self.evidenced, self.declared
            ),
            Some(v) => v.to_string(),
            None if self.denominator == 0 => format!(
                "none: not one of the {} declared servers could be assessed",
                self.declared
            ),
            None => format!(
                "none: {} of {} declared servers have no evidence (give --partial to accept a verdict over the others)",
                self.declared - self.evidenced,
                self.declared
            ),
        }
    }

    /// Counts only: what a summary that may travel further than the local report says.
    fn counts_lines(&self) -> Vec<String> {
        let assessed: Vec<String> = self
            .shares
            .iter()
            .map(|s| format!("{} {} ({:.1} %)", s.bucket, s.servers, s.percent))
            .collect();
        let not_mcp: Vec<String> = self
            .buckets
            .iter()
            .filter(|b| b.bucket.starts_with("not-mcp-"))
            .map(|b| format!("{} {}", &b.bucket["not-mcp-".len()..], b.servers))
            .collect();
        vec![
            format!(
                "{} declared, {} evidenced, {} assessed: every share below is of the {} assessed endpoints",
                self.declared, self.evidenced, self.denominator, self.denominator
            ),
            format!("assessed: {}", assessed.join(", ")),
            format!("answered, not MCP: {}", not_mcp.join(", ")),
            format!(
                "unreachable {}, timed out {}, opted out {}",
                self.count("unreachable"),
                self.count("timed-out"),
                self.count("opted-out")
            ),
            match self.uncontacted {
                0 => format!("results kept from an earlier run: {}", self.reused),
                n => format!(
                    "results kept from an earlier run: {} ({n} without contacting the server: seen within --fresh-for)",
                    self.reused
                ),
            },
        ]
    }

    /// The local report for a person: counts, then the servers not evidenced and the failing
    /// ones by name.
    pub fn human(&self) -> String {
        let mut out = format!("fleet of {}\n", self.portfolio);
        for l in self.counts_lines() {
            out.push_str(&l);
            out.push('\n');
        }
        let checks: Vec<String> = self
            .checks
            .iter()
            .filter(|(_, c)| c.fail > 0)
            .map(|(id, c)| format!("{id} {}", c.fail))
            .collect();
        if !checks.is_empty() {
            out.push_str(&format!(
                "failing servers per check: {}\n",
                checks.join(", ")
            ));
        }
        for s in &self.coverage.missing_shards {
            out.push_str(&format!("shard {s}: no run file\n"));
        }
        for m in &self.coverage.not_evidenced {
            out.push_str(&crate::evidence::untrusted::quote(
                &format!("not evidenced: {} ({})", m.name, m.why),
                2000,
            ));
            out.push('\n');
        }
        out.push_str(&format!("verdict: {}\n", self.verdict_line()));
        out
    }

    /// The verdict as the summary states it.
    fn state_verdict(&self) -> String {
        match self.verdict {
            Some(v) if self.partial => format!("{v} (partial)"),
            Some(v) => v.to_string(),
            None => format!(
                "none — {} declared servers have no evidence",
                self.declared - self.evidenced
            ),
        }
    }

    /// The "state of" summary's figures (for its HTML form): counts only.
    pub fn state_of(&self) -> StateOf {
        StateOf {
            declared: self.declared,
            evidenced: self.evidenced,
            assessed: self.denominator,
            buckets: self
                .buckets
                .iter()
                .map(|b| StateBucket {
                    bucket: b.bucket,
                    servers: b.servers,
                    share: self
                        .shares
                        .iter()
                        .find(|s| s.bucket == b.bucket)
                        .map(|s| format!("{:.1} %", s.percent)),
                })
                .collect(),
            checks: self.checks.clone(),
            reused: self.reused,
            missing_shards: self.coverage.missing_shards.len(),
            verdict: self.state_verdict(),
        }
    }

    /// The "state of" summary in Markdown: counts and shares, never a server's name.
    pub fn state_of_markdown(&self) -> String {
        let mut out = String::from("# State of the fleet\n\n");
        out.push_str(&format!(
            "{} servers declared, {} evidenced. Shares are of the **{} assessed** endpoints; \
             endpoints that answered with something other than MCP, could not be reached or \
             timed out are counted apart and are not in the denominator.\n\n",
            self.declared, self.evidenced, self.denominator
        ));
        out.push_str("| bucket | servers | share of assessed |\n|---|---:|---:|\n");
        for b in &self.buckets {
            let share = self
                .shares
                .iter()
                .find(|s| s.bucket == b.bucket)
                .map(|s| format!("{:.1} %", s.percent))
                .unwrap_or_else(|| "—".into());
            out.push_str(&format!("| {} | {} | {share} |\n", b.bucket, b.servers));
        }
        if !self.checks.is_empty() {
            out.push_str("\n| check | pass | fail | other |\n|---|---:|---:|---:|\n");
            for (id, c) in &self.checks {
                out.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    id.replace('|', "\\|"),
                    c.pass,
                    c.fail,
                    c.other
                ));
            }
        }
        out.push_str(&format!("\nVerdict: {}.\n", self.state_verdict()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::run::{read_text, Runs};
    use super::*;

    const RUN: &str = concat!(
        "{\"auditbook_run\":1,\"portfolio\":\"pf.yaml\",\"portfolio_digest\":\"d\",\"catalogue\":\"c\",\"shard\":{\"index\":1,\"count\":1},\"declared\":[\"alt\",\"beide\",\"waf\",\"weg\"],\"started\":0}\n",
        "{\"server\":\"alt\",\"bucket\":\"legacy-only\",\"artifact\":\"a\",\"catalogue\":\"c\",\"checks\":{\"X-1\":\"fail\"}}\n",
        "{\"server\":\"beide\",\"bucket\":\"both\",\"artifact\":\"a\",\"catalogue\":\"c\",\"checks\":{\"X-1\":\"pass\"}}\n",
        "{\"server\":\"waf\",\"bucket\":\"not-mcp-denied\",\"artifact\":\"a\",\"catalogue\":\"c\",\"detail\":\"HTTP 403\"}\n",
    );

    #[test]
    fn shares_are_of_assessed_servers_and_a_gap_withholds_the_verdict() {
        let mut runs = Runs::default();
        read_text("r.jsonl", RUN, &mut runs);
        let r = Report::of(&runs, false);
        assert_eq!((r.declared, r.evidenced, r.denominator), (4, 3, 2));
        assert_eq!(r.shares[0].percent, 50.0);
        assert_eq!(r.count("not-mcp-denied"), 1);
        assert_eq!(r.verdict, None);
        assert_eq!(r.coverage.not_evidenced[0].name, "weg");
        assert!(r.human().contains("not evidenced: weg"));
        let p = Report::of(&runs, true);
        assert_eq!(p.verdict, Some("fail"));
        assert!(p.partial);
    }

    #[test]
    fn a_fleet_with_no_server_assessed_has_no_verdict() {
        let text = concat!(
            "{\"auditbook_run\":1,\"portfolio\":\"pf.yaml\",\"portfolio_digest\":\"d\",\"catalogue\":\"c\",\"shard\":{\"index\":1,\"count\":1},\"declared\":[\"waf\",\"weg\"],\"started\":0}\n",
            "{\"server\":\"waf\",\"bucket\":\"not-mcp-denied\",\"artifact\":\"a\",\"catalogue\":\"c\",\"detail\":\"HTTP 403\"}\n",
            "{\"server\":\"weg\",\"bucket\":\"unreachable\",\"artifact\":\"a\",\"catalogue\":\"c\",\"detail\":\"refused\"}\n",
        );
        let mut runs = Runs::default();
        read_text("r.jsonl", text, &mut runs);
        for partial in [false, true] {
            let r = Report::of(&runs, partial);
            assert_eq!((r.declared, r.evidenced, r.denominator), (2, 2, 0));
            assert_eq!(r.verdict, None);
            assert!(!r.clean());
            assert!(
                r.human()
                    .contains("verdict: none: not one of the 2 declared servers could be assessed"),
                "{}",
                r.human()
            );
        }
        // The clean twin: one server assessed is a verdict.
        let mut runs = Runs::default();
        read_text("r.jsonl", RUN, &mut runs);
        assert_eq!(Report::of(&runs, true).verdict, Some("fail"));
    }

    #[test]
    fn the_state_of_summary_names_no_server() {
        let mut runs = Runs::default();
        read_text("r.jsonl", RUN, &mut runs);
        let md = Report::of(&runs, true).state_of_markdown();
        for name in ["alt", "beide", "waf", "weg"] {
            assert!(!md.contains(name), "{name} in {md}");
        }
        assert!(md.contains("| legacy-only | 1 | 50.0 % |"), "{md}");
    }

    #[test]
    fn the_state_of_figures_hold_no_server_name() {
        let mut runs = Runs::default();
        read_text("r.jsonl", RUN, &mut runs);
        let s = Report::of(&runs, false).state_of();
        let text = serde_json::to_string(&s).unwrap_or_default();
        for name in ["alt", "beide", "waf", "weg", "HTTP 403"] {
            assert!(!text.contains(name), "{name} in {text}");
        }
        assert_eq!((s.declared, s.evidenced, s.assessed), (4, 3, 2));
        assert_eq!(s.buckets[0].share.as_deref(), Some("50.0 %"));
        assert!(s.verdict.starts_with("none — 1 declared"), "{}", s.verdict);
    }
}
