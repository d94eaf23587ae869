//! Whole-process CPU time (user + system) of the commands a maintainer runs most, on the
//! shipped catalogue and on a generated 120-check catalogue of about 1 MB of Markdown:
//! `cargo bench --bench cpu`. CPU time, unlike wall time, does not count the time a busy
//! machine makes a process wait; the figures are medians (and minima) of many runs.
//! BENCHMARKS.md records them beside the goals (applicability and audit ≤ 4 ms, lint ≤ 8 ms).
//! The cached runs keep their outlines in `target/auditbook-cache` (`.cargo/config.toml`); the
//! commands that outline bodies are also measured without the cache.
//!
//! With `AUDITBOOK_BENCH_BASELINE=BINARY` (an earlier build, e.g. the release binary of the
//! branch's first commit) it measures that binary and this one by turns instead, without the
//! outline cache, for `applicability`, `audit`, `lint` and `site --out` on both catalogues,
//! and prints each median beside the other with their ratio.

mod common;

use auditbook::testgen::{self, Body};
use common::{children_cpu_ms, measured_binary as binary};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The CPU time of one run of `bin` with `args` in `dir`, with the outline cache (warm after
/// the first run) or without it.
fn one_run(bin: &Path, dir: &Path, args: &[&str], cached: bool) -> f64 {
    let before = children_cpu_ms();
    let mut c = Command::new(bin);
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
    children_cpu_ms() - before
}

/// Median and minimum of a set of CPU times.
fn median_min(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

/// Median and minimum CPU time of `runs` runs of the binary with `args` in `dir`, with the
/// outline cache (warm after the first run) or without it.
fn cpu_with(dir: &Path, args: &[&str], runs: usize, cached: bool) -> (f64, f64) {
    let bin = binary();
    median_min(
        (0..runs)
            .map(|_| one_run(&bin, dir, args, cached))
            .collect(),
    )
}

/// `base` and this build run by turns, `runs` times each, without the outline cache: their
/// medians and minima, measured in the same minutes so the machine's load falls on both.
/// With `fresh`, that folder is removed before every run (a site written into a new folder).
fn side_by_side(
    base: &Path,
    dir: &Path,
    args: &[&str],
    runs: usize,
    fresh: Option<&Path>,
) -> ((f64, f64), (f64, f64)) {
    let bin = binary();
    let (mut old, mut new) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    let clear = || {
        if let Some(f) = fresh {
            let _ = std::fs::remove_dir_all(f);
        }
    };
    for _ in 0..runs {
        clear();
        old.push(one_run(base, dir, args, false));
        clear();
        new.push(one_run(&bin, dir, args, false));
    }
    (median_min(old), median_min(new))
}

/// The commands measured against another build.
fn compared<'a>(mut rows: Vec<(&'a str, Vec<&'a str>)>) -> Vec<(&'a str, Vec<&'a str>)> {
    rows.retain(|(n, _)| matches!(*n, "applicability" | "audit" | "lint"));
    rows
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
    let site_out = std::env::temp_dir().join("auditbook-bench/site-out");
    let site_out = site_out.to_string_lossy().into_owned();
    if let Some(base) = std::env::var_os("AUDITBOOK_BENCH_BASELINE").map(PathBuf::from) {
        // Another build (an earlier release binary) against this one, run by turns.
        let mut rows: Vec<(&str, &Path, Vec<&str>)> =
            vec![("process start", &repo, vec!["--version"])];
        let mut shipped_site = compared(shipped.clone());
        shipped_site.push(("site", vec!["-C", "catalogue", "site", "--out", &site_out]));
        let mut gen_site = compared(gen.clone());
        gen_site.push(("site", vec!["-C", ".", "site", "--out", &site_out]));
        for (n, a) in &shipped_site {
            rows.push((n, &repo, a.clone()));
        }
        for (n, a) in &gen_site {
            rows.push((n, &generated, a.clone()));
        }
        println!(
            "| command ({} runs each, by turns, no outline cache) | catalogue | before: median (min) ms CPU | now: median (min) ms CPU | now / before |",
            runs
        );
        println!("|---|---|---:|---:|---:|");
        // The site once more, into a folder that does not exist yet (the first build; the
        // rows above rebuild it over the last run's pages).
        rows.push((
            "site into a new folder",
            &repo,
            shipped_site
                .last()
                .map(|(_, a)| a.clone())
                .unwrap_or_default(),
        ));
        rows.push((
            "site into a new folder",
            &generated,
            gen_site.last().map(|(_, a)| a.clone()).unwrap_or_default(),
        ));
        for (name, dir, args) in rows {
            let fresh = name.contains("new folder").then_some(Path::new(&site_out));
            let ((om, omin), (nm, nmin)) = side_by_side(&base, dir, &args, runs, fresh);
            let which = if dir == repo.as_path() {
                "shipped".to_string()
            } else {
                format!("generated 120 checks, {:.2} MB", bytes as f64 / 1_000_000.0)
            };
            println!(
                "| `{name}` | {which} | {om:.2} ({omin:.2}) | {nm:.2} ({nmin:.2}) | {:.0} % |",
                nm / om * 100.0
            );
        }
        return;
    }
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
