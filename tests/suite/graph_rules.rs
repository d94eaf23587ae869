//! The catalogue graph: retired ledger, rules and coverage, rule tables in documents, `show`,
//! `graph`, `table`, and the maintainer commands `new` and `retire`. One pair per finding
//! family: the planted defect is found, the clean twin is not.

use crate::common;
use common::{codes_in, loud_in, Fixture};

fn graph() -> Fixture {
    Fixture::new("graph")
}

/// Codes of errors and warnings (the fixture carries one deliberate note, AB414 on FIDELITY-6).
fn loud(f: &Fixture) -> Vec<String> {
    let (v, _) = f.lint_json();
    loud_in(&v)
        .into_iter()
        .map(|d| {
            format!(
                "{} {} {}",
                d["code"].as_str().unwrap(),
                d["file"].as_str().unwrap_or(""),
                d["line"]
            )
        })
        .collect()
}

#[test]
fn graph_fixture_is_clean() {
    let f = graph();
    let (v, code) = f.lint_json();
    assert_eq!(codes_in(&v), ["AB414"], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn reused_retired_number() {
    let f = graph();
    f.write(
        "checks/DRIFT-007.md",
        &f.read("checks/DRIFT-006.md")
            .replace("DRIFT-006", "DRIFT-007"),
    );
    f.edit(
        "checks/MANIFEST.txt",
        "DRIFT-006\n",
        "DRIFT-006\nDRIFT-007\n",
    );
    assert_eq!(loud(&f), ["AB401 checks/DRIFT-007.md 2"]);
}

#[test]
fn link_to_retired_names_successor_mention_is_note() {
    let f = graph();
    f.edit(
        "checks/DRIFT-003.md",
        "Degraded runs fail success tests.",
        "See [DRIFT-007](../checks/DRIFT-007.md).",
    );
    let (v, _) = f.lint_json();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "AB212")
        .unwrap()
        .clone();
    assert_eq!(d["file"], "checks/DRIFT-003.md");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("merged into `FID-006`"),
        "{d}"
    );
    assert_eq!(d["help"], "link `FID-006` instead");
    let g = graph();
    g.edit(
        "checks/DRIFT-003.md",
        "Degraded runs fail success tests.",
        "Formerly checked by DRIFT-007.",
    );
    assert!(loud(&g).is_empty());
    assert!(codes_in(&g.lint_json().0).contains(&"AB213".to_string()));
}

#[test]
fn successor_unknown_retired_and_cycles() {
    let f = graph();
    f.edit(
        "catalogue.yaml",
        "merged_into: FID-006",
        "merged_into: FID-009",
    );
    assert_eq!(loud(&f), ["AB402 catalogue.yaml 8"]);

    let g = graph();
    g.edit(
        "catalogue.yaml",
        "    merged_into: FID-006\n",
        "    merged_into: DRIFT-009\n",
    );
    g.edit(
        "catalogue.yaml",
        "rules:\n",
        "  - {id: DRIFT-009, retired: \"2026-09-01\", merged_into: DRIFT-007}\nrules:\n",
    );
    let got = loud(&g);
    assert!(
        got.contains(&"AB403 catalogue.yaml 8".to_string()),
        "{got:?}"
    );
    assert!(got.iter().any(|c| c.starts_with("AB404")), "{got:?}");
}

#[test]
fn malformed_retired_entries() {
    let f = graph();
    f.edit(
        "catalogue.yaml",
        "retired: \"2026-08-07\"",
        "retired: \"7.8.2026\"",
    );
    assert_eq!(loud(&f), ["AB406 catalogue.yaml 8"]);
}

#[test]
fn numbering_gap_is_a_warning_and_a_retired_number_is_not_a_gap() {
    let f = graph();
    f.remove("checks/DRIFT-004.md");
    f.edit("checks/MANIFEST.txt", "DRIFT-004\n", "");
    let (v, _) = f.lint_json();
    let gaps: Vec<_> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "AB405")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(gaps, ["DRIFT-004 is neither a check nor retired"]);
    // Twin: DRIFT-007 is retired, so the clean fixture reports no gap for it.
    assert!(!codes_in(&graph().lint_json().0).contains(&"AB405".to_string()));
}

#[test]
fn rule_without_checks_and_explicit_gap_twin() {
    let f = graph();
    f.edit("rules/FIDELITY-12.md", "coverage: none\n", "");
    assert_eq!(loud(&f), ["AB410 rules/FIDELITY-12.md 4"]);
    // Twin: with `coverage: none` the same rule is a declared gap (the clean fixture).
}

#[test]
fn rule_mapping_unknown_or_retired_check() {
    let f = graph();
    f.edit(
        "rules/FIDELITY-1.md",
        "checks: [FID-001]",
        "checks: [FID-001, FID-009]",
    );
    let got = loud(&f);
    assert!(
        got.contains(&"AB411 rules/FIDELITY-1.md 4".to_string()),
        "{got:?}"
    );
    let g = graph();
    g.edit(
        "rules/FIDELITY-6.md",
        "checks: [FID-006]",
        "checks: [FID-006, DRIFT-007]",
    );
    let got = loud(&g);
    assert!(
        got.contains(&"AB412 rules/FIDELITY-6.md 4".to_string()),
        "{got:?}"
    );
}

#[test]
fn required_coverage_gap() {
    let f = graph();
    f.edit("skills/mcp-data-fidelity/SKILL.md", "| **2.** Parametergruppen vollständig senden | [FID-004](https://github.com/example/mcp-audit/blob/main/checks/FID-004.md) | |\n", "");
    assert_eq!(loud(&f), ["AB413 checks/FID-004.md 2"]);
}

#[test]
fn advisory_only_rule_is_a_note_enforced_twin_is_silent() {
    let (v, _) = graph().lint_json();
    let notes: Vec<_> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        notes,
        ["FIDELITY-6"],
        "FIDELITY-1 maps an enforced check and is not named"
    );
}

#[test]
fn gap_that_maps_checks() {
    let f = graph();
    f.edit("rules/FIDELITY-12.md", "checks: []", "checks: [FID-003]");
    let got = loud(&f);
    assert!(
        got.contains(&"AB415 rules/FIDELITY-12.md 4".to_string()),
        "{got:?}"
    );
}

#[test]
fn rule_file_and_table_disagree() {
    let f = graph();
    f.edit(
        "rules/FIDELITY-1.md",
        "checks: [FID-001]",
        "checks: [FID-001, FID-003]",
    );
    let got = loud(&f);
    assert_eq!(got, ["AB416 skills/mcp-data-fidelity/SKILL.md 11"]);
}

#[test]
fn rule_table_heading_missing_and_row_without_number() {
    let f = graph();
    f.edit(
        "skills/mcp-data-fidelity/SKILL.md",
        "## Welche Regel welcher Check ist",
        "## Welche Regel welchen Check hat",
    );
    // Reported where the table names the heading, as a claim's missing heading is.
    assert!(
        loud(&f).contains(&"AB418 catalogue.yaml 16".to_string()),
        "{:?}",
        loud(&f)
    );
    let g = graph();
    g.edit(
        "skills/mcp-data-fidelity/SKILL.md",
        "| **3.** Leere",
        "| Leere",
    );
    assert!(loud(&g).contains(&"AB419 skills/mcp-data-fidelity/SKILL.md 13".to_string()));
}

#[test]
fn rule_id_must_match_file_name() {
    let f = graph();
    f.edit("rules/FIDELITY-1.md", "id: FIDELITY-1", "id: FIDELITY-01");
    assert!(loud(&f)
        .iter()
        .any(|c| c.starts_with("AB417 rules/FIDELITY-1.md")));
}

#[test]
fn german_rule_table_yields_numbers_and_linked_checks_only() {
    let f = graph();
    let v = f.json(&["table", "rules-table", "--format", "json"]);
    let rules: Vec<(String, Vec<String>)> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["checks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["id"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let expect = |id: &str, checks: &[&str]| {
        (
            id.to_string(),
            checks.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        rules,
        vec![
            expect("FIDELITY-1", &["FID-001"]),
            expect("FIDELITY-2", &["FID-004"]),
            expect("FIDELITY-3", &["FID-003"]),
            expect("FIDELITY-5", &["FID-002", "FID-005"]),
            // `DRIFT-002` is mentioned in the row, never linked: not coverage.
            expect("FIDELITY-6", &["FID-006"]),
            expect("FIDELITY-12", &[]),
        ]
    );
    let show = f.json(&["show", "DRIFT-002", "--format", "json"]);
    assert_eq!(
        show["rules"],
        serde_json::json!([]),
        "a mention in a table is not coverage"
    );
}

#[test]
fn show_names_covering_rules_incoming_and_retired_records() {
    let f = graph();
    let v = f.json(&["show", "FID-006", "--format", "json"]);
    assert_eq!(v["rules"], serde_json::json!(["FIDELITY-6"]));
    let from: Vec<_> = v["incoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            format!(
                "{}:{}",
                i["from"].as_str().unwrap(),
                i["kind"].as_str().unwrap()
            )
        })
        .collect();
    assert!(from.contains(&"DRIFT-002:link".to_string()), "{from:?}");
    assert!(
        from.contains(&"DRIFT-007:merged_into".to_string()),
        "{from:?}"
    );
    let r = f.json(&["show", "DRIFT-007", "--format", "json"]);
    assert_eq!(r["successor"], "FID-006");
    assert_eq!(r["retired"]["retired"], "2026-08-07");
}

#[test]
fn table_and_graph_snapshots() {
    let f = graph();
    insta::assert_snapshot!(
        "graph_rules_table",
        f.stdout(&["table", "rules-table", "base=../../checks/"])
    );
    insta::assert_snapshot!(
        "graph_mermaid_focus",
        f.stdout(&["graph", "--focus", "FID-006", "--format", "mermaid"])
    );
    insta::assert_snapshot!(
        "graph_category_counts",
        f.stdout(&["table", "category-counts"])
    );
}

#[test]
fn unknown_table_and_bad_arguments_exit_2() {
    let f = graph();
    f.cmd().args(["table", "no-such-table"]).assert().code(2);
    f.cmd()
        .args(["table", "check-index", "category=XYZ"])
        .assert()
        .code(2);
    f.cmd()
        .args(["table", "check-index", "colour=red"])
        .assert()
        .code(2);
    let v = f.json(&["table", "check-index", "category=DRIFT", "--format", "json"]);
    assert_eq!(v["total"], 7);
}

#[test]
fn new_takes_the_next_number_past_the_retired_one_and_retire_leaves_a_work_list() {
    let f = graph();
    // DRIFT-001…006 and 008 exist, 007 is retired into FID-006: the next is 009.
    let out = f.stdout(&[
        "new",
        "DRIFT",
        "--title",
        "Live tests pin the upstream version",
    ]);
    assert!(out.starts_with("created DRIFT-009"), "{out}");
    assert!(f
        .read("checks/MANIFEST.txt")
        .contains("DRIFT-008\nDRIFT-009\nFID-001"));
    let created = f.read("checks/DRIFT-009.md");
    assert!(created.contains("title: \"Live tests pin the upstream version\""));
    assert!(created.contains("## Common Failures") || created.contains("## Pass Criteria"));
    // The new file lints (its placeholders are content, not errors).
    assert!(loud(&f).is_empty(), "{:?}", loud(&f));

    // Retire DRIFT-002, which DRIFT-001 and FID-006 link.
    let out = f.stdout(&[
        "retire",
        "DRIFT-002",
        "--date",
        "2026-11-30",
        "--reason",
        "Folded into FID-006",
        "--merged-into",
        "FID-006",
    ]);
    assert!(out.contains("retired DRIFT-002"), "{out}");
    assert!(out.contains("checks/DRIFT-001.md"), "{out}");
    assert!(!f.path("checks/DRIFT-002.md").exists());
    assert!(!f.read("checks/MANIFEST.txt").contains("DRIFT-002"));
    assert!(f
        .read("catalogue.yaml")
        .contains("  - id: DRIFT-002\n    retired: \"2026-11-30\"\n    merged_into: FID-006\n"));
    // lint now lists the stale links that remain, each naming the successor.
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let stale: Vec<_> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "AB212")
        .map(|d| d["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(stale, ["checks/DRIFT-001.md", "checks/FID-006.md"]);
    // And `new DRIFT` still never reuses 002 or 007.
    let out = f.stdout(&["new", "DRIFT", "--title", "Another"]);
    assert!(out.starts_with("created DRIFT-010"), "{out}");
}

#[test]
fn maintainer_commands_refuse_bad_input_and_write_nothing() {
    let f = graph();
    let before = f.read("catalogue.yaml");
    f.cmd()
        .args(["new", "NOPE", "--title", "x"])
        .assert()
        .code(2);
    f.cmd()
        .args(["new", "DRIFT", "--title", " "])
        .assert()
        .code(2);
    f.cmd()
        .args([
            "retire",
            "DRIFT-002",
            "--date",
            "30.11.2026",
            "--reason",
            "r",
        ])
        .assert()
        .code(2);
    f.cmd()
        .args([
            "retire",
            "DRIFT-002",
            "--date",
            "2026-11-30",
            "--reason",
            "r",
            "--merged-into",
            "FID-999",
        ])
        .assert()
        .code(2);
    f.cmd()
        .args([
            "retire",
            "DRIFT-007",
            "--date",
            "2026-11-30",
            "--reason",
            "r",
        ])
        .assert()
        .code(2);
    // A format the command does not offer is refused before anything is written.
    f.cmd()
        .args(["new", "DRIFT", "--title", "x", "--format", "csv"])
        .assert()
        .code(2);
    f.cmd()
        .args([
            "retire",
            "DRIFT-002",
            "--date",
            "2026-11-30",
            "--reason",
            "r",
            "--format",
            "csv",
        ])
        .assert()
        .code(2);
    assert_eq!(f.read("catalogue.yaml"), before);
    assert!(f.path("checks/DRIFT-002.md").exists());
    assert!(!f.path("checks/DRIFT-009.md").exists());
}

#[test]
fn new_and_retire_print_json() {
    let f = graph();
    let v = f.json(&["new", "DRIFT", "--title", "Pinned", "--format", "json"]);
    assert_eq!(v["id"], "DRIFT-009");
    assert_eq!(v["file"], "checks/DRIFT-009.md");
    assert_eq!(v["manifest_updated"], true);
    let v = f.json(&[
        "retire",
        "DRIFT-002",
        "--date",
        "2026-11-30",
        "--reason",
        "Folded into FID-006",
        "--merged-into",
        "FID-006",
        "--format",
        "json",
    ]);
    assert_eq!(v["retired"], "DRIFT-002");
    let from: Vec<&str> = v["referred_to_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["from"].as_str().unwrap())
        .collect();
    assert!(from.contains(&"DRIFT-001"), "{v:#}");
}
