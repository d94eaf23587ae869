//! Reports that do not overstate: a score over too few scored checks is provisional, many
//! missing results are one finding, a long source line is cut around the caret, and a
//! portfolio shows `—` for a server that has no final score. Snapshots of the example server's
//! audit plan and of a two-result audit (tests/fixtures/reports/two.results.yaml) against the
//! shipped catalogue; the catalogue's digests are redacted as in tests/suite/audit_report.rs.

use crate::common;
use common::auditbook;
use serde_json::Value;

const PROFILE: &str = "examples/amtsblatt-readonly.profile.yaml";
const TWO: &str = "tests/fixtures/reports/two.results.yaml";

fn run(args: &[&str]) -> (String, String, i32) {
    let out = auditbook()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-C", "catalogue"])
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

fn redact(text: &str) -> String {
    let (json, _, _) = run(&["audit", PROFILE, "--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let mut t = text.to_string();
    for key in ["files_digest", "semantic_fingerprint"] {
        let fp = v["meta"]["catalogue"][key].as_str().unwrap();
        t = t.replace(fp, &format!("[catalogue {key}]"));
    }
    t
}

#[test]
fn the_audit_plan_has_no_score_only_a_provisional_one() {
    let (md, stderr, code) = run(&["audit", PROFILE]);
    assert_eq!(code, 1, "a plan is incomplete");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(
        md.contains("**Score — (provisional 100, 0% scored)** · 0 of 68 applicable checks scored"),
        "{md}"
    );
    assert!(!md.contains("Score 100/100"), "{md}");
    insta::assert_snapshot!("plan_md", redact(&md));
    let (json, _, _) = run(&["audit", PROFILE, "--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["score"]["value"], Value::Null);
    assert_eq!(v["score"]["provisional_score"], 100);
    insta::assert_snapshot!("plan_json", redact(&json));
}

#[test]
fn a_two_result_audit_is_provisional_and_groups_the_missing_results() {
    let (md, stderr, code) = run(&["audit", PROFILE, "--results", TWO]);
    assert_eq!(code, 1);
    assert_eq!(
        stderr.matches("warning[AB541]").count(),
        1,
        "one finding for all missing results: {stderr}"
    );
    assert!(
        stderr.contains("66 applicable checks have no result: ARCH-002, ARCH-003,"),
        "{stderr}"
    );
    assert!(stderr.contains("and 54 more"), "{stderr}");
    assert!(stderr.contains("two.results.yaml:9:1"), "{stderr}");
    assert!(
        md.contains("**Score — (provisional 80, 3% scored)**"),
        "{md}"
    );
    assert!(
        md.contains("Record pass, fail or partial for 53 more"),
        "{md}"
    );
    insta::assert_snapshot!("two_results_md", redact(&md));
    let (json, _, _) = run(&["audit", PROFILE, "--results", TWO, "--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["score"]["value"], Value::Null);
    assert_eq!(v["score"]["provisional_score"], 80);
    let ab541: Vec<&Value> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["code"] == "AB541")
        .collect();
    assert_eq!(ab541.len(), 1);
    insta::assert_snapshot!("two_results_json", redact(&json));
}

#[test]
fn the_complete_example_keeps_its_final_score() {
    let (json, _, code) = run(&[
        "audit",
        PROFILE,
        "--results",
        "examples/amtsblatt-readonly.results.yaml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["score"]["value"], 82.5);
    assert_eq!(v["score"]["provisional_score"], Value::Null);
    assert_eq!(v["score"]["headline"], "Score 82.5/100");
}

#[test]
fn the_portfolio_shows_a_dash_for_servers_without_a_final_score() {
    let (md, _, code) = run(&["portfolio", "examples/portfolio.yaml", "--format", "md"]);
    assert_eq!(code, 1, "two servers are unaudited");
    for server in ["opendata-transit-mcp", "hr-casefile-mcp"] {
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {server} |")))
            .unwrap_or_else(|| panic!("{md}"));
        assert!(row.contains("| incomplete | — |"), "{row}");
    }
    let row = md
        .lines()
        .find(|l| l.starts_with("| amtsblatt-mcp |"))
        .unwrap();
    assert!(row.contains("| production-ready | 82.5 |"), "{row}");
    insta::assert_snapshot!("portfolio_md", md);
    let (json, _, _) = run(&["portfolio", "examples/portfolio.yaml", "--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["servers"][1]["score"], Value::Null);
    assert_eq!(v["servers"][1]["provisional_score"], 100);
}

#[test]
fn a_long_source_line_is_cut_around_the_caret() {
    let dir = tempfile::tempdir().unwrap();
    let filler = "Sehr lange Tabellenzeile | ".repeat(80);
    let results = format!(
        "results: {{ARCH-001: {{status: pass, evidence: [\"{filler}\", \"b\"], zusatz: 1}}}}\n"
    );
    assert!(results.len() > 2000);
    let path = dir.path().join("long.results.yaml");
    std::fs::write(&path, &results).unwrap();
    let (_, stderr, _) = run(&["audit", PROFILE, "--results", path.to_str().unwrap()]);
    assert!(stderr.contains("unknown key `zusatz`"), "{stderr}");
    let longest = stderr.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(longest < 400, "a line of {longest} characters: {stderr}");
    assert!(stderr.contains('…'), "the cut is marked: {stderr}");
}
