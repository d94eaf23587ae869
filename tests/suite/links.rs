//! Links in every form a Markdown author writes, on a German catalogue in the compatibility
//! layout (`tests/fixtures/compat-links`, written like the real one): the clean fixture gives
//! no finding at all, and each planted defect gives exactly its own finding, with its code,
//! file, line and id. The same forms count in checks, rules and declared documents, and
//! `show`, `graph` and `retire` see the same edges.

use crate::common;
use common::{codes_in, findings_in, loud_in, Fixture};
use serde_json::Value;

type Found = Vec<(String, Option<u64>, Option<String>)>;

fn found(file: &str, line: u64, id: Option<&str>) -> (String, Option<u64>, Option<String>) {
    (file.to_string(), Some(line), id.map(str::to_string))
}

/// The loud findings (errors and warnings) of `lint --verify`, as codes.
fn loud_codes(v: &Value) -> Vec<String> {
    loud_in(v)
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Plant one defect in a fresh copy, lint it, and return the findings of `code`; every other
/// error or warning is a test failure (one defect, one finding).
#[track_caller]
fn planted(file: &str, from: &str, to: &str, code: &str) -> Found {
    let f = Fixture::new("compat-links");
    f.edit(file, from, to);
    let (v, _) = f.lint_json();
    let loud = loud_codes(&v);
    assert!(
        loud.iter().all(|c| c == code),
        "only {code} expected: {v:#}"
    );
    findings_in(&v, code)
}

#[test]
fn every_link_form_resolves_with_zero_findings() {
    let f = Fixture::new("compat-links");
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        codes_in(&v),
        ["AB006"],
        "only the compatibility note: {v:#}"
    );
    assert_eq!(v["summary"]["mode"], "compatibility");
}

#[test]
fn show_lists_links_in_every_form() {
    let f = Fixture::new("compat-links");
    let links = |id: &str| f.json(&["show", id, "--format", "json"])["links"].clone();
    // Sibling, `./` with a fragment, `../checks/` with a title.
    assert_eq!(
        links("SEC-028"),
        serde_json::json!(["ARCH-001", "DRIFT-004", "FID-003"])
    );
    // Reference-style (definition with a fragment and a title), `./` and a title in quotes.
    assert_eq!(
        links("FID-003"),
        serde_json::json!(["ARCH-001", "DRIFT-004", "FID-006"])
    );
    // An autolink, a case-insensitive reference label with an angle-bracket destination; the
    // links inside the fenced example are not links.
    assert_eq!(
        links("FID-006"),
        serde_json::json!(["ARCH-001", "DRIFT-004", "FID-003"])
    );
    let incoming = f.json(&["show", "FID-006", "--format", "json"])["incoming"].clone();
    let lines: Vec<_> = incoming
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["from"].as_str().unwrap(), e["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        lines,
        [
            ("DRIFT-004", 13),
            ("FID-003", 18),
            ("FID-003", 35),
            ("FID-003", 47)
        ]
    );
}

#[test]
fn graph_carries_sibling_links() {
    let f = Fixture::new("compat-links");
    let dot = f.stdout(&["graph", "--format", "dot"]);
    for edge in [
        "check_SEC_2d_028 -> check_FID_2d_003 [label=\"links\"]",
        "check_SEC_2d_028 -> check_DRIFT_2d_004 [label=\"links\"]",
        "check_FID_2d_003 -> check_FID_2d_006 [label=\"links\"]",
        "check_FID_2d_006 -> check_DRIFT_2d_004 [label=\"links\"]",
    ] {
        assert!(dot.contains(edge), "{edge} in {dot}");
    }
}

// ---- planted defects: each gives exactly its own finding ----

#[test]
fn dead_sibling_link_is_an_error() {
    assert_eq!(
        planted(
            "checks/FID-003.md",
            "[FID-006](FID-006.md)",
            "[FID-006](FID-042.md)",
            "AB210"
        ),
        [found("checks/FID-003.md", 18, Some("FID-042"))]
    );
}

#[test]
fn dead_dot_slash_link_is_an_error() {
    assert_eq!(
        planted(
            "checks/FID-003.md",
            "(./DRIFT-004.md \"Drift bei Feldnamen\")",
            "(./DRIFT-007.md \"Drift bei Feldnamen\")",
            "AB210"
        ),
        [found("checks/FID-003.md", 19, Some("DRIFT-007"))]
    );
}

#[test]
fn dead_reference_definition_is_reported_where_it_is_used() {
    assert_eq!(
        planted(
            "checks/FID-006.md",
            "[arch]: <../checks/ARCH-001.md>",
            "[arch]: <../checks/ARCH-009.md>",
            "AB210"
        ),
        [found("checks/FID-006.md", 45, Some("ARCH-009"))]
    );
}

#[test]
fn dead_autolink_is_an_error() {
    assert_eq!(
        planted(
            "checks/FID-006.md",
            "main/checks/DRIFT-004.md>",
            "main/checks/DRIFT-005.md>",
            "AB210"
        ),
        [found("checks/FID-006.md", 44, Some("DRIFT-005"))]
    );
}

#[test]
fn missing_relative_file_is_a_warning() {
    // The real catalogue's case: a check links `./docs/…`, which exists nowhere.
    assert_eq!(
        planted(
            "checks/SEC-028.md",
            "Logs und Antworten durchsuchen.",
            "Logs und Antworten durchsuchen ([Details](./docs/transport.md)).",
            "AB214"
        ),
        [found("checks/SEC-028.md", 20, None)]
    );
}

#[test]
fn wrong_path_to_a_live_check_names_the_right_one() {
    let f = Fixture::new("compat-links");
    f.edit(
        "checks/SEC-028.md",
        "[FID-003](FID-003.md)",
        "[FID-003](checks/FID-003.md)",
    );
    let (v, _) = f.lint_json();
    assert_eq!(loud_codes(&v), ["AB214"], "{v:#}");
    let d = &loud_in(&v)[0];
    assert_eq!(d["line"], 15);
    assert_eq!(d["id"], "FID-003");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("leads to `checks/checks/FID-003.md`"),
        "{d}"
    );
    assert_eq!(d["help"], "write `FID-003.md`");
}

#[test]
fn fragment_into_a_check_must_name_a_heading() {
    // Both uses of the reference definition are reported, each where it is written.
    assert_eq!(
        planted(
            "checks/FID-003.md",
            "FID-006.md#pass-criteria",
            "FID-006.md#prüfkriterien",
            "AB215"
        ),
        [
            found("checks/FID-003.md", 35, Some("FID-006")),
            found("checks/FID-003.md", 47, Some("FID-006"))
        ]
    );
}

#[test]
fn numbered_duplicate_heading_fragment() {
    // `#ablauf-1` is the second "Ablauf" heading; there is no third.
    assert_eq!(
        planted(
            "checks/FID-003.md",
            "pruefleitfaden.md#ablauf-1",
            "pruefleitfaden.md#ablauf-2",
            "AB215"
        ),
        [found("checks/FID-003.md", 23, None)]
    );
}

#[test]
fn same_file_fragment_must_name_a_heading() {
    assert_eq!(
        planted(
            "checks/DRIFT-004.md",
            "(#references)",
            "(#referenzen)",
            "AB215"
        ),
        [found("checks/DRIFT-004.md", 40, Some("DRIFT-004"))]
    );
}

#[test]
fn html_anchor_fragment() {
    assert_eq!(
        planted(
            "checks/ARCH-001.md",
            "#user-content-regel-3",
            "#regel-4",
            "AB215"
        ),
        [found("checks/ARCH-001.md", 38, None)]
    );
}

#[test]
fn links_above_the_repository_are_not_followed() {
    // Hostile: nothing outside the catalogue's repository is read or judged.
    let f = Fixture::new("compat-links");
    f.edit(
        "checks/ARCH-001.md",
        "README lesen.",
        "README lesen, nicht [dies](../../../../../../../../etc/passwd#root) oder ![x](../../../../../../../../dev/zero).",
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v:#}");
    assert!(loud_codes(&v).is_empty(), "{v:#}");
}

// ---- a declared catalogue: retired ids, bases, documents, rules ----

const DECLARED: &str = "name: beispiel
categories:
  - {prefix: ARCH, name: Architektur}
  - {prefix: DRIFT, name: Drift}
  - {prefix: FID, name: Datentreue}
  - {prefix: SEC, name: Sicherheit}
retired:
  - {id: DRIFT-007, retired: 2026-08-07, merged_into: FID-006, reason: \"Zusammengeführt\"}
links:
  bases: [https://github.com/beispiel/mcp-audit-skill/blob/main/]
docs: [README.md]
lint:
  allow: []
";

const README: &str = "# Beispielkatalog

Die Checks: [FID-006](checks/FID-006.md), [FID-003](./checks/FID-003.md#description),
[Drift][d4], <https://github.com/beispiel/mcp-audit-skill/blob/main/checks/SEC-028.md> und
[Architektur](https://github.com/beispiel/mcp-audit-skill/blob/main/checks/ARCH-001.md#pass-criteria).
Der [Leitfaden](docs/pruefleitfaden.md#wer-prüft-was) erklärt den [Ablauf](#beispielkatalog).

[d4]: checks/DRIFT-004.md
";

const RULE: &str = "---
id: FIDELITY-1
title: Geltungsbereich
checks: [FID-003]
---

Siehe [FID-003](../checks/FID-003.md#pass-criteria) und [FID-006](https://github.com/beispiel/mcp-audit-skill/blob/main/checks/FID-006.md).
";

fn declared() -> Fixture {
    let f = Fixture::new("compat-links");
    f.write("catalogue.yaml", DECLARED);
    f.write("README.md", README);
    f.write("rules/FIDELITY-1.md", RULE);
    f
}

/// `lint --verify` findings of the link codes only (a declared catalogue also reports
/// numbering gaps in this small fixture, which are not what these tests are about).
fn link_findings(f: &Fixture) -> Vec<(String, String, Option<u64>, Option<String>)> {
    let (v, _) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    let link_codes = ["AB210", "AB212", "AB214", "AB215", "AB621"];
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| link_codes.contains(&d["code"].as_str().unwrap_or("")))
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64(),
                d["id"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn at(
    code: &str,
    file: &str,
    line: u64,
    id: Option<&str>,
) -> (String, String, Option<u64>, Option<String>) {
    (code.into(), file.into(), Some(line), id.map(str::to_string))
}

#[test]
fn declared_catalogue_with_every_form_is_clean() {
    let f = declared();
    assert_eq!(link_findings(&f), []);
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    assert_eq!(code, 0, "{v:#}");
    assert!(loud_in(&v).is_empty(), "{v:#}");
}

#[test]
fn retired_sibling_link_names_the_successor() {
    let f = declared();
    f.edit(
        "checks/FID-003.md",
        "(./DRIFT-004.md \"Drift bei Feldnamen\")",
        "(./DRIFT-007.md \"Drift bei Feldnamen\")",
    );
    assert_eq!(
        link_findings(&f),
        [at("AB212", "checks/FID-003.md", 19, Some("DRIFT-007"))]
    );
    let (v, _) = f.lint_json();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "AB212")
        .unwrap()
        .clone();
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("merged into `FID-006`"),
        "{d}"
    );
}

#[test]
fn urls_under_a_base_are_followed() {
    let f = declared();
    let base = "https://github.com/beispiel/mcp-audit-skill/blob/main/";
    f.edit(
        "checks/SEC-028.md",
        "Logs und Antworten durchsuchen.",
        &format!(
            "Siehe [a]({base}checks/FID-009.md), [b]({base}docs/fehlt.md), [c]({base}checks/FID-006.md#nirgends) und [d]({base}checks/FID-006.md#pass-criteria)."
        ),
    );
    assert_eq!(
        link_findings(&f),
        [
            at("AB210", "checks/SEC-028.md", 20, Some("FID-009")),
            at("AB214", "checks/SEC-028.md", 20, None),
            at("AB215", "checks/SEC-028.md", 20, Some("FID-006")),
        ]
    );
}

#[test]
fn documents_count_links_the_same_way() {
    let f = declared();
    f.edit("README.md", "checks/FID-006.md)", "checks/FID-060.md)");
    f.edit(
        "README.md",
        "[d4]: checks/DRIFT-004.md",
        "[d4]: checks/DRIFT-007.md",
    );
    f.edit("README.md", "#wer-prüft-was", "#wer-prüft-wen");
    f.edit("README.md", "(#beispielkatalog)", "(docs/ablauf.md)");
    assert_eq!(
        link_findings(&f),
        [
            at("AB210", "README.md", 3, Some("FID-060")),
            at("AB212", "README.md", 4, Some("DRIFT-007")),
            // In column order: the fragment comes first on the line.
            at("AB215", "README.md", 6, None),
            at("AB214", "README.md", 6, None),
        ]
    );
    // verify alone reports the same.
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    assert_eq!(code, 1);
    let mut codes = loud_codes(&v);
    codes.sort();
    assert_eq!(codes, ["AB210", "AB212", "AB214", "AB215"], "{v:#}");
}

#[test]
fn rules_count_links_the_same_way() {
    let f = declared();
    f.edit(
        "rules/FIDELITY-1.md",
        "FID-003.md#pass-criteria",
        "FID-033.md",
    );
    f.edit(
        "rules/FIDELITY-1.md",
        "checks/FID-006.md)",
        "checks/FID-006.md#gibt-es-nicht)",
    );
    assert_eq!(
        link_findings(&f),
        [
            at("AB210", "rules/FIDELITY-1.md", 7, Some("FID-033")),
            at("AB215", "rules/FIDELITY-1.md", 7, Some("FID-006")),
        ]
    );
}

#[test]
fn retire_lists_every_form_of_link() {
    let f = declared();
    let v = f.json(&[
        "retire",
        "FID-006",
        "--date",
        "2026-09-01",
        "--reason",
        "zusammengeführt",
        "--merged-into",
        "FID-003",
        "--format",
        "json",
    ]);
    let from: Vec<_> = v["referred_to_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["from"].as_str().unwrap().to_string(),
                r["line"].as_u64().unwrap(),
            )
        })
        .collect();
    for want in [
        ("DRIFT-004".to_string(), 13),
        ("FID-003".to_string(), 18),
        ("FID-003".to_string(), 47),
        ("README.md".to_string(), 3),
        ("FIDELITY-1".to_string(), 7),
    ] {
        assert!(from.contains(&want), "{want:?} in {from:?}");
    }
}

#[test]
fn site_pages_link_every_form() {
    let f = Fixture::new("compat-links");
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("site");
    f.stdout(&["site", "--out", dir.to_str().unwrap()]);
    let page = std::fs::read_to_string(dir.join("checks/FID-003.html")).unwrap();
    for href in [
        // `./DRIFT-004.md "…"`, `FID-006.md`, the reference definition with its fragment.
        "href=\"../checks/DRIFT-004.html\"",
        "href=\"../checks/FID-006.html\"",
        "href=\"../checks/FID-006.html#pass-criteria\"",
        "href=\"../checks/ARCH-001.html#pass-criteria\"",
    ] {
        assert!(page.contains(href), "{href} in {page}");
    }
}

#[test]
fn a_misspelt_fragment_gets_a_suggestion() {
    let f = Fixture::new("compat-links");
    f.edit(
        "checks/SEC-028.md",
        "(./DRIFT-004.md#description)",
        "(./DRIFT-004.md#descripton)",
    );
    let (v, _) = f.lint_json();
    let loud = loud_in(&v);
    assert_eq!(loud.len(), 1, "{v:#}");
    assert_eq!(loud[0]["code"], "AB215");
    assert_eq!(loud[0]["id"], "DRIFT-004");
    assert_eq!(loud[0]["help"], "did you mean `#description`?");
}

#[test]
fn hostile_links_are_not_followed_out_of_the_repository() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("geheim.md"), "# Geheim\n").unwrap();
    let f = Fixture::new("compat-links");
    std::os::unix::fs::symlink(outside.path().join("geheim.md"), f.path("docs/aussen.md")).unwrap();
    let long = "x".repeat(10_000);
    f.edit(
        "checks/ARCH-001.md",
        "README lesen.",
        &format!(
            "README lesen: [a](../docs/aussen.md#nicht-lesen), [b](%00%ff.md), [c]({long}.md#{long}), [d](../docs/pruefleitfaden.md#%zz)."
        ),
    );
    let (v, code) = f.lint_json();
    assert!(matches!(code, 0 | 1), "{v:#}");
    // The symlink out of the repository is not read, so its fragment goes unjudged; the
    // others are plain missing files and a fragment that names nothing.
    let found: Vec<_> = loud_in(&v)
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(found, ["AB214", "AB214", "AB215"], "{v:#}");
}
