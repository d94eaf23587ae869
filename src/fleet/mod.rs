//! A fleet: many servers, often thousands read from the MCP registry, collected in shards on
//! whatever schedules the work (a CI matrix, an indexed job) and counted honestly.
//!
//! ```text
//! registry export ──registry──▶ portfolio entries
//! portfolio ──shard (stable hash of the name)──▶ this run's share ──probe──▶ bucket + results
//!                                                    └──run──▶ one JSON line per server (run file)
//! run files ──run::read──▶ the last line per server ──report──▶ buckets, denominators, coverage
//! ```
//!
//! `bucket` is the one owner of how an endpoint is counted: every endpoint lands in exactly
//! one bucket, and shares are computed over the assessed ones only. `polite` holds what keeps a
//! run gentle with servers one does not operate (the opt-out list, the per-host cap). Nothing
//! here talks to a server: the command line probes through `evidence::probe` and hands the
//! observations over.

pub mod bucket;
pub mod pictures;
pub mod polite;
pub mod registry;
pub mod report;
pub mod run;
pub mod shard;
