//! Whole-process CPU time (user + system) of the commands a maintainer runs most, on the
//! shipped catalogue and on a generated 120-check catalogue of about 1 MB of Markdown:
//! `cargo bench --bench cpu`. CPU time, unlike wall time, does not count the time a busy
//! machine makes a process wait; the figures are medians (and minima) of many runs.
//! BENCHMARKS.md records them beside the goals (applicability and audit ≤ 4 ms, lint ≤ 8 ms).
//! The cached runs keep their outlines in `target/auditbook-cache` (`.cargo/config.toml`); the
//! commands that outline bodies are also measured without the cache.

use auditbook::testgen::{self, Body};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    exe.parent()
        .and_then(Path::parent)
        .map(|d| d.join("auditbook"))
        .unwrap_or_default()
}

/// CPU milliseconds (user + system) that finished child processes have used so far.
fn children_cpu_ms() -> f64 {
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

/// Median and minimum CPU time of `runs` runs of the binary with `args` in `dir`, with the
/// outline cache (warm after the first run) or without it.
fn cpu_with(dir: &Path, args: &[&str], runs: usize, cached: bool) -> (f64, f64) {
    let mut v = Vec::with_capacity(runs);
    for _ in 0..runs {
        let before = children_cpu_ms();
        let mut c = Command::new(binary());
        if cached {
            c.env_remove("AUDITBOOK_NO_CACHE");
        } else {
            c.env("AUDITBOOK_NO_CACHE", "1");
        }
        let _ = c
            .current_dir(dir)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        v.push(children_cpu_ms() - before);
    }
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

fn cpu(dir: &Path, args: &[&str], runs: usize) -> (f64, f64) {
    cpu_with(dir, args, runs, true)
}

fn main() {
    let runs: usize = std::env::var("AUDITBOOK_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(41);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    let generated = std::env::temp_dir().join("auditbook-bench/cpu-120-heavy");
    if !generated.join("catalogue.yaml").exists() {
        let _ = std::fs::remove_dir_all(&generated);
        if let Err(e) = testgen::generate(&generated, 120, Body::Heavy) {
            eprintln!("cannot generate the catalogue: {e}");
            return;
        }
    }
    let bytes: u64 = std::fs::read_dir(generated.join("checks"))
        .map(|d| {
            d.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    let profile = "examples/amtsblatt-readonly.profile.yaml";
    let results = "examples/amtsblatt-readonly.results.yaml";
    let shipped: Vec<(&str, Vec<&str>)> = vec![
        (
            "applicability",
            vec!["-C", "catalogue", "applicability", profile],
        ),
        (
            "audit",
            vec!["-C", "catalogue", "audit", profile, "--results", results],
        ),
        ("list", vec!["-C", "catalogue", "list"]),
        ("stats", vec!["-C", "catalogue", "stats"]),
        ("lint", vec!["-C", "catalogue", "lint"]),
        ("lint --verify", vec!["-C", "catalogue", "lint", "--verify"]),
    ];
    let gen: Vec<(&str, Vec<&str>)> = vec![
        (
            "applicability",
            vec!["-C", ".", "applicability", "profiles/p00.yaml"],
        ),
        ("audit", vec!["-C", ".", "audit", "profiles/p00.yaml"]),
        ("list", vec!["-C", ".", "list"]),
        ("stats", vec!["-C", ".", "stats"]),
        ("lint", vec!["-C", ".", "lint"]),
        ("lint --verify", vec!["-C", ".", "lint", "--verify"]),
    ];
    let (start, _) = cpu(&repo, &["--version"], runs);
    println!("process start (`--version`): {start:.1} ms CPU\n");
    println!(
        "| command | shipped catalogue: median (min) ms CPU | generated 120 checks, {:.2} MB: median (min) ms CPU |",
        bytes as f64 / 1_000_000.0
    );
    println!("|---|---:|---:|");
    for ((name, a), (_, b)) in shipped.iter().zip(&gen) {
        let (sm, smin) = cpu(&repo, a, runs);
        let (gm, gmin) = cpu(&generated, b, runs);
        println!("| `{name}` | {sm:.1} ({smin:.1}) | {gm:.1} ({gmin:.1}) |");
    }
    // The outlines of bodies come from the cache after the first run; without it every run
    // outlines every body (what a first run, or `AUDITBOOK_NO_CACHE=1`, costs).
    for ((name, a), (_, b)) in shipped.iter().zip(&gen) {
        if !matches!(*name, "audit" | "lint" | "lint --verify") {
            continue;
        }
        let (sm, smin) = cpu_with(&repo, a, runs, false);
        let (gm, gmin) = cpu_with(&generated, b, runs, false);
        println!("| `{name}`, no outline cache | {sm:.1} ({smin:.1}) | {gm:.1} ({gmin:.1}) |");
    }
}
