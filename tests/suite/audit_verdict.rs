//! Results files, findings, verdicts and the score, through the real binary on the clean
//! fixture catalogue: ARCH-001 (medium, enforced, always), DRIFT-001 (high, advisory, 2026-07-28
//! only, evidence 2), FID-001 (critical, enforced, evidence 2), FID-002 (high, enforced).

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
mcp_spec_version: \"2026-07-28\"
";

/// Results with each status given, every other applicable check a pass with enough evidence.
fn results(overrides: &[(&str, &str)]) -> String {
    let mut out = String::from(
        "audit_meta:\n  server_name: fixture-server\n  catalogue_version: 1.0.0\nresults:\n",
    );
    for (id, pass) in [
        ("ARCH-001", "{status: pass, evidence: [\"tools listed\"]}"),
        (
            "DRIFT-001",
            "{status: pass, evidence: [\"url.py:1\", \"url.py:9\"]}",
        ),
        (
            "FID-001",
            "{status: pass, evidence: [\"req.py:4\", \"test_req.py:20\"]}",
        ),
        ("FID-002", "{status: pass, evidence: [\"parse.py:12\"]}"),
    ] {
        match overrides.iter().find(|(o, _)| *o == id) {
            Some((_, "")) => {}
            Some((_, r)) => out.push_str(&format!("  {id}: {r}\n")),
            None => out.push_str(&format!("  {id}: {pass}\n")),
        }
    }
    out
}

fn fixture(results_text: &str) -> Fixture {
    let f = Fixture::new("clean");
    f.write("p.yaml", PROFILE);
    f.write("r.yaml", results_text);
    f
}

fn audit_json(f: &Fixture, extra: &[&str]) -> (Value, i32, String) {
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml", "--format", "json"])
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

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap().to_string())
        .collect()
}

fn problems(v: &Value, code: &str) -> Vec<Value> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["code"] == code)
        .cloned()
        .collect()
}

#[test]
fn all_pass_is_production_ready_and_exits_zero() {
    let f = fixture(&results(&[]));
    let (v, code, _) = audit_json(&f, &[]);
    assert_eq!(v["verdict"], "production-ready");
    assert_eq!(code, 0);
    assert_eq!(v["complete"], true);
    assert_eq!(v["score"]["value"], 100);
    assert_eq!(v["score"]["scored_share"], 100);
    assert!(
        v["problems"].as_array().unwrap().is_empty(),
        "{}",
        v["problems"]
    );
}

#[test]
fn enforced_high_fail_is_not_production_ready() {
    let f = fixture(&results(&[(
        "FID-002",
        "{status: fail, evidence: [\"parse.py:12 reads `Name`\"]}",
    )]));
    let (v, code, _) = audit_json(&f, &[]);
    assert_eq!(v["verdict"], "not-production-ready");
    assert_eq!(code, 1);
    assert_eq!(v["blocking"], serde_json::json!(["FID-002"]));
    assert!(v["verdict_line"].as_str().unwrap().contains("FID-002"));
}

#[test]
fn enforced_high_partial_is_ready_but_listed_as_a_finding() {
    let f = fixture(&results(&[(
        "FID-002",
        "{status: partial, evidence: [\"one of two parsers checked\"], gaps: [\"second parser\"]}",
    )]));
    let (v, code, _) = audit_json(&f, &[]);
    assert_eq!(v["verdict"], "production-ready");
    assert_eq!(code, 0);
    assert_eq!(ids(&v["findings"]), ["FID-002"]);
    assert_eq!(ids(&v["details"]), ["FID-002"]);
    assert_eq!(v["details"][0]["gaps"][0], "second parser");
    // Under fail-only the same partial is no finding; it still costs points.
    let (v, _, _) = audit_json(&f, &["--policy", "fail-only"]);
    assert!(v["findings"].as_array().unwrap().is_empty());
    assert_eq!(v["score"]["value"], 95);
}

#[test]
fn the_same_fail_on_an_advisory_check_is_ready_with_the_advisory_finding_named() {
    let f = fixture(&results(&[(
        "DRIFT-001",
        "{status: fail, evidence: [\"url.py:3 builds by hand\", \"url.py:40 again\"]}",
    )]));
    let (v, code, _) = audit_json(&f, &[]);
    assert_eq!(v["verdict"], "production-ready");
    assert_eq!(code, 0);
    assert!(v["findings"].as_array().unwrap().is_empty());
    assert_eq!(ids(&v["advisory_findings"]), ["DRIFT-001"]);
    assert_eq!(v["advisory_findings"][0]["would_have_blocked"], true);
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml"])
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains("Would have blocked if enforced: DRIFT-001."),
        "{md}"
    );
    assert!(md.contains("**would have blocked if enforced**"), "{md}");
}

#[test]
fn a_pass_with_too_little_evidence_is_rejected_with_id_and_count_owed() {
    let f = fixture(&results(&[(
        "FID-001",
        "{status: pass, evidence: [\"req.py:4\", \"...\"]}",
    )]));
    let (v, code, err) = audit_json(&f, &[]);
    let p = problems(&v, "AB524");
    assert_eq!(p.len(), 1, "{}", v["problems"]);
    assert_eq!(p[0]["id"], "FID-001");
    assert_eq!(p[0]["line"], 7);
    let msg = p[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("owes 2 evidence item(s)") && msg.contains("found 1"),
        "{msg}"
    );
    assert_eq!(v["verdict"], "incomplete");
    assert_eq!(ids(&v["rejected"]), ["FID-001"]);
    assert_eq!(code, 1);
    assert!(err.contains("AB524"), "diagnostics go to stderr: {err}");
    // not_verified owes one item saying what was attempted.
    let f = fixture(&results(&[(
        "FID-002",
        "{status: not_verified, evidence: []}",
    )]));
    let (v, _, _) = audit_json(&f, &[]);
    assert!(problems(&v, "AB524")[0]["message"]
        .as_str()
        .unwrap()
        .contains("owes 1"));
    // Twin: enough evidence, no rejection.
    let f = fixture(&results(&[(
        "FID-002",
        "{status: not_verified, evidence: [\"upstream down all day\"]}",
    )]));
    let (v, _, _) = audit_json(&f, &[]);
    assert!(problems(&v, "AB524").is_empty());
    assert_eq!(ids(&v["not_verified"]), ["FID-002"]);
    assert_eq!(
        v["verdict"], "production-ready",
        "not_verified is listed, not blocking"
    );
}

#[test]
fn a_missing_result_makes_the_audit_incomplete() {
    let f = fixture(&results(&[("ARCH-001", "")]));
    let (v, code, _) = audit_json(&f, &[]);
    assert_eq!(v["verdict"], "incomplete");
    assert_eq!(code, 1);
    assert_eq!(ids(&v["missing"]), ["ARCH-001"]);
    assert_eq!(problems(&v, "AB541")[0]["id"], "ARCH-001");
    assert!(v["incomplete"][0]
        .as_str()
        .unwrap()
        .contains("1 applicable check(s) have no result"));
}

#[test]
fn without_results_the_report_is_the_plan_with_every_applicable_check_todo() {
    let f = fixture("");
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["plan"], true);
    assert_eq!(v["verdict"], "incomplete");
    assert_eq!(
        ids(&v["todo"]),
        ["FID-001", "DRIFT-001", "FID-002", "ARCH-001"],
        "severity first, then id"
    );
    assert_eq!(v["score"]["scored"], 0);
}

#[test]
fn results_validation_codes_with_lines() {
    let text = "\
audit_meta: {server_name: s, catalogue_version: 0.9.0}
results:
  ARCH-001: {status: passed, evidence: [a]}
  DRIFT-001: {status: pass, evidence: [a, b], severity: low}
  FID-001: {status: pass, evidence: [a, b], evidnce: [c]}
  FID-002: {status: pass, evidence: [a], effort: huge}
  FID-009: {status: pass, evidence: [a]}
  DRIFT-002: {status: pass, evidence: [a]}
";
    let f = fixture(text);
    let (v, _, _) = audit_json(&f, &[]);
    let got: Vec<(String, u64)> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["code"].as_str().unwrap().to_string(),
                p["line"].as_u64().unwrap(),
            )
        })
        .collect();
    for want in [
        ("AB530", 1),
        ("AB523", 3),
        ("AB527", 4),
        ("AB526", 5),
        ("AB529", 6),
        ("AB521", 7),
        ("AB522", 8),
    ] {
        assert!(
            got.contains(&(want.0.to_string(), want.1)),
            "{want:?} not in {got:?}"
        );
    }
    let retired = &problems(&v, "AB522")[0];
    assert!(
        retired["message"]
            .as_str()
            .unwrap()
            .contains("merged into FID-002"),
        "{retired}"
    );
    assert_eq!(
        problems(&v, "AB523")[0]["message"]
            .as_str()
            .map(|m| m.contains("`passed`")),
        Some(true)
    );
    assert_eq!(v["verdict"], "incomplete");
    // The catalogue's severity is used, never the results file's.
    assert_eq!(v["checks"].as_array().unwrap().len(), 4);
}

#[test]
fn a_result_on_a_check_that_does_not_apply_must_be_na() {
    let f = fixture(&results(&[]));
    f.write(
        "p.yaml",
        &PROFILE.replace("transport: dual", "transport: stdio-only"),
    );
    let (v, _, _) = audit_json(&f, &[]);
    let p = problems(&v, "AB525");
    assert_eq!(p.len(), 1, "{}", v["problems"]);
    assert_eq!(p[0]["id"], "FID-001");
    // Twin: n/a is accepted.
    f.write("r.yaml", &results(&[("FID-001", "{status: n/a}")]));
    let (v, code, _) = audit_json(&f, &[]);
    assert!(problems(&v, "AB525").is_empty());
    assert_eq!((v["verdict"].as_str(), code), (Some("production-ready"), 0));
}

#[test]
fn score_with_critical_fail_high_partial_and_advisory_high_fail() {
    let f = fixture(&results(&[
        ("FID-001", "{status: fail, evidence: [\"a\", \"b\"]}"),
        ("FID-002", "{status: partial, evidence: [\"a\"]}"),
        ("DRIFT-001", "{status: fail, evidence: [\"a\", \"b\"]}"),
    ]));
    let (v, _, _) = audit_json(&f, &[]);
    let s = &v["score"];
    assert_eq!(s["value"], 70);
    let order: Vec<(String, Value)> = s["deductions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["id"].as_str().unwrap().to_string(), d["points"].clone()))
        .collect();
    assert_eq!(
        order,
        [
            ("FID-001".to_string(), Value::from(20)),
            ("DRIFT-001".to_string(), Value::from(5)),
            ("FID-002".to_string(), Value::from(5)),
        ]
    );
    assert_eq!(s["deductions"][1]["adoption"], "advisory");
    assert_eq!(s["deductions"][2]["status"], "partial");
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml"])
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("**Score 70/100**"), "{md}");
    assert!(md.contains("| −20 | FID-001 Scope parameters are sent explicitly | critical | enforced | fail | critical fail: 20 |"), "{md}");
    let explain = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml", "--explain-score"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&explain.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("Score 70/100 — scoring policy: max 100, floor 0"),
        "{text}"
    );
    assert!(
        lines[2].contains("FID-001")
            && lines[3].contains("DRIFT-001")
            && lines[4].contains("FID-002"),
        "{text}"
    );
    assert!(text.contains("= 100 - 30 = 70"), "{text}");
}

#[test]
fn a_declared_scoring_policy_changes_the_points_and_the_floor_holds() {
    let f = fixture(&results(&[
        ("FID-001", "{status: fail, evidence: [\"a\", \"b\"]}"),
        ("FID-002", "{status: fail, evidence: [\"a\"]}"),
    ]));
    f.write(
        "catalogue.yaml",
        &format!(
            "{}scoring:\n  max: 50\n  floor: 10\n  fail: {{critical: 30, high: 15}}\n",
            f.read("catalogue.yaml")
        ),
    );
    let (v, _, _) = audit_json(&f, &[]);
    assert_eq!(v["score"]["value"], 10);
    assert_eq!(v["score"]["floored"], true);
    assert_eq!(v["score"]["max"], 50);
}

#[test]
fn a_scoring_block_with_a_typo_or_negative_weight_is_rejected() {
    let f = Fixture::new("clean");
    let base = f.read("catalogue.yaml");
    f.write(
        "catalogue.yaml",
        &format!("{base}scoring:\n  partial_fractoin: 0.5\n"),
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let line = base.lines().count() as u64 + 2;
    assert_eq!(
        common::findings_in(&v, "AB120"),
        [("catalogue.yaml".to_string(), Some(line), None)]
    );
    f.write(
        "catalogue.yaml",
        &format!("{base}scoring:\n  fail: {{high: -10}}\n  advisory_fraction: 2\n"),
    );
    let (v, _) = f.lint_json();
    let found = common::findings_in(&v, "AB701");
    assert_eq!(found.len(), 2, "{v}");
    // Twin: the defaults spelled out are clean.
    f.write(
        "catalogue.yaml",
        &format!("{base}scoring:\n  max: 100\n  floor: 0\n  fail: {{critical: 20, high: 10, medium: 5, low: 2}}\n  partial_fraction: 0.5\n  advisory_fraction: 0.5\n"),
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");
}

#[test]
fn half_the_applicable_checks_not_verified_states_the_scored_share() {
    let f = fixture(&results(&[
        (
            "ARCH-001",
            "{status: not_verified, evidence: [\"server would not start\"]}",
        ),
        (
            "FID-002",
            "{status: not_verified, evidence: [\"no test account\"]}",
        ),
    ]));
    let (v, _, _) = audit_json(&f, &[]);
    // Half scored is below the default min_scored_share (0.8): the 100 is only provisional.
    assert_eq!(v["score"]["value"], Value::Null);
    assert_eq!(v["score"]["provisional_score"], 100);
    assert_eq!(
        (
            v["score"]["scored"].as_u64(),
            v["score"]["applicable"].as_u64()
        ),
        (Some(2), Some(4))
    );
    assert_eq!(v["score"]["scored_share"], 50);
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml"])
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains(
            "**Score — (provisional 100, 50% scored)** · 2 of 4 applicable checks scored (50%)"
        ),
        "{md}"
    );
    assert!(
        md.contains("Unscored: ARCH-001 (not_verified), FID-002 (not_verified)."),
        "{md}"
    );
}

#[test]
fn two_runs_are_byte_identical_in_every_format() {
    let f = fixture(&results(&[
        ("FID-002", "{status: partial, evidence: [\"a\"], effort: S}"),
        ("DRIFT-001", "{status: fail, evidence: [\"a\", \"b\"]}"),
    ]));
    for fmt in ["md", "json", "html", "sarif", "junit"] {
        let run = || {
            f.cmd()
                .args(["audit", "p.yaml", "--results", "r.yaml", "--format", fmt])
                .output()
                .unwrap()
                .stdout
        };
        let (a, b) = (run(), run());
        assert!(!a.is_empty());
        assert_eq!(a, b, "{fmt} differs between runs");
    }
}

#[test]
fn sources_are_cited_with_relative_or_absolute_links() {
    let f = fixture(&results(&[(
        "FID-002",
        "{status: fail, evidence: [\"a\"]}",
    )]));
    f.edit(
        "checks/FID-002.md",
        "adoption: enforced\n",
        "adoption: enforced\nspec_ref: \"MCP 2025-11-25, Tools: structured content\"\npdf_ref: \"Portfolio finding 7\"\n",
    );
    let (v, _, _) = audit_json(&f, &[]);
    let s = &v["findings"][0]["sources"];
    assert_eq!(s["link"], "checks/FID-002.md");
    assert_eq!(s["spec_ref"], "MCP 2025-11-25, Tools: structured content");
    assert_eq!(s["pdf_ref"], "Portfolio finding 7");
    let (v, _, _) = audit_json(&f, &["--check-url-base", "https://example.org/cat/"]);
    assert_eq!(
        v["details"][0]["sources"]["link"],
        "https://example.org/cat/checks/FID-002.md"
    );
    let out = f
        .cmd()
        .args([
            "audit",
            "p.yaml",
            "--results",
            "r.yaml",
            "--out",
            "reports/r.md",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "a blocking fail still exits 1 with --out"
    );
    assert!(out.stdout.is_empty(), "the report went to the file");
    let md = f.read("reports/r.md");
    assert!(md.contains("[FID-002](../checks/FID-002.md)"), "{md}");
    assert!(
        md.contains("**spec_ref:** MCP 2025-11-25, Tools: structured content"),
        "{md}"
    );
}

#[test]
fn html_is_self_contained_and_escaped() {
    let f = fixture(&results(&[(
        "FID-002",
        "{status: fail, evidence: [\"<script>alert(1)</script>\"]}",
    )]));
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml", "--format", "html"])
        .output()
        .unwrap();
    let html = String::from_utf8_lossy(&out.stdout);
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(!html.contains("<script>"), "evidence is escaped");
    assert!(html.contains("&lt;script&gt;"));
    assert!(
        !html.contains("<link") && !html.contains("src=\"http"),
        "no external assets"
    );
}

#[test]
fn previous_summary_is_compared_or_refused_with_the_reason() {
    let f = fixture(&results(&[(
        "FID-002",
        "{status: fail, evidence: [\"a\"]}",
    )]));
    let (first, _, _) = audit_json(&f, &[]);
    f.write("before.json", &first.to_string());
    f.write("r.yaml", &results(&[]));
    let (v, _, _) = audit_json(&f, &["--previous", "before.json"]);
    let c = &v["comparison"];
    assert_eq!(c["refused"], Value::Null, "{c}");
    assert_eq!(c["verdict_then"], "not-production-ready");
    assert_eq!(c["fixed"], serde_json::json!(["FID-002"]));
    // A semantic change to the catalogue (a severity) makes the audits incomparable.
    f.edit("checks/ARCH-001.md", "severity: medium", "severity: high");
    let (v, _, _) = audit_json(&f, &["--previous", "before.json"]);
    let why = v["comparison"]["refused"].as_str().unwrap();
    assert!(why.contains("changed semantically"), "{why}");
    // Twin: a prose-only edit keeps them comparable.
    f.edit("checks/ARCH-001.md", "severity: high", "severity: medium");
    f.edit(
        "checks/ARCH-001.md",
        "Names are how a model picks a tool.",
        "Names are how a model chooses a tool.",
    );
    let (v, _, _) = audit_json(&f, &["--previous", "before.json"]);
    assert_eq!(v["comparison"]["refused"], Value::Null);
}
