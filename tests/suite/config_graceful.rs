//! A defect in catalogue.yaml costs only the key it is in: the rest of the configuration is
//! kept, so one typo gives one finding instead of a cascade. And a declared document that
//! cannot be read, or lies outside the repository, is an error in `verify` as in `lint`.

use crate::common;
use common::{loud_in, Fixture};
use serde_json::Value;

/// A finding as (code, file, line, id, message).
type Finding = (String, String, Option<u64>, Option<String>, String);

/// Every finding, in output order.
fn all(v: &Value) -> Vec<Finding> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").into(),
                d["file"].as_str().unwrap_or("").into(),
                d["line"].as_u64(),
                d["id"].as_str().map(str::to_string),
                d["message"].as_str().unwrap_or("").into(),
            )
        })
        .collect()
}

#[test]
fn a_misspelt_key_is_one_finding_not_a_cascade() {
    let clean = Fixture::shipped();
    let (before, _) = clean.lint_json();
    let f = Fixture::shipped();
    f.edit(
        "catalogue.yaml",
        "blocking_severities:",
        "blocking_severites:",
    );
    let (after, code) = f.lint_json();
    assert_eq!(code, 1);
    let before = all(&before);
    let mut added: Vec<_> = all(&after)
        .into_iter()
        .filter(|d| !before.contains(d))
        .collect();
    assert_eq!(added.len(), 1, "exactly one new finding: {added:#?}");
    let (code, file, line, _, _) = added.remove(0);
    assert_eq!(
        (code.as_str(), file.as_str(), line),
        ("AB121", "catalogue.yaml", Some(47))
    );
    let d = loud_in(&after)
        .into_iter()
        .find(|d| d["code"] == "AB121")
        .unwrap()
        .clone();
    assert_eq!(d["help"], "did you mean `blocking_severities`?");
    // Nothing the file declares was lost: no category is undeclared.
    assert!(!all(&after).iter().any(|d| d.4.contains("not declared")));
}

#[test]
fn a_type_error_drops_only_that_key() {
    let f = Fixture::shipped();
    f.edit("catalogue.yaml", "extra_fields: []", "extra_fields: 7");
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let loud: Vec<_> = loud_in(&v)
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["line"].as_u64()))
        .collect();
    assert_eq!(loud, [("AB120".to_string(), Some(65))], "{v:#}");
    // The twin: the shipped file is silent.
    let (v, code) = Fixture::shipped().lint_json();
    assert_eq!(code, 0, "{v:#}");
}

#[test]
fn a_syntax_error_early_in_the_file_leaves_the_lines_of_later_keys() {
    // The YAML parser stops at an unterminated quote; the keys after it still have their
    // lines, because positions are read key by key once the whole file is rejected.
    let f = Fixture::shipped();
    f.edit("catalogue.yaml", "  - prefix: ARCH", "  - prefix: \"ARCH");
    f.edit("catalogue.yaml", "extra_fields: []", "extra_fields: 7");
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let loud: Vec<_> = loud_in(&v)
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["line"].as_u64()))
        .collect();
    assert!(
        loud.contains(&("AB120".to_string(), Some(65))),
        "the type error keeps its line after an earlier syntax error: {v:#}"
    );
}

#[test]
fn unreadable_and_outside_documents_are_verify_errors() {
    let f = Fixture::new("clean");
    let base = f.read("catalogue.yaml");
    f.write("README.md", "# Katalog\n");
    let with_docs = |docs: &str| format!("{base}\ndocs: [{docs}]\n");
    // Twin: a readable document inside the repository is silent.
    f.write("catalogue.yaml", &with_docs("README.md"));
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    assert_eq!(code, 0, "{v:#}");
    f.write(
        "catalogue.yaml",
        &with_docs("README.md, fehlt.md, ../../ausserhalb.md, /etc/hostname"),
    );
    let line = with_docs("").lines().count() as u64;
    for cmd in [
        &["verify", "--format", "json"][..],
        &["lint", "--format", "json"][..],
    ] {
        let (v, code) = f.json_and_code(cmd);
        assert_eq!(code, 1, "{cmd:?}");
        let mut found: Vec<_> = loud_in(&v)
            .iter()
            .filter(|d| d["file"] == "catalogue.yaml")
            .map(|d| (d["code"].as_str().unwrap().to_string(), d["line"].as_u64()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                ("AB001".to_string(), Some(line)),
                ("AB010".to_string(), Some(line)),
                ("AB010".to_string(), Some(line)),
            ],
            "{cmd:?}: {v:#}"
        );
    }
}
