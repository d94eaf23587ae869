//! Audits in CI: `--min-score` and `--fail-on` exit codes with their reasons, SARIF validated
//! against the official 2.1.0 schema, and JUnit XML (audit, lint, verify) validated against
//! the common JUnit schema. Fixture: the clean catalogue, where FID-001 is critical and
//! enforced, FID-002 high and enforced, ARCH-001 medium and enforced.

use crate::common;

use common::validators::{assert_junit_valid, assert_valid, junit_check, sarif_validator};
use common::Fixture;
use serde_json::Value;

const PROFILE: &str = "\
transport: dual
sdk_language: Python
write_capable: false
deployment: [Railway]
tools_make_external_requests: true
data_source:
  is_swiss_open_data: true
mcp_spec_version: \"2025-11-25\"
";

/// Three results; `arch` is ARCH-001's status (medium), `fid2` FID-002's (high).
fn fixture(arch: &str, fid2: &str) -> Fixture {
    let f = Fixture::new("clean");
    f.write("p.yaml", PROFILE);
    f.write(
        "r.yaml",
        &format!(
            "audit_meta: {{server_name: \"Gemeinde <Register> & Co\"}}\nresults:\n  ARCH-001: {{status: {arch}, evidence: [\"Werkzeugliste: server.py:12\"], gaps: [\"Namen mit Leerzeichen <x>\"]}}\n  FID-001: {{status: pass, evidence: [\"req.py:4\", \"test_req.py:20\"]}}\n  FID-002: {{status: {fid2}, evidence: [\"parse.py:12\"]}}\n"
        ),
    );
    f
}

fn audit(f: &Fixture, extra: &[&str]) -> (String, i32, String) {
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml"])
        .args(extra)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn min_score_gates_on_the_final_score() {
    // A medium partial: production-ready, score 97.5.
    let f = fixture("partial", "pass");
    let (_, code, stderr) = audit(&f, &["--min-score", "97.5"]);
    assert_eq!(code, 0, "{stderr}");
    let (_, code, stderr) = audit(&f, &["--min-score", "98"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("gate breached: --min-score 98: the score is 97.5"),
        "{stderr}"
    );
}

#[test]
fn min_score_is_breached_by_a_provisional_score() {
    let f = fixture("pass", "pass");
    f.write(
        "r.yaml",
        "results:\n  ARCH-001: {status: pass, evidence: [\"server.py:12\"]}\n  FID-001: {status: todo}\n  FID-002: {status: todo}\n",
    );
    let (_, code, stderr) = audit(&f, &["--min-score", "0"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("the score is provisional"), "{stderr}");
}

#[test]
fn fail_on_gates_on_the_severity_of_remaining_findings() {
    let f = fixture("fail", "pass");
    // ARCH-001 fails: medium. `--fail-on high` holds, `--fail-on medium` is breached.
    let (_, code, stderr) = audit(&f, &["--fail-on", "high"]);
    assert_eq!(code, 0, "{stderr}");
    let (_, code, stderr) = audit(&f, &["--fail-on", "medium"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains(
            "--fail-on medium: 1 finding(s) of severity medium or worse: ARCH-001 (medium fail)"
        ),
        "{stderr}"
    );
    // An undeclared severity is a usage error, not a silent pass.
    let (_, code, stderr) = audit(&f, &["--fail-on", "hgih"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("not a severity of this catalogue"),
        "{stderr}"
    );
}

#[test]
fn audit_sarif_validates_and_carries_the_checks_remediation() {
    let validator = sarif_validator();
    let f = fixture("fail", "partial");
    let (text, code, _) = audit(&f, &["--format", "sarif"]);
    assert_eq!(code, 0, "a high partial and a medium fail do not block");
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_valid(&validator, &doc);
    let run = &doc["runs"][0];
    let results = run["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["FID-002", "ARCH-001"], "severity, then id");
    assert_eq!(results[1]["level"], "error");
    assert_eq!(results[0]["level"], "warning");
    assert_eq!(
        results[1]["locations"][0]["physicalLocation"]["region"]["startLine"],
        3
    );
    assert_eq!(
        results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "r.yaml"
    );
    let rule = &run["tool"]["driver"]["rules"][1];
    assert_eq!(rule["id"], "ARCH-001");
    assert_eq!(
        rule["help"]["text"], "Rename the tools.\n",
        "help is the check's Remediation"
    );
    assert!(
        !text.contains("example.invalid"),
        "the repository URL is declared"
    );
    // Twin: all pass, no results, still valid.
    let (text, code, _) = audit(&fixture("pass", "pass"), &["--format", "sarif"]);
    assert_eq!(code, 0);
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_valid(&validator, &doc);
    assert!(doc["runs"][0]["results"].as_array().unwrap().is_empty());
}

#[test]
fn a_waived_finding_is_an_accepted_suppression_in_sarif() {
    let f = fixture("fail", "pass");
    let r = f.read("r.yaml")
        + "waivers:\n  - {check: ARCH-001, reason: \"Altlast, Ersatz geplant\", approved_by: \"M. Keller\", date: 2026-01-01, until: 2026-12-31}\n";
    f.write("r.yaml", &r);
    let (text, _, stderr) = audit(&f, &["--format", "sarif", "--as-of", "2026-06-01"]);
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_valid(&sarif_validator(), &doc);
    let s = &doc["runs"][0]["results"][0]["suppressions"][0];
    assert_eq!(s["status"], "accepted");
    assert!(s["justification"].as_str().unwrap().contains("M. Keller"));
}

#[test]
fn audit_junit_validates_with_one_case_per_applicable_check() {
    let f = fixture("fail", "not_verified");
    let (xml, _, _) = audit(&f, &["--format", "junit"]);
    assert_junit_valid(&xml);
    assert_eq!(xml.matches("<testcase ").count(), 3, "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    assert_eq!(xml.matches("<skipped ").count(), 1, "{xml}");
    assert!(xml.contains("Gemeinde &lt;Register&gt; &amp; Co"), "{xml}");
    assert!(xml.contains("Namen mit Leerzeichen &lt;x&gt;"), "{xml}");
    // Byte-identical across runs: no times, no timestamps.
    assert_eq!(xml, audit(&f, &["--format", "junit"]).0);
}

#[test]
fn the_junit_schema_check_is_not_vacuous() {
    let broken = "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"x\"><testcase/></testsuite></testsuites>\n";
    assert!(junit_check(broken).is_err(), "missing required attributes");
}

#[test]
fn lint_and_verify_junit_validate() {
    let f = Fixture::new("clean");
    f.edit(
        "checks/ARCH-001.md",
        "See [FID-001](../checks/FID-001.md).",
        "See [FID-009](../checks/FID-009.md).",
    );
    let (xml, code) = f.run(&["lint", "--format", "junit"]);
    assert_eq!(code, 1);
    assert_junit_valid(&xml);
    assert!(xml.contains("FID-009"), "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    let shipped = common::auditbook()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-C", "catalogue", "verify", "--format", "junit"])
        .output()
        .unwrap();
    assert_eq!(shipped.status.code(), Some(0));
    let xml = String::from_utf8(shipped.stdout).unwrap();
    assert_junit_valid(&xml);
    assert_eq!(xml.matches("<failure ").count(), 0, "{xml}");
}
