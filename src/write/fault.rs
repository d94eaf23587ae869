//! Fault injection for the crash tests: with `AUDITBOOK_FAULT_AFTER_STEPS=N` in the
//! environment, the process ends at once with exit code 86 right after its N-th committed
//! file-system step (a rename, a link or a removal): no later step, no destructor and no undo
//! runs, which leaves the files as `kill -9` would (an abort would do the same, but can leave
//! a core file in the catalogue). Without the variable nothing happens.
//! The tests run a writing command once for every N and prove that the next writing command
//! repairs the catalogue.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

pub const ENV: &str = "AUDITBOOK_FAULT_AFTER_STEPS";
/// The exit code of a run ended by the hook.
pub const EXIT: i32 = 86;

static STEPS: AtomicUsize = AtomicUsize::new(0);

fn limit() -> Option<usize> {
    static LIMIT: OnceLock<Option<usize>> = OnceLock::new();
    *LIMIT.get_or_init(|| std::env::var(ENV).ok()?.trim().parse().ok())
}

/// Count one committed step; abort if it is the one the environment names.
pub fn step() {
    let n = STEPS.fetch_add(1, Ordering::SeqCst) + 1;
    if limit() == Some(n) {
        std::process::exit(EXIT);
    }
}
