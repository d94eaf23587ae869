//! `lint` types a check's `probe:` like every other key: an unknown kind, an unknown parameter
//! or one of the wrong type is AB119 at the line it is written on (the `probe:` line for a
//! probe written on one line), and the
//! clean twin (tests/fixtures/probe-de, a German catalogue with its own section names, extra
//! keys, flow and block YAML, every quoting style and every link form) is not flagged.

use crate::common;

use common::{findings_in, loud_in, Fixture};
use serde_json::Value;

fn german() -> Fixture {
    Fixture::new("probe-de")
}

/// The line of the `probe:` key in a check file (1-based).
fn probe_line(f: &Fixture, rel: &str) -> u64 {
    f.read(rel)
        .lines()
        .position(|l| l.starts_with("probe:"))
        .map(|i| i as u64 + 1)
        .unwrap_or_else(|| panic!("{rel} has no probe: line"))
}

/// The line of the first line at or after the `probe:` key that contains `text`.
fn line_with(f: &Fixture, rel: &str, text: &str) -> u64 {
    let start = probe_line(f, rel) as usize - 1;
    f.read(rel)
        .lines()
        .enumerate()
        .skip(start)
        .find(|(_, l)| l.contains(text))
        .map(|(i, _)| i as u64 + 1)
        .unwrap_or_else(|| panic!("{rel} has no line with {text} under probe:"))
}

/// The only loud finding is one AB119 on `id` at its `probe:` line; its message and help.
#[track_caller]
fn only_probe_invalid(f: &Fixture, id: &str) -> (String, String) {
    let rel = format!("checks/{id}.md");
    let line = probe_line(f, &rel);
    only_probe_invalid_at(f, id, line)
}

/// The only loud finding is one AB119 on `id` at `line`; its message and help.
#[track_caller]
fn only_probe_invalid_at(f: &Fixture, id: &str, line: u64) -> (String, String) {
    let (v, code) = f.lint_json();
    assert_eq!(code, 1, "{v}");
    let rel = format!("checks/{id}.md");
    assert_eq!(
        findings_in(&v, "AB119"),
        [(rel.clone(), Some(line), Some(id.to_string()))],
        "{v}"
    );
    let loud = loud_in(&v);
    assert_eq!(loud.len(), 1, "nothing but the AB119: {v}");
    let d: &Value = loud[0];
    (
        d["message"].as_str().unwrap_or("").to_string(),
        d["help"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn the_german_catalogue_with_probes_is_clean() {
    let f = german();
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");
    assert!(loud_in(&v).is_empty(), "{v}");
    let (out, code) = f.run(&["lint", "--deny", "warnings", "-q"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn an_unknown_kind_is_found_with_the_nearest_kind() {
    let f = german();
    f.edit(
        "checks/ARCH-001.md",
        "kind: tool-names,",
        "kind: tool-namen,",
    );
    let (msg, help) = only_probe_invalid(&f, "ARCH-001");
    assert!(msg.contains("unknown probe kind `tool-namen`"), "{msg}");
    assert_eq!(help, "did you mean `tool-names`?");
}

#[test]
fn an_unknown_parameter_is_found() {
    let f = german();
    f.edit(
        "checks/ARCH-002.md",
        "    covers: part\n    read_verbs",
        "    covers: part\n    muster: '^lese'\n    read_verbs",
    );
    let line = line_with(&f, "checks/ARCH-002.md", "muster:");
    let (msg, _) = only_probe_invalid_at(&f, "ARCH-002", line);
    assert!(msg.contains("unknown parameter `muster`"), "{msg}");
}

#[test]
fn a_parameter_of_the_wrong_type_is_found() {
    let cases = [
        (
            "ARCH-001",
            "max_length: 64",
            "max_length: \"vierundsechzig\"",
            "`max_length` must be",
        ),
        (
            "ARCH-001",
            "no_dots: true",
            "no_dots: 'ja'",
            "`no_dots` must be",
        ),
        (
            "ARCH-002",
            "read_verbs: [get, list, search, lese, suche]",
            "read_verbs: lese",
            "`read_verbs` must be",
        ),
        (
            "ARCH-001",
            "pattern: '^[a-z][a-z0-9_]*$'",
            "pattern: '^[a-z'",
            "pattern",
        ),
        (
            "SEC-001",
            "origin: \"http://angreifer.example\", covers: part",
            "origin: \"http://angreifer.example\", covers: teilweise",
            "`covers` must be `all` or `part`",
        ),
    ];
    for (id, from, to, says) in cases {
        let f = german();
        f.edit(&format!("checks/{id}.md"), from, to);
        let rel = format!("checks/{id}.md");
        let line = line_with(&f, &rel, to);
        let (msg, _) = only_probe_invalid_at(&f, id, line);
        assert!(msg.contains(says), "{id} `{to}`: {msg}");
    }
}

#[test]
fn a_probe_value_that_is_no_probe_is_found_and_the_short_forms_are_clean() {
    let line = "probe: [{kind: http-origin, origin: \"http://angreifer.example\", covers: part}, {kind: http-version-header, version: '1999-01-01'}]";
    for (to, says) in [
        ("probe: 24", "`probe` must be a list of probes"),
        ("probe: ja", "unknown probe kind `ja`"),
        ("probe:", "`probe` has no value"),
    ] {
        let f = german();
        f.edit("checks/SEC-001.md", line, to);
        let (msg, _) = only_probe_invalid(&f, "SEC-001");
        assert!(msg.contains(says), "`{to}`: {msg}");
    }
    // One mapping is the short form of a list of one, and is clean.
    let f = german();
    f.edit(
        "checks/SEC-001.md",
        line,
        "probe: {kind: http-origin, covers: part}",
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");
    // A bare list of kind names is the short form of `[{kind: …}]` and is clean.
    let f = german();
    f.edit(
        "checks/SEC-001.md",
        line,
        "probe: [http-origin, http-version-header]",
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");
    // And one of them misspelt is found.
    f.edit(
        "checks/SEC-001.md",
        "[http-origin, http-version-header]",
        "[http-origin, http-versions-header]",
    );
    let (msg, help) = only_probe_invalid(&f, "SEC-001");
    assert!(msg.contains("`http-versions-header`"), "{msg}");
    assert_eq!(help, "did you mean `http-version-header`?");
}
