//! A fleet end to end: a registry export (the fixture below, generated here and checked in)
//! becomes a portfolio, is collected against loopback endpoints with mixed behaviours whole and
//! in four shards, and the merged report and results equal the whole run's byte for byte. Then
//! an incremental run keeps what did not change, `--force` keeps nothing, the opt-out list and
//! the coverage are honoured, and bad registry entries and run lines are findings at their line.

#[allow(dead_code)]
#[path = "../../benches/loopback/mod.rs"]
mod loopback;

use crate::common::auditbook;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FIXTURE: &str = "tests/fixtures/registry/export.json";
/// The fixture's endpoints live here; the test points them at its loopback server.
const BASE: &str = "http://127.0.0.1:9/";
const ENTRIES: usize = 220;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The registry export fixture: the registry's list answer (`{servers: [{server, _meta}]}`),
/// entries written against the published server.json schema. Every twentieth entry from the
/// 18th has only packages, every twentieth from the 19th only an `sse` remote (no endpoint the
/// probe speaks); the rest have a Streamable HTTP remote, some beside an npm, PyPI or OCI
/// package. Remote `i` is loopback endpoint `i`.
fn export() -> String {
    let mut servers = Vec::new();
    for i in 0..ENTRIES {
        let name = format!("io.github.fleet-{}/server-{i:03}", i % 7);
        let mut server = json!({
            "$schema": "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
            "name": name,
            "description": format!("Test server {i} of the fleet fixture"),
            "version": format!("1.{}.0", i % 5),
            "repository": {"url": format!("https://github.com/fleet-{}/server-{i:03}", i % 7), "source": "github"},
        });
        let remote = json!([{"type": "streamable-http", "url": format!("{BASE}s/{i}/mcp")}]);
        match i % 20 {
            17 => {
                server["packages"] = json!([{"registryType": "npm", "identifier": format!("@fleet/server-{i:03}"), "version": "1.0.0", "transport": {"type": "stdio"}}]);
            }
            18 => {
                server["remotes"] = json!([{"type": "sse", "url": format!("{BASE}s/{i}/sse")}]);
            }
            3 | 9 => {
                server["packages"] = json!([{"registryType": "pypi", "identifier": format!("fleet-server-{i:03}"), "version": "0.3.1", "runtimeHint": "uvx", "transport": {"type": "stdio"}}]);
                server["remotes"] = remote;
            }
            11 => {
                server["packages"] = json!([{"registryType": "oci", "identifier": format!("ghcr.io/fleet/server-{i:03}"), "version": "2.0.0", "transport": {"type": "streamable-http", "url": "http://localhost:8080/mcp"}}]);
                server["remotes"] = remote;
            }
            _ => server["remotes"] = remote,
        }
        servers.push(json!({
            "server": server,
            "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "publishedAt": "2026-09-01T00:00:00Z", "isLatest": true}},
        }));
    }
    let v = json!({"servers": servers, "metadata": {"count": ENTRIES}});
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

#[test]
fn the_registry_fixture_is_current() {
    let path = root().join(FIXTURE);
    let want = export();
    if std::env::var_os("AUDITBOOK_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{FIXTURE} is not what the generator writes; run AUDITBOOK_UPDATE_DOCS=1 cargo test --test suite -- fleet::the_registry_fixture_is_current"
    );
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = auditbook()
        .current_dir(dir)
        .arg("-C")
        .arg(root().join("catalogue"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The files of a folder, by name, with their bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The request time-out is well above what a loaded 2-core machine takes to answer on
/// loopback, so only the endpoints that never answer time out and the buckets do not depend on
/// the machine's load.
const PROBE: &[&str] = &[
    "--timeout-ms",
    "2000",
    "--server-timeout-ms",
    "60000",
    "--jobs",
    "48",
    "--per-host",
    "48",
    "--rate",
    "0",
];

fn collect(dir: &Path, run_file: &str, results: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec![
        "--format",
        "json",
        "collect",
        "--portfolio",
        "fleet.yaml",
        "--run",
        run_file,
        "--results-dir",
        results,
    ];
    args.extend_from_slice(PROBE);
    args.extend_from_slice(extra);
    let (code, out, err) = run(dir, &args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

fn count(report: &Value, bucket: &str) -> u64 {
    report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bucket"] == bucket)
        .map(|b| b["servers"].as_u64().unwrap())
        .unwrap()
}

#[test]
fn four_shards_merged_equal_the_whole_run_and_a_rerun_keeps_what_did_not_change() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let port = loopback::start(&rt).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::copy(
        root().join("tests/fixtures/probe/http.profile.yaml"),
        d.join("http.profile.yaml"),
    )
    .unwrap();

    // The export becomes a portfolio: every entry, no finding.
    let (code, portfolio, err) = run(
        d,
        &[
            "registry",
            root().join(FIXTURE).to_str().unwrap(),
            "--profile",
            "http.profile.yaml",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(portfolio.matches("\n  - name: ").count(), ENTRIES);
    assert_eq!(
        portfolio.matches("    url: ").count(),
        ENTRIES - 2 * ENTRIES / 20
    );
    assert!(portfolio.contains("  - name: \"io.github.fleet-0--server-000\"\n"));
    let portfolio = portfolio.replace(BASE, &format!("http://127.0.0.1:{port}/"));
    std::fs::write(d.join("fleet.yaml"), &portfolio).unwrap();

    let (code, whole) = collect(d, "whole.jsonl", "whole", &[]);
    // Servers without an endpoint the probe speaks are not evidenced: no overall verdict.
    assert_eq!(code, Some(1));
    assert_eq!(whole["declared"], ENTRIES);
    assert_eq!(whole["evidenced"], ENTRIES - 2 * ENTRIES / 20);
    assert_eq!(whole["verdict"], Value::Null);
    let missing = whole["coverage"]["not_evidenced"].as_array().unwrap();
    assert_eq!(missing.len(), 2 * ENTRIES / 20);
    assert!(missing[0]["why"].as_str().unwrap().contains("no `url`"));
    // Each behaviour of the loopback server in its own bucket; shares of the assessed only.
    let n = |b: loopback::Behaviour| {
        (0..ENTRIES)
            .filter(|i| i % 20 != 17 && i % 20 != 18 && loopback::Behaviour::of(*i) == b)
            .count() as u64
    };
    assert_eq!(count(&whole, "not-mcp-denied"), n(loopback::Behaviour::Waf),);
    assert_eq!(
        count(&whole, "not-mcp-not-found"),
        n(loopback::Behaviour::NotFound)
    );
    assert_eq!(count(&whole, "timed-out"), n(loopback::Behaviour::Hangs));
    // The loopback endpoints answer `initialize` only: every one reached is legacy-only.
    assert_eq!(count(&whole, "both") + count(&whole, "modern-only"), 0);
    let assessed =
        count(&whole, "legacy-only") + count(&whole, "both") + count(&whole, "modern-only");
    assert_eq!(whole["denominator"], assessed);
    assert_eq!(
        assessed
            + n(loopback::Behaviour::Waf)
            + n(loopback::Behaviour::NotFound)
            + n(loopback::Behaviour::Hangs),
        ENTRIES as u64 - 2 * ENTRIES as u64 / 20,
        "{}",
        whole["buckets"]
    );
    let share: f64 = whole["shares"][0]["percent"].as_f64().unwrap();
    let want = (count(&whole, "legacy-only") * 1000 + assessed / 2) / assessed;
    assert_eq!(share, want as f64 / 10.0);

    // Four shards, then merged: the same report and the same results, byte for byte.
    let mut runs = Vec::new();
    let mut held = 0;
    for i in 1..=4 {
        let (_, part) = collect(
            d,
            &format!("shard-{i}.jsonl"),
            &format!("shard-{i}"),
            &["--shard", &format!("{i}/4")],
        );
        held += part["declared"].as_u64().unwrap();
        runs.push(format!("shard-{i}.jsonl"));
    }
    assert_eq!(held, ENTRIES as u64, "every server in exactly one shard");
    let mut args = vec!["--format", "json", "merge"];
    args.extend(runs.iter().map(String::as_str));
    args.extend(["--results-dir", "merged"]);
    let (_, merged_json, err) = run(d, &args);
    let (_, whole_json, _) = run(
        d,
        &[
            "--format",
            "json",
            "merge",
            "whole.jsonl",
            "--results-dir",
            "whole-again",
        ],
    );
    assert_eq!(merged_json, whole_json, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&merged_json).unwrap(),
        whole,
        "merge of the whole run's file equals the whole run's own report"
    );
    assert_eq!(files(&d.join("merged")), files(&d.join("whole")));
    assert_eq!(files(&d.join("whole-again")), files(&d.join("whole")));

    // Nothing changed: every server that showed its definitions keeps its results.
    let (_, again) = collect(d, "again.jsonl", "whole", &["--since", "whole.jsonl"]);
    assert_eq!(again["reused"], assessed, "{}", again["buckets"]);
    assert_eq!(again["buckets"], whole["buckets"]);
    assert_eq!(again["checks"], whole["checks"]);
    let (_, forced) = collect(
        d,
        "forced.jsonl",
        "whole",
        &["--since", "whole.jsonl", "--force"],
    );
    assert_eq!(forced["reused"], 0);

    // Resuming a run file that already holds every server probes nothing again.
    let before = std::fs::read_to_string(d.join("whole.jsonl")).unwrap();
    let (_, resumed) = collect(d, "whole.jsonl", "whole", &[]);
    assert_eq!(resumed["buckets"], whole["buckets"]);
    let after = std::fs::read_to_string(d.join("whole.jsonl")).unwrap();
    assert_eq!(
        after.lines().count(),
        before.lines().count() + 1,
        "one header more"
    );

    // The opt-out list: refused servers get no request and their own bucket.
    std::fs::write(
        d.join("opt-out.txt"),
        "# asked us not to\nname: io.github.fleet-0--server-000\n",
    )
    .unwrap();
    let (_, polite) = collect(
        d,
        "polite.jsonl",
        "polite",
        &["--opt-out", "opt-out.txt", "--partial"],
    );
    assert_eq!(count(&polite, "opted-out"), 1);
    assert_eq!(polite["partial"], true);
    assert_ne!(polite["verdict"], Value::Null);

    // The servers go away. Seen within --fresh-for, every line is kept without contact —
    // the hung and refusing ones too — and the report says how many were not contacted.
    drop(rt);
    let evidenced = whole["evidenced"].as_u64().unwrap();
    let (_, fresh) = collect(
        d,
        "fresh.jsonl",
        "fresh",
        &["--since", "whole.jsonl", "--fresh-for", "1h"],
    );
    assert_eq!(fresh["buckets"], whole["buckets"]);
    assert_eq!(fresh["checks"], whole["checks"]);
    assert_eq!(fresh["reused"], evidenced);
    assert_eq!(fresh["uncontacted"], evidenced);
    assert_eq!(files(&d.join("fresh")), files(&d.join("whole")));
    // The twin without --fresh-for contacts every server, and finds them gone.
    let (_, gone) = collect(d, "gone.jsonl", "gone", &["--since", "whole.jsonl"]);
    assert_eq!(gone["reused"], 0);
    assert_eq!(gone["uncontacted"], 0);
    assert_eq!(count(&gone, "unreachable"), evidenced);
    // A line older than --fresh-for is contacted again.
    let (_, stale) = collect(
        d,
        "stale.jsonl",
        "stale",
        &["--since", "whole.jsonl", "--fresh-for", "0s"],
    );
    assert_eq!(stale["uncontacted"], 0, "{}", stale["buckets"]);
}

#[test]
fn the_state_of_summary_counts_and_names_no_server() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let header = r#"{"auditbook_run":1,"portfolio":"p.yaml","portfolio_digest":"d","catalogue":"c","shard":{"index":1,"count":1},"declared":["geheim-amt","offen-amt"],"started":0}"#;
    let lines = [
        header,
        r#"{"server":"geheim-amt","bucket":"both","artifact":"a","catalogue":"c","checks":{"SEC-001":"fail"}}"#,
        r#"{"server":"offen-amt","bucket":"not-mcp-html","artifact":"a","catalogue":"c","detail":"HTTP 200 text/html"}"#,
    ];
    std::fs::write(d.join("r.jsonl"), lines.join("\n") + "\n").unwrap();
    let (code, human, _) = run(d, &["merge", "r.jsonl", "--state-of", "state.md"]);
    assert_eq!(code, Some(1), "a failing check");
    assert!(
        human.contains("assessed: legacy-only 0 (0.0 %), both 1 (100.0 %)"),
        "{human}"
    );
    let state = std::fs::read_to_string(d.join("state.md")).unwrap();
    assert!(state.contains("| both | 1 | 100.0 % |"), "{state}");
    assert!(state.contains("| not-mcp-html | 1 | — |"), "{state}");
    assert!(
        !state.contains("geheim") && !state.contains("offen"),
        "{state}"
    );
}

#[test]
fn bad_registry_entries_and_run_lines_are_findings_at_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(
        d.join("bad.json"),
        concat!(
            "[\n",
            "  {\"name\": \"io.example/gut\", \"version\": \"1\", \"description\": \"gut\", \"remotes\": [{\"type\": \"streamable-http\", \"url\": \"https://gut.example/mcp\"}]},\n",
            "  {\"name\": \"kein-namensraum\", \"version\": \"1\", \"description\": \"x\"},\n",
            "  {\"name\": \"io.example/paket\", \"version\": \"1\", \"description\": \"x\", \"packages\": [{\"registryType\": \"cargo\", \"identifier\": \"x\", \"transport\": {\"type\": \"stdio\"}}]}\n",
            "]\n"
        ),
    )
    .unwrap();
    let (code, out, err) = run(d, &["registry", "bad.json", "--profile", "p.yaml"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("AB512") && err.contains("bad.json:3"), "{err}");
    assert!(err.contains("bad.json:4"), "{err}");
    assert_eq!(out.matches("  - name: ").count(), 1, "{out}");
    // The clean twin: the good entry alone.
    std::fs::write(
        d.join("good.json"),
        "{\"name\": \"io.example/gut\", \"version\": \"1\", \"description\": \"gut\", \"remotes\": [{\"type\": \"streamable-http\", \"url\": \"https://gut.example/mcp\"}]}\n",
    )
    .unwrap();
    let (code, _, err) = run(d, &["registry", "good.json", "--profile", "p.yaml"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");

    std::fs::write(d.join("cut.jsonl"), "{\"server\": \"a\"}\n").unwrap();
    let (_, _, err) = run(d, &["merge", "cut.jsonl"]);
    assert!(
        err.contains("AB513") && err.contains("cut.jsonl:1"),
        "{err}"
    );
}

/// A fleet's run file holds every server's results: thousands of them are hundreds of
/// megabytes. It is read a line at a time and whole — not cut at a file-size cap, which would
/// drop the servers past it without a word — and a line cut short is a finding at its line.
#[test]
fn a_run_file_over_any_file_cap_is_read_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let n = 3000;
    let names: Vec<String> = (0..n).map(|i| format!("s{i:04}")).collect();
    let header = serde_json::json!({
        "auditbook_run": 1, "portfolio": "pf.yaml", "portfolio_digest": "d", "catalogue": "c",
        "shard": {"index": 1, "count": 1}, "declared": names, "started": 0,
    });
    let filler = "x".repeat(12_000);
    let mut text = format!("{header}\n");
    for name in &names {
        let line = serde_json::json!({
            "server": name, "bucket": "legacy-only", "artifact": "a", "catalogue": "c",
            "results_file": format!("{name}.results.yaml"),
            "results": {"results": {"X-1": {"status": "pass", "evidence": [filler]}}},
            "checks": {"X-1": "pass"},
        });
        text.push_str(&format!("{line}\n"));
    }
    text.push_str("{\"server\": \"cut");
    assert!(text.len() > 32 << 20, "{}", text.len());
    std::fs::write(d.join("big.jsonl"), &text).unwrap();
    let (code, out, err) = run(
        d,
        &[
            "--format",
            "json",
            "merge",
            "big.jsonl",
            "--results-dir",
            "out",
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(v["declared"], n, "{err}");
    assert_eq!(v["evidenced"], n, "{err}");
    assert_eq!(count(&v, "legacy-only"), n as u64);
    assert!(
        err.contains(&format!("line {} is not JSON", n + 2)),
        "the cut last line is a finding: {err}"
    );
    assert!(d.join("out/s2999.results.yaml").exists());
    assert_ne!(code, Some(2), "{err}");
}
