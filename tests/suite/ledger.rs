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
