//! Benchmarks on generated catalogues: `cargo bench --bench engine`.
//!
//! For each size it generates a catalogue (src/testgen.rs), then measures
//! - in process: load, load + graph + lint, and applicability of every check over 50 profiles;
//! - as a whole process (what a maintainer waits for): `lint`, `verify`, `lint --verify` and
//!   an `audit` report;
//! - peak memory (max RSS via /usr/bin/time) of `lint --verify` and of the `audit` report.
//!
//! Each timing is the median of several runs. Set AUDITBOOK_BENCH_SIZES=120,1000 to choose
//! sizes; the figures go to stdout as a Markdown table (BENCHMARKS.md records them).

mod common;

use auditbook::testgen::{self, Body};
use common::{built_binary as binary, ms, time};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn run_process(root: &Path, args: &[&str], runs: usize) -> Duration {
    let bin = binary();
    time(runs, || {
        let _ = Command::new(&bin).arg("-C").arg(root).args(args).output();
    })
}

fn peak_rss_mb(root: &Path, args: &[&str]) -> Option<f64> {
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg(binary())
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    let kb: f64 = err.lines().last()?.trim().parse().ok()?;
    Some(kb / 1024.0)
}

/// Applicability of every check for each of the 50 generated profiles, through the same
/// functions `auditbook applicability` uses (profile loading and validation included).
fn applicability(cat: &auditbook::model::Catalogue, root: &Path) -> usize {
    let mut applies = 0;
    // Parsed once for all fifty, as a portfolio audit does.
    let prepared = auditbook::audit::applicability::Prepared::new(cat);
    for p in 0..50 {
        let path = root.join(format!("profiles/p{p:02}.yaml"));
        let shown = path.display().to_string();
        let read = auditbook::load::data_file::read(
            &path,
            &shown,
            &auditbook::diag::codes::PROFILE_INVALID,
        );
        if let Ok(checked) = read.and_then(|f| auditbook::audit::profile::of_file(cat, f)) {
            let app = auditbook::audit::applicability::compute_with(&prepared, &checked.profile);
            applies += app
                .entries
                .iter()
                .filter(|e| e.status == auditbook::audit::applicability::Status::Applies)
                .count();
        }
    }
    applies
}

fn main() {
    let sizes: Vec<(usize, Body)> = match std::env::var("AUDITBOOK_BENCH_SIZES") {
        Ok(s) => s
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .map(|n| {
                (
                    n,
                    if n >= 100_000 {
                        Body::Short
                    } else {
                        Body::Realistic
                    },
                )
            })
            .collect(),
        Err(_) => vec![
            (120, Body::Realistic),
            (1_000, Body::Realistic),
            (10_000, Body::Realistic),
            (100_000, Body::Short),
        ],
    };
    // The shipped catalogue first: what a maintainer of this project waits for on every save.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue");
    let shipped_lint = run_process(&shipped, &["lint", "--format", "json"], 21);
    let shipped_both = run_process(&shipped, &["lint", "--verify", "--format", "json"], 21);
    println!(
        "shipped catalogue (120 checks, 14 rules, 2 documents): `lint` {} ms, `lint --verify` {} ms\n",
        ms(shipped_lint),
        ms(shipped_both)
    );
    let base = std::env::temp_dir().join("auditbook-bench");
    println!("| checks | body | load (ms) | load+lint (ms) | applicability ×50 profiles (ms) | `lint` (ms) | `verify` (ms) | `lint --verify` (ms) | `audit` report (ms) | peak RSS `lint --verify` (MB) | peak RSS `audit` (MB) |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (n, body) in sizes {
        let root = base.join(format!("{n}-{body:?}"));
        if !root.join("catalogue.yaml").exists() {
            let _ = std::fs::remove_dir_all(&root);
            std::fs::create_dir_all(&root).expect("bench directory");
            testgen::generate(&root, n, body).expect("generate");
            // Fill the generated regions once so verify measures a current catalogue.
            let _ = Command::new(binary())
                .arg("-C")
                .arg(&root)
                .arg("sync")
                .output();
        }
        let runs = if n >= 10_000 { 3 } else { 10 };
        // As `lint` and `verify` load: whole bodies, texts released.
        use auditbook::session::{Needs, Session, Stages};
        let load = time(runs, || {
            let _ = Session::load(&root, Needs::FINDINGS);
        });
        let lint = time(runs, || {
            if let Ok(s) = Session::load(&root, Needs::FINDINGS) {
                let _ = s.findings(Stages::LINT);
            }
        });
        let loaded = auditbook::load::load(&root).expect("load");
        let appl = time(runs, || {
            let _ = applicability(&loaded.catalogue, &root);
        });
        let lint_p = run_process(
            &root,
            &["lint", "--format", "json"],
            if n >= 100_000 { 3 } else { 11 },
        );
        let verify_p = run_process(
            &root,
            &["verify", "--format", "json"],
            if n >= 100_000 { 3 } else { 11 },
        );
        let both_p = run_process(
            &root,
            &["lint", "--verify", "--format", "json"],
            if n >= 100_000 { 3 } else { 11 },
        );
        let profile = root.join("profiles/p01.yaml");
        let report_p = run_process(
            &root,
            &["audit", profile.to_str().unwrap_or(""), "--format", "md"],
            if n >= 100_000 { 3 } else { 11 },
        );
        let mb = |args: &[&str]| {
            peak_rss_mb(&root, args)
                .map(|m| format!("{m:.0}"))
                .unwrap_or_else(|| "n/a".into())
        };
        let rss = mb(&["lint", "--verify", "--format", "json"]);
        let rss_audit = mb(&["audit", profile.to_str().unwrap_or(""), "--format", "md"]);
        println!(
            "| {n} | {body:?} | {} | {} | {} | {} | {} | {} | {} | {rss} | {rss_audit} |",
            ms(load),
            ms(lint),
            ms(appl),
            ms(lint_p),
            ms(verify_p),
            ms(both_p),
            ms(report_p)
        );
    }
}
