//! stdout and stderr that fail: a pipe closed by its reader, a closed descriptor, a full disk.
//! No run may panic (exit 101) or pass silently (exit 0 with its output lost). A closed pipe
//! ends the run quietly with 141; any other failure exits 2.
#![cfg(unix)]

use crate::common;

use common::Fixture;
use std::process::{Command, Output, Stdio};

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("auditbook")
}

/// Run `auditbook ARGS` under `sh` with a redirection applied (`>&-`, `2>/dev/full`).
fn redirected(f: &Fixture, redirection: &str, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirection}"))
        .arg(bin())
        .args(["-C", "."])
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(f.root())
        .output()
        .unwrap()
}

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

/// The issue's own reproduction: `graph --format json 2>&1 | head -c 10` on the shipped
/// catalogue (160 KB of JSON, more than a pipe holds, so the writer meets the closed pipe).
#[test]
fn graph_into_head_ends_quietly_without_a_panic() {
    let out = Command::new("bash")
        .arg("-c")
        .arg(
            "\"$0\" -C catalogue graph --format json 2>&1 | head -c 10; echo \" ${PIPESTATUS[0]}\"",
        )
        .arg(bin())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text, "{\n  \"nodes 141\n", "{text}");
}

/// The same, deterministic for a small output: the pipe's reading end is closed before the
/// run starts, and stderr is the same pipe, so the error message cannot be printed either.
#[test]
fn a_pipe_closed_before_the_first_write_ends_the_run_with_141() {
    let f = Fixture::new("clean");
    for args in [
        &["graph", "--format", "json"][..],
        &["list"],
        &["lint", "--format", "json"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let status = Command::new(bin())
            .args(["-C", "."])
            .args(args)
            .current_dir(f.root())
            .stdout(writer.try_clone().unwrap())
            .stderr(writer)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(141), "{args:?}");
    }
}

/// The clean twin: a pipe that is read to the end gets the whole output and exit 0.
#[test]
fn a_pipe_read_to_the_end_gets_everything() {
    let out = Command::new(bin())
        .args(["-C", "catalogue", "graph", "--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["nodes"].as_array().is_some_and(|n| n.len() > 120));
}

#[test]
fn list_with_stdout_closed_fails_instead_of_passing() {
    let f = Fixture::new("clean");
    let out = redirected(&f, ">&-", &["list"]);
    assert_eq!(code(&out), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("standard output is closed"), "{err}");

    // The clean twin: output thrown away on purpose is not an error.
    let out = redirected(&f, ">/dev/null", &["list"]);
    assert_eq!(code(&out), Some(0));
}

#[test]
fn a_full_disk_on_stdout_exits_2_with_a_message() {
    let f = Fixture::new("clean");
    for args in [&["list"][..], &["graph", "--format", "json"], &["lint"]] {
        let out = redirected(&f, ">/dev/full", args);
        assert_eq!(code(&out), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot write to standard output"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_full_disk_on_stderr_turns_the_run_into_a_failure() {
    let f = Fixture::new("clean");
    // A broken check: `list` warns on stderr and still lists the rest.
    f.write(
        "checks/FID-009.md",
        "---\nid: FID-009\ntitle: [kaputt\n---\n",
    );
    let out = redirected(&f, "2>/dev/full", &["list"]);
    assert_eq!(code(&out), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("FID-001"));

    // Closed, the same: the warning is lost, and the exit code says so.
    let out = redirected(&f, "2>&-", &["list"]);
    assert_eq!(code(&out), Some(2));

    // The clean twin: the same warning to a working stderr is only a warning.
    let out = redirected(&f, "2>/dev/null", &["list"]);
    assert_eq!(code(&out), Some(0));
    // And with stderr closed but nothing to say, the run is clean.
    let clean = Fixture::new("clean");
    assert_eq!(code(&redirected(&clean, "2>&-", &["list"])), Some(0));
}

/// Help goes through the same writer: a lost `--help` is not a success.
#[test]
fn help_into_a_full_disk_exits_2() {
    let f = Fixture::new("clean");
    let out = redirected(&f, ">/dev/full", &["--help"]);
    assert_eq!(code(&out), Some(2));
    // The clean twin.
    let out = redirected(&f, ">/dev/null", &["--help"]);
    assert_eq!(code(&out), Some(0));
}
