//! `auditbook mcp` driven from outside: the official Python SDK client (`mcp` 2.x, installed
//! on first use under `target/test-servers/`) over stdio and over Streamable HTTP
//! (`tests/servers/auditbook_mcp_client.py` prints what the server answered), and
//! `auditbook probe` against `auditbook mcp` with `examples/auditbook-mcp.profile.yaml`.

use crate::common;

use common::probe::{catalogue, free_port, listening, probe_json, root, Probe, Server};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("auditbook")
}

/// The folder the server may write in, with a link `out` to a folder beside it.
struct Folders {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
}

fn folders() -> Folders {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = tmp.path().join("root");
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
    Folders {
        _tmp: tmp,
        root,
        outside,
    }
}

fn client(args: &[&str]) -> Value {
    let out = Command::new(common::prereq::mcp2_python())
        .arg(root().join("tests/servers/auditbook_mcp_client.py"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the Python client: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the client failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

const READ_ONLY: &[&str] = &[
    "applicability",
    "audit",
    "explain_code",
    "graph_neighbourhood",
    "remaining_for_a_person",
    "rules_table",
    "score_explanation",
    "search_checks",
    "show_check",
];

/// What the client saw, whichever transport carried it.
fn judge(d: &Value, f: &Folders) {
    let names: Vec<&str> = d["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "tools/list is in name order");
    for t in d["tools"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        assert_eq!(t["has_input_schema"], true, "{name}");
        assert_eq!(t["has_output_schema"], true, "{name}");
        let a = &t["annotations"];
        let read_only = READ_ONLY.contains(&name);
        assert_eq!(a["readOnlyHint"], read_only, "{name}: {a}");
        assert_eq!(a["destructiveHint"], !read_only, "{name}: {a}");
        assert_eq!(a["idempotentHint"], true, "{name}: {a}");
        assert_eq!(a["openWorldHint"], false, "{name}: {a}");
    }
    assert!(
        !names.contains(&"probe_target"),
        "probe_target is listed only with --allow-probe: {names:?}"
    );
    for name in READ_ONLY {
        assert!(names.contains(name), "{name} is listed: {names:?}");
        let r = &d["calls"][name];
        assert_eq!(r["is_error"], false, "{name}: {}", r["text"]);
        assert!(r["structured"].is_object(), "{name}");
    }
    let calls = &d["calls"];
    let found = &calls["search_checks"]["structured"];
    assert!(found["count"].as_u64().unwrap() >= 1, "{found}");
    for c in found["checks"].as_array().unwrap() {
        assert_eq!(c["severity"], "critical", "{c}");
    }
    assert_eq!(calls["show_check"]["structured"]["id"], "ARCH-001");
    assert_eq!(
        calls["show_check"]["structured"]["check"]["severity"],
        "medium"
    );
    assert_eq!(
        calls["explain_code"]["structured"]["name"],
        "link-to-retired-check"
    );
    let app = &calls["applicability"]["structured"];
    assert!(app["checks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == "ARCH-001" && c["status"] == "applies"));
    assert!(calls["rules_table"]["structured"]["markdown"]
        .as_str()
        .unwrap()
        .contains("| Rule |"));
    assert_eq!(
        calls["graph_neighbourhood"]["structured"]["focus"]["id"],
        "ARCH-001"
    );
    let audit = &calls["audit"];
    assert_eq!(audit["structured"]["verdict"], "incomplete");
    assert!(audit["text"]
        .as_str()
        .unwrap()
        .starts_with("# Audit report"));
    assert!(calls["score_explanation"]["structured"]["explanation"]
        .as_array()
        .is_some_and(|l| !l.is_empty()));
    let left = &calls["remaining_for_a_person"]["structured"];
    assert!(left["count"].as_u64().unwrap() > 0, "{left}");
    // A bad argument, an unknown id and a broken expression: error results that say how to
    // fix the call.
    for (what, hint) in [
        ("bad_argument", "inputSchema"),
        ("unknown_check", "ARCH-001"),
        ("bad_where", "where"),
    ] {
        assert_eq!(d[what]["is_error"], true, "{what}");
        let text = d[what]["text"].as_str().unwrap();
        assert!(text.contains("How to fix the call:"), "{what}: {text}");
        assert!(text.contains(hint), "{what}: {text}");
    }
    // Writes: inside the folder written, anything leaving it refused and nothing written.
    assert_eq!(d["writes"]["inside"]["is_error"], false);
    assert_eq!(d["triage"]["is_error"], false, "{}", d["triage"]["text"]);
    let written = std::fs::read_to_string(f.root.join("results.yaml")).unwrap();
    assert!(written.contains("ARCH-001:") && written.contains("status: pass"));
    assert!(written.contains("finding: a1b2c3d4e5f6"), "{written}");
    for what in ["parent", "absolute", "link"] {
        let r = &d["writes"][what];
        assert_eq!(r["is_error"], true, "{what}");
        assert!(r["text"].as_str().unwrap().contains("How to fix the call:"));
    }
    assert!(!f.root.parent().unwrap().join("outside.yaml").exists());
    assert!(!Path::new("/tmp/auditbook-mcp-outside.yaml").exists());
    assert_eq!(std::fs::read_dir(&f.outside).unwrap().count(), 0);
    // Resources and the prompt.
    let resources = d["resources"].as_array().unwrap();
    assert!(resources.contains(&Value::from("auditbook://check/ARCH-001")));
    assert!(resources.contains(&Value::from("auditbook://rules-table")));
    assert_eq!(d["check_resource"]["mime_type"], "text/markdown");
    assert!(d["check_resource"]["text"]
        .as_str()
        .unwrap()
        .contains("id: ARCH-001"));
    assert!(d["format_reference_length"].as_u64().unwrap() > 1000);
    assert_eq!(d["prompts"], serde_json::json!(["audit_server"]));
    let prompt = d["prompt"].as_str().unwrap();
    for step in ["Diagnosis", "Triage", "Results", "Report", "demo-server"] {
        assert!(prompt.contains(step), "{step}: {prompt}");
    }
}

#[test]
fn the_python_sdk_client_uses_every_tool_over_stdio_and_writes_stay_in_the_folder() {
    let f = folders();
    let d = client(&[
        "--stdio",
        &binary().display().to_string(),
        &catalogue().display().to_string(),
        &f.root.display().to_string(),
    ]);
    judge(&d, &f);
}

fn http_server(f: &Folders) -> (Server, String) {
    let port = free_port();
    let mut cmd = Command::new(binary());
    cmd.current_dir(&f.root).arg("-C").arg(catalogue()).args([
        "mcp",
        "--allow-write",
        "--listen",
        &format!("127.0.0.1:{port}"),
    ]);
    (listening(cmd, port), format!("http://127.0.0.1:{port}/mcp"))
}

#[test]
fn the_python_sdk_client_uses_every_tool_over_streamable_http() {
    let f = folders();
    let (_server, url) = http_server(&f);
    let d = client(&["--url", &url]);
    judge(&d, &f);
    // A foreign page's request (Origin), a page on another local port and a rebound name
    // (Host) are refused; a page of the server's own address is not.
    let port = url
        .trim_start_matches("http://127.0.0.1:")
        .trim_end_matches("/mcp");
    let other_port = format!("http://localhost:{}", free_port());
    for (header, value) in [
        ("Origin", "http://attacker.example"),
        ("Origin", other_port.as_str()),
        ("Host", "attacker.example"),
    ] {
        let status = raw_post(port, header, value);
        assert!(status.contains(" 403 "), "{header} {value}: {status}");
    }
    let own = format!("http://localhost:{port}");
    let status = raw_post(port, "Origin", &own);
    assert!(
        status.starts_with("HTTP/1.1 ") && !status.contains(" 403 "),
        "Origin {own}: {status}"
    );
}

/// The status line of a POST to the endpoint with one header set (or replaced).
fn raw_post(port: &str, header: &str, value: &str) -> String {
    use std::io::{Read, Write};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let host = if header == "Host" {
        value.to_string()
    } else {
        format!("127.0.0.1:{port}")
    };
    let extra = if header == "Host" {
        String::new()
    } else {
        format!("{header}: {value}\r\n")
    };
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or("").to_string()
}

#[test]
fn a_listen_address_off_loopback_is_refused() {
    let out = common::auditbook()
        .arg("-C")
        .arg(catalogue())
        .args(["mcp", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a loopback address"));
}

fn profile() -> String {
    root()
        .join("examples/auditbook-mcp.profile.yaml")
        .display()
        .to_string()
}

/// The probe reaches auditbook's own server and finds nothing wrong in what it covers: the
/// tool names pass, every other observed check is clean as far as a machine can tell.
fn judge_probe(p: &Probe, how: &str) {
    assert_eq!(p.reach(), "reached", "{how}: {}", p.stderr);
    assert_eq!(p.report["fingerprint"]["server_name"], "auditbook", "{how}");
    assert_eq!(p.status("ARCH-001"), "pass", "{how}");
    assert_eq!(
        p.findings(),
        Vec::<(String, String)>::new(),
        "{how}: {}",
        p.stdout
    );
    for id in ["ARCH-007", "ARCH-009", "ARCH-020", "OBS-001"] {
        assert_eq!(
            p.status(id),
            "not_verified",
            "{how}: {id}: {}",
            p.evidence(id)
        );
    }
}

#[test]
fn the_probe_reaches_auditbook_mcp_over_stdio_and_over_http() {
    let f = folders();
    let cmd = format!("{} -C {} mcp", binary().display(), catalogue().display());
    let over_stdio = probe_json(
        &[&profile(), "--stdio", &cmd, "--results", "stdio.yaml"],
        &f.root,
        &[],
    );
    judge_probe(&over_stdio, "stdio");
    let (_server, url) = http_server(&f);
    let over_http = probe_json(
        &[&profile(), "--url", &url, "--results", "http.yaml"],
        &f.root,
        &[],
    );
    judge_probe(&over_http, "http");
}

#[test]
fn probe_target_probes_an_allowed_target_and_refuses_any_other() {
    let bin = binary().display().to_string();
    let cat = catalogue().display().to_string();
    let target = format!("{bin} -C {cat} mcp");
    let d = client(&["--probe", &bin, &cat, &target]);
    assert!(d["tools"]
        .as_array()
        .unwrap()
        .contains(&Value::from("probe_target")));
    let allowed = &d["allowed"];
    assert_eq!(allowed["is_error"], false, "{}", allowed["text"]);
    assert_eq!(allowed["structured"]["reached"], true);
    let checks = allowed["structured"]["checks"].as_array().unwrap();
    assert!(checks
        .iter()
        .any(|c| c["id"] == "ARCH-001" && c["status"] == "pass"));
    let refused = &d["refused"];
    assert_eq!(refused["is_error"], true);
    let text = refused["text"].as_str().unwrap();
    assert!(
        text.contains("not a target this server may probe"),
        "{text}"
    );
    assert!(
        text.contains(&target),
        "the hint names the allowed target: {text}"
    );
}
