//! Profiles (`profile check`), applicability and portfolios, run through the real binary on the
//! clean fixture catalogue (4 checks: ARCH-001 always; DRIFT-001 on 2026-07-28 only, advisory;
//! FID-001 external requests over a non-stdio transport; FID-002 Railway or write-capable).

use crate::common;

use common::Fixture;
use serde_json::Value;

/// A complete, valid profile under which every fixture check applies.
pub const FULL: &str = "\
transport: dual
sdk_language: Python
write_capable: false
deployment: [Railway]
tools_make_external_requests: true
data_source:
  is_swiss_open_data: true
mcp_spec_version: \"2026-07-28\"
";

fn profile_check(f: &Fixture, file: &str) -> (Value, i32) {
    f.json_and_code(&["profile", "check", file, "--format", "json"])
}

/// (code, line) of each diagnostic.
fn found(v: &Value) -> Vec<(String, u64)> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn applicability(f: &Fixture, file: &str) -> (Value, i32) {
    f.json_and_code(&["applicability", file, "--format", "json"])
}

fn status_of<'a>(v: &'a Value, id: &str) -> (&'a str, &'a str) {
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap();
    (c["status"].as_str().unwrap(), c["reason"].as_str().unwrap())
}

#[test]
fn a_complete_profile_is_valid_in_yaml_and_json() {
    let f = Fixture::new("clean");
    f.write("p.yaml", FULL);
    let (v, code) = profile_check(&f, "p.yaml");
    assert_eq!(code, 0, "{v}");
    assert!(found(&v).is_empty(), "{v}");
    assert_eq!(
        v["summary"]["profile"]["fields"]["data_source.is_swiss_open_data"],
        true
    );
    f.write(
        "p.json",
        r#"{
  "transport": "dual", "sdk_language": "Go", "write_capable": false,
  "deployment": ["Railway"], "tools_make_external_requests": true,
  "data_source": {"is_swiss_open_data": true}
}"#,
    );
    let (v, code) = profile_check(&f, "p.json");
    assert_eq!(code, 0, "{v}");
    assert!(found(&v).is_empty(), "an open vocabulary accepts Go: {v}");
}

#[test]
fn missing_field_is_reported_twin_optional_field_is_not() {
    let f = Fixture::new("clean");
    f.write("p.yaml", &FULL.replace("write_capable: false\n", ""));
    let (v, code) = profile_check(&f, "p.yaml");
    assert_eq!(code, 1);
    assert_eq!(found(&v), [("AB502".to_string(), 1)]);
    assert!(v["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("write_capable"));
    // mcp_spec_version is declared `required: false`.
    f.write(
        "q.yaml",
        &FULL.replace("mcp_spec_version: \"2026-07-28\"\n", ""),
    );
    let (v, code) = profile_check(&f, "q.yaml");
    assert_eq!((found(&v), code), (vec![], 0));
}

#[test]
fn placeholders_are_not_answers() {
    let f = Fixture::new("clean");
    for (value, line) in [
        ("\"...\"", 2),
        ("\"<language>\"", 2),
        ("TODO", 2),
        ("FIXME", 2),
        ("\"\"", 2),
        ("", 2),
    ] {
        f.write(
            "p.yaml",
            &FULL.replace("sdk_language: Python", &format!("sdk_language: {value}")),
        );
        let (v, code) = profile_check(&f, "p.yaml");
        assert_eq!(code, 1, "{value}: {v}");
        assert_eq!(found(&v), [("AB503".to_string(), line)], "{value}");
    }
    // Twin: a real value that merely contains the letters.
    f.write(
        "p.yaml",
        &FULL.replace("sdk_language: Python", "sdk_language: Todoist-SDK"),
    );
    assert_eq!(profile_check(&f, "p.yaml").1, 0);
}

#[test]
fn wrong_types_are_never_coerced() {
    let f = Fixture::new("clean");
    f.write(
        "p.yaml",
        &FULL.replace("write_capable: false", "write_capable: \"false\""),
    );
    let (v, _) = profile_check(&f, "p.yaml");
    assert_eq!(found(&v), [("AB504".to_string(), 3)]);
    assert!(v["diagnostics"][0]["help"]
        .as_str()
        .unwrap()
        .contains("without quotes"));
    f.write(
        "p.yaml",
        &FULL.replace("deployment: [Railway]", "deployment: Railway"),
    );
    let (v, _) = profile_check(&f, "p.yaml");
    assert_eq!(found(&v), [("AB504".to_string(), 4)]);
    // Twin: the same values with the declared types.
    f.write("p.yaml", FULL);
    assert!(found(&profile_check(&f, "p.yaml").0).is_empty());
}

#[test]
fn value_outside_closed_vocabulary_with_suggestion() {
    let f = Fixture::new("clean");
    f.write(
        "p.yaml",
        &FULL.replace("transport: dual", "transport: HTTP"),
    );
    let (v, code) = profile_check(&f, "p.yaml");
    assert_eq!(code, 1);
    assert_eq!(found(&v), [("AB505".to_string(), 1)]);
    f.write(
        "p.yaml",
        &FULL.replace("deployment: [Railway]", "deployment: [Railway, Heroku]"),
    );
    let (v, _) = profile_check(&f, "p.yaml");
    assert_eq!(found(&v), [("AB505".to_string(), 4)]);
    assert!(v["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("Heroku"));
    f.write(
        "p.yaml",
        &FULL.replace("transport: dual", "transport: HTTP/SSE"),
    );
    assert_eq!(profile_check(&f, "p.yaml").1, 0);
}

#[test]
fn undeclared_fields_top_level_and_nested_with_suggestion() {
    let f = Fixture::new("clean");
    f.write("p.yaml", &format!("{FULL}write_capabel: true\n"));
    let (v, _) = profile_check(&f, "p.yaml");
    assert_eq!(found(&v), [("AB506".to_string(), 9)]);
    assert_eq!(v["diagnostics"][0]["help"], "did you mean `write_capable`?");
    f.write(
        "p.yaml",
        &FULL.replace(
            "  is_swiss_open_data: true",
            "  is_swiss_open_data: true\n  licence: CC-BY",
        ),
    );
    let (v, _) = profile_check(&f, "p.yaml");
    assert_eq!(found(&v), [("AB506".to_string(), 8)]);
    assert!(v["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("data_source.licence"));
}

#[test]
fn derived_field_that_contradicts_its_source() {
    let f = Fixture::new("clean");
    f.edit(
        "catalogue.yaml",
        "    tools_make_external_requests: {type: bool}\n",
        "    tools_make_external_requests: {type: bool}\n    is_cloud_deployed:\n      type: bool\n      derived:\n        any_other_than: {field: deployment, values: [local-stdio]}\n",
    );
    f.write("p.yaml", &format!("{FULL}is_cloud_deployed: false\n"));
    let (v, code) = profile_check(&f, "p.yaml");
    assert_eq!(code, 1);
    assert_eq!(found(&v), [("AB507".to_string(), 9)]);
    assert!(v["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("Railway"));
    f.write("p.yaml", &format!("{FULL}is_cloud_deployed: true\n"));
    assert_eq!(profile_check(&f, "p.yaml").1, 0);
    f.write(
        "p.yaml",
        &format!(
            "{}is_cloud_deployed: true\n",
            FULL.replace("[Railway]", "[local-stdio]")
        ),
    );
    assert_eq!(
        found(&profile_check(&f, "p.yaml").0),
        [("AB507".to_string(), 9)]
    );
}

#[test]
fn a_profile_that_is_not_yaml_is_reported_with_its_line() {
    let f = Fixture::new("clean");
    f.write("p.yaml", "transport: dual\nsdk_language: [unclosed\n");
    let (v, code) = profile_check(&f, "p.yaml");
    assert_eq!(code, 1);
    assert_eq!(v["diagnostics"][0]["code"], "AB501");
    f.write("p.yaml", "transport: dual\ntransport: dual\n");
    let (v, _) = profile_check(&f, "p.yaml");
    assert_eq!(found(&v), [("AB501".to_string(), 2)]);
    let out = f
        .cmd()
        .args(["profile", "check", "nope.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "an unreadable file is exit 2");
}

#[test]
fn applicability_covers_every_reason() {
    let f = Fixture::new("clean");
    f.write("all.yaml", FULL);
    let (v, code) = applicability(&f, "all.yaml");
    assert_eq!(code, 0);
    for id in ["ARCH-001", "DRIFT-001", "FID-001", "FID-002"] {
        assert_eq!(status_of(&v, id).0, "applies", "{id}");
    }
    assert_eq!(v["summary"]["by_reason"]["applies"], 4);

    // No revision stated: the 2026-07-28-only check cannot be decided by the baseline gate.
    f.write(
        "unresolved.yaml",
        &FULL.replace("mcp_spec_version: \"2026-07-28\"\n", ""),
    );
    let (v, _) = applicability(&f, "unresolved.yaml");
    let (s, why) = status_of(&v, "DRIFT-001");
    assert_eq!(s, "baseline-unresolved");
    assert!(
        why.contains("2026-07-28") && why.contains("mcp_spec_version"),
        "{why}"
    );
    assert_eq!(
        status_of(&v, "ARCH-001").0,
        "applies",
        "a `both` check has no baseline gate"
    );

    f.write("mismatch.yaml", &FULL.replace("2026-07-28", "2025-11-25"));
    let (v, _) = applicability(&f, "mismatch.yaml");
    let (s, why) = status_of(&v, "DRIFT-001");
    assert_eq!(s, "baseline-mismatch");
    assert!(why.contains("2025-11-25"), "{why}");

    f.write(
        "stdio.yaml",
        &FULL.replace("transport: dual", "transport: stdio-only"),
    );
    let (v, _) = applicability(&f, "stdio.yaml");
    let (s, why) = status_of(&v, "FID-001");
    assert_eq!(s, "no-match");
    assert!(why.contains("transport = \"stdio-only\""), "{why}");

    // Missing field read by an expression: error, never no-match; the exit code says so.
    f.write(
        "error.yaml",
        &FULL
            .replace("write_capable: false\n", "")
            .replace("[Railway]", "[Kubernetes]"),
    );
    let (v, code) = applicability(&f, "error.yaml");
    let (s, why) = status_of(&v, "FID-002");
    assert_eq!(s, "error");
    assert!(why.contains("write_capable"), "{why}");
    assert_eq!(code, 1);
    assert_eq!(v["summary"]["by_reason"]["error"], 1);
    let reasons: Vec<&String> = v["summary"]["by_reason"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(
        reasons,
        [
            "baseline-unresolved",
            "baseline-mismatch",
            "applies",
            "no-match",
            "error"
        ],
        "summary in gate order"
    );
}

#[test]
fn a_check_reading_a_field_the_profile_does_not_have_is_error_not_no_match() {
    let f = Fixture::new("clean");
    f.edit(
        "checks/FID-002.md",
        "applies_when: 'deployment.includes(\"Railway\") or write_capable == true'",
        "applies_when: 'uses_sampling == true'",
    );
    f.write("p.yaml", FULL);
    let (v, code) = applicability(&f, "p.yaml");
    let (s, why) = status_of(&v, "FID-002");
    assert_eq!(s, "error");
    assert!(why.contains("uses_sampling"), "{why}");
    assert_eq!(code, 1);
}

#[test]
fn applicability_summary_by_category_and_human_table() {
    let f = Fixture::new("clean");
    f.write(
        "p.yaml",
        &FULL.replace("transport: dual", "transport: stdio-only"),
    );
    let (v, _) = applicability(&f, "p.yaml");
    let fid = v["summary"]["by_category"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["prefix"] == "FID")
        .unwrap()
        .clone();
    assert_eq!(
        (
            fid["applies"].as_u64(),
            fid["total"].as_u64(),
            fid["share"].as_u64()
        ),
        (Some(1), Some(2), Some(50))
    );
    let out = f.cmd().args(["applicability", "p.yaml"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FID-001    no-match"), "{text}");
    assert!(text.contains("4 checks for `p.yaml`: 0 baseline-unresolved, 0 baseline-mismatch, 3 applies, 1 no-match, 0 error"), "{text}");
}

#[test]
fn applicability_diff_names_fields_checks_and_why() {
    let f = Fixture::new("clean");
    f.write("a.yaml", FULL);
    f.write(
        "b.yaml",
        &FULL.replace("transport: dual", "transport: stdio-only"),
    );
    for args in [
        vec!["applicability", "a.yaml", "b.yaml", "--format", "json"],
        vec![
            "applicability",
            "a.yaml",
            "--diff",
            "b.yaml",
            "--format",
            "json",
        ],
    ] {
        let out = f.cmd().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["fields"][0]["field"], "transport");
        assert_eq!(v["fields"].as_array().unwrap().len(), 1);
        let checks = v["checks"].as_array().unwrap();
        assert_eq!(checks.len(), 1, "{v}");
        assert_eq!(checks[0]["id"], "FID-001");
        assert_eq!(
            (checks[0]["from"].as_str(), checks[0]["to"].as_str()),
            (Some("applies"), Some("no-match"))
        );
        let why = checks[0]["why"].as_str().unwrap();
        assert!(
            why.starts_with("transport: \"dual\" → \"stdio-only\""),
            "{why}"
        );
        assert_eq!(v["summary"]["lost"], 1);
    }
    // The twin: the same profile twice changes nothing.
    let out = f
        .cmd()
        .args(["applicability", "a.yaml", "a.yaml"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("No profile field differs.") && text.contains("No check changes"),
        "{text}"
    );
}

const PORTFOLIO: &str = "\
servers:
  - name: alpha
    profile: alpha.yaml
  - name: beta
    profile:
      transport: stdio-only
      sdk_language: Python
      write_capable: false
      deployment: [local-stdio]
      tools_make_external_requests: true
      data_source: {is_swiss_open_data: false}
";

#[test]
fn a_portfolio_where_a_profile_is_expected_needs_server() {
    let f = Fixture::new("clean");
    f.write("alpha.yaml", FULL);
    f.write("folio.yaml", PORTFOLIO);
    for cmd in [
        vec!["profile", "check", "folio.yaml"],
        vec!["applicability", "folio.yaml"],
        vec!["audit", "folio.yaml"],
    ] {
        let out = f.cmd().args(&cmd).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--server") && err.contains("alpha, beta"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "never silently the first server");
    }
    let out = f
        .cmd()
        .args(["profile", "check", "folio.yaml", "--server", "gamma"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = f
        .cmd()
        .args(["profile", "check", "alpha.yaml", "--server", "alpha"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "--server on a plain profile is a usage error"
    );
    // The twin: with --server, the inline profile of beta is used.
    let out = f
        .cmd()
        .args([
            "applicability",
            "folio.yaml",
            "--server",
            "beta",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["server"], "beta");
    assert_eq!(status_of(&v, "FID-001").0, "no-match");
}

#[test]
fn an_inline_portfolio_profile_is_checked_with_portfolio_lines() {
    let f = Fixture::new("clean");
    f.write("alpha.yaml", FULL);
    f.write(
        "folio.yaml",
        &PORTFOLIO.replace("transport: stdio-only", "transport: stdio"),
    );
    let (v, code) = {
        let out = f
            .cmd()
            .args([
                "profile",
                "check",
                "folio.yaml",
                "--server",
                "beta",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        (
            serde_json::from_slice::<Value>(&out.stdout).unwrap(),
            out.status.code().unwrap(),
        )
    };
    assert_eq!(code, 1);
    assert_eq!(found(&v), [("AB505".to_string(), 6)]);
    assert_eq!(v["diagnostics"][0]["file"], "folio.yaml");
}

#[test]
fn portfolio_matrix_with_results_dir() {
    let f = Fixture::new("clean");
    f.write("alpha.yaml", FULL);
    f.write("folio.yaml", PORTFOLIO);
    f.write(
        "res/alpha.results.yaml",
        "results:\n  ARCH-001: {status: pass, evidence: [a]}\n  DRIFT-001: {status: pass, evidence: [a, b]}\n  FID-001: {status: fail, evidence: [a, b]}\n  FID-002: {status: pass, evidence: [a]}\n",
    );
    let out = f
        .cmd()
        .args([
            "portfolio",
            "folio.yaml",
            "--results-dir",
            "res",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "not every server is production-ready"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let alpha = &v["servers"][0];
    assert_eq!(alpha["name"], "alpha");
    assert_eq!(alpha["verdict"], "not-production-ready");
    assert_eq!(alpha["blocking"][0], "FID-001");
    assert_eq!(alpha["findings"]["critical"], 1);
    assert_eq!(alpha["score"], 80);
    assert_eq!(alpha["results"], "res/alpha.results.yaml");
    let beta = &v["servers"][1];
    assert_eq!(beta["verdict"], "incomplete");
    assert_eq!(beta["applicable"], 1, "only ARCH-001 applies to beta");
    let cats: Vec<&str> = v["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["prefix"].as_str().unwrap())
        .collect();
    assert_eq!(cats, ["ARCH", "DRIFT", "FID"]);
    assert_eq!(alpha["by_category"], serde_json::json!([1, 1, 2]));
    assert_eq!(v["verdicts"]["incomplete"], 1);
    // Human and Markdown renderings of the same matrix.
    let out = f
        .cmd()
        .args(["portfolio", "folio.yaml", "--results-dir", "res"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("alpha")
            && text.contains("not-production-ready")
            && text.contains("blocking FID-001"),
        "{text}"
    );
    let out = f
        .cmd()
        .args([
            "portfolio",
            "folio.yaml",
            "--results-dir",
            "res",
            "--format",
            "md",
        ])
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("| alpha | not-production-ready | 80 |"), "{md}");
}

/// Findings about input files are shown against the text that was read: the offending line
/// appears under the finding, for a profile on its own and for one inside a portfolio.
#[test]
fn unusable_inputs_are_shown_with_their_own_lines() {
    let f = Fixture::new("clean");
    let broken = "transport: stdio-only\nsdk_language: Python\nsdk_language: Rust\n";
    f.write("broken.yaml", broken);
    f.write("alpha.yaml", broken);
    f.write("folio.yaml", PORTFOLIO);
    for cmd in [
        vec!["audit", "broken.yaml"],
        vec!["applicability", "broken.yaml"],
        vec!["profile", "check", "broken.yaml"],
        vec!["portfolio", "folio.yaml"],
    ] {
        let out = f.cmd().args(&cmd).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{cmd:?}");
        let shown = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(shown.contains("AB5"), "{cmd:?}: {shown}");
        assert!(
            shown.contains("sdk_language: Rust"),
            "{cmd:?} shows the offending line: {shown}"
        );
    }
    // The twin: a usable profile gives no such finding.
    f.write("broken.yaml", FULL);
    let out = f
        .cmd()
        .args(["profile", "check", "broken.yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}
