//! The summary of a portfolio probe: how many servers were reached and how, and for each probe
//! kind how many servers it found clean, with a defect, or could not decide. Servers are named
//! only when asked (`--name-servers`): a summary of many third-party endpoints is often shared
//! further than the per-server results are.

use super::judge::Decision;
use super::observe::Reach;
use super::Run;
use crate::model::probe::Kind;
use serde::Serialize;
use std::collections::BTreeMap;

/// How a server ended, in the summary's words: the reach outcomes, plus `skipped` for a server
/// the portfolio did not let the probe start (no target, a profile with errors, a refused name).
pub const OUTCOMES: [&str; 6] = [
    "reached",
    "unreachable",
    "not-mcp",
    "hung",
    "crashed",
    "skipped",
];

fn outcome_of(reach: Option<&Reach>) -> &'static str {
    reach.map(Reach::name).unwrap_or("unreachable")
}

/// Servers per decision of one probe kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct KindCounts {
    pub clean: usize,
    pub defect: usize,
    pub undecided: usize,
}

/// One server, for `--name-servers`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServerLine {
    pub name: String,
    pub outcome: &'static str,
    /// Why it was not reached or skipped, when it was not reached.
    pub detail: Option<String>,
    pub results: Option<String>,
    /// Checks the probe failed, by id.
    pub failed: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub portfolio: String,
    pub servers: usize,
    /// Servers per outcome, every outcome listed.
    pub outcomes: BTreeMap<&'static str, usize>,
    /// Per probe kind (every kind listed), servers per decision. A kind used by several checks
    /// counts once per server, with its worst decision (defect, then undecided, then clean);
    /// a server that was not reached decides nothing and is not counted here.
    pub kinds: BTreeMap<&'static str, KindCounts>,
    /// Probed checks per status, over all servers.
    pub statuses: BTreeMap<&'static str, usize>,
    /// Each server, by name; only with `--name-servers`.
    pub named: Option<Vec<ServerLine>>,
}

impl Summary {
    pub fn new(portfolio: &str, name_servers: bool) -> Summary {
        Summary {
            portfolio: portfolio.to_string(),
            servers: 0,
            outcomes: OUTCOMES.iter().map(|o| (*o, 0)).collect(),
            kinds: Kind::BUILT_IN
                .iter()
                .map(|k| (k.as_str(), KindCounts::default()))
                .collect(),
            statuses: ["pass", "fail", "not_verified"]
                .iter()
                .map(|s| (*s, 0))
                .collect(),
            named: name_servers.then(Vec::new),
        }
    }

    /// Count one probed server.
    pub fn add(&mut self, name: &str, run: &Run, results: Option<String>) {
        self.servers += 1;
        let outcome = outcome_of(run.observation.reach.as_ref());
        *self.outcomes.entry(outcome).or_default() += 1;
        if run.observation.reached() {
            let mut worst: BTreeMap<&'static str, Decision> = BTreeMap::new();
            for o in run.probed.iter().flat_map(|p| &p.outcomes) {
                let d = worst.entry(o.kind.as_str()).or_insert(o.decision);
                *d = rank_max(*d, o.decision);
            }
            for (kind, d) in worst {
                let c = self.kinds.entry(kind).or_default();
                match d {
                    Decision::Clean => c.clean += 1,
                    Decision::Defect => c.defect += 1,
                    Decision::Undecided => c.undecided += 1,
                }
            }
        }
        for p in &run.probed {
            *self.statuses.entry(p.status).or_default() += 1;
        }
        if let Some(named) = &mut self.named {
            named.push(ServerLine {
                name: name.to_string(),
                outcome,
                detail: run
                    .observation
                    .reach
                    .as_ref()
                    .filter(|r| !r.reached())
                    .map(Reach::describe),
                results,
                failed: run
                    .probed
                    .iter()
                    .filter(|p| p.status == "fail")
                    .map(|p| p.id.clone())
                    .collect(),
            });
        }
    }

    /// Count a server the probe did not start, and why.
    pub fn skip(&mut self, name: &str, why: String) {
        self.servers += 1;
        *self.outcomes.entry("skipped").or_default() += 1;
        if let Some(named) = &mut self.named {
            named.push(ServerLine {
                name: name.to_string(),
                outcome: "skipped",
                detail: Some(why),
                results: None,
                failed: Vec::new(),
            });
        }
    }

    /// Servers in name order: they finish in whatever order the network decides.
    pub fn finish(&mut self) {
        if let Some(named) = &mut self.named {
            named.sort_by(|a, b| a.name.cmp(&b.name));
        }
    }

    /// Whether every server was reached and no probed check failed.
    pub fn clean(&self) -> bool {
        self.outcomes.get("reached") == Some(&self.servers)
            && self.statuses.get("fail").copied().unwrap_or(0) == 0
    }

    /// The summary as a few aligned lines.
    pub fn human(&self) -> String {
        let mut out = format!("probed {} servers of {}\n", self.servers, self.portfolio);
        let outcomes: Vec<String> = self
            .outcomes
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        out.push_str(&format!("servers: {}\n", outcomes.join(", ")));
        let statuses: Vec<String> = self
            .statuses
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        out.push_str(&format!("probed checks: {}\n", statuses.join(", ")));
        out.push_str(&format!(
            "{:<20} {:>7} {:>7} {:>9}\n",
            "probe kind", "clean", "defect", "undecided"
        ));
        for (k, c) in &self.kinds {
            out.push_str(&format!(
                "{k:<20} {:>7} {:>7} {:>9}\n",
                c.clean, c.defect, c.undecided
            ));
        }
        if let Some(named) = &self.named {
            for s in named {
                let mut line = format!("{}: {}", s.name, s.outcome);
                if let Some(d) = &s.detail {
                    line.push_str(&format!(" ({d})"));
                }
                if !s.failed.is_empty() {
                    line.push_str(&format!("; fails {}", s.failed.join(", ")));
                }
                out.push_str(&crate::evidence::untrusted::quote(&line, 2000));
                out.push('\n');
            }
        }
        out
    }
}

/// The worse of two decisions: a defect outranks undecided, which outranks clean.
fn rank_max(a: Decision, b: Decision) -> Decision {
    let rank = |d: Decision| match d {
        Decision::Clean => 0,
        Decision::Undecided => 1,
        Decision::Defect => 2,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_defect_outranks_undecided_which_outranks_clean() {
        use Decision::*;
        assert_eq!(rank_max(Clean, Defect), Defect);
        assert_eq!(rank_max(Undecided, Clean), Undecided);
        assert_eq!(rank_max(Defect, Undecided), Defect);
    }

    #[test]
    fn servers_are_not_named_unless_asked() {
        let mut s = Summary::new("p.yaml", false);
        s.skip("geheim-intern", "no url".into());
        assert!(s.named.is_none());
        assert!(!s.human().contains("geheim-intern"));
        let mut s = Summary::new("p.yaml", true);
        s.skip("b", "no url".into());
        s.skip("a", "no url".into());
        s.finish();
        assert!(s.human().contains("a: skipped (no url)\nb: skipped"));
        assert_eq!(s.outcomes["skipped"], 2);
        assert!(!s.clean());
    }
}
