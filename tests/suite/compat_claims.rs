//! A German catalogue in the compatibility layout (checks, a skill with its rule table, a
//! second rule table, a README) with a catalogue.yaml that declares one claim of each form:
//! the clean catalogue is silent, and each planted mutation is caught with its code and line.

use crate::common;

use common::{loud_in, Fixture};
use serde_json::Value;

fn loud(v: &Value) -> Vec<(String, u64)> {
    let mut l: Vec<(String, u64)> = loud_in(v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    l.sort();
    l
}

fn verify(f: &Fixture) -> (Vec<(String, u64)>, i32, Value) {
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    (loud(&v), code, v)
}

fn l(code: &str, line: u64) -> (String, u64) {
    (code.to_string(), line)
}

#[test]
fn clean_catalogue_is_silent() {
    let f = Fixture::new("compat-de-claims");
    let (found, code, v) = verify(&f);
    assert_eq!(found, [], "{v:#}");
    assert_eq!(code, 0);
    assert_eq!(v["summary"]["claims"], 15);
    let (v, code) = f.lint_json();
    assert_eq!(loud(&v), [], "{v:#}");
    assert_eq!(code, 0);
}

/// What a mutation should make `verify` report: (code, line).
type Found = &'static [(&'static str, u64)];

/// One mutation per claim form: (what, file, from, to, findings of `verify`).
const MUTATIONS: &[(&str, &str, &str, &str, Found)] = &[
    (
        "table row: a count",
        "README.md",
        "| SEC | Sicherheit | 3 |",
        "| SEC | Sicherheit | 4 |",
        &[("AB613", 11)],
    ),
    (
        "table row: a name",
        "README.md",
        "| SEC | Sicherheit |",
        "| SEC | Security |",
        &[("AB634", 11)],
    ),
    (
        "table row: an unknown bucket word",
        "README.md",
        "high 1 · medium 1",
        "high 1 · mittel 1",
        &[("AB613", 12), ("AB633", 12)],
    ),
    (
        "table row: a row for a key that is no category",
        "README.md",
        "| SEC | Sicherheit | 3 | 1 critical · 1 high · 1 medium |\n",
        "| SEC | Sicherheit | 3 | 1 critical · 1 high · 1 medium |\n| DRIFT | Quelldrift | 0 | — |\n",
        &[("AB632", 12)],
    ),
    (
        "table row: the total",
        "README.md",
        "| **Total** | | **11** |",
        "| **Total** | | **12** |",
        &[("AB613", 13)],
    ),
    (
        "comparison: a range that excludes the count",
        "README.md",
        "| SEC | 2–4 | 3 / 3",
        "| SEC | 4–5 | 3 / 3",
        &[("AB613", 20)],
    ),
    (
        "arithmetic: an estimate above the sum of the upper bounds",
        "README.md",
        "~12 Checks",
        "~17 Checks",
        &[("AB613", 23)],
    ),
    (
        "rule sets: the count of one set",
        "README.md",
        "3 Transportregeln",
        "4 Transportregeln",
        &[("AB613", 28)],
    ),
    (
        "rule sets: coverage scoped to the second table",
        "docs/TRANSPORT.md",
        "[SCALE-002](../checks/SCALE-002.md)",
        "—",
        &[("AB620", 5)],
    ),
    (
        "skip regions: running prose drifts, the quote and the example do not count",
        "README.md",
        "zählt 11 Checks",
        "zählt 10 Checks",
        &[("AB613", 32)],
    ),
    (
        "strict list: an ellipsis",
        "README.md",
        "`FID`, `SCALE` und `SEC`",
        "`FID`, … `SEC`",
        &[("AB617", 4), ("AB619", 4)],
    ),
    (
        "string predicate: a check stops depending on external requests",
        "checks/FID-003.md",
        "applies_when: 'tools_make_external_requests == true'",
        "applies_when: always",
        &[("AB613", 32), ("AB615", 33)],
    ),
    (
        "structure: a numbered heading renumbered (no table row, a row without heading)",
        "docs/REGELN.md",
        "## Regel 3 —",
        "## Regel 5 —",
        // The heading set against the table, and the README's list against the headings.
        &[("AB652", 6), ("AB652", 44), ("AB653", 14), ("AB653", 46)],
    ),
    (
        "structure: a numbered list item twice",
        "README.md",
        "4. Struktur vor dem Zählen",
        "3. Struktur vor dem Zählen",
        &[("AB652", 44), ("AB654", 47)],
    ),
    (
        "structure: a rule-number mention with a range",
        "README.md",
        "die Regeln 1 und 2–3;",
        "die Regeln 1 und 3–4;",
        &[("AB652", 49), ("AB653", 49)],
    ),
    (
        "vocabulary: a value of the profile schema left out, an unknown one named",
        "docs/TRANSPORT.md",
        "`dual` / `HTTP/SSE`",
        "`dual` / `sse`",
        &[("AB652", 15), ("AB653", 15)],
    ),
    (
        "literals: a transport no applies_when compares any more",
        "checks/SCALE-001.md",
        "applies_when: 'transport == \"dual\" or transport == \"HTTP/SSE\"'",
        "applies_when: 'transport == \"dual\"'",
        &[("AB653", 16)],
    ),
    (
        "named set: a check outside the set listed as a member",
        "README.md",
        "gehören FID-003 und SEC-001.",
        "gehören FID-003, FID-004 und SEC-001.",
        &[("AB615", 50)],
    ),
];

#[test]
fn each_planted_mutation_is_caught_with_code_and_line() {
    for (what, file, from, to, want) in MUTATIONS {
        let f = Fixture::new("compat-de-claims");
        f.edit(file, from, to);
        let (found, code, v) = verify(&f);
        let want: Vec<(String, u64)> = want.iter().map(|(c, n)| l(c, *n)).collect();
        assert_eq!(found, want, "{what}: {v:#}");
        assert_eq!(code, 1, "{what}");
    }
}

#[test]
fn a_policy_that_no_longer_holds_is_caught_at_its_declaration() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "checks/FID-005.md",
        "adoption: enforced",
        "adoption: advisory",
    );
    let (found, code, v) = verify(&f);
    let line = f
        .read("catalogue.yaml")
        .lines()
        .position(|l| l.contains("name: advisory-anteil"))
        .unwrap() as u64
        + 1;
    assert_eq!(found, [l("AB635", line)], "{v:#}");
    assert_eq!(code, 1);
}

#[test]
fn a_dead_sibling_link_is_caught() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "checks/FID-003.md",
        "[FID-006](FID-006.md \"Struktur\")",
        "[FID-007](FID-007.md)",
    );
    let (v, code) = f.lint_json();
    assert_eq!(loud(&v), [l("AB210", 15)], "{v:#}");
    assert_eq!(code, 1);
}

fn config_line(f: &Fixture, needle: &str) -> u64 {
    f.read("catalogue.yaml")
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle}")) as u64
        + 1
}

#[test]
fn a_named_set_with_an_unknown_or_retired_id_is_caught_at_its_line() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "catalogue.yaml",
        "migrationskohorte: [FID-003, SEC-001]",
        "migrationskohorte:\n    - FID-030\n    - DRIFT-007",
    );
    let (v, code) = f.lint_json();
    let line = config_line(&f, "- FID-030");
    assert_eq!(loud(&v), [l("AB650", line), l("AB651", line + 1)], "{v:#}");
    let retired = loud_in(&v)
        .into_iter()
        .find(|d| d["code"] == "AB651")
        .map(|d| d["message"].as_str().unwrap_or("").to_string())
        .unwrap_or_default();
    assert!(retired.contains("FID-006"), "{retired}");
    assert_eq!(code, 1);
}

#[test]
fn an_unknown_set_name_is_caught_with_a_suggestion() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "catalogue.yaml",
        "id in set(\"migrationskohorte\")",
        "id in set(\"migrationskohort\")",
    );
    let (found, code, v) = verify(&f);
    assert_eq!(
        found,
        [l("AB610", config_line(&f, "name: migrationskohorte"))],
        "{v:#}"
    );
    assert!(
        v.to_string()
            .contains("did you mean `set(\\\"migrationskohorte\\\")`?"),
        "{v:#}"
    );
    assert_eq!(code, 1);
    // In `require_coverage` the finding keeps its own code.
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "catalogue.yaml",
        "  - 'category == \"FID\"'",
        "  - 'id in set(\"migrationskohort\")'",
    );
    let (v, code) = f.lint_json();
    assert_eq!(
        loud(&v),
        [l("AB310", config_line(&f, "migrationskohort\")"))],
        "{v:#}"
    );
    assert_eq!(code, 1);
}

#[test]
fn a_new_file_under_a_document_glob_that_no_claim_reads_is_caught() {
    let f = Fixture::new("compat-de-claims");
    f.write(
        "docs/NEU.md",
        "# Neu\n\nNoch ohne Aussage über den Katalog.\n",
    );
    let (found, code, v) = verify(&f);
    assert_eq!(found, [l("AB655", config_line(&f, "docs: ["))], "{v:#}");
    assert!(v.to_string().contains("docs/NEU.md"), "{v:#}");
    assert_eq!(code, 1);
}

#[test]
fn a_claim_over_a_glob_holds_every_match_and_names_the_file() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "catalogue.yaml",
        "  - name: erlaeuterte-regeln\n    doc: docs/REGELN.md",
        "  - name: erlaeuterte-regeln\n    doc: \"docs/REGELN*.md\"",
    );
    // The clean twin: one match, the same as before.
    let (found, code, v) = verify(&f);
    assert_eq!(found, [], "{v:#}");
    assert_eq!(code, 0);
    f.write(
        "docs/REGELN-KURZ.md",
        "# Kurzfassung\n\nIn Kürze: die Regeln 1 und 2–3.\n",
    );
    let (found, code, v) = verify(&f);
    assert_eq!(found, [l("AB652", 3)], "{v:#}");
    let d = &loud_in(&v)[0];
    assert_eq!(d["file"], "docs/REGELN-KURZ.md", "{v:#}");
    assert!(d["message"].as_str().unwrap_or("").contains("`4`"), "{v:#}");
    assert_eq!(code, 1);
}

#[test]
fn a_glob_that_matches_nothing_or_leaves_the_repository_is_caught() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "catalogue.yaml",
        "docs: [README.md, \"docs/*.md\"]",
        "docs: [README.md, \"docs/*.md\", \"handbuch/*.md\"]",
    );
    let (found, code, v) = verify(&f);
    assert_eq!(found, [l("AB656", config_line(&f, "docs: ["))], "{v:#}");
    assert_eq!(code, 1);
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "catalogue.yaml",
        "docs: [README.md, \"docs/*.md\"]",
        "docs: [README.md, \"docs/*.md\", \"../*.md\"]",
    );
    let (found, _, v) = verify(&f);
    assert!(
        found.contains(&l("AB010", config_line(&f, "docs: ["))),
        "{v:#}"
    );
}

#[cfg(unix)]
#[test]
fn a_glob_match_behind_a_link_that_leads_outside_is_refused() {
    let f = Fixture::new("compat-de-claims");
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("geheim.md"), "# Geheim\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("geheim.md"), f.path("docs/AUSSEN.md")).unwrap();
    let (found, code, v) = verify(&f);
    assert_eq!(found, [l("AB010", config_line(&f, "docs: ["))], "{v:#}");
    assert!(!v.to_string().contains("# Geheim"), "{v:#}");
    assert_eq!(code, 1);
}
