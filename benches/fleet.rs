//! The fleet at scale: `cargo bench --bench fleet`. 10,000 simulated endpoints on loopback
//! (benches/loopback/mod.rs, `fleet_mix`: 5 % hung, 10 % not MCP, 2 % garbage, 20 % slow by 2 s,
//! the rest fast) collected by one process with a high `--jobs`, then again with nothing changed
//! (`--since`: the light look and reuse; then `--fresh-for 24h`: reuse without contact), then as
//! four shards run side by side and merged. Wall
//! time and peak memory (max RSS via /usr/bin/time) per step, and whether the merged report
//! equals the single run's. Only loopback addresses are used; one host, so `--per-host` is
//! raised to `--jobs` and `--rate` is off (a real fleet keeps both).
//!
//! AUDITBOOK_FLEET_BENCH_SIZE chooses the number of endpoints (default 10000).

#[allow(dead_code)]
mod loopback;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_auditbook");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One timed run: (wall, peak RSS in MB, output).
fn timed(dir: &Path, args: &[String]) -> (Duration, Option<f64>, Option<Output>) {
    let t = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg(BIN)
        .current_dir(dir)
        .args(args)
        .output()
        .ok();
    let wall = t.elapsed();
    let rss = out.as_ref().and_then(|o| {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .last()
            .and_then(|l| l.trim().parse::<f64>().ok())
            .map(|kb| kb / 1024.0)
    });
    (wall, rss, out)
}

fn collect_args(extra: &[&str], jobs: usize) -> Vec<String> {
    let mut a: Vec<String> = vec!["-C".into(), root().join("catalogue").display().to_string()];
    a.extend(
        [
            "--format",
            "json",
            "collect",
            "--portfolio",
            "fleet.yaml",
            // Above the slow endpoints' 2 s, so they are slow, not timed out.
            "--timeout-ms",
            "5000",
            "--server-timeout-ms",
            "60000",
            "--rate",
            "0",
        ]
        .map(String::from),
    );
    a.extend([
        "--jobs".into(),
        jobs.to_string(),
        "--per-host".into(),
        jobs.to_string(),
    ]);
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn json_of(o: &Option<Output>) -> serde_json::Value {
    o.as_ref()
        .and_then(|o| serde_json::from_slice(&o.stdout).ok())
        .unwrap_or(serde_json::Value::Null)
}

fn mb(r: Option<f64>) -> String {
    r.map(|m| format!("{m:.0}")).unwrap_or_else(|| "?".into())
}

fn main() {
    let n: usize = std::env::var("AUDITBOOK_FLEET_BENCH_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let Ok(dir) = tempfile::tempdir() else {
        eprintln!("no temporary folder");
        return;
    };
    let d = dir.path();
    let _ = std::fs::copy(
        root().join("tests/fixtures/probe/http.profile.yaml"),
        d.join("http.profile.yaml"),
    );
    let Ok(rt) = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
    else {
        eprintln!("no runtime");
        return;
    };
    let Ok(port) = loopback::start(&rt) else {
        eprintln!("cannot serve on 127.0.0.1");
        return;
    };
    let mut text = String::from("servers:\n");
    for i in 0..n {
        text.push_str(&format!(
            "  - name: endpoint-{i:05}\n    profile: http.profile.yaml\n    version: \"1.0.0\"\n    url: http://127.0.0.1:{port}/f/{i}/mcp\n"
        ));
    }
    let _ = std::fs::write(d.join("fleet.yaml"), text);
    let jobs = 1000;
    println!("| step | wall (s) | peak RSS (MB) | figures |\n|---|---:|---:|---|");

    let (w1, r1, o1) = timed(
        d,
        &collect_args(&["--run", "whole.jsonl", "--results-dir", "whole"], jobs),
    );
    let whole = json_of(&o1);
    println!(
        "| {n} endpoints, one process, --jobs {jobs} | {:.1} | {} | denominator {}, buckets {} |",
        w1.as_secs_f64(),
        mb(r1),
        whole["denominator"],
        whole["buckets"]
    );
    let (w2, r2, o2) = timed(
        d,
        &collect_args(
            &[
                "--run",
                "again.jsonl",
                "--results-dir",
                "whole",
                "--since",
                "whole.jsonl",
            ],
            jobs,
        ),
    );
    let again = json_of(&o2);
    println!(
        "| re-run, nothing changed (--since) | {:.1} | {} | reused {}, {:.1}× faster |",
        w2.as_secs_f64(),
        mb(r2),
        again["reused"],
        w1.as_secs_f64() / w2.as_secs_f64().max(0.001)
    );
    let (w5, r5, o5) = timed(
        d,
        &collect_args(
            &[
                "--run",
                "fresh.jsonl",
                "--results-dir",
                "whole",
                "--since",
                "whole.jsonl",
                "--fresh-for",
                "24h",
            ],
            jobs,
        ),
    );
    let fresh = json_of(&o5);
    println!(
        "| re-run, nothing changed (--since, --fresh-for 24h) | {:.1} | {} | reused {}, not contacted {}, {:.1}× faster |",
        w5.as_secs_f64(),
        mb(r5),
        fresh["reused"],
        fresh["uncontacted"],
        w1.as_secs_f64() / w5.as_secs_f64().max(0.001)
    );
    // Four shards side by side, as four machines would run them (here on the same cores).
    let t = Instant::now();
    let shards: Vec<_> = (1..=4)
        .map(|i| {
            let args = collect_args(
                &[
                    "--shard",
                    &format!("{i}/4"),
                    "--run",
                    &format!("shard-{i}.jsonl"),
                    "--results-dir",
                    &format!("shard-{i}"),
                ],
                jobs / 4,
            );
            let dd = d.to_path_buf();
            std::thread::spawn(move || timed(&dd, &args))
        })
        .collect();
    let mut peak: f64 = 0.0;
    for h in shards {
        if let Ok((_, r, _)) = h.join() {
            peak = peak.max(r.unwrap_or(0.0));
        }
    }
    let w3 = t.elapsed();
    let mut margs: Vec<String> = vec!["--format".into(), "json".into(), "merge".into()];
    margs.extend((1..=4).map(|i| format!("shard-{i}.jsonl")));
    margs.extend(["--results-dir".into(), "merged".into()]);
    let (w4, r4, o4) = timed(d, &margs);
    let merged = json_of(&o4);
    println!(
        "| four shards side by side, --jobs {} each | {:.1} | {peak:.0} (largest shard) | |",
        jobs / 4,
        w3.as_secs_f64()
    );
    println!(
        "| merge of the four run files | {:.1} | {} | same buckets as the single run: {} |",
        w4.as_secs_f64(),
        mb(r4),
        merged["buckets"] == whole["buckets"]
    );
    drop(rt);
}
