//! One pair per family of lint findings: the planted defect is reported with its code, file
//! and line; the clean twin (a near miss that is valid) is not.

use crate::common;
use common::{codes_in, Fixture};

const FID1: &str = "checks/FID-001.md";

fn clean() -> Fixture {
    Fixture::new("clean")
}

/// Assert exactly the findings of `code` in the fixture, as (file, line).
#[track_caller]
fn assert_found(f: &Fixture, code: &str, file: &str, line: u64) {
    let got = f.findings(code);
    assert!(
        got.iter().any(|(fl, l, _)| fl == file && *l == Some(line)),
        "expected {code} at {file}:{line}, got {got:?}\nall: {}",
        f.lint_json().0
    );
}

#[track_caller]
fn assert_silent(f: &Fixture) {
    let (v, code) = f.lint_json();
    assert_eq!(codes_in(&v), Vec::<String>::new(), "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn clean_fixture_has_no_findings() {
    assert_silent(&clean());
}

#[test]
fn missing_frontmatter() {
    let f = clean();
    f.edit(FID1, "---\nid: FID-001", "id: FID-001");
    assert_found(&f, "AB101", FID1, 1);
    // Twin: a README without frontmatter beside the checks is not a check at all.
    let g = clean();
    g.write("checks/README.md", "# About these checks\n");
    assert_silent(&g);
}

#[test]
fn unterminated_frontmatter() {
    let f = clean();
    let text = f
        .read(FID1)
        .replacen("evidence_required: 2\n---\n", "evidence_required: 2\n", 1);
    f.write(FID1, &text);
    assert_found(&f, "AB102", FID1, 1);
}

#[test]
fn invalid_yaml_reports_the_yaml_line() {
    let f = clean();
    f.edit(
        FID1,
        "title: \"Scope parameters are sent explicitly\"",
        "title: [unclosed",
    );
    let got = f.findings("AB103");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].1.unwrap() >= 3,
        "line is inside the frontmatter: {got:?}"
    );
}

#[test]
fn duplicate_key() {
    let f = clean();
    f.edit(
        FID1,
        "severity: critical\n",
        "severity: critical\nseverity: low\n",
    );
    assert_found(&f, "AB104", FID1, 6);
}

/// A quoted key is the same key: the duplicate is reported on its own line, not at the top
/// of the frontmatter.
#[test]
fn duplicate_quoted_key() {
    for dup in ["\"severity\": low\n", "'severity': low\n"] {
        let f = clean();
        f.edit(
            FID1,
            "severity: critical\n",
            &format!("severity: critical\n{dup}"),
        );
        let got = f.findings("AB104");
        assert_eq!(got.len(), 1, "{dup:?}: {got:?}");
        assert_eq!(got[0].1, Some(6), "{dup:?}: {got:?}");
        let v = f.lint_json().0;
        assert!(v.to_string().contains("first on line 5"), "{dup:?}: {v}");
    }
    // Twin: a quoted key that repeats nothing.
    let g = clean();
    g.edit(FID1, "severity: critical\n", "\"severity\": critical\n");
    assert_silent(&g);
}

/// NUL and ESC in a frontmatter value are one finding whichever parser reads the block: the
/// plain `key: value` block (the fast path) and one with a list (the YAML parser) alike, at
/// the value's line.
#[test]
fn control_characters_in_frontmatter_values() {
    for c in ['\u{0}', '\u{1b}'] {
        for list in [false, true] {
            let f = clean();
            let title = format!("title: \"Scope{c}[2J parameters\"\n");
            let extra = if list { "tags: [a, b]\n" } else { "" };
            f.edit(
                FID1,
                "title: \"Scope parameters are sent explicitly\"\n",
                &format!("{title}{extra}"),
            );
            let got = f.findings("AB103");
            assert_eq!(got.len(), 1, "{c:?} list={list}: {got:?}");
            assert_eq!(got[0].1, Some(3), "{c:?} list={list}: {got:?}");
        }
    }
    // Twin: a tab and non-ASCII letters are text.
    let g = clean();
    g.edit(
        FID1,
        "title: \"Scope parameters are sent explicitly\"",
        "title: \"Scope-Parameter\twerden ausdrücklich gesendet\"",
    );
    assert_eq!(g.findings("AB103"), vec![]);
}

#[test]
fn not_utf8() {
    let f = clean();
    let mut bytes = f.read(FID1).into_bytes();
    bytes.extend_from_slice(b"\n\xff\xfe broken\n");
    f.write_bytes(FID1, &bytes);
    assert_eq!(f.findings("AB002").len(), 1);
    // The other checks still load: only one file is lost.
    let out = f.cmd().args(["list", "--format", "json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
}

#[test]
fn bom_and_crlf_are_warnings_and_the_check_still_loads() {
    let f = clean();
    let text = format!("\u{feff}{}", f.read(FID1).replace('\n', "\r\n"));
    f.write(FID1, &text);
    let (v, code) = f.lint_json();
    assert_eq!(codes_in(&v), ["AB003", "AB004"], "{v:#}");
    assert_eq!(code, 0, "warnings alone pass");
    let denied = f
        .cmd()
        .args(["lint", "--deny", "warnings"])
        .output()
        .unwrap();
    assert_eq!(denied.status.code(), Some(1));
    let out = f
        .cmd()
        .args(["show", "FID-001", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn missing_required_field() {
    let f = clean();
    f.edit(FID1, "severity: critical\n", "");
    let got = f.findings("AB105");
    assert_eq!(
        got,
        vec![(FID1.to_string(), Some(1), Some("FID-001".to_string()))]
    );
}

#[test]
fn unknown_field_with_suggestion_and_declared_twin() {
    let f = clean();
    f.edit(
        FID1,
        "evidence_required: 2\n",
        "evidence_required: 2\nadoptoin: advisory\n",
    );
    assert_found(&f, "AB106", FID1, 8);
    let (v, _) = f.lint_json();
    let d = &v["diagnostics"][0];
    assert_eq!(
        d["help"],
        "did you mean `adoption`? (or declare `adoptoin` under extra_fields)"
    );
    // Twin: a key declared under extra_fields is accepted.
    let g = clean();
    g.edit(
        FID1,
        "evidence_required: 2\n",
        "evidence_required: 2\nowner: data-team\n",
    );
    g.edit(
        "catalogue.yaml",
        "required_sections:",
        "extra_fields: [owner]\nrequired_sections:",
    );
    assert_silent(&g);
}

#[test]
fn coerced_id_is_reported_not_coerced() {
    let f = clean();
    f.edit(FID1, "id: FID-001", "id: 1.10");
    let (v, _) = f.lint_json();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "AB107")
        .unwrap();
    assert_eq!(d["line"], 2);
    assert!(d["message"].as_str().unwrap().contains("`1.10`"), "{d}");
}

#[test]
fn id_pattern_stem_and_category() {
    let f = clean();
    f.edit(FID1, "id: FID-001", "id: FID-1");
    assert_found(&f, "AB108", FID1, 2);
    assert_found(&f, "AB109", FID1, 2);
    let g = clean();
    g.edit(FID1, "category: FID", "category: DRIFT");
    assert_found(&g, "AB110", FID1, 4);
    assert!(g.findings("AB111").is_empty(), "DRIFT is declared");
}

#[test]
fn undeclared_category() {
    let f = clean();
    f.write(
        "checks/OPS-001.md",
        &f.read(FID1)
            .replace("FID-001", "OPS-001")
            .replace("category: FID", "category: OPS"),
    );
    f.edit("checks/MANIFEST.txt", "FID-001\n", "FID-001\nOPS-001\n");
    assert_found(&f, "AB111", "checks/OPS-001.md", 4);
}

#[test]
fn severity_vocabulary_with_twin() {
    let f = clean();
    f.edit(FID1, "severity: critical", "severity: hgh");
    assert_found(&f, "AB112", FID1, 5);
    let g = clean();
    g.edit(FID1, "severity: critical", "severity: low");
    assert_silent(&g);
}

#[test]
fn adoption_yes_is_reported_not_coerced() {
    let f = clean();
    f.edit(
        FID1,
        "evidence_required: 2\n",
        "evidence_required: 2\nadoption: yes\n",
    );
    assert_found(&f, "AB113", FID1, 8);
    let g = clean();
    g.edit(
        FID1,
        "evidence_required: 2\n",
        "evidence_required: 2\nadoption: advisory\n",
    );
    assert_silent(&g);
}

#[test]
fn baseline_vocabulary_and_alias_twin() {
    let f = clean();
    f.edit(
        "checks/FID-002.md",
        "spec_baseline: both",
        "spec_baseline: 2027-01-01",
    );
    assert_found(&f, "AB114", "checks/FID-002.md", 7);
    let g = clean();
    g.edit(
        "checks/FID-002.md",
        "spec_baseline: both",
        "spec_baseline: beide",
    );
    assert_silent(&g);
}

#[test]
fn evidence_required_type_with_twin() {
    for bad in ["\"2\"", "-1", "1.5", "two"] {
        let f = clean();
        f.edit(
            FID1,
            "evidence_required: 2",
            &format!("evidence_required: {bad}"),
        );
        assert_found(&f, "AB115", FID1, 7);
    }
    let g = clean();
    g.edit(FID1, "evidence_required: 2", "evidence_required: 0");
    assert_silent(&g);
}

#[test]
fn duplicate_ids_across_files() {
    let f = clean();
    f.write("checks/FID-009.md", &f.read(FID1));
    let got = f.findings("AB116");
    let files: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(files, [FID1, "checks/FID-009.md"]);
}

#[test]
fn manifest_drift_both_ways() {
    let f = clean();
    f.edit("checks/MANIFEST.txt", "FID-002\n", "FID-002\nFID-003\n");
    assert_found(&f, "AB201", "checks/MANIFEST.txt", 6);
    let g = clean();
    g.edit("checks/MANIFEST.txt", "ARCH-001\n", "");
    assert_found(&g, "AB202", "checks/ARCH-001.md", 2);
}

#[test]
fn link_to_unknown_is_error_mention_is_warning() {
    let f = clean();
    f.edit(
        "checks/ARCH-001.md",
        "See [FID-001](../checks/FID-001.md).",
        "See [FID-007](../checks/FID-007.md) and FID-008.",
    );
    assert_found(&f, "AB210", "checks/ARCH-001.md", 13);
    assert_found(&f, "AB211", "checks/ARCH-001.md", 13);
    let (v, code) = f.lint_json();
    let levels: Vec<_> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["error", "warning"]);
    assert_eq!(code, 1);
}

#[test]
fn link_to_retired_names_successor_mention_is_note() {
    let f = clean();
    f.edit(
        "checks/ARCH-001.md",
        "See [FID-001](../checks/FID-001.md).",
        "See [DRIFT-002](../checks/DRIFT-002.md).",
    );
    let (v, _) = f.lint_json();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "AB212");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("merged into `FID-002`"),
        "{d}"
    );
    // Twin: mentioning the retired id as history is a note, and the run still passes.
    let g = clean();
    g.edit(
        "checks/FID-002.md",
        "Keys are part",
        "Formerly DRIFT-002. Keys are part",
    );
    let (v, code) = g.lint_json();
    assert_eq!(codes_in(&v), ["AB213"]);
    assert_eq!(v["diagnostics"][0]["level"], "note");
    assert_eq!(code, 0);
}

#[test]
fn missing_required_section() {
    let f = clean();
    f.edit(FID1, "## Remediation\n\nSend the parameters.\n\n", "");
    assert_found(&f, "AB220", FID1, 10);
}

#[test]
fn applies_when_that_does_not_parse() {
    let f = clean();
    f.edit(
        FID1,
        "transport != \"stdio-only\"",
        "transport = \"stdio-only\"",
    );
    let (v, _) = f.lint_json();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "AB301")
        .unwrap()
        .clone();
    assert_eq!(d["line"], 6);
    assert!(
        d["column"].as_u64().unwrap() > 50,
        "column points into the expression: {d}"
    );
}

#[test]
fn exit_codes() {
    let f = clean();
    f.cmd().arg("lint").assert().code(0);
    f.cmd().args(["lint", "--format", "yaml"]).assert().code(2);
    let mut bad = assert_cmd::Command::cargo_bin("auditbook").unwrap();
    bad.args(["-C", "/nonexistent/catalogue", "lint"])
        .assert()
        .code(2);
    f.edit(FID1, "severity: critical", "severity: hgh");
    f.cmd().arg("lint").assert().code(1);
}
