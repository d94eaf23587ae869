//! The shipped catalogue holds exactly the reference numbers: a check dropped or reclassified
//! fails here. The expected figures are written out below on purpose (from the catalogue's
//! v2.3.0 reference), not computed from the catalogue under test.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;

fn auditbook(args: &[&str]) -> (Value, i32) {
    let out = Command::cargo_bin("auditbook")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-C", "catalogue"])
        .args(args)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (v, out.status.code().unwrap_or(-1))
}

fn counts(v: &Value, key: &str) -> BTreeMap<String, u64> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["value"].as_str().unwrap().to_string(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn map(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn counts_match_the_reference() {
    let (v, code) = auditbook(&["stats", "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(v["checks"], 120);
    assert_eq!(v["categories"], 12);
    assert_eq!(
        counts(&v, "by_category"),
        map(&[
            ("ARCH", 22),
            ("CH", 8),
            ("DEP", 1),
            ("DRIFT", 7),
            ("FID", 7),
            ("HITL", 6),
            ("IDENT", 7),
            ("OBS", 8),
            ("OPS", 10),
            ("SCALE", 10),
            ("SDK", 6),
            ("SEC", 28)
        ])
    );
    assert_eq!(
        counts(&v, "by_severity"),
        map(&[("critical", 16), ("high", 62), ("medium", 41), ("low", 1)])
    );
    assert_eq!(
        counts(&v, "by_adoption"),
        map(&[("enforced", 95), ("advisory", 25)])
    );
    assert_eq!(
        counts(&v, "by_baseline"),
        map(&[("2025-11-25", 5), ("2026-07-28", 11), ("both", 104)])
    );
}

#[test]
fn drift_007_is_retired_into_fid_006_and_burned() {
    let (v, code) = auditbook(&["show", "DRIFT-007", "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(v["retired"]["retired"], "2026-08-07");
    assert_eq!(v["successor"], "FID-006");
    let (list, _) = auditbook(&[
        "list",
        "--where",
        "category == \"DRIFT\"",
        "--format",
        "json",
    ]);
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "DRIFT-001",
            "DRIFT-002",
            "DRIFT-003",
            "DRIFT-004",
            "DRIFT-005",
            "DRIFT-006",
            "DRIFT-008"
        ]
    );
}

#[test]
fn lints_clean_with_warnings_denied() {
    let (v, code) = auditbook(&["lint", "--deny", "warnings", "--format", "json"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["errors"], 0);
    assert_eq!(v["summary"]["warnings"], 0);
}

#[test]
fn fourteen_rules_map_live_checks_and_every_fid_check_is_covered() {
    let (v, code) = auditbook(&["table", "rules-table", "--format", "json"]);
    assert_eq!(code, 0);
    let rows = v["rows"].as_array().unwrap();
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let expected: Vec<String> = (1..=14).map(|n| format!("FIDELITY-{n}")).collect();
    assert_eq!(ids, expected);
    let mut covered = std::collections::BTreeSet::new();
    for r in rows {
        for c in r["checks"].as_array().unwrap() {
            assert_eq!(
                c["exists"], true,
                "{} maps to a missing check: {c}",
                r["id"]
            );
            covered.insert(c["id"].as_str().unwrap().to_string());
        }
        // Rule 12 is the one declared gap.
        assert_eq!(r["gap"] == true, r["id"] == "FIDELITY-12", "{}", r["id"]);
    }
    for n in 1..=7 {
        assert!(
            covered.contains(&format!("FID-00{n}")),
            "FID-00{n} is covered by a rule"
        );
    }
    // The Markdown rendering exists and links every mapped check.
    let out = Command::cargo_bin("auditbook")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-C", "catalogue", "table", "rules-table"])
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| FIDELITY-")).count(),
        14
    );
    assert!(md.contains("[FID-006](checks/FID-006.md) (high, advisory)"));
}

#[test]
fn the_readme_main_command_audits_an_example_profile() {
    let out = Command::cargo_bin("auditbook")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-C",
            "catalogue",
            "audit",
            "examples/amtsblatt-readonly.profile.yaml",
            "--results",
            "examples/amtsblatt-readonly.results.yaml",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.starts_with("# Audit report: amtsblatt-mcp"),
        "{report}"
    );
    assert!(report.contains("**Verdict: production-ready**"));
    // Every example profile is valid against the shipped schema.
    for p in [
        "amtsblatt-readonly",
        "cloud-http-apikey",
        "personal-data-writer",
    ] {
        let out = Command::cargo_bin("auditbook")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "-C",
                "catalogue",
                "profile",
                "check",
                &format!("examples/{p}.profile.yaml"),
            ])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{p}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

fn text_of(args: &[&str]) -> String {
    let out = Command::cargo_bin("auditbook")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The newest release snapshot in `catalogue/releases/` is the catalogue as shipped: same
/// version, same semantic fingerprint (ids, fields, criteria). A criteria change without a new
/// release fails here.
#[test]
fn the_newest_release_snapshot_is_the_shipped_catalogue() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue");
    let mut releases: Vec<_> = std::fs::read_dir(root.join("releases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    releases.sort();
    let newest = releases.last().unwrap();
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(newest).unwrap()).unwrap();
    let current: Value = serde_json::from_str(&text_of(&["-C", "catalogue", "snapshot"])).unwrap();
    assert_eq!(
        recorded["version"],
        current["version"],
        "{}",
        newest.display()
    );
    assert_eq!(
        recorded["fingerprints"]["semantic"], current["fingerprints"]["semantic"],
        "the catalogue's criteria changed since {}: release a new version (snapshot, diff, CHANGELOG)",
        newest.display()
    );
}

/// The releases in `catalogue/releases/`, oldest first, by version (not by file name:
/// `10.0.0` sorts after `9.0.0`).
fn release_versions() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue/releases");
    let mut versions: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_prefix("mcp-audit-")
                .and_then(|n| n.strip_suffix(".snapshot.json"))
                .map(str::to_string)
        })
        .collect();
    let key = |v: &String| -> Vec<u64> { v.split('.').map(|p| p.parse().unwrap()).collect() };
    versions.sort_by_key(key);
    versions
}

/// Each entry of the catalogue's changelog between two releases is the output of `auditbook
/// diff` between their committed snapshots, not a hand-written list: 2.3.0..3.0.0,
/// 3.0.0..3.1.0 and every later pair.
#[test]
fn the_catalogue_changelog_entries_are_the_diffs_of_their_snapshots() {
    let versions = release_versions();
    assert!(
        versions.len() >= 3
            && versions
                .windows(2)
                .any(|w| w[0] == "3.0.0" && w[1] == "3.1.0"),
        "{versions:?}"
    );
    let changelog = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue/CHANGELOG.md"),
    )
    .unwrap();
    for pair in versions.windows(2) {
        let (old, new) = (&pair[0], &pair[1]);
        let diff = text_of(&[
            "diff",
            &format!("catalogue/releases/mcp-audit-{old}.snapshot.json"),
            &format!("catalogue/releases/mcp-audit-{new}.snapshot.json"),
            "--format",
            "md",
        ]);
        let expected = diff
            .split_once('\n')
            .map(|(_, rest)| rest.trim())
            .unwrap()
            .replace(
                "## Re-audit queue",
                "### Re-audit queue (pass criteria changed)",
            )
            .replace(
                "## Prose only (no re-audit)",
                "### Prose only (no re-audit)",
            );
        let block = changelog
            .split(&format!("<!-- diff {old}..{new} begins -->"))
            .nth(1)
            .and_then(|b| b.split(&format!("<!-- diff {old}..{new} ends -->")).next())
            .unwrap_or_else(|| panic!("no changelog entry for {old}..{new}"))
            .trim();
        assert_eq!(block, expected, "{old}..{new}");
        assert!(
            changelog.contains(&format!("## {new} — ")),
            "{new} has no heading"
        );
    }
    // Each release's queue names the checks whose criteria it changed.
    let entry = |old: &str, new: &str| {
        changelog
            .split(&format!("<!-- diff {old}..{new} begins -->"))
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert!(entry("2.3.0", "3.0.0").contains("**FID-007**"));
    let third = entry("3.0.0", "3.1.0");
    for id in [
        "DRIFT-003",
        "OPS-001",
        "IDENT-002",
        "FID-007",
        "SEC-009",
        "SCALE-009",
    ] {
        assert!(
            third.contains(&format!("**{id}**")),
            "{id} missing from 3.1.0"
        );
    }
    assert!(third.contains("**SEC-002** Tokens are never passed through; audience and issuer are checked — applies to more servers, e.g. auth_model = \"OIDC\""));
}
