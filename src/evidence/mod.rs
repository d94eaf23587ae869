//! Evidence about a server itself, gathered by machine so that a person judges only what a
//! machine cannot: its wire behaviour (`probe`), and — as they arrive — its source and its
//! published package. Every source observes and records results in the results format, each
//! naming where it came from and what it was taken from; `merge` combines them with what a
//! person recorded. Only `audit` judges.
//!
//! ```text
//! live server ──probe (built-in kinds, declared steps)──▶ observations ─┐
//!                                                                        ├─▶ results ─▶ merge ─▶ audit
//! a person's results ────────────────────────────────────────────────────┘
//! ```
//!
//! Servers auditbook starts are someone else's code: `sandbox` starts them, bounded.
//! Everything a server sends is quoted through `untrusted` before it is shown anywhere.

pub mod bounded_command;
pub mod catch;
pub mod conformance;
pub mod merge;
pub mod package;
pub mod package_index;
pub mod probe;
pub mod sandbox;
pub mod scan;
pub mod untrusted;
