//! `snapshot` and `diff`: every change classified as a re-audit trigger or as prose only.

use crate::common;
use common::Fixture;
use serde_json::Value;

/// The graph fixture before and after one release's worth of edits, as two snapshot files.
fn before_and_after() -> (Fixture, std::path::PathBuf, std::path::PathBuf) {
    let f = Fixture::new("graph");
    let old = f.path("old.json");
    std::fs::write(&old, f.stdout(&["snapshot"])).unwrap();
    // Adoption promotion.
    f.edit(
        "checks/FID-006.md",
        "adoption: advisory",
        "adoption: enforced",
    );
    // Widened applicability.
    f.edit(
        "checks/FID-003.md",
        "applies_when: 'tools_make_external_requests == true'",
        "applies_when: 'tools_make_external_requests == true or transport == \"dual\"'",
    );
    // Prose-only edit.
    f.edit(
        "checks/DRIFT-003.md",
        "Degraded runs fail success tests.\n",
        "Degraded runs must fail the success tests.\n",
    );
    // A retirement.
    f.stdout(&[
        "retire",
        "DRIFT-005",
        "--date",
        "2026-11-30",
        "--reason",
        "Covered by DRIFT-003",
        "--replaced-by",
        "DRIFT-003",
    ]);
    let new = f.path("new.json");
    std::fs::write(&new, f.stdout(&["snapshot"])).unwrap();
    (f, old, new)
}

#[test]
fn diff_classifies_each_change() {
    let (f, old, new) = before_and_after();
    let v: Value = serde_json::from_str(&f.stdout(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(v["semantic_change"], true);
    assert_eq!(v["retired"][0]["id"], "DRIFT-005");
    assert_eq!(v["retired"][0]["successor"], "DRIFT-003");
    assert_eq!(
        v["removed"],
        serde_json::json!([]),
        "a retired check is not 'removed'"
    );
    let changed: Vec<&Value> = v["changed"].as_array().unwrap().iter().collect();
    let by = |id: &str| {
        changed
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id} not in {changed:?}"))
    };
    assert_eq!(by("FID-006")["reaudit"][0]["kind"], "promoted_to_enforced");
    let widened = &by("FID-003")["reaudit"][0];
    assert_eq!(widened["kind"], "applicability_widened");
    assert_eq!(
        widened["example"], "tools_make_external_requests = false, transport = \"dual\"",
        "names a profile that now matches"
    );
    let prose = by("DRIFT-003");
    assert_eq!(prose["reaudit"], serde_json::json!([]));
    assert_eq!(prose["prose"], serde_json::json!(["body text edited"]));
}

#[test]
fn diff_markdown_is_a_reaudit_queue() {
    let (f, old, new) = before_and_after();
    insta::assert_snapshot!(f.stdout(&["diff", old.to_str().unwrap(), new.to_str().unwrap()]));
}

#[test]
fn prose_edit_keeps_the_semantic_fingerprint() {
    let f = Fixture::new("graph");
    let a: Value = serde_json::from_str(&f.stdout(&["snapshot"])).unwrap();
    f.edit(
        "checks/DRIFT-003.md",
        "Degraded runs fail success tests.\n",
        "Degraded runs fail the success tests (typo fixed).\n",
    );
    let b: Value = serde_json::from_str(&f.stdout(&["snapshot"])).unwrap();
    assert_ne!(a["fingerprints"]["bytes"], b["fingerprints"]["bytes"]);
    assert_eq!(a["fingerprints"]["semantic"], b["fingerprints"]["semantic"]);
    f.edit("checks/DRIFT-003.md", "severity: medium", "severity: high");
    let c: Value = serde_json::from_str(&f.stdout(&["snapshot"])).unwrap();
    assert_ne!(a["fingerprints"]["semantic"], c["fingerprints"]["semantic"]);
}

#[test]
fn diff_of_two_catalogue_roots() {
    let a = Fixture::new("graph");
    let b = Fixture::new("graph");
    b.edit(
        "checks/DRIFT-004.md",
        "severity: medium",
        "severity: critical",
    );
    let out = a
        .cmd()
        .args([
            "diff",
            a.root().to_str().unwrap(),
            b.root().to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["changed"][0]["reaudit"][0]["kind"], "severity_raised");
    // Equivalent rewrite of an expression is not a trigger.
    let c = Fixture::new("graph");
    c.edit(
        "checks/FID-003.md",
        "applies_when: 'tools_make_external_requests == true'",
        "applies_when: \"tools_make_external_requests==true\"",
    );
    let out = a
        .cmd()
        .args([
            "diff",
            a.root().to_str().unwrap(),
            c.root().to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["semantic_change"], false, "{v:#}");
}
