//! Compatibility layout: a German catalogue with no catalogue.yaml loads with zero errors.

use crate::common;
use common::{codes_in, Fixture};
use serde_json::Value;

fn show(f: &Fixture, id: &str) -> Value {
    f.json(&["show", id, "--format", "json"])
}

#[test]
fn german_catalogue_loads_without_errors_and_says_what_it_skipped() {
    let f = Fixture::new("compat-de");
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["errors"], 0);
    assert_eq!(v["summary"]["mode"], "compatibility");
    let codes = codes_in(&v);
    assert_eq!(
        codes.iter().filter(|c| *c == "AB006").count(),
        1,
        "said once: {codes:?}"
    );
    // The only warning is the deliberate counter-statement "statt einen FID-008 zu eröffnen".
    // DRIFT-007 is not a mention at all: no check here has the DRIFT category.
    let warned: Vec<_> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["level"] == "warning")
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(warned, ["FID-008"]);
}

#[test]
fn tokens_fences_and_url_links() {
    let f = Fixture::new("compat-de");
    let v = show(&f, "FID-003");
    assert_eq!(
        v["check"]["spec_baseline"], "both",
        "beide is an alias of both"
    );
    assert_eq!(
        v["links"],
        serde_json::json!(["FID-006"]),
        "absolute GitHub URL is a link"
    );
    assert_eq!(
        v["mentions"],
        serde_json::json!(["SEC-004"]),
        "SHA-256 and friends are not references; fenced ids are ignored"
    );
    let sections: Vec<_> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        sections,
        ["Description", "Verification", "Pass Criteria", "References"],
        "the fenced heading is not a section"
    );
    assert_eq!(
        v["check"]["pdf_ref"],
        "Portfolio-Befund, MCP Registry 2026-07"
    );
    // Incoming: FID-006 and SEC-004 link to FID-003.
    let from: Vec<_> = v["incoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["from"].as_str().unwrap())
        .collect();
    assert_eq!(from, ["FID-006", "SEC-004"]);
}

#[test]
fn defaults_are_applied_once_and_shown() {
    let f = Fixture::new("compat-de");
    let v = show(&f, "SEC-004");
    assert_eq!(v["check"]["adoption"], "enforced");
    assert_eq!(v["check"]["defaulted"], serde_json::json!(["adoption"]));
    let fid6 = show(&f, "FID-006");
    let crit: Vec<_> = fid6["pass_criteria"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["checked"].as_bool().unwrap())
        .collect();
    assert_eq!(crit, [false, true]);
}
