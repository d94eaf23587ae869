//! The suppression ledger (`lint.allow`) covers every stage: a finding from loading, from lint
//! and from verify is accepted alike; an expired entry and a stale entry are findings of their
//! own, at the entry's line; SARIF lists accepted findings as suppressed.

use crate::common;

use common::{findings_in, Fixture};

const CRLF_FILE: &str = "checks/FID-001.md";

/// A catalogue with a CRLF check file (a load-stage warning) and a document that links an
/// unknown check (a verify-stage error).
fn with_findings() -> Fixture {
    let f = Fixture::new("clean");
    let text = f.read(CRLF_FILE).replace('\n', "\r\n");
    f.write(CRLF_FILE, &text);
    f.write(
        "README.md",
        "# Katalog\n\nSiehe [die alte Prüfung](checks/FID-999.md).\n",
    );
    let config = f.read("catalogue.yaml");
    f.write("catalogue.yaml", &format!("{config}docs: [README.md]\n"));
    f
}

fn allow(f: &Fixture, entries: &str) {
    let config = f.read("catalogue.yaml");
    f.write(
        "catalogue.yaml",
        &format!("{config}lint:\n  allow:\n{entries}"),
    );
}

fn verify_code(f: &Fixture) -> String {
    let (v, _) = f.json_and_code(&["verify", "--format", "json"]);
    let codes = common::codes_in(&v);
    assert_eq!(codes.len(), 1, "one verify finding expected: {v}");
    codes[0].clone()
}

#[test]
fn load_and_verify_findings_are_accepted_through_the_ledger() {
    let f = with_findings();
    let (v, code) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(findings_in(&v, "AB004").len(), 1, "{v}");
    let verify = verify_code(&f);

    allow(
        &f,
        &format!(
            "    - {{code: AB004, file: {CRLF_FILE}, reason: \"Windows-Datei, wird beim nächsten Umzug konvertiert\"}}\n    - {{code: {verify}, file: README.md, reason: \"Historischer Verweis\", until: \"2999-12-31\"}}\n"
        ),
    );
    let (v, code) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    assert_eq!(code, 0, "{v}");
    assert!(common::codes_in(&v).is_empty(), "{v}");
    assert_eq!(v["summary"]["suppressed"], 2, "{v}");
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    assert_eq!(code, 0, "verify alone honours the ledger: {v}");

    // SARIF keeps them, marked as suppressed with the written reason.
    let out = f.stdout(&["lint", "--verify", "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let mut suppressed: Vec<_> = results
        .iter()
        .filter_map(|r| r["suppressions"][0]["justification"].as_str())
        .collect();
    suppressed.sort();
    assert_eq!(
        suppressed,
        vec![
            "Historischer Verweis",
            "Windows-Datei, wird beim nächsten Umzug konvertiert",
        ]
    );
    assert!(results
        .iter()
        .all(|r| r["suppressions"][0]["kind"] == "external"));
}

#[test]
fn an_expired_entry_is_an_error_at_its_line_and_the_finding_counts_again() {
    let f = with_findings();
    allow(
        &f,
        &format!("    - code: AB004\n      file: {CRLF_FILE}\n      reason: Übergang\n      until: \"2020-01-31\"\n"),
    );
    let line = f
        .read("catalogue.yaml")
        .lines()
        .position(|l| l.contains("- code: AB004"))
        .unwrap()
        + 1;
    let (v, code) = f.json_and_code(&["lint", "--format", "json"]);
    assert_eq!(code, 1);
    let expired = findings_in(&v, "AB124");
    assert_eq!(expired.len(), 1, "{v}");
    assert_eq!(expired[0].0, "catalogue.yaml");
    assert_eq!(expired[0].1, Some(line as u64));
    assert_eq!(
        findings_in(&v, "AB004").len(),
        1,
        "the finding is back: {v}"
    );

    // The clean twin: the same entry before its date accepts the finding, no AB124.
    let twin = with_findings();
    allow(
        &twin,
        &format!("    - code: AB004\n      file: {CRLF_FILE}\n      reason: Übergang\n      until: \"2999-01-31\"\n"),
    );
    let (v, _) = twin.json_and_code(&["lint", "--format", "json"]);
    assert!(
        findings_in(&v, "AB124").is_empty() && findings_in(&v, "AB004").is_empty(),
        "{v}"
    );
}

#[test]
fn a_stale_entry_is_a_warning_once_every_stage_ran() {
    let f = Fixture::new("clean");
    allow(
        &f,
        "    - {code: AB004, file: checks/FID-002.md, reason: \"früher CRLF\"}\n",
    );
    let line = f
        .read("catalogue.yaml")
        .lines()
        .position(|l| l.contains("code: AB004"))
        .unwrap()
        + 1;
    let (v, code) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    assert_eq!(code, 0, "a warning");
    let stale = findings_in(&v, "AB125");
    assert_eq!(stale.len(), 1, "{v}");
    assert_eq!(stale[0].1, Some(line as u64));
    // `lint` alone cannot know what verify would have found: it does not call the entry stale.
    let (v, _) = f.json_and_code(&["lint", "--format", "json"]);
    assert!(findings_in(&v, "AB125").is_empty(), "{v}");
    // The clean twin: an entry that still accepts something is not stale.
    let used = with_findings();
    allow(
        &used,
        &format!("    - {{code: AB004, file: {CRLF_FILE}, reason: \"CRLF\"}}\n"),
    );
    let (v, _) = used.json_and_code(&["lint", "--verify", "--format", "json"]);
    assert!(findings_in(&v, "AB125").is_empty(), "{v}");
}

#[test]
fn an_entry_naming_neither_id_nor_file_or_a_bad_date_is_refused() {
    let f = Fixture::new("clean");
    allow(
        &f,
        "    - {code: AB004, reason: \"alles\"}\n    - {code: AB004, id: FID-001, reason: x, until: \"2026-02-30\"}\n",
    );
    let (v, code) = f.json_and_code(&["lint", "--format", "json"]);
    assert_eq!(code, 1);
    let bad = findings_in(&v, "AB122");
    assert_eq!(bad.len(), 2, "{v}");
}

/// Two checks with a bare date as `spec_baseline`: an AB123 warning each.
fn with_bare_dates() -> Fixture {
    let f = Fixture::new("clean");
    f.edit(
        "checks/DRIFT-001.md",
        "spec_baseline: \"2026-07-28\"",
        "spec_baseline: 2026-07-28",
    );
    f.edit(
        "checks/FID-002.md",
        "spec_baseline: both",
        "spec_baseline: 2026-07-28",
    );
    f
}

/// (code, level, id) of every finding of `lint`.
fn lint_findings(f: &Fixture) -> (Vec<(String, String, String)>, i32, serde_json::Value) {
    let (v, code) = f.lint_json();
    let found = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["level"].as_str().unwrap_or("").to_string(),
                d["id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    (found, code, v)
}

fn t(code: &str, level: &str, id: &str) -> (String, String, String) {
    (code.into(), level.into(), id.into())
}

#[test]
fn a_code_is_accepted_for_a_whole_selection_of_checks() {
    let f = with_bare_dates();
    let (found, _, v) = lint_findings(&f);
    assert_eq!(
        found,
        [
            t("AB123", "warning", "DRIFT-001"),
            t("AB123", "warning", "FID-002")
        ],
        "{v:#}"
    );
    allow(
        &f,
        "    - code: AB123\n      where: always\n      reason: \"Der Katalog liest spec_baseline nur mit auditbook\"\n",
    );
    let (found, code, v) = lint_findings(&f);
    assert_eq!((found, code), (Vec::new(), 0), "{v:#}");
    assert_eq!(v["summary"]["suppressed"], 2, "{v:#}");
}

#[test]
fn a_selection_accepts_only_what_it_selects_and_a_bad_one_accepts_nothing() {
    let f = with_bare_dates();
    allow(
        &f,
        "    - {code: AB123, where: 'category == \"FID\"', reason: \"nur die Datentreue\"}\n",
    );
    let (found, _, v) = lint_findings(&f);
    assert_eq!(found, [t("AB123", "warning", "DRIFT-001")], "{v:#}");
    assert_eq!(v["summary"]["suppressed"], 1, "{v:#}");

    let f = with_bare_dates();
    allow(
        &f,
        "    - {code: AB123, where: 'categroy == \"FID\"', reason: \"vertippt\"}\n",
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let yaml = f.read("catalogue.yaml");
    let line = yaml.lines().position(|l| l.contains("categroy")).unwrap() as u64 + 1;
    assert_eq!(
        findings_in(&v, "AB122"),
        [("catalogue.yaml".to_string(), Some(line), None)],
        "{v:#}"
    );
    assert_eq!(findings_in(&v, "AB123").len(), 2, "{v:#}");
}

#[test]
fn a_level_per_code_applies_to_every_finding_of_it() {
    let f = with_bare_dates();
    let config = f.read("catalogue.yaml");
    f.write(
        "catalogue.yaml",
        &format!("{config}lint:\n  levels:\n    AB123: error\n"),
    );
    let (found, code, v) = lint_findings(&f);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(
        found,
        [
            t("AB123", "error", "DRIFT-001"),
            t("AB123", "error", "FID-002")
        ]
    );
    // The twin: kept as a note, the same findings do not fail the run.
    f.write(
        "catalogue.yaml",
        &format!("{config}lint:\n  levels:\n    AB123: note\n"),
    );
    let (found, code, _) = lint_findings(&f);
    assert_eq!(code, 0);
    assert_eq!(
        found,
        [
            t("AB123", "note", "DRIFT-001"),
            t("AB123", "note", "FID-002")
        ]
    );
}

#[test]
fn a_level_for_a_code_that_does_not_exist_is_refused_with_the_nearest() {
    let f = Fixture::new("clean");
    let config = f.read("catalogue.yaml");
    f.write(
        "catalogue.yaml",
        &format!("{config}lint:\n  levels:\n    AB1233: error\n"),
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let bad: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "AB122")
        .collect();
    assert_eq!(bad.len(), 1, "{v:#}");
    assert!(
        bad[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("`AB1233`, which is no code auditbook reports; did you mean `AB123`?"),
        "{v:#}"
    );
    assert_eq!(bad[0]["line"], config.lines().count() as u64 + 3);
}
