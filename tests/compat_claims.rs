//! A German catalogue in the compatibility layout (checks, a skill with its rule table, a
//! second rule table, a README) with a catalogue.yaml that declares one claim of each form:
//! the clean catalogue is silent, and each planted mutation is caught with its code and line.

mod common;

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
    assert_eq!(v["summary"]["claims"], 8);
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
