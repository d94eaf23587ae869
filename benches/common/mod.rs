//! What every benchmark harness needs: the binary cargo built beside it, CPU time of finished
//! child processes, medians. Each harness is its own crate and uses a part of this, so the
//! parts it leaves are not dead code there.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The `auditbook` binary of the same profile, beside this benchmark's folder.
pub fn built_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    exe.parent()
        .and_then(Path::parent)
        .map(|d| d.join("auditbook"))
        .unwrap_or_default()
}

/// `AUDITBOOK_BENCH_BINARY` when set, else [`built_binary`].
pub fn measured_binary() -> PathBuf {
    std::env::var_os("AUDITBOOK_BENCH_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(built_binary)
}

/// CPU milliseconds (user + system) that finished child processes have used so far: unlike
/// wall time, it does not count the waits of a busy machine.
pub fn children_cpu_ms() -> f64 {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; RUSAGE_CHILDREN is a valid selector.
    let r = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, u.as_mut_ptr()) };
    if r != 0 {
        return 0.0;
    }
    // SAFETY: getrusage returned 0, so the struct is initialised.
    let u = unsafe { u.assume_init() };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    ms(u.ru_utime) + ms(u.ru_stime)
}

/// The median of a set of durations (the upper one of an even set).
pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// Milliseconds with one decimal.
pub fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// The median wall time of `runs` calls of `f`.
pub fn time<F: FnMut()>(runs: usize, mut f: F) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = std::time::Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}
