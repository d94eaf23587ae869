//! Every static finding on applies_when, as a pair: the defect is found with its code, file,
//! line and column; the clean twin (a near miss that is valid) is not flagged. Plus `list
//! --where`, which types the same language against the check fields.

use crate::common;

use common::{codes_in, findings_in, Fixture};

const ORIGINAL: &str =
    "applies_when: 'tools_make_external_requests == true and transport != \"stdio-only\"'";
const FILE: &str = "checks/FID-001.md";
/// applies_when is line 6 of FID-001.md; the expression starts at column 16 (after the quote).
const LINE: u64 = 6;

fn with_expression(expr: &str) -> Fixture {
    let f = Fixture::new("clean");
    f.edit(FILE, ORIGINAL, &format!("applies_when: '{expr}'"));
    f
}

/// The AB3xx findings as (code, line, column).
fn expression_findings(f: &Fixture) -> Vec<(String, u64, u64)> {
    let (v, _) = f.lint_json();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        // AB311 is about the vocabulary in catalogue.yaml, not the expression (its pairs are in
        // tests/suite/examples_verify.rs).
        .filter(|d| d["code"].as_str().unwrap().starts_with("AB3") && d["code"] != "AB311")
        .map(|d| {
            assert_eq!(d["file"], FILE);
            assert_eq!(d["id"], "FID-001");
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn assert_pair(code: &str, flagged: &str, column: u64, twin: &str) {
    let found = expression_findings(&with_expression(flagged));
    assert!(
        found.contains(&(code.to_string(), LINE, column)),
        "`{flagged}` should give {code} at {LINE}:{column}; got {found:?}"
    );
    let clean = expression_findings(&with_expression(twin));
    assert!(clean.is_empty(), "twin `{twin}` is flagged: {clean:?}");
}

#[test]
fn parse_error_ab301() {
    assert_pair("AB301", "transport == ", 29, "transport == \"dual\"");
}

#[test]
fn unknown_field_ab302() {
    assert_pair(
        "AB302",
        "tools_make_external_request == true",
        16,
        "tools_make_external_requests == true",
    );
}

#[test]
fn type_mismatch_bool_vs_string_ab303() {
    assert_pair(
        "AB303",
        "write_capable == \"yes\"",
        16,
        "write_capable == true",
    );
}

#[test]
fn type_mismatch_includes_on_non_list_ab303() {
    assert_pair(
        "AB303",
        "transport.includes(\"dual\")",
        16,
        "deployment.includes(\"Railway\")",
    );
}

#[test]
fn type_mismatch_list_compared_with_string_ab303() {
    assert_pair(
        "AB303",
        "deployment == \"Railway\"",
        16,
        "deployment.includes(\"Railway\")",
    );
}

#[test]
fn literal_outside_vocabulary_ab304() {
    assert_pair(
        "AB304",
        "transport == \"HTTP\"",
        29,
        "transport == \"HTTP/SSE\"",
    );
}

#[test]
fn includes_outside_vocabulary_ab305() {
    assert_pair(
        "AB305",
        "deployment.includes(\"Heroku\")",
        36,
        "deployment.includes(\"Kubernetes\")",
    );
}

#[test]
fn constant_part_or_always_ab306() {
    assert_pair(
        "AB306",
        "tools_make_external_requests == true or always",
        56,
        "tools_make_external_requests == true or write_capable == true",
    );
}

#[test]
fn constant_part_and_false_ab306() {
    assert_pair(
        "AB306",
        "tools_make_external_requests == true and false",
        57,
        "tools_make_external_requests == true and write_capable == false",
    );
}

#[test]
fn always_true_ab307() {
    assert_pair(
        "AB307",
        "write_capable == true or write_capable != true",
        16,
        "write_capable == true or transport == \"dual\"",
    );
}

#[test]
fn unsatisfiable_ab308() {
    assert_pair(
        "AB308",
        "transport == \"dual\" and transport == \"stdio-only\"",
        16,
        "transport == \"dual\" or transport == \"stdio-only\"",
    );
}

#[test]
fn reads_baseline_field_ab309() {
    assert_pair(
        "AB309",
        "mcp_spec_version == \"2026-07-28\"",
        16,
        "transport == \"dual\"",
    );
}

#[test]
fn the_clean_fixture_has_no_expression_findings() {
    let f = Fixture::new("clean");
    let (v, code) = f.lint_json();
    assert!(!codes_in(&v).iter().any(|c| c.starts_with("AB3")), "{v}");
    assert!(findings_in(&v, "AB302").is_empty());
    assert_eq!(code, 0);
}

#[test]
fn list_where_selects_by_check_fields() {
    let f = Fixture::new("clean");
    let out = f
        .cmd()
        .args([
            "list",
            "--where",
            "category == \"FID\" and adoption == \"enforced\"",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["FID-001", "FID-002"]);

    let out = f
        .cmd()
        .args([
            "list",
            "--where",
            "adoption == \"advisory\"",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["DRIFT-001"]);
}

#[test]
fn list_where_with_an_impossible_category_is_an_error_not_an_empty_list() {
    let f = Fixture::new("clean");
    let out = f
        .cmd()
        .args(["list", "--where", "category == \"FDI\""])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("AB304") && err.contains("\"FDI\""), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn list_where_that_does_not_parse_names_the_column() {
    let f = Fixture::new("clean");
    let out = f
        .cmd()
        .args(["list", "--where", "severity == \"high\" and"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("AB301") && err.contains("column 23"), "{err}");
}

#[test]
fn list_where_type_mismatch_over_check_fields() {
    let f = Fixture::new("clean");
    let out = f
        .cmd()
        .args(["list", "--where", "severity.includes(\"high\")"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("AB303"));
}
