//! Benchmarks of `auditbook mcp` on the shipped catalogue: `cargo bench --bench mcp`.
//!
//! One server over stdio (a client speaking JSON-RPC lines on its pipes, as an editor does):
//! the time from start to the answered `initialize` (the catalogue loaded once), then
//! `tools/call search_checks` round trips — a `where` expression, a text search and both —
//! each the median and the 95th percentile of many calls after a warm-up; and the server's
//! memory (VmRSS and VmHWM from /proc) idle after start and after the calls.
//!
//! AUDITBOOK_MCP_BENCH_CALLS sets the calls per query (default 300). The figures go to stdout
//! as Markdown (BENCHMARKS.md).

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

fn catalogue() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("catalogue")
}

struct Client {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Client {
    /// Send one request and read lines until its answer (notifications are skipped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.stdin, "{line}").unwrap_or_else(|e| panic!("{e}"));
        self.stdin.flush().unwrap_or_else(|e| panic!("{e}"));
        loop {
            let mut s = String::new();
            let n = self
                .stdout
                .read_line(&mut s)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(n > 0, "the server closed its output");
            let v: Value = serde_json::from_str(&s).unwrap_or_else(|e| panic!("{e}: {s}"));
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    fn notify(&mut self, method: &str) {
        let line = json!({"jsonrpc": "2.0", "method": method});
        writeln!(self.stdin, "{line}").unwrap_or_else(|e| panic!("{e}"));
        self.stdin.flush().unwrap_or_else(|e| panic!("{e}"));
    }
}

/// (VmRSS, VmHWM) of a process in MiB.
fn memory(pid: u32) -> (f64, f64) {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        s.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (kb("VmRSS:"), kb("VmHWM:"))
}

fn percentile(mut v: Vec<Duration>, p: f64) -> Duration {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v.get(i).copied().unwrap_or_default()
}

fn main() {
    let calls: usize = std::env::var("AUDITBOOK_MCP_BENCH_CALLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let mut child = Command::new(common::measured_binary())
        .current_dir(dir.path())
        .arg("-C")
        .arg(catalogue())
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start auditbook mcp: {e}"));
    let pid = child.id();
    let mut c = Client {
        stdin: child.stdin.take().unwrap_or_else(|| panic!("no stdin")),
        stdout: BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout"))),
        next: 0,
    };
    let init = c.call(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}),
    );
    let ready = start.elapsed();
    assert!(init["result"].is_object(), "{init}");
    c.notify("notifications/initialized");
    std::thread::sleep(Duration::from_millis(300));
    let (idle_rss, idle_hwm) = memory(pid);

    println!("| query | answer, median (ms) | p95 (ms) | checks found |");
    println!("|---|---:|---:|---:|");
    let queries = [
        (
            "where",
            json!({"where": "severity == \"critical\" and category == \"SEC\""}),
        ),
        ("text", json!({"text": "timeout upstream"})),
        (
            "where and text",
            json!({"where": "category == \"OBS\"", "text": "log"}),
        ),
    ];
    for (name, args) in queries {
        let params = json!({"name": "search_checks", "arguments": args});
        let first = c.call("tools/call", params.clone());
        let found = first["result"]["structuredContent"]["count"].clone();
        assert_eq!(first["result"]["isError"], json!(false), "{first}");
        let mut times = Vec::with_capacity(calls);
        for _ in 0..calls {
            let t = Instant::now();
            let r = c.call("tools/call", params.clone());
            times.push(t.elapsed());
            assert!(r["result"].is_object(), "{r}");
        }
        println!(
            "| {name} | {} | {} | {found} |",
            common::ms(common::median(times.clone())),
            common::ms(percentile(times, 0.95)),
        );
    }
    let (after_rss, after_hwm) = memory(pid);
    println!();
    println!(
        "start to answered `initialize`: {} ms; memory idle after start: {idle_rss:.1} MiB resident (peak {idle_hwm:.1}); after {} calls: {after_rss:.1} MiB (peak {after_hwm:.1})",
        common::ms(ready),
        calls * 3 + 3
    );
    drop(c);
    let _ = child.wait();
}
