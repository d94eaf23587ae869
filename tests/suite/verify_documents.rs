//! `auditbook verify` and `auditbook sync` on the German data-fidelity fixture (tests/fixtures/graph):
//! each finding kind found after a single change, and its clean twin not flagged.

use crate::common;

use common::{findings_in, loud_in, Fixture};
use serde_json::Value;

const SKILL: &str = "skills/mcp-data-fidelity/SKILL.md";

fn graph() -> Fixture {
    Fixture::new("graph")
}

fn verify(f: &Fixture) -> (Value, i32) {
    f.json_and_code(&["verify", "--format", "json"])
}

/// (code, line, id) of every error and warning, in output order.
fn loud(v: &Value) -> Vec<(String, u64, String)> {
    loud_in(v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn l(code: &str, line: u64, id: &str) -> (String, u64, String) {
    (code.to_string(), line, id.to_string())
}

fn message(v: &Value, code: &str) -> String {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| {
            format!(
                "{} | {}",
                d["message"].as_str().unwrap(),
                d["help"].as_str().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_german_fixture_verifies_clean() {
    let f = graph();
    let (v, code) = verify(&f);
    assert_eq!(loud(&v), [], "{v:#}");
    assert_eq!(code, 0);
    assert_eq!(v["diagnostics"], serde_json::json!([]), "not even a note");
    assert_eq!(v["summary"]["claims"], 2);
}

#[test]
fn a_retired_id_mentioned_is_history_not_a_failure() {
    let f = graph();
    f.edit(
        SKILL,
        "Die Nummer\neines zurückgezogenen DRIFT-Checks",
        "Die Nummer\n`DRIFT-007`",
    );
    let (v, code) = verify(&f);
    assert_eq!(code, 0);
    assert_eq!(
        findings_in(&v, "AB213"),
        [(SKILL.to_string(), Some(21), Some("DRIFT-007".to_string()))]
    );
}

#[test]
fn adoption_flipped_in_one_check_file() {
    let f = graph();
    f.edit(
        "checks/FID-004.md",
        "adoption: enforced",
        "adoption: advisory",
    );
    let (v, code) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [
            l("AB613", 18, ""),
            l("AB615", 19, "FID-004"),
            l("AB601", 27, "")
        ]
    );
    let m = message(&v, "AB613");
    assert!(
        m.contains("`n`: the document says 5 (`Fünf`), the catalogue has 4"),
        "{m}"
    );
    assert!(message(&v, "AB615").contains("it belongs under `advisory`"));
    assert!(message(&v, "AB601")
        .contains("-| FID | Data fidelity | 6 | 5 | 1 |\n+| FID | Data fidelity | 6 | 4 | 2 |"));
}

#[test]
fn one_check_removed() {
    let f = graph();
    f.remove("checks/FID-005.md")
        .edit("checks/MANIFEST.txt", "FID-005\n", "");
    let (v, code) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [
            l("AB613", 7, ""),
            l("AB613", 7, ""),
            l("AB210", 14, "FID-005"),
            l("AB613", 18, ""),
            l("AB211", 19, "FID-005"),
            l("AB618", 19, "FID-005"),
            l("AB601", 27, ""),
        ]
    );
    let m = message(&v, "AB613");
    assert!(
        m.contains(
            "group `total`: the document says 13 (`13`), the catalogue has 12 (count(checks))"
        ),
        "{m}"
    );
    assert!(
        m.contains("group `fid`: the document says 6 (`sechs`), the catalogue has 5"),
        "{m}"
    );
    assert!(message(&v, "AB618").contains("no check has this id"));
}

#[test]
fn a_retired_id_linked_names_its_successor() {
    let f = graph();
    f.edit(
        SKILL,
        "[FID-003](https://github.com/example/mcp-audit/blob/main/checks/FID-003.md) |",
        "[FID-003](https://github.com/example/mcp-audit/blob/main/checks/FID-003.md), [DRIFT-007](https://github.com/example/mcp-audit/blob/main/checks/DRIFT-007.md) |",
    );
    let (v, code) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud(&v), [l("AB212", 13, "DRIFT-007")]);
    let m = message(&v, "AB212");
    assert!(
        m.contains("merged into `FID-006`") && m.contains("link `FID-006` instead"),
        "{m}"
    );
}

#[test]
fn a_drifted_count_and_an_unreadable_number_word() {
    let f = graph();
    f.edit(SKILL, "13 Checks in zwei", "14 Checks in zwei");
    assert_eq!(loud(&verify(&f).0), [l("AB613", 7, "")]);

    let g = graph();
    g.edit(SKILL, "13 Checks in zwei", "13 Checks in zwo");
    let (v, code) = verify(&g);
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [l("AB614", 7, "")],
        "an unreadable word is not drift"
    );
    assert!(message(&v, "AB614")
        .contains("`zwo` is not a number auditbook can read; count(categories) is 2"));

    // The same count in digits is as true as the word.
    let h = graph();
    h.edit(SKILL, "13 Checks in zwei", "13 Checks in 2");
    assert_eq!(loud(&verify(&h).0), []);
}

#[test]
fn an_id_in_both_lists() {
    let f = graph();
    f.edit(
        SKILL,
        "`advisory` sind FID-006:",
        "`advisory` sind FID-005 und FID-006:",
    );
    let (v, _) = verify(&f);
    assert_eq!(loud(&v), [l("AB616", 20, "FID-005")]);
    assert!(message(&v, "AB616")
        .contains("listed under both `enforced` and `advisory`; it belongs under `enforced` only"));
}

#[test]
fn an_id_in_neither_list() {
    let f = graph();
    f.edit(SKILL, "FID-004 und FID-005", "und FID-005");
    let (v, _) = verify(&f);
    assert_eq!(loud(&v), [l("AB617", 18, "FID-004")]);
}

#[test]
fn ids_moved_between_the_lists_of_the_document() {
    let f = graph();
    f.edit(SKILL, "FID-004 und FID-005 —", "FID-004 und FID-006 —")
        .edit(
            SKILL,
            "`advisory` sind FID-006:",
            "`advisory` sind FID-005:",
        );
    let (v, _) = verify(&f);
    assert_eq!(
        loud(&v),
        [l("AB615", 19, "FID-006"), l("AB615", 20, "FID-005")]
    );
}

#[test]
fn an_id_the_query_does_not_know() {
    let f = graph();
    // DRIFT-001 is a check, but the section does not link it.
    f.edit(
        SKILL,
        "`advisory` sind FID-006:",
        "`advisory` sind FID-006 und DRIFT-001:",
    );
    let (v, _) = verify(&f);
    assert_eq!(loud(&v), [l("AB618", 20, "DRIFT-001")]);
    assert!(message(&v, "AB618").contains("not linked in this section"));
}

#[test]
fn a_reworded_claim_sentence() {
    let f = graph();
    f.edit(
        SKILL,
        "Checks in zwei Kategorien",
        "Checks aus zwei Kategorien",
    );
    let (v, code) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud(&v), [l("AB612", 5, "")]);
    assert!(message(&v, "AB612").contains("reworded? this claim would go unchecked"));
}

#[test]
fn a_rewrapped_claim_sentence_still_matches() {
    let f = graph();
    f.edit(
        SKILL,
        "13 Checks in zwei Kategorien auf",
        "13 Checks in zwei\nKategorien auf",
    );
    assert_eq!(loud(&verify(&f).0), []);
}

#[test]
fn a_dead_link_and_a_live_one() {
    let f = graph();
    f.edit(SKILL, "main/checks/FID-004.md", "main/checks/FID-009.md");
    let (v, _) = verify(&f);
    assert!(
        loud(&v).contains(&l("AB210", 12, "FID-009")),
        "{:?}",
        loud(&v)
    );

    // A relative link must lead to the file from the document's directory.
    let g = graph();
    g.edit(
        SKILL,
        "## Anhang\n",
        "## Anhang\n\nSiehe [FID-001](../checks/FID-001.md).\n",
    );
    let (v, _) = verify(&g);
    assert_eq!(loud(&v), [l("AB621", 25, "FID-001")]);
    assert!(message(&v, "AB621").contains("write `../../checks/FID-001.md`"));
    let h = graph();
    h.edit(
        SKILL,
        "## Anhang\n",
        "## Anhang\n\nSiehe [FID-001](../../checks/FID-001.md).\n",
    );
    assert_eq!(loud(&verify(&h).0), []);
}

#[test]
fn a_required_check_missing_from_the_rule_table() {
    let f = graph();
    f.edit(SKILL, "| **2.** Parametergruppen vollständig senden | [FID-004](https://github.com/example/mcp-audit/blob/main/checks/FID-004.md) | |\n", "");
    let (v, _) = verify(&f);
    assert!(
        loud(&v).contains(&l("AB620", 5, "FID-004")),
        "{:?}",
        loud(&v)
    );
}

#[test]
fn claim_declarations_that_cannot_be_checked() {
    let f = graph();
    f.edit(
        "catalogue.yaml",
        "fid: count(checks where category == \"FID\")",
        "fid: count(checks where categroy == \"FID\")",
    );
    let (v, code) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(
        findings_in(&v, "AB610"),
        [("catalogue.yaml".to_string(), Some(28), None)]
    );

    let g = graph();
    g.edit(
        "catalogue.yaml",
        "section: \"Welche Regel welcher Check ist\"\n    pattern: '(?P<total>",
        "section: \"Regeln\"\n    pattern: '(?P<total>",
    );
    assert_eq!(findings_in(&verify(&g).0, "AB611").len(), 1);

    let h = graph();
    h.edit(
        "catalogue.yaml",
        "cats: count(categories)",
        "kats: count(categories)",
    );
    assert!(message(&verify(&h).0, "AB610")
        .contains("`expect` names group `kats`, but the pattern has no `(?P<kats>…)`"));
}

// ---- generated regions ----

const BEGIN: &str = "<!-- auditbook:begin category-counts -->\n";

#[test]
fn a_stale_region_and_a_current_one() {
    let f = graph();
    assert!(findings_in(&verify(&f).0, "AB601").is_empty());
    f.edit(
        SKILL,
        "| **Total** | | **13** | | |",
        "| **Total** | | **12** | | |",
    );
    let (v, code) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(
        findings_in(&v, "AB601"),
        [(SKILL.to_string(), Some(27), None)]
    );
    assert!(message(&v, "AB601").contains("@@ -31,3 +31,3 @@\n | FID | Data fidelity | 6 | 5 | 1 |\n-| **Total** | | **12** | | |\n+| **Total** | | **13** | | |\n <!-- auditbook:end category-counts -->"), "{}", message(&v, "AB601"));
}

#[test]
fn region_arguments_pass_through_to_the_table() {
    let f = graph();
    f.edit(
        SKILL,
        BEGIN,
        "<!-- auditbook:begin category-counts category=FID -->\n",
    );
    assert_eq!(findings_in(&verify(&f).0, "AB601").len(), 1);
    f.cmd().arg("sync").assert().code(0);
    let text = f.read(SKILL);
    assert!(
        text.contains("| FID | Data fidelity | 6 | 5 | 1 |") && !text.contains("| DRIFT |"),
        "{text}"
    );
    assert!(findings_in(&verify(&f).0, "AB601").is_empty());

    let g = graph();
    g.edit(SKILL, BEGIN, "<!-- auditbook:begin check-index where='severity == \"critical\"' base=../../checks/ -->\n")
        .edit(SKILL, "<!-- auditbook:end category-counts -->", "<!-- auditbook:end check-index -->");
    g.cmd().arg("sync").assert().code(0);
    assert!(g.read(SKILL).contains(
        "| [FID-001](../../checks/FID-001.md) | Scope parameters are sent explicitly | critical |"
    ));
    assert_eq!(loud(&verify(&g).0), []);
}

/// Each marker problem is an error, and `sync` then writes nothing at all.
#[test]
fn marker_problems_are_errors_and_nothing_is_written() {
    let stale = |f: &Fixture| {
        f.edit(
            SKILL,
            "| **Total** | | **13** | | |",
            "| **Total** | | **99** | | |",
        );
    };
    let cases: &[(&str, &str, &str)] = &[
        ("AB602", "<!-- auditbook:end category-counts -->\n", ""),
        ("AB603", BEGIN, "<!-- auditbook:begin category-counts -->\n<!-- auditbook:begin severity-counts -->\n"),
        ("AB604", "Die Zählung nach Kategorie", "<!-- auditbook:begin category-counts -->\n<!-- auditbook:end category-counts -->\n\nDie Zählung nach Kategorie"),
        ("AB605", "Die Zählung nach Kategorie", "<!-- auditbook:begin no-such-table -->\n<!-- auditbook:end no-such-table -->\n\nDie Zählung"),
        ("AB605", "Die Zählung nach Kategorie", "<!-- auditbook:bgin category-counts -->\n\nDie Zählung"),
        ("AB606", "Die Zählung nach Kategorie", "<!-- auditbook:begin check-index category=XYZ -->\n<!-- auditbook:end check-index -->\n\nDie Zählung"),
    ];
    for (code, from, to) in cases {
        let f = graph();
        stale(&f);
        f.edit(SKILL, from, to);
        let before = f.read(SKILL);
        let (v, exit) = verify(&f);
        assert_eq!(exit, 1, "{code}");
        assert_eq!(findings_in(&v, code).len(), 1, "{code}: {v:#}");
        let out = f.cmd().args(["sync", "--format", "json"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{code}");
        assert_eq!(f.read(SKILL), before, "{code}: sync must write nothing");
    }
}

#[test]
fn markers_in_code_blocks_are_examples() {
    let f = graph();
    f.edit(
        SKILL,
        "## Anhang\n",
        "## Anhang\n\n```markdown\n<!-- auditbook:begin rules-table -->\n```\n",
    );
    assert_eq!(loud(&verify(&f).0), []);
}

#[test]
fn sync_is_idempotent_and_touches_nothing_outside_the_markers() {
    let f = graph();
    f.edit(SKILL, "| **Total** | | **13** | | |", "stale text\n\nmore")
        .edit(
            SKILL,
            "Einleitung.",
            "Einleitung  \t mit   Leerraum,\n\n\nder bleibt.  ",
        );
    let before = f.read(SKILL);
    let out = f.cmd().arg("sync").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "rewrote skills/mcp-data-fidelity/SKILL.md:30: category-counts\nrewrote 1 of 1 generated region(s) in 1 document(s)\n");
    let after = f.read(SKILL);
    let (b0, a0) = (
        before.find(BEGIN).unwrap() + BEGIN.len(),
        after.find(BEGIN).unwrap() + BEGIN.len(),
    );
    assert_eq!(before[..b0], after[..a0]);
    let end = "<!-- auditbook:end category-counts -->";
    assert_eq!(
        before[before.find(end).unwrap()..],
        after[after.find(end).unwrap()..]
    );
    assert_eq!(
        after,
        Fixture::new("graph").read(SKILL).replace(
            "Einleitung.",
            "Einleitung  \t mit   Leerraum,\n\n\nder bleibt.  "
        )
    );

    let again = f.cmd().arg("sync").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        "all 1 generated region(s) are current; nothing written\n"
    );
    assert_eq!(f.read(SKILL), after);
    assert_eq!(verify(&f).1, 0);
}

#[test]
fn sync_keeps_crlf_line_endings_and_a_bom() {
    let f = graph();
    let lf = f.read(SKILL).replace("| **Total** | | **13** | | |\n", "");
    let crlf = format!("\u{feff}{}", lf.replace('\n', "\r\n"));
    f.write(SKILL, &crlf);
    f.cmd().arg("sync").assert().code(0);
    let after = f.read(SKILL);
    assert!(after.starts_with('\u{feff}'));
    assert!(
        !after.replace("\r\n", "").contains('\n'),
        "every line ending stays CRLF"
    );
    assert_eq!(
        after,
        format!(
            "\u{feff}{}",
            Fixture::new("graph").read(SKILL).replace('\n', "\r\n")
        )
    );
}

/// A declared document that is missing or refused fails `sync` as it fails `verify`, and
/// nothing is written — not even the stale region of the document that could be read.
#[test]
fn sync_fails_when_a_declared_document_is_missing_or_refused() {
    for (what, docs, code) in [
        ("missing", "fehlt.md", "AB001"),
        ("outside the repository", "../../../etc/passwd", "AB010"),
    ] {
        let f = graph();
        std::fs::create_dir(f.path(".git")).unwrap();
        f.edit(
            "catalogue.yaml",
            "docs: [skills/mcp-data-fidelity/SKILL.md]",
            &format!("docs: [skills/mcp-data-fidelity/SKILL.md, \"{docs}\"]"),
        );
        f.edit(
            SKILL,
            "| **Total** | | **13** | | |",
            "| **Total** | | **99** | | |",
        );
        let before = f.read(SKILL);
        let (v, exit) = verify(&f);
        assert_eq!((exit, findings_in(&v, code).len()), (1, 1), "{what}: {v:#}");
        let (v, exit) = f.json_and_code(&["sync", "--format", "json"]);
        assert_eq!(exit, 1, "{what}: {v:#}");
        let found = findings_in(&v, code);
        assert_eq!(
            found,
            [("catalogue.yaml".to_string(), Some(26), None)],
            "{what}: {v:#}"
        );
        assert_eq!(v["summary"]["written"], 0, "{what}");
        assert_eq!(f.read(SKILL), before, "{what}: sync must write nothing");
    }
}

/// The twins: with every declared document readable `sync` rewrites the region, and with the
/// missing one accepted in `lint.allow` (as verify accepts it) it writes as well.
#[test]
fn sync_writes_when_every_declared_document_is_read_or_accepted() {
    let f = graph();
    f.edit(
        SKILL,
        "| **Total** | | **13** | | |",
        "| **Total** | | **99** | | |",
    );
    let (_, exit) = f.run(&["sync"]);
    assert_eq!(exit, 0);
    assert!(f.read(SKILL).contains("| **Total** | | **13** | | |"));

    let f = graph();
    f.edit(
        "catalogue.yaml",
        "docs: [skills/mcp-data-fidelity/SKILL.md]",
        "docs: [skills/mcp-data-fidelity/SKILL.md, fehlt.md]\nlint:\n  allow:\n    - {code: AB001, file: catalogue.yaml, reason: \"kommt mit der nächsten Fassung\"}",
    );
    f.edit(
        SKILL,
        "| **Total** | | **13** | | |",
        "| **Total** | | **99** | | |",
    );
    let (v, _) = verify(&f);
    assert_eq!(findings_in(&v, "AB001"), [], "{v:#}");
    assert_eq!(v["summary"]["suppressed"], 1, "{v:#}");
    let (out, exit) = f.run(&["sync"]);
    assert_eq!(exit, 0, "{out}");
    assert!(f.read(SKILL).contains("| **Total** | | **13** | | |"));
}
