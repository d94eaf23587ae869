//! Benchmarks on generated catalogues: `cargo bench --bench engine`.
//!
//! For each size it generates a catalogue (src/testgen.rs), then measures
//! - in process: load, load + graph + lint, and applicability of every check over 50 profiles;
//! - as a whole process (what a maintainer waits for): `auditbook lint` and `auditbook verify`;
//! - peak memory (max RSS via /usr/bin/time) of `auditbook lint`.
//!
//! Each timing is the median of several runs. Set AUDITBOOK_BENCH_SIZES=120,1000 to choose
//! sizes; the figures go to stdout as a Markdown table (BENCHMARKS.md records them).

use auditbook::testgen::{self, Body};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn time<F: FnMut()>(runs: usize, mut f: F) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn binary() -> PathBuf {
    // The release binary next to this bench executable (cargo bench builds it).
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    dir.join("auditbook")
}

fn run_process(root: &Path, args: &[&str]) -> Duration {
    let bin = binary();
    time(5, || {
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

fn applicability(cat: &auditbook::model::Catalogue, profiles: &[String]) -> usize {
    // Evaluate every check's expression against every profile, as applicability does.
    let mut applies = 0;
    let exprs: Vec<_> = cat
        .checks
        .iter()
        .filter_map(|c| auditbook::dsl::parse(&c.applies_when).ok())
        .collect();
    for p in profiles {
        let value: serde_yaml::Value = serde_yaml::from_str(p).unwrap_or(serde_yaml::Value::Null);
        let mut env = std::collections::BTreeMap::new();
        flatten("", &value, &mut env);
        for e in &exprs {
            if auditbook::dsl::eval(e, &env).unwrap_or(false) {
                applies += 1;
            }
        }
    }
    applies
}

fn flatten(
    prefix: &str,
    v: &serde_yaml::Value,
    out: &mut std::collections::BTreeMap<String, auditbook::dsl::Value>,
) {
    use auditbook::dsl::Value as V;
    match v {
        serde_yaml::Value::Mapping(m) => {
            for (k, v) in m {
                let k = k.as_str().unwrap_or("");
                let key = if prefix.is_empty() {
                    k.to_string()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        serde_yaml::Value::Bool(b) => {
            out.insert(prefix.to_string(), V::Bool(*b));
        }
        serde_yaml::Value::String(s) => {
            out.insert(prefix.to_string(), V::Str(s.clone()));
        }
        serde_yaml::Value::Sequence(items) => {
            out.insert(
                prefix.to_string(),
                V::List(
                    items
                        .iter()
                        .filter_map(|i| i.as_str().map(String::from))
                        .collect(),
                ),
            );
        }
        _ => {}
    }
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
    let base = std::env::temp_dir().join("auditbook-bench");
    println!("| checks | body | load (ms) | load+lint (ms) | applicability ×50 (ms) | `lint` process (ms) | `verify` process (ms) | peak RSS `lint` (MB) |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
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
        let load = time(runs, || {
            let _ = auditbook::load::load(&root);
        });
        let lint = time(runs, || {
            if let Ok(l) = auditbook::load::load(&root) {
                let g = auditbook::graph::Graph::build(&l.catalogue);
                let _ = auditbook::lint::run(&l.catalogue, &g);
            }
        });
        let loaded = auditbook::load::load(&root).expect("load");
        let profiles: Vec<String> = (0..50).map(testgen::profile_text).collect();
        let appl = time(runs, || {
            let _ = applicability(&loaded.catalogue, &profiles);
        });
        let lint_p = run_process(&root, &["lint", "--format", "json"]);
        let verify_p = run_process(&root, &["verify", "--format", "json"]);
        let rss = peak_rss_mb(&root, &["lint", "--format", "json"])
            .map(|m| format!("{m:.0}"))
            .unwrap_or_else(|| "n/a".into());
        println!(
            "| {n} | {body:?} | {} | {} | {} | {} | {} | {rss} |",
            ms(load),
            ms(lint),
            ms(appl),
            ms(lint_p),
            ms(verify_p)
        );
    }
}
