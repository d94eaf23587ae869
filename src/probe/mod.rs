//! Probing a live MCP server: the checks that declare `probe:` in their frontmatter are
//! observed on the server itself, and the observations become results (`source: probe`).
//!
//! spec (the `probe:` key) ──┐
//! target ──observe (rmcp client, raw HTTP)──▶ Observation ──judge──▶ Outcome ──record──▶ results
//!                                    └──lock──▶ fingerprint, mcp-tools.lock, drift
//!
//! `observe` is the only part that talks to a server; everything after it is pure, so the
//! judging is tested on recorded observations as well as on real servers.

pub mod arguments;
pub mod http;
pub mod judge;
pub mod lock;
pub mod observe;
pub mod record;

pub mod summary;

use crate::audit::applicability::Applicability;
use crate::model::Catalogue;
use std::path::Path;

/// Everything one probe of one server produced.
pub struct Run {
    pub observation: observe::Observation,
    pub fingerprint: lock::Fingerprint,
    pub drift: Option<lock::Drift>,
    /// The lock file could not be read as one.
    pub lock_problem: Option<String>,
    pub probed: Vec<record::Probed>,
}

/// Compare an observation with the lock file at `lock_path`, when it exists.
pub fn compare_lock(
    obs: &observe::Observation,
    lock_path: &Path,
) -> (Option<lock::Drift>, Option<String>) {
    if !obs.reached() || !lock_path.is_file() {
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

/// Judge an observation for the checks that apply.
pub fn assess(
    cat: &Catalogue,
    app: &Applicability,
    observation: observe::Observation,
    lock_path: &Path,
) -> Run {
    let (drift, lock_problem) = compare_lock(&observation, lock_path);
    let probed = record::assess(cat, app, &observation, drift.as_ref());
    Run {
        fingerprint: lock::Fingerprint::of(&observation),
        observation,
        drift,
        lock_problem,
        probed,
    }
}
