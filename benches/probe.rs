//! Benchmarks of `auditbook probe`: `cargo bench --bench probe`.
//!
//! - One probe of a local server, whole process (catalogue load included, server start-up
//!   excluded): an endpoint of the loopback server in this process, and the planted-defect
//!   FastMCP server over Streamable HTTP (`target/test-servers`, installed by `.ci/run`).
//!   Over stdio the figure includes starting the server, for comparison.
//! - `probe --portfolio` against many loopback endpoints with mixed behaviours (see
//!   benches/loopback/mod.rs), all served by this process on 127.0.0.1: wall time and peak
//!   memory (max RSS via /usr/bin/time) per size, so flat memory shows as equal figures.
//!
//! AUDITBOOK_PROBE_BENCH_SIZES=100,1000,2000 chooses the portfolio sizes (default 100,1000).
//! Only loopback addresses are used. The figures go to stdout as Markdown (BENCHMARKS.md).

mod common;

mod loopback;

use common::median;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_auditbook");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ms(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1000.0)
}

/// Median wall time of `runs` probes of one target; the exit codes seen.
fn probe_once(dir: &Path, profile: &str, target: &[&str], runs: usize) -> (Duration, Vec<i32>) {
    let mut times = Vec::new();
    let mut codes = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let out = Command::new(BIN)
            .current_dir(dir)
            .arg("-C")
            .arg(root().join("catalogue"))
            .args(["-q", "probe", profile, "--results", "r.yaml"])
            .args(target)
            .output();
        times.push(t.elapsed());
        codes.push(out.ok().and_then(|o| o.status.code()).unwrap_or(-1));
    }
    codes.sort();
    codes.dedup();
    (median(times), codes)
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn planted_http() -> Option<(Server, String)> {
    let python = root().join("target/test-servers/venv/bin/python");
    if !python.exists() {
        println!("(the planted FastMCP server is not installed: run .ci/run; its row is skipped)");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .ok()?;
    let child = Command::new(python)
        .arg(root().join("tests/servers/planted_server.py"))
        .args(["--http", &port.to_string(), "--strict-origin"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let server = Server(child);
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some((server, format!("http://127.0.0.1:{port}/mcp")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

fn portfolio(dir: &Path, port: u16, n: usize) -> PathBuf {
    let mut text = String::from("name: Loopback-Portfolio\nservers:\n");
    for i in 0..n {
        text.push_str(&format!(
            "  - name: endpoint-{i:05}\n    profile: http.profile.yaml\n    url: http://127.0.0.1:{port}/s/{i}/mcp\n"
        ));
    }
    let path = dir.join(format!("portfolio-{n}.yaml"));
    let _ = std::fs::write(&path, text);
    path
}

/// (wall time, CPU seconds (user + system), peak RSS in MB, the summary) of one portfolio
/// probe. CPU time is the steadier figure on a shared machine.
fn probe_portfolio(
    dir: &Path,
    file: &Path,
    jobs: usize,
) -> (Duration, Option<f64>, Option<f64>, String) {
    let results = dir.join("results");
    let _ = std::fs::remove_dir_all(&results);
    let t = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%U %S %M")
        .arg(BIN)
        .current_dir(dir)
        .arg("-C")
        .arg(root().join("catalogue"))
        .args(["--format", "json", "probe", "--portfolio"])
        .arg(file)
        .arg("--results-dir")
        .arg(&results)
        .args(["--jobs", &jobs.to_string()])
        .args(["--timeout-ms", "1000", "--server-timeout-ms", "10000"])
        .output();
    let wall = t.elapsed();
    let Ok(out) = out else {
        return (wall, None, None, "could not run /usr/bin/time".into());
    };
    let err = String::from_utf8_lossy(&out.stderr);
    let figures: Vec<f64> = err
        .lines()
        .last()
        .map(|l| {
            l.split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let (cpu, rss) = match figures[..] {
        [user, system, kb] => (Some(user + system), Some(kb / 1024.0)),
        _ => (None, None),
    };
    let summary: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    let outcomes = summary["outcomes"].to_string();
    let kinds = summary["kinds"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, c)| format!("{k} {}/{}/{}", c["clean"], c["defect"], c["undecided"]))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    (
        wall,
        cpu,
        rss,
        format!("{outcomes}; clean/defect/undecided: {kinds}"),
    )
}

fn main() {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("no temporary folder: {e}");
            return;
        }
    };
    let d = dir.path();
    let _ = std::fs::copy(
        root().join("tests/fixtures/probe/http.profile.yaml"),
        d.join("http.profile.yaml"),
    );
    let _ = std::fs::copy(
        root().join("tests/fixtures/probe/stdio.profile.yaml"),
        d.join("stdio.profile.yaml"),
    );
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("no runtime: {e}");
            return;
        }
    };
    let port = match loopback::start(&rt) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cannot serve on 127.0.0.1: {e}");
            return;
        }
    };

    println!(
        "## One probe of a local server (whole process, median of 11; server start-up excluded)\n"
    );
    println!("| target | median (ms) | exit codes |");
    println!("|---|---:|---|");
    let url = format!("http://127.0.0.1:{port}/s/0/mcp");
    let (t, codes) = probe_once(d, "http.profile.yaml", &["--url", &url], 11);
    println!(
        "| loopback endpoint (clean), Streamable HTTP | {} | {codes:?} |",
        ms(t)
    );
    if let Some((_server, url)) = planted_http() {
        let (t, codes) = probe_once(d, "http.profile.yaml", &["--url", &url], 11);
        println!(
            "| planted-defect FastMCP server, Streamable HTTP | {} | {codes:?} |",
            ms(t)
        );
    }
    let python = root().join("target/test-servers/venv/bin/python");
    if python.exists() {
        let cmd = format!(
            "{} {}",
            python.display(),
            root().join("tests/servers/planted_server.py").display()
        );
        let (t, codes) = probe_once(d, "stdio.profile.yaml", &["--stdio", &cmd], 5);
        println!(
            "| planted-defect FastMCP server, stdio (start-up of two sessions included) | {} | {codes:?} |",
            ms(t)
        );
    }

    let sizes: Vec<usize> = std::env::var("AUDITBOOK_PROBE_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 1000]);
    let jobs = 32;
    println!(
        "\n## `probe --portfolio` against loopback endpoints (--jobs {jobs}, --timeout-ms 1000)\n"
    );
    println!("| endpoints | wall (s) | CPU (s) | peak RSS (MB) | outcomes; per probe kind |");
    println!("|---:|---:|---:|---:|---|");
    for n in sizes {
        let file = portfolio(d, port, n);
        let (wall, cpu, rss, summary) = probe_portfolio(d, &file, jobs);
        let shown = |v: Option<f64>, digits: usize| {
            v.map(|x| format!("{x:.digits$}"))
                .unwrap_or_else(|| "?".into())
        };
        println!(
            "| {n} | {:.1} | {} | {} | {summary} |",
            wall.as_secs_f64(),
            shown(cpu, 1),
            shown(rss, 0)
        );
    }
}
