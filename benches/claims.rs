//! `verify` on a generated catalogue with many declared claims: `cargo bench --bench claims`.
//!
//! Generates 1,000 checks (src/testgen.rs) and 500 claims of every form (a counted sentence, a
//! whole category table with severity profiles and a total row, per-line ranges held by
//! `$GROUP` comparisons, a policy with no document), then measures `verify` in process and as a
//! whole process. The goal is under one second. AUDITBOOK_BENCH_CLAIMS=N changes the number of
//! claims; the figures go to stdout (BENCHMARKS.md records them). Wall times count the waits
//! of a shared machine; the CPU column (user + system of the whole process) does not.

mod common;

use auditbook::testgen::{self, Body};
use common::{built_binary as binary, children_cpu_ms, ms, time};
use std::process::Command;

fn main() {
    let claims: usize = std::env::var("AUDITBOOK_BENCH_CLAIMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let checks = 1_000;
    let root = std::env::temp_dir()
        .join("auditbook-bench")
        .join(format!("claims-{checks}-{claims}"));
    if !root.join("CLAIMS.md").exists() {
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("bench directory");
        testgen::generate(&root, checks, Body::Realistic).expect("generate");
        testgen::add_claims(&root, claims).expect("claims");
        let _ = Command::new(binary())
            .arg("-C")
            .arg(&root)
            .arg("sync")
            .output();
    }
    use auditbook::session::{Needs, Session, Stages};
    let mut findings = 0;
    let in_process = time(10, || {
        if let Ok(s) = Session::load(&root, Needs::FINDINGS) {
            if let Ok(f) = s.findings(Stages::VERIFY) {
                findings = f
                    .shown
                    .iter()
                    .filter(|d| d.level != auditbook::diag::Level::Note)
                    .count();
            }
        }
    });
    let claims_only = {
        let s = Session::load(&root, Needs::FINDINGS).expect("load");
        time(10, || {
            let _ = auditbook::claims::forms::check(s.catalogue());
        })
    };
    let bin = binary();
    let mut exit = None;
    let mut cpu = Vec::new();
    let process = time(11, || {
        let before = children_cpu_ms();
        exit = Command::new(&bin)
            .arg("-C")
            .arg(&root)
            .args(["verify", "--format", "json"])
            .output()
            .ok()
            .and_then(|o| o.status.code());
        cpu.push(children_cpu_ms() - before);
    });
    cpu.sort_by(f64::total_cmp);
    let cpu_ms = cpu.get(cpu.len() / 2).copied().unwrap_or_default();
    println!("| checks | claims | load+verify in process (ms) | claims alone (ms) | `verify` process (ms) | `verify` process CPU (ms) | exit | errors and warnings |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {checks} | {claims} | {} | {} | {} | {cpu_ms:.1} | {} | {findings} |",
        ms(in_process),
        ms(claims_only),
        ms(process),
        exit.map(|c| c.to_string()).unwrap_or_else(|| "n/a".into())
    );
}
