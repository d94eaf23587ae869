//! Language-server latency and memory on generated catalogues: `cargo bench --bench lsp`.
//!
//! For each size (AUDITBOOK_BENCH_SIZES, default 1000,10000) it measures
//! - in process, through `lsp::world::World`: the initial load (load, lint, verify) and the
//!   re-check after one keystroke in one check (that file read again, the catalogue judged
//!   again): in the body, in the title, and another severity picked;
//! - as a whole process (`auditbook lsp` over stdio, as an editor runs it): the time from
//!   sending one keystroke (`didChange`) to the answer of the next request, which the server
//!   gives only after it has re-checked and published the changed findings; and the peak
//!   resident memory of that process (max RSS via /usr/bin/time).
//!
//! - first, on the shipped catalogue: a burst of edits (AUDITBOOK_BENCH_EDITS, default 10,000)
//!   sent as fast as the pipe takes them, then one request: the time until it is answered and
//!   whether the findings published last are those of the newest text. AUDITBOOK_BENCH_BINARY
//!   names another binary to measure the same way (an earlier build, side by side).
//!
//! Timings are medians; the figures go to stdout as a Markdown table (BENCHMARKS.md).

mod common;

use auditbook::lsp::world::World;
use auditbook::testgen::{self, Body};
use common::{built_binary as binary, median, ms};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn catalogue(n: usize) -> PathBuf {
    let root = std::env::temp_dir()
        .join("auditbook-bench")
        .join(format!("{n}-{:?}", Body::Realistic));
    if !root.join("catalogue.yaml").exists() {
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("bench directory");
        testgen::generate(&root, n, Body::Realistic).expect("generate");
        let _ = Command::new(binary())
            .arg("-C")
            .arg(&root)
            .arg("sync")
            .output();
    }
    root.canonicalize().unwrap_or(root)
}

/// A check in the middle of the catalogue (its file exists: retired numbers have none).
fn some_check(root: &Path, n: usize) -> PathBuf {
    (n / 2..n)
        .map(|i| {
            root.join("checks")
                .join(format!("{}.md", testgen::id_of(i)))
        })
        .find(|p| p.is_file())
        .expect("a check file")
}

fn in_process(root: &Path, check: &Path, runs: usize) -> (Duration, Duration, Duration, Duration) {
    let initial = median(
        (0..3)
            .map(|_| {
                let mut w = World::new(root.to_path_buf());
                let t = Instant::now();
                w.recheck();
                t.elapsed()
            })
            .collect(),
    );
    let mut w = World::new(root.to_path_buf());
    w.recheck();
    let text = std::fs::read_to_string(check).expect("check text");
    let keystroke = median(
        (0..runs)
            .map(|i| {
                let typed = format!("{text}{}", "x".repeat(i % 2 + 1));
                let t = Instant::now();
                w.set_text(check, typed);
                w.recheck_file(check);
                let _ = w.findings();
                t.elapsed()
            })
            .collect(),
    );
    // A keystroke inside the frontmatter (the title's first character): the path that re-runs
    // the passes reading ids and fields, builds the graph and runs `verify`.
    let at = text
        .find("\ntitle: ")
        .map(|i| i + "\ntitle: ".len() + 1)
        .expect("a title line");
    let in_head = median(
        (0..runs)
            .map(|i| {
                let mut typed = text.clone();
                typed.insert_str(at, &"x".repeat(i % 2 + 1));
                let t = Instant::now();
                w.set_text(check, typed);
                w.recheck_file(check);
                let _ = w.findings();
                t.elapsed()
            })
            .collect(),
    );
    // Another severity picked (from the completion list): a field that rule coverage
    // (`require_coverage`) and the generated severity counts read, so those passes and
    // `verify` run again.
    let line = text
        .lines()
        .find(|l| l.starts_with("severity: "))
        .expect("a severity line");
    let in_severity = median(
        (0..runs)
            .map(|i| {
                let picked = ["severity: medium", "severity: low"][i % 2];
                let typed = text.replacen(line, picked, 1);
                let t = Instant::now();
                w.set_text(check, typed);
                w.recheck_file(check);
                let _ = w.findings();
                t.elapsed()
            })
            .collect(),
    );
    (initial, keystroke, in_head, in_severity)
}

struct Server {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    out: BufReader<std::process::ChildStdout>,
    next: i64,
}

impl Server {
    fn send(&mut self, v: Value) {
        let t = v.to_string();
        let _ = write!(self.stdin, "Content-Length: {}\r\n\r\n{t}", t.len());
        let _ = self.stdin.flush();
    }

    fn read(&mut self) -> Option<Value> {
        read_frame(&mut self.out)
    }

    fn request(&mut self, method: &str, params: Value) -> Option<Value> {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self.read()?;
            if v["id"] == json!(id) && v.get("method").is_none() {
                return Some(v);
            }
        }
    }
}

fn read_frame(out: &mut impl BufRead) -> Option<Value> {
    let mut len = 0;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse().ok()?;
        }
    }
    let mut buf = vec![0; len];
    out.read_exact(&mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

fn uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// `cmd` (the binary, or a wrapper with the binary as its last argument) started as the
/// language server in `root`, initialized, with `check` open and its first findings in: the
/// server, the check's text and the parameters of a request about it.
fn opened(mut cmd: Command, root: &Path, check: &Path) -> Option<(Server, String, Value)> {
    let mut child = cmd
        .arg("lsp")
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let stdin = child.stdin.take()?;
    let out = BufReader::new(child.stdout.take()?);
    let mut s = Server {
        child,
        stdin,
        out,
        next: 0,
    };
    s.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
    )?;
    s.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let text = std::fs::read_to_string(check).ok()?;
    s.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri(check), "languageId": "markdown", "version": 1, "text": text}}}));
    let sync = json!({"textDocument": {"uri": uri(check)}});
    s.request("textDocument/documentSymbol", sync.clone())?;
    Some((s, text, sync))
}

/// Keystroke-to-answer latency of the real server, and its peak RSS in MB.
fn whole_process(root: &Path, check: &Path, runs: usize) -> Option<(Duration, f64)> {
    let rss = std::env::temp_dir().join("auditbook-bench-lsp-rss.txt");
    let mut cmd = Command::new("/usr/bin/time");
    cmd.arg("-f").arg("%M").arg("-o").arg(&rss).arg(binary());
    let (mut s, text, sync) = opened(cmd, root, check)?;
    let lines = text.lines().count();
    let mut times = Vec::new();
    for i in 0..runs {
        // One character typed at the end of the file, or taken back.
        let change = if i % 2 == 0 {
            json!({"range": {"start": {"line": lines, "character": 0},
                "end": {"line": lines, "character": 0}}, "text": "x"})
        } else {
            json!({"range": {"start": {"line": lines, "character": 0},
                "end": {"line": lines, "character": 1}}, "text": ""})
        };
        let t = Instant::now();
        s.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri(check), "version": i + 2}, "contentChanges": [change]}}),
        );
        s.request("textDocument/documentSymbol", sync.clone())?;
        times.push(t.elapsed());
    }
    s.request("shutdown", Value::Null)?;
    s.send(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    let _ = s.child.wait();
    let kb: f64 = std::fs::read_to_string(&rss)
        .ok()?
        .lines()
        .last()?
        .trim()
        .parse()
        .ok()?;
    Some((median(times), kb / 1024.0))
}

/// A burst of `edits` keystrokes sent as fast as the pipe takes them to `bin lsp` on the
/// shipped catalogue (one character typed at the end of a check, or taken back; the last edit
/// adds a link to a retired check), then one request. Returns the time from the first edit
/// to the request's answer, and whether the findings published last for the file are those
/// of the newest text (the retired link's AB212 among them).
fn burst(bin: &Path, edits: usize) -> Option<(Duration, bool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue");
    let check = root.join("checks").join("DRIFT-008.md");
    let (mut s, text, sync) = opened(Command::new(bin), &root, &check)?;
    let lines = text.lines().count();
    // Every frame written in advance, so the clock measures the server, not the client.
    let mut frames = Vec::new();
    for i in 0..edits {
        let change = if i + 1 == edits {
            json!({"range": {"start": {"line": lines, "character": 0},
                "end": {"line": lines, "character": 0}},
                "text": "\nSiehe auch [DRIFT-007](DRIFT-007.md).\n"})
        } else if i % 2 == 0 {
            json!({"range": {"start": {"line": lines, "character": 0},
                "end": {"line": lines, "character": 0}}, "text": "x"})
        } else {
            json!({"range": {"start": {"line": lines, "character": 0},
                "end": {"line": lines, "character": 1}}, "text": ""})
        };
        let m = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri(&check), "version": i + 2}, "contentChanges": [change]}})
        .to_string();
        frames.extend(format!("Content-Length: {}\r\n\r\n{m}", m.len()).into_bytes());
    }
    s.next += 1;
    let id = s.next;
    let m = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol",
        "params": sync})
    .to_string();
    frames.extend(format!("Content-Length: {}\r\n\r\n{m}", m.len()).into_bytes());
    let mut stdin = s.stdin;
    let t = Instant::now();
    // Written on another thread: the server publishes while it reads, and a client that
    // stopped reading would block it.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&frames);
        let _ = stdin.flush();
        stdin
    });
    let mut last = None;
    let answered = loop {
        let v = read_frame(&mut s.out)?;
        if v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri(&check) {
            last = Some(v["params"]["diagnostics"].clone());
        }
        if v["id"] == json!(id) && v.get("method").is_none() {
            break t.elapsed();
        }
    };
    let right = last.is_some_and(|d| {
        d.as_array()
            .is_some_and(|l| l.iter().any(|x| x["code"] == "AB212"))
    });
    let mut stdin = writer.join().ok()?;
    let bye = json!({"jsonrpc": "2.0", "method": "exit", "params": null}).to_string();
    let _ = write!(stdin, "Content-Length: {}\r\n\r\n{bye}", bye.len());
    drop(stdin);
    let _ = s.child.kill();
    let _ = s.child.wait();
    Some((answered, right))
}

fn main() {
    let edits: usize = std::env::var("AUDITBOOK_BENCH_EDITS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(10_000);
    // The binary measured: this build's, or another (`AUDITBOOK_BENCH_BINARY`, e.g. an
    // earlier release built side by side).
    let bin = std::env::var_os("AUDITBOOK_BENCH_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(binary);
    println!("| edits in one burst, shipped catalogue | burst → answer, `auditbook lsp` (s) | findings of the newest text |");
    println!("|---:|---:|---|");
    match burst(&bin, edits) {
        Some((d, right)) => println!(
            "| {edits} | {:.2} | {} |",
            d.as_secs_f64(),
            if right { "yes" } else { "no" }
        ),
        None => println!("| {edits} | n/a | n/a |"),
    }
    println!();
    let sizes: Vec<usize> = std::env::var("AUDITBOOK_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000]);
    println!("| checks | initial load (ms) | keystroke, in process (ms) | keystroke in the frontmatter, in process (ms) | keystroke in the severity, in process (ms) | keystroke → answer, `auditbook lsp` (ms) | peak RSS `auditbook lsp` (MB) |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let root = catalogue(n);
        let check = some_check(&root, n);
        let runs = if n >= 10_000 { 11 } else { 21 };
        let (initial, keystroke, in_head, in_severity) = in_process(&root, &check, runs);
        let (process, rss) = whole_process(&root, &check, runs)
            .map(|(d, m)| (ms(d), format!("{m:.0}")))
            .unwrap_or_else(|| ("n/a".into(), "n/a".into()));
        println!(
            "| {n} | {} | {} | {} | {} | {process} | {rss} |",
            ms(initial),
            ms(keystroke),
            ms(in_head),
            ms(in_severity)
        );
    }
}
