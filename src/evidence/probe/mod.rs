//! Probing a live MCP server: the checks that declare `probe:` in their frontmatter are
//! observed on the server itself, and the observations become results (`source: probe`).
//!
//! ```text
//! spec (`probe:`) ──┐
//! target ──observe (client over transport: stdio, Streamable HTTP)──▶ Observation ──judge──▶ Outcome ──record──▶ results
//!                                   └──lock──▶ fingerprint, mcp-tools.lock, drift
//! ```
//!
//! `observe` is the only part that talks to a server; everything after it is pure, so the
//! judging is tested on recorded observations as well as on real servers.

pub mod arguments;
pub mod behaviours;
pub mod calls;
pub mod client;
pub mod judge;
pub mod listing;
pub mod lock;
pub mod observe;
pub mod record;
pub mod steps;
pub mod summary;
pub mod transport;

use crate::model::probe::{Kind, ProbeSpec};
use crate::model::Catalogue;
use std::collections::BTreeSet;
use std::path::Path;

/// Everything one probe of one server produced.
pub struct Run {
    pub observation: observe::Observation,
    /// `None` when the server was not reached or did not show its definitions whole.
    pub fingerprint: Option<lock::Fingerprint>,
    pub drift: Option<lock::Drift>,
    /// The lock file could not be read as one.
    pub lock_problem: Option<String>,
    pub probed: Vec<record::Probed>,
}

/// The built-in kinds and declared probes the checks in `ids` use: what `observe` must gather.
pub fn plan(cat: &Catalogue, ids: &[String]) -> (BTreeSet<Kind>, Vec<observe::Declared>) {
    let mut kinds = BTreeSet::new();
    let mut declared = Vec::new();
    for c in ids.iter().filter_map(|id| cat.check(id)) {
        for (i, s) in c.probes().iter().enumerate() {
            if s.kind == Kind::Steps {
                declared.push(observe::Declared {
                    key: record::step_key(c.id.as_str(), i),
                    spec: ProbeSpec::clone(s),
                });
            } else {
                kinds.insert(s.kind);
            }
        }
    }
    (kinds, declared)
}

/// Compare an observation with the lock file at `lock_path`, when it exists. A server that
/// was not reached, or whose listing broke off, is not compared: its silence is not "every
/// definition removed".
pub fn compare_lock(
    obs: &observe::Observation,
    lock_path: &Path,
) -> (Option<lock::Drift>, Option<String>) {
    if !obs.complete() || !lock_path.is_file() {
        return (None, None);
    }
    let shown = lock_path.display().to_string();
    match crate::load::text::read_limited(lock_path) {
        Err(e) => (None, Some(format!("cannot read `{shown}`: {e}"))),
        Ok(bytes) => match lock::drift(&shown, &String::from_utf8_lossy(&bytes), obs) {
            Ok(d) => (Some(d), None),
            Err(e) => (None, Some(e)),
        },
    }
}

/// Judge an observation for the checks in `ids`.
pub fn assess(
    cat: &Catalogue,
    ids: &[String],
    observation: observe::Observation,
    lock_path: &Path,
    revision: Option<&str>,
) -> Run {
    let (drift, lock_problem) = compare_lock(&observation, lock_path);
    let probed = record::assess(cat, ids, &observation, drift.as_ref(), revision);
    Run {
        fingerprint: lock::Fingerprint::of(&observation),
        observation,
        drift,
        lock_problem,
        probed,
    }
}

/// The probe's contribution to a results file.
pub fn contribution(run: &Run) -> crate::evidence::merge::Contribution {
    crate::evidence::merge::Contribution {
        source: record::SOURCE,
        block: record::probe_block(&run.observation),
        results: run
            .probed
            .iter()
            .map(|p| (p.id.clone(), record::entry(p, run.fingerprint.as_ref())))
            .collect(),
        stamp: run.fingerprint.as_ref().map(|f| f.definitions.clone()),
    }
}
