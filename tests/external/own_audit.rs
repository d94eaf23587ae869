//! auditbook's own audit. `examples/auditbook-mcp.results.yaml` holds the maintainers' results
//! for every check that applies to `auditbook mcp` (examples/auditbook-mcp.profile.yaml);
//! `collect` adds the machines' evidence — this repository scanned (its test servers, which are
//! fixtures with planted defects and not the server, left out), and `auditbook mcp` started in
//! the sandbox and probed — and `audit` of the merged file is complete: no result is missing or
//! waits for a person, and no person's `pass` stands against a machine's proof of `fail`.
//!
//! `BLOCKING` lists the enforced critical and high checks that fail, and it is empty: the verdict
//! is production-ready. A change that makes one fail must name it here, and the verdict with it.

use crate::common;

use common::auditbook;
use common::probe::{catalogue, root};
use serde_json::Value;

fn json_of(out: &std::process::Output, what: &str) -> Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{what} printed no JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The enforced critical and high checks `auditbook mcp` fails, in the report's order.
const BLOCKING: &[&str] = &[];

#[test]
fn auditbook_mcp_passes_its_own_audit_with_the_machines_evidence() {
    common::prereq::bwrap();
    let d = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let results = d.path().join("auditbook-mcp.results.yaml");
    std::fs::copy(root().join("examples/auditbook-mcp.results.yaml"), &results)
        .unwrap_or_else(|e| panic!("{e}"));
    let server = format!(
        "{} -C {} mcp --allow-write",
        assert_cmd::cargo::cargo_bin("auditbook").display(),
        catalogue().display()
    );
    let out = auditbook()
        .current_dir(root())
        .args(["-C", "catalogue", "--format", "json", "collect"])
        .arg("examples/auditbook-mcp.profile.yaml")
        .arg("--source")
        .arg(root())
        .args(["--exclude", "tests/servers/**", "--stdio", &server])
        .args(["--sandbox", "require", "--results"])
        .arg(&results)
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    let collected = json_of(&out, "collect");
    let probe = &collected["probe"];
    assert_eq!(probe["reached"], true, "{probe}");
    assert_eq!(probe["server_name"], "auditbook", "{probe}");
    assert!(
        probe["sandbox"]
            .as_str()
            .is_some_and(|s| s.starts_with("sandboxed (bubblewrap")),
        "{probe}"
    );
    assert_eq!(
        collected["scan"]["excluded"],
        serde_json::json!(["tests/servers/**"]),
        "the results say what the scan left out"
    );
    assert_eq!(
        collected["contradicted"],
        serde_json::json!([]),
        "a person's pass against a machine's proof of fail: {}",
        collected["checks"]
    );
    let applicable = collected["applicable"].as_u64().unwrap_or(0);
    // The machines looked at most checks; where a person had judged, the person's result is
    // kept and the machine's is recorded beside it, for the audit to hold the two together.
    let kept = collected["kept"].as_array().map_or(0, Vec::len) as u64;
    assert!(
        kept * 2 >= applicable,
        "machines looked at too little: {collected}"
    );
    let text = std::fs::read_to_string(&results).unwrap_or_default();
    assert!(
        text.matches("\n    machine:\n").count() as u64 >= kept,
        "{text}"
    );

    let out = auditbook()
        .current_dir(root())
        .args(["-C", "catalogue", "--format", "json", "audit"])
        .arg("examples/auditbook-mcp.profile.yaml")
        .arg("--results")
        .arg(&results)
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    let audit = json_of(&out, "audit");
    for key in ["missing", "todo", "rejected", "undecided", "incomplete"] {
        assert_eq!(audit[key], serde_json::json!([]), "{key}: {}", audit[key]);
    }
    let failing: Vec<String> = audit["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| {
            matches!(f["severity"].as_str(), Some("critical" | "high"))
                && f["adoption"] == "enforced"
                && f["status"] == "fail"
        })
        .filter_map(|f| f["id"].as_str().map(String::from))
        .collect();
    assert_eq!(failing, BLOCKING, "{}", audit["verdict_line"]);
    assert_eq!(audit["blocking"], serde_json::json!(BLOCKING));
    let verdict = if BLOCKING.is_empty() {
        "production-ready"
    } else {
        "not-production-ready"
    };
    assert_eq!(audit["verdict"], verdict, "{}", audit["verdict_line"]);
    assert!(audit["checks"].as_array().map_or(0, Vec::len) as u64 >= applicable);
}
