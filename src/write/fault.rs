//! Fault injection for the crash tests: with `AUDITBOOK_FAULT_AFTER_STEPS=N` in the
//! environment, the process aborts (no cleanup, like `kill -9`) right after its N-th committed
//! file-system step (a rename, a link or a removal). Without the variable nothing happens.
//! The tests run a writing command once for every N and prove that the next writing command
//! repairs the catalogue.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

pub const ENV: &str = "AUDITBOOK_FAULT_AFTER_STEPS";

static STEPS: AtomicUsize = AtomicUsize::new(0);

fn limit() -> Option<usize> {
    static LIMIT: OnceLock<Option<usize>> = OnceLock::new();
    *LIMIT.get_or_init(|| std::env::var(ENV).ok()?.trim().parse().ok())
}

/// Count one committed step; abort if it is the one the environment names.
pub fn step() {
    let n = STEPS.fetch_add(1, Ordering::SeqCst) + 1;
    if limit() == Some(n) {
        std::process::abort();
    }
}
