//! The formats CI services read: SARIF 2.1.0 validated against the official schema, and GitHub
//! workflow commands as a reviewed snapshot.
//!
//! The SARIF schema is not copied into this repository: the `serde-sarif` dev-dependency ships
//! it, and `cargo metadata` says where that package lives on this machine.

use crate::common;
use common::validators::{assert_valid, sarif_validator};
use common::{auditbook, Fixture};
use serde_json::Value;
use std::path::PathBuf;

/// A catalogue whose findings cover a retired link (AB212), a retired mention (AB213), a
/// finding with a column range, one without a line, and text that needs escaping.
fn planted() -> Fixture {
    let f = Fixture::new("clean");
    f.edit(
        "checks/ARCH-001.md",
        "See [FID-001](../checks/FID-001.md).",
        "See [DRIFT-002](../checks/DRIFT-002.md), formerly DRIFT-002, and FID-008.",
    );
    f.edit(
        "checks/FID-001.md",
        "severity: critical",
        "severity: \"hi,gh: 100%\"",
    );
    f
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let validator = sarif_validator();
    let (text, code) = planted().run(&["lint", "--format", "sarif"]);
    assert_eq!(code, 1);
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_valid(&validator, &doc);

    // The shipped catalogue (no findings but notes) validates too.
    let out = auditbook()
        .args(["-C", "catalogue", "lint", "--format", "sarif"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let shipped: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid(&validator, &shipped);

    // `verify` prints its diagnostics through the same renderer.
    let out = auditbook()
        .args(["-C", "catalogue", "verify", "--format", "sarif"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let verify: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid(&validator, &verify);

    // A document the schema must reject, so the validation above is not vacuous.
    let mut broken = doc.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn sarif_describes_every_code_and_locates_every_result() {
    let (text, _) = planted().run(&["lint", "--format", "sarif"]);
    let doc: Value = serde_json::from_str(&text).unwrap();
    let run = &doc["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), auditbook::diag::CODES.len());
    let ab212 = rules.iter().find(|r| r["id"] == "AB212").unwrap();
    assert_eq!(ab212["name"], "link-to-retired-check");
    assert_eq!(ab212["help"]["text"], "Link the successor instead.");
    assert!(ab212["helpUri"]
        .as_str()
        .unwrap()
        .ends_with("docs/lint-codes.md#ab212"));
    assert_eq!(ab212["defaultConfiguration"]["level"], "error");
    let docs = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/lint-codes.md"),
    )
    .unwrap();
    for r in rules {
        let anchor = r["helpUri"].as_str().unwrap().rsplit('#').next().unwrap();
        assert!(
            docs.contains(&format!("<a id=\"{anchor}\"></a>")),
            "docs/lint-codes.md has no anchor {anchor}"
        );
    }

    let results = run["results"].as_array().unwrap();
    for r in results {
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"]);
        assert!(r["partialFingerprints"]["auditbookFinding/v1"].is_string());
    }
    let link = results.iter().find(|r| r["ruleId"] == "AB212").unwrap();
    let loc = &link["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "checks/ARCH-001.md");
    assert!(loc["region"]["startLine"].as_u64().unwrap() > 1);
    assert!(
        loc["region"]["endColumn"].as_u64().unwrap()
            > loc["region"]["startColumn"].as_u64().unwrap()
    );
    assert_eq!(link["properties"]["id"], "DRIFT-002");
    assert_eq!(link["properties"]["successor"], "FID-002");
    assert_eq!(
        link["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "checks/FID-002.md"
    );
    let mention = results.iter().find(|r| r["ruleId"] == "AB213").unwrap();
    assert_eq!(mention["level"], "note");
    assert_eq!(mention["properties"]["successor"], "FID-002");
}

/// A finding about a retired id keeps its fingerprint when the id's successor is renamed in
/// the text (only the successor counts), and lines moving above it change nothing.
#[test]
fn sarif_fingerprints_survive_line_moves_and_key_on_the_successor() {
    let fingerprint = |f: &Fixture, code: &str| -> String {
        let (text, _) = f.run(&["lint", "--format", "sarif"]);
        let doc: Value = serde_json::from_str(&text).unwrap();
        doc["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["ruleId"] == code)
            .map(|r| {
                r["partialFingerprints"]["auditbookFinding/v1"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .unwrap()
    };
    let a = planted();
    let b = planted();
    b.edit(
        "checks/ARCH-001.md",
        "## Description\n",
        "## Description\n\nA new first paragraph.\n\n",
    );
    assert_eq!(fingerprint(&a, "AB212"), fingerprint(&b, "AB212"));
    // With the successor changed, the finding is a different one.
    let c = planted();
    c.edit(
        "catalogue.yaml",
        "merged_into: FID-002",
        "merged_into: FID-001",
    );
    assert_ne!(fingerprint(&a, "AB212"), fingerprint(&c, "AB212"));
}

#[test]
fn sarif_is_byte_identical_across_runs() {
    let f = planted();
    assert_eq!(
        f.run(&["lint", "--format", "sarif"]).0,
        f.run(&["lint", "--format", "sarif"]).0
    );
}

#[test]
fn github_annotations_snapshot() {
    let (text, code) = planted().run(&["lint", "--format", "github"]);
    assert_eq!(code, 1);
    for line in text.lines() {
        assert!(
            line.starts_with("::error ")
                || line.starts_with("::warning ")
                || line.starts_with("::notice "),
            "not a workflow command: {line}"
        );
        let (props, message) = line.split_once(' ').unwrap().1.split_once("::").unwrap();
        for p in props.split(',') {
            let (k, _) = p.split_once('=').unwrap();
            assert!(
                ["file", "line", "endLine", "col", "endColumn", "title"].contains(&k),
                "unknown property {k}"
            );
        }
        assert!(!message.contains('\n') && !message.contains('\r'));
    }
    insta::assert_snapshot!(text);
}
