//! A person's result and a machine's on the same check: the person's is kept beside the
//! machine's (`machine:`), stamped with the evidence it judged; a `pass` against a machine's
//! proof of `fail` is AB532 and keeps the audit from completing; once the evidence changes the
//! person's result is reopened (AB531, `todo`) — each with its clean twin. Driven through
//! `auditbook scan` over the `tests/fixtures/scan` catalogue, whose `DEP-001` proves `fail`
//! for an MCP SDK declared without an upper bound.

use crate::common;

use common::auditbook;
use serde_json::Value;
use std::path::Path;

fn catalogue() -> std::path::PathBuf {
    common::fixture_dir("scan")
}

const PROFILE: &str = "transport: stdio-only\nsdk_language: Python\n";

fn pyproject(dir: &Path, dependencies: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("src/pyproject.toml"),
        format!("[project]\nname = \"recs-mcp\"\nversion = \"0.4.1\"\ndependencies = [{dependencies}]\n"),
    )
    .unwrap();
    std::fs::write(dir.join("src/uv.lock"), "version = 1\n").unwrap();
}

fn scan(dir: &Path) -> String {
    let out = auditbook()
        .current_dir(dir)
        .arg("-C")
        .arg(catalogue())
        .args(["scan", "p.yaml", "--source", "src", "--results", "r.yaml"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn results(dir: &Path) -> Value {
    serde_yaml::from_str(&std::fs::read_to_string(dir.join("r.yaml")).unwrap()).unwrap()
}

/// The audit of `r.yaml`, as JSON, and its exit code.
fn audit(dir: &Path) -> (Value, i32) {
    let out = auditbook()
        .current_dir(dir)
        .arg("-C")
        .arg(catalogue())
        .args(["--format", "json", "audit", "p.yaml", "--results", "r.yaml"])
        .output()
        .unwrap();
    (
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        out.status.code().unwrap_or(-1),
    )
}

fn problem_codes(report: &Value) -> Vec<String> {
    report["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["code"].as_str().map(String::from))
        .collect()
}

/// A folder with the profile and a person's results: DEP-001 recorded with `status`.
fn person_said(status: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("p.yaml"), PROFILE).unwrap();
    std::fs::write(
        d.path().join("r.yaml"),
        format!("results:\n  DEP-001:\n    status: {status}\n    evidence: [\"pyproject.toml read by hand\"]\n"),
    )
    .unwrap();
    d
}

#[test]
fn a_persons_pass_against_a_machines_proven_fail_is_a_finding() {
    let d = person_said("pass");
    pyproject(d.path(), "\"mcp[cli]>=1.25\"");
    let err = scan(d.path());
    assert!(
        err.contains("DEP-001: the result recorded by a person was kept"),
        "{err}"
    );
    let r = results(d.path());
    let dep = &r["results"]["DEP-001"];
    assert_eq!(dep["status"], "pass", "the person's result is kept");
    assert_eq!(dep["machine"]["status"], "fail", "the machine's beside it");
    assert_eq!(
        dep["digest"], r["scan"]["digest"],
        "stamped with what it is held against"
    );
    let (report, _) = audit(d.path());
    assert!(
        problem_codes(&report).contains(&"AB532".to_string()),
        "{report:#}"
    );
    assert_eq!(report["verdict"], "incomplete", "{}", report["verdict"]);
}

#[test]
fn a_persons_fail_agreeing_with_the_machine_is_no_finding() {
    let d = person_said("fail");
    pyproject(d.path(), "\"mcp[cli]>=1.25\"");
    scan(d.path());
    let r = results(d.path());
    assert_eq!(r["results"]["DEP-001"]["machine"]["status"], "fail");
    let (report, _) = audit(d.path());
    assert!(!problem_codes(&report).contains(&"AB532".to_string()));
    assert!(!problem_codes(&report).contains(&"AB531".to_string()));
}

#[test]
fn a_persons_result_is_reopened_when_the_evidence_it_judged_changes() {
    let d = person_said("fail");
    pyproject(d.path(), "\"mcp[cli]>=1.25\"");
    scan(d.path());
    let judged = results(d.path())["results"]["DEP-001"]["digest"].clone();
    // Unchanged source: scanned again, the person's result stands.
    scan(d.path());
    assert_eq!(results(d.path())["results"]["DEP-001"]["digest"], judged);
    let (report, _) = audit(d.path());
    assert!(
        !problem_codes(&report).contains(&"AB531".to_string()),
        "{report:#}"
    );
    // The source changes: the person judged the old tree, so the result is open again.
    pyproject(d.path(), "\"mcp[cli]>=2.3,<3\"");
    scan(d.path());
    let r = results(d.path());
    assert_eq!(r["results"]["DEP-001"]["digest"], judged, "the stamp stays");
    assert_ne!(r["scan"]["digest"], judged);
    let (report, _) = audit(d.path());
    assert!(
        problem_codes(&report).contains(&"AB531".to_string()),
        "{report:#}"
    );
    let row = report["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["id"] == "DEP-001")
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(row["status"], "todo", "reopened: {row}");
}
