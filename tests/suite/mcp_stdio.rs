//! `auditbook mcp` over stdio with JSON-RPC written by hand (the Python SDK client drives it in
//! `tests/external/mcp_server.rs`): stdout carries only protocol messages, tools/list is in name
//! order with every hint and schema, refusals are error results that say how to fix the call,
//! and a write outside `--root` leaves no file.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Session {
    fn start(root: &Path) -> Session {
        Session::start_with(root, &["--allow-write"])
    }

    fn start_with(root: &Path, flags: &[&str]) -> Session {
        let catalogue = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue");
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("auditbook"));
        cmd.arg("-C")
            .arg(&catalogue)
            .arg("mcp")
            .args(flags)
            .arg("--root")
            .arg(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Session {
            child,
            stdin,
            stdout,
            next: 0,
        };
        let init = s.request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "suite", "version": "0"},
            }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "auditbook", "{init}");
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, msg: &Value) {
        writeln!(self.stdin, "{msg}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Send a request and read lines until its response; every line must be JSON-RPC.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let v: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout carries only JSON-RPC: {e}: {line}"));
            assert_eq!(v["jsonrpc"], "2.0", "{line}");
            if v["id"] == id {
                return v;
            }
        }
    }

    fn call(&mut self, name: &str, arguments: Value) -> Value {
        let r = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        r["result"].clone()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn refusal_text(r: &Value) -> String {
    assert_eq!(r["isError"], true, "{r}");
    let text = r["content"][0]["text"].as_str().unwrap_or("").to_string();
    assert!(text.contains("How to fix the call:"), "{text}");
    text
}

#[test]
fn tools_are_listed_in_order_with_hints_and_schemas_and_refusals_say_how_to_fix_the_call() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let mut s = Session::start(&root);
    let list = s.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert_eq!(names.len(), 11, "{names:?}");
    for t in tools {
        for hint in [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ] {
            assert!(t["annotations"][hint].is_boolean(), "{}: {hint}", t["name"]);
        }
        assert_eq!(t["inputSchema"]["type"], "object", "{}", t["name"]);
        assert_eq!(t["outputSchema"]["type"], "object", "{}", t["name"]);
    }

    let shown = s.call("show_check", json!({"id": "SEC-001"}));
    assert_eq!(shown["isError"], false, "{shown}");
    assert_eq!(shown["structuredContent"]["id"], "SEC-001");

    let text = refusal_text(&s.call("show_check", json!({})));
    assert!(text.contains("missing field `id`"), "{text}");
    // An unknown tool is a protocol error (no tool ran), naming the tools there are.
    let unknown = s.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let text = unknown["error"]["message"].as_str().unwrap_or("");
    assert!(text.contains("search_checks"), "{text}");
    let text = refusal_text(&s.call("explain_code", json!({"code": "AB21"})));
    assert!(text.contains("did you mean"), "{text}");

    let real_root = root.canonicalize().unwrap().display().to_string();
    for file in [
        "../escaped.yaml",
        "/tmp/escaped-by-mcp.yaml",
        "results.txt",
        "a\0b.yaml",
        "..\\escaped.yaml",
    ] {
        let r = s.call(
            "record_result",
            json!({"idempotency_key": file, "file": file, "check": "SEC-001", "status": "pass", "evidence": ["seen"]}),
        );
        let text = refusal_text(&r);
        // A refusal says what is wrong, never where on the machine the server's folder is.
        assert!(!text.contains(&real_root), "{text}");
    }
    assert!(!tmp.path().join("escaped.yaml").exists());
    assert_eq!(std::fs::read_dir(&root).unwrap().count(), 0);
    let r = s.call(
        "record_result",
        json!({"idempotency_key": "k0", "file": "results.yaml", "check": "SEC-001", "status": "pass", "evidence": []}),
    );
    assert!(refusal_text(&r).contains("needs evidence"));
    let r = s.call(
        "record_result",
        json!({"idempotency_key": "k1", "file": "results.yaml", "check": "SEC-001", "status": "fail", "evidence": ["token in a log line"], "gaps": ["redact it"]}),
    );
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["structuredContent"]["replaced"], Value::Null, "{r}");
    let written = std::fs::read_to_string(root.join("results.yaml")).unwrap();
    assert!(
        written.contains("SEC-001:") && written.contains("status: fail"),
        "{written}"
    );
}

#[test]
fn a_retried_write_writes_once_a_reused_key_is_refused_and_a_replaced_result_can_be_restored() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = Session::start(tmp.path());
    let file = tmp.path().join("r.yaml");
    let first = json!({"idempotency_key": "k-1", "file": "r.yaml", "check": "SEC-001", "status": "fail", "evidence": ["token in a log line"]});
    let r = s.call("record_result", first.clone());
    assert_eq!(r["structuredContent"]["replayed"], false, "{r}");
    // The retry answers the same and has no new side effect: the file removed in between is
    // not written again.
    std::fs::remove_file(&file).unwrap();
    let again = s.call("record_result", first.clone());
    assert_eq!(again["structuredContent"]["replayed"], true, "{again}");
    assert_eq!(
        again["structuredContent"]["recorded"],
        r["structuredContent"]["recorded"]
    );
    assert!(!file.exists(), "a retry wrote again");
    // The same key for another write is refused; nothing is written.
    let mut other = first.clone();
    other["status"] = json!("pass");
    let text = refusal_text(&s.call("record_result", other));
    assert!(text.contains("was used for another write"), "{text}");
    assert!(!file.exists());
    // A new key writes; replacing answers with what was there, and recording that restores it.
    let r1 = s.call("record_result", json!({"idempotency_key": "k-2", "file": "r.yaml", "check": "SEC-001", "status": "fail", "evidence": ["token in a log line"], "gaps": ["redact it"]}));
    assert_eq!(r1["structuredContent"]["replaced"], Value::Null, "{r1}");
    let r2 = s.call("record_result", json!({"idempotency_key": "k-3", "file": "r.yaml", "check": "SEC-001", "status": "pass", "evidence": ["redacted"]}));
    let old = r2["structuredContent"]["replaced"].clone();
    assert_eq!(old["status"], "fail", "{r2}");
    let restore = s.call("record_result", json!({"idempotency_key": "k-4", "file": "r.yaml", "check": "SEC-001", "status": old["status"], "evidence": old["evidence"], "gaps": old["gaps"]}));
    assert_eq!(restore["isError"], false, "{restore}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("status: fail") && text.contains("redact it"),
        "{text}"
    );
    // A key is required.
    let text = refusal_text(&s.call(
        "record_result",
        json!({"file": "r.yaml", "check": "SEC-001", "status": "pass", "evidence": ["x"]}),
    ));
    assert!(text.contains("idempotency_key"), "{text}");
}

/// A copy of the clean fixture catalogue, with one check file that does not load when `broken`.
fn fixture_catalogue(dir: &Path, broken: bool) -> std::path::PathBuf {
    let cat = dir.join(if broken { "broken" } else { "whole" });
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clean");
    let status = std::process::Command::new("cp")
        .arg("-r")
        .arg(&from)
        .arg(&cat)
        .status()
        .unwrap();
    assert!(status.success());
    if broken {
        std::fs::write(
            cat.join("checks/ZZZ-999.md"),
            "---\nid: ZZZ-999\ntitle: [unclosed\n---\n# broken\n",
        )
        .unwrap();
    }
    cat
}

#[test]
fn a_catalogue_that_loads_with_errors_is_not_served_and_its_whole_twin_is() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |cat: &Path| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("auditbook"))
            .arg("-C")
            .arg(cat)
            .args(["mcp", "--root"])
            .arg(tmp.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = run(&fixture_catalogue(tmp.path(), true));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is not served incomplete") && err.contains("auditbook lint"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing was served");
    // The whole twin starts and, with stdin closed at once, ends without that refusal.
    let out = run(&fixture_catalogue(tmp.path(), false));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("not served incomplete"), "{err}");
}

#[test]
fn without_allow_write_every_tool_is_read_only_and_the_writing_ones_are_not_there() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = Session::start_with(tmp.path(), &[]);
    let list = s.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 9, "{list}");
    for t in tools {
        assert_eq!(t["annotations"]["readOnlyHint"], true, "{t}");
        assert_eq!(t["annotations"]["destructiveHint"], false, "{t}");
    }
    let r = s.request(
        "tools/call",
        json!({"name": "record_result", "arguments": {"idempotency_key": "k", "file": "r.yaml", "check": "SEC-001", "status": "pass", "evidence": ["seen"]}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    // The same server with --allow-write lists the two writing tools beside them.
    let mut w = Session::start_with(tmp.path(), &["--allow-write"]);
    let list = w.request("tools/list", json!({}));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        names.contains(&"record_result") && names.contains(&"record_triage"),
        "{names:?}"
    );
    assert_eq!(names.len(), 11);
}
