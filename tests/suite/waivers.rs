//! Waivers (accepted risks) through the real binary on the clean fixture catalogue: ARCH-001
//! (medium, enforced, always), DRIFT-001 (high, advisory, 2026-07-28 only), FID-001 (critical,
//! enforced, evidence 2), FID-002 (high, enforced). Each state gets a pair: the defect is
//! reported, its clean twin is not.

use crate::common;

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

/// FID-001 fails (critical, enforced: blocks unless waived); the rest passes. DRIFT-001 does
/// not apply on the 2025-11-25 baseline.
const RESULTS: &str = "\
audit_meta:
  server_name: gemeinde-register-mcp
  catalogue_version: 1.0.0
results:
  ARCH-001: {status: pass, evidence: [\"Werkzeuge gelistet: server.py:12\"]}
  FID-001:
    status: fail
    evidence: ['req.py:4 — der Parameter \"kanton\" wird nicht gesendet', \"test_req.py:20 rot\"]
    gaps: [\"Standardwert der Quelle greift still\"]
  FID-002: {status: pass, evidence: [\"parse.py:12\"]}
";

fn waiver(check: &str, until: &str) -> String {
    format!(
        "  - check: {check}\n    reason: \"Quelle liefert ohne Kanton alle Gemeinden; Abfrage ist nur intern\"\n    approved_by: \"Dr. Anna Müller (CISO)\"\n    date: 2026-01-15\n    until: {until}\n"
    )
}

fn fixture(waivers: &str) -> Fixture {
    let f = Fixture::new("clean");
    f.write("p.yaml", PROFILE);
    let mut r = RESULTS.to_string();
    if !waivers.is_empty() {
        r.push_str("waivers:\n");
        r.push_str(waivers);
    }
    f.write("r.yaml", &r);
    f
}

fn audit(f: &Fixture, extra: &[&str]) -> (Value, i32, String) {
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml", "--format", "json"])
        .args(["--as-of", "2026-06-01"])
        .args(extra)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (
        v,
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn codes(v: &Value) -> Vec<String> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap().to_string())
        .collect()
}

fn states(v: &Value) -> Vec<(String, String)> {
    v["waivers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["check"].as_str().unwrap().to_string(),
                w["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_critical_fail_blocks_without_a_waiver() {
    let (v, code, _) = audit(&fixture(""), &[]);
    assert_eq!(v["verdict"], "not-production-ready");
    assert_eq!(v["blocking"], serde_json::json!(["FID-001"]));
    assert_eq!(code, 1);
    assert!(v["accepted_risks"].as_array().unwrap().is_empty());
}

#[test]
fn a_waived_critical_fail_no_longer_blocks_and_is_listed_with_its_approver() {
    let (v, code, stderr) = audit(&fixture(&waiver("FID-001", "2026-12-31")), &[]);
    assert_eq!(v["verdict"], "production-ready", "{stderr}");
    assert_eq!(code, 0, "{stderr}");
    assert!(v["blocking"].as_array().unwrap().is_empty());
    assert!(v["findings"].as_array().unwrap().is_empty());
    let risk = &v["accepted_risks"][0];
    assert_eq!(risk["id"], "FID-001");
    assert_eq!(risk["approved_by"], "Dr. Anna Müller (CISO)");
    assert_eq!(risk["until"], "2026-12-31");
    assert_eq!(states(&v), [("FID-001".into(), "active".into())]);
    // waived_fraction defaults to 1: the accepted risk still costs its points.
    assert_eq!(v["score"]["value"], 80);
    assert!(codes(&v).iter().all(|c| !c.starts_with("AB54")), "{stderr}");
}

#[test]
fn the_markdown_report_has_an_accepted_risks_section() {
    let f = fixture(&waiver("FID-001", "2026-12-31"));
    let (md, _) = f.run(&[
        "audit",
        "p.yaml",
        "--results",
        "r.yaml",
        "--as-of",
        "2026-06-01",
    ]);
    assert!(md.contains("## Accepted risks"), "{md}");
    assert!(md.contains("Dr. Anna Müller (CISO)"), "{md}");
    assert!(
        md.contains("(accepted risk, waived until 2026-12-31)"),
        "{md}"
    );
    assert!(md.contains("## Waivers"), "{md}");
}

#[test]
fn waived_fraction_zero_removes_the_points() {
    let f = fixture(&waiver("FID-001", "2026-12-31"));
    let config = f.read("catalogue.yaml") + "scoring:\n  waived_fraction: 0\n";
    f.write("catalogue.yaml", &config);
    let (v, _, stderr) = audit(&f, &[]);
    assert_eq!(v["score"]["value"], 100, "{stderr}");
    assert_eq!(v["score"]["deductions"][0]["points"], 0);
}

#[test]
fn an_expired_waiver_is_ignored_and_reported() {
    let (v, code, stderr) = audit(&fixture(&waiver("FID-001", "2026-05-31")), &[]);
    assert_eq!(v["verdict"], "not-production-ready");
    assert_eq!(code, 1);
    assert_eq!(states(&v), [("FID-001".into(), "expired".into())]);
    assert!(codes(&v).contains(&"AB544".to_string()));
    assert!(stderr.contains("expired on 2026-05-31"), "{stderr}");
    // Twin: the last valid day is still valid.
    let (v, _, _) = audit(&fixture(&waiver("FID-001", "2026-06-01")), &[]);
    assert_eq!(states(&v), [("FID-001".into(), "active".into())]);
    assert!(!codes(&v).contains(&"AB544".to_string()));
}

#[test]
fn a_waiver_for_a_passing_or_inapplicable_check_is_stale() {
    let (v, _, stderr) = audit(
        &fixture(&(waiver("FID-002", "2026-12-31") + &waiver("DRIFT-001", "2026-12-31"))),
        &[],
    );
    assert_eq!(
        states(&v),
        [
            ("DRIFT-001".into(), "stale".into()),
            ("FID-002".into(), "stale".into())
        ]
    );
    assert_eq!(codes(&v).iter().filter(|c| *c == "AB545").count(), 2);
    assert!(stderr.contains("does not apply"), "{stderr}");
    assert!(stderr.contains("its result is pass"), "{stderr}");
    assert_eq!(v["verdict"], "not-production-ready", "FID-001 still blocks");
}

#[test]
fn broken_waivers_are_errors_with_lines() {
    let bad = "  - check: FID-01\n    reason: x\n    approved_by: y\n    date: 2026-02-30\n    until: 2026-12-31\n  - check: FID-001\n    reason: x\n    approved_by: y\n    date: 2026-03-01\n    until: 2026-02-01\n  - check: ARCH-001\n    reason: ''\n    aproved_by: y\n";
    let (v, code, stderr) = audit(&fixture(bad), &[]);
    assert_eq!(code, 1);
    let problems: Vec<&Value> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["code"] == "AB543")
        .collect();
    let messages: Vec<&str> = problems
        .iter()
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("2026-02-30")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("not a check")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("before it was approved")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("unknown key `aproved_by`")),
        "{messages:?}"
    );
    assert!(stderr.contains("did you mean `FID-001`"), "{stderr}");
    assert!(problems.iter().all(|p| p["line"].as_u64().unwrap() > 5));
    assert!(v["accepted_risks"].as_array().unwrap().is_empty());
}

#[test]
fn a_separate_waivers_file_works_like_the_results_files_list() {
    let f = fixture("");
    f.write(
        "waivers.yaml",
        &format!("waivers:\n{}", waiver("FID-001", "2026-12-31")),
    );
    let (v, code, stderr) = audit(&f, &["--waivers", "waivers.yaml"]);
    assert_eq!(v["verdict"], "production-ready", "{stderr}");
    assert_eq!(code, 0);
    assert_eq!(v["waivers"][0]["file"], "waivers.yaml");
    // And from a portfolio entry.
    f.write(
        "portfolio.yaml",
        "servers:\n  - {name: gemeinde, profile: p.yaml, results: r.yaml, waivers: waivers.yaml}\n",
    );
    let v = f.json(&[
        "portfolio",
        "portfolio.yaml",
        "--format",
        "json",
        "--as-of",
        "2026-06-01",
    ]);
    assert_eq!(v["servers"][0]["verdict"], "production-ready");
}

#[test]
fn the_results_schema_knows_waivers() {
    let f = fixture(&waiver("FID-001", "2026-12-31"));
    let schema = f.json(&["schema", "results"]);
    let validator = jsonschema::validator_for(&schema).unwrap();
    let doc: serde_json::Value = serde_yaml::from_str(&f.read("r.yaml")).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // Twin: a misspelt key is caught as you type.
    let bad = f.read("r.yaml").replace("approved_by", "aproved_by");
    let doc: serde_json::Value = serde_yaml::from_str(&bad).unwrap();
    assert!(!validator.is_valid(&doc));
}
