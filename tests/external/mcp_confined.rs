//! The README's confined start of `auditbook mcp` (bubblewrap, a uid of its own, only the audit
//! folder writable), run as written and judged from outside by the running server's `/proc`
//! entries: its uid, capabilities, `NoNewPrivs` and the read-only root it sees; and a result
//! written through it lands in the audit folder.

use crate::common;

use common::probe::{catalogue, root};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// The README's command line, between `bwrap` and `--`.
fn readme_bwrap_options() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap_or_default();
    let line = readme
        .lines()
        .find(|l| l.starts_with("bwrap ") && l.contains("auditbook -C catalogue mcp"))
        .unwrap_or_else(|| panic!("the README shows no confined start"));
    let (options, _) = line
        .trim_start_matches("bwrap ")
        .split_once(" -- ")
        .unwrap_or_else(|| panic!("no `--` in {line}"));
    options
        .split_whitespace()
        .map(|w| w.trim_matches('"').to_string())
        .collect()
}

fn status_field(pid: u32, key: &str) -> String {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(key))
        .map(|l| l[key.len()..].trim().to_string())
        .unwrap_or_default()
}

/// The pid of the auditbook process below `parent` (bwrap forks it).
fn child_named(parent: u32, name: &str) -> Option<u32> {
    let mut todo = vec![parent];
    while let Some(p) = todo.pop() {
        let comm = std::fs::read_to_string(format!("/proc/{p}/comm")).unwrap_or_default();
        if comm.trim() == name {
            return Some(p);
        }
        for task in std::fs::read_dir(format!("/proc/{p}/task"))
            .into_iter()
            .flatten()
        {
            let kids =
                std::fs::read_to_string(task.unwrap().path().join("children")).unwrap_or_default();
            todo.extend(
                kids.split_whitespace()
                    .filter_map(|k| k.parse::<u32>().ok()),
            );
        }
    }
    None
}

#[test]
fn the_readme_confined_start_runs_the_server_unprivileged_on_a_read_only_root() {
    let bwrap = common::prereq::bwrap();
    let tmp = tempfile::tempdir().unwrap();
    let audits = tmp.path().join("audits");
    std::fs::create_dir(&audits).unwrap();
    // The uid of its own must be able to write the audit folder.
    std::fs::set_permissions(&audits, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    // SAFETY: geteuid takes no arguments and cannot fail.
    let as_root = unsafe { libc::geteuid() } == 0;
    let mut cmd = if as_root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid", "10001", "--regid", "10001", "--clear-groups"])
            .arg(&bwrap);
        c
    } else {
        Command::new(&bwrap)
    };
    let options: Vec<String> = readme_bwrap_options()
        .into_iter()
        .map(|o| o.replace("$PWD", &tmp.path().display().to_string()))
        .collect();
    cmd.args(&options);
    // The README's `--tmpfs /tmp` hides whatever lies under /tmp: a checkout there (CI's, a
    // fresh clone's) has its binary and the catalogue's repository bound back read-only, as
    // the README says.
    let binary = assert_cmd::cargo::cargo_bin("auditbook");
    for p in [binary.parent().map(Path::to_path_buf), Some(root())]
        .into_iter()
        .flatten()
    {
        if p.starts_with("/tmp") {
            cmd.arg("--ro-bind").arg(&p).arg(&p);
        }
    }
    cmd.arg("--")
        .arg(&binary)
        .arg("-C")
        .arg(catalogue())
        .args(["mcp", "--allow-write", "--root"])
        .arg(&audits)
        .current_dir(tmp.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the confined server: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |v: Value, answered: bool| -> Value {
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
        if !answered {
            return Value::Null;
        }
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let init = ask(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        true,
    );
    ask(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        false,
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "auditbook", "{init}");
    let pid = child_named(child.id(), "auditbook")
        .unwrap_or_else(|| panic!("no auditbook process below bwrap"));
    let uid: u32 = status_field(pid, "Uid:")
        .split_whitespace()
        .next()
        .and_then(|u| u.parse().ok())
        .unwrap_or(0);
    if as_root {
        assert_eq!(uid, 10001);
    } else {
        assert_ne!(uid, 0, "not root");
    }
    assert_eq!(status_field(pid, "CapEff:"), "0000000000000000");
    assert_eq!(status_field(pid, "NoNewPrivs:"), "1");
    let mounts = std::fs::read_to_string(format!("/proc/{pid}/mountinfo")).unwrap_or_default();
    let root_mount = mounts
        .lines()
        .find(|l| l.split_whitespace().nth(4) == Some("/"))
        .unwrap_or_else(|| panic!("no / in {mounts}"));
    assert!(
        root_mount
            .split_whitespace()
            .nth(5)
            .is_some_and(|o| o.split(',').any(|x| x == "ro")),
        "{root_mount}"
    );
    let r = ask(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "record_result", "arguments": {"idempotency_key": "k", "file": "r.yaml", "check": "SEC-007", "status": "partial", "evidence": ["confined start"]}}}),
        true,
    );
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert!(audits.join("r.yaml").is_file());
    let _ = child.kill();
    let _ = child.wait();
}
