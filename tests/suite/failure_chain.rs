//! A run the engine cannot finish (exit code 2) says what failed and, on the lines after it,
//! the error underneath — the cause is never dropped or flattened into the message.

use crate::common;
use common::{auditbook, fixture_dir};

#[test]
fn a_fatal_error_prints_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the site's folder should be: creating the folder under it must fail.
    let blocker = dir.path().join("öffentlich");
    std::fs::write(&blocker, "kein Ordner\n").unwrap();
    let out = auditbook()
        .arg("-C")
        .arg(fixture_dir("clean"))
        .args(["site", "--out"])
        .arg(blocker.join("site"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("auditbook: error: cannot write the site into `"))
        .unwrap_or_else(|| panic!("no error line in:\n{err}"));
    assert!(lines[at].contains("öffentlich"), "{err}");
    let cause = lines.get(at + 1).copied().unwrap_or_default();
    assert!(
        cause.starts_with("auditbook:   caused by: ") && cause.contains("os error"),
        "the cause is missing:\n{err}"
    );
}

#[test]
fn a_fatal_error_without_a_cause_has_no_cause_line() {
    let out = auditbook().args(["explain", "AB9999"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("auditbook: error: "), "{err}");
    assert!(!err.contains("caused by"), "{err}");
}

#[test]
fn a_catalogue_that_cannot_be_loaded_keeps_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    // Not a snapshot: the JSON parser's own message (with its line and column) is the cause.
    let old = dir.path().join("stand-alt.json");
    std::fs::write(&old, "{ \"checks\": [ nicht json\n").unwrap();
    let out = auditbook()
        .arg("diff")
        .arg(&old)
        .arg(fixture_dir("clean"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("auditbook: error: `") && l.contains("stand-alt.json"))
        .unwrap_or_else(|| panic!("no error line in:\n{err}"));
    assert!(
        lines[at].ends_with("nor a snapshot written by `auditbook snapshot`"),
        "{err}"
    );
    let cause = lines.get(at + 1).copied().unwrap_or_default();
    assert!(
        cause.starts_with("auditbook:   caused by: ") && cause.contains("line 1 column"),
        "the parser's cause is missing:\n{err}"
    );
}
