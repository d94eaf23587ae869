//! What the gates of a real German catalogue hold that the claims language now says too
//! (catalogue format, section 7), and the bugs met on the way: each with its clean twin, which
//! is silent, and a planted mutation, which is caught with its code and line.

use crate::claims_forms::{l, messages, verify, with_claims, with_rule_sets, TRANSPORT};
use crate::common;

use common::{loud_in, Fixture};

/// The graph fixture with documents of its own under `docs/`, each declared, and the claims
/// given appended to its catalogue.yaml.
fn with_docs(docs: &[(&str, &str)], claims: &str) -> Fixture {
    let f = Fixture::new("graph");
    let mut declared = String::from("skills/mcp-data-fidelity/SKILL.md");
    for (path, text) in docs {
        f.write(path, text);
        declared.push_str(&format!(", {path}"));
    }
    f.edit(
        "catalogue.yaml",
        "docs: [skills/mcp-data-fidelity/SKILL.md]",
        &format!("docs: [{declared}]"),
    );
    let yaml = f.read("catalogue.yaml");
    f.write("catalogue.yaml", &format!("{yaml}{claims}"));
    f
}

/// The 1-based line of catalogue.yaml that holds `needle` once.
fn config_line(f: &Fixture, needle: &str) -> u64 {
    let yaml = f.read("catalogue.yaml");
    let at: Vec<usize> = yaml
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(at.len(), 1, "{needle:?} in:\n{yaml}");
    at[0] as u64
}

// ---- every member of a set, repeats allowed (`includes`), `+` as a joiner -------------------

const LEITFADEN: &str = "# Leitfaden

## Anwendung

Regel 1 gilt für jede Anfrage. Die Regeln 2 + 3 greifen, sobald eine Quelle Gruppen kennt;
Regel 1 gilt auch dann. Regeln 5, 6 und 12 betreffen die Auswertung.
";

const INCLUDES_CLAIM: &str = r#"  - name: jede-regel-erwaehnt
    doc: docs/STAND.md
    section: Anwendung
    members:
      read: mentions("Regeln?")
      includes: numbers(rules where set == "FIDELITY")
"#;

#[test]
fn includes_clean_twin_is_silent() {
    // Rule 1 twice, rule 3 only after `+`, and a rule the set does not have: all fine.
    let doc = format!("{LEITFADEN}Die alte Regel 99 ist längst ersetzt.\n");
    let (loud, code, v) = verify(&with_claims(&doc, INCLUDES_CLAIM));
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn includes_a_rule_no_longer_mentioned_is_caught() {
    let doc = LEITFADEN.replace("Regeln 5, 6 und 12", "Regeln 5 und 6");
    let (loud, code, v) = verify(&with_claims(&doc, INCLUDES_CLAIM));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB652", 5)], "{v:#}");
    assert!(messages(&v, "AB652").contains("has `12`, but section \"Anwendung\""));
}

#[test]
fn repeated_mentions_in_prose_are_not_repeats_and_equals_still_finds_strangers() {
    // The same prose held with `equals`: rule 1 named twice is no AB654 (prose repeats);
    // a rule the set lacks is AB653.
    let claim = INCLUDES_CLAIM.replace("includes:", "equals:");
    let (loud, code, v) = verify(&with_claims(LEITFADEN, &claim));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    let doc = LEITFADEN.replace("Regeln 5, 6 und 12", "Regeln 5, 6, 12 und 13");
    let (loud, _, v) = verify(&with_claims(&doc, &claim));
    assert_eq!(loud, [l("AB653", 6)], "{v:#}");
}

// ---- numbering without gaps, and order ------------------------------------------------------

const REGELN: &str = "# Regeln

## Regel 1 — Scope senden

## Regel 2 — Gruppen senden

## Regel 3 — Leere Treffer

## Regel 4 — Struktur zählen
";

const UEBERSICHT: &str = "# Stand

## Übersicht

1. Scope senden
2. Gruppen senden
3. Leere Treffer
4. Struktur zählen
";

const NUMBERING_CLAIM: &str = r#"  - name: regelliste
    doc: docs/STAND.md
    section: Übersicht
    members:
      read: list
      equals: 'headings("^Regel (\d+)") in "docs/REGELN.md"'
      contiguous: true
      ordered: true
"#;

fn numbered(list: &str, headings: &str) -> Fixture {
    with_docs(
        &[("docs/STAND.md", list), ("docs/REGELN.md", headings)],
        NUMBERING_CLAIM,
    )
}

#[test]
fn numbering_clean_twin_is_silent() {
    let (loud, code, v) = verify(&numbered(UEBERSICHT, REGELN));
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn a_rule_renumbered_everywhere_leaves_a_gap() {
    // Rule 4 is 5 in the list and in the headings alike: the sets agree, the gap does not.
    let (loud, code, v) = verify(&numbered(
        &UEBERSICHT.replace("4. Struktur", "5. Struktur"),
        &REGELN.replace("Regel 4 —", "Regel 5 —"),
    ));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB657", 8)], "{v:#}");
    assert!(
        messages(&v, "AB657").contains("jumps from 3 to 5: 4 is missing (read: 1, 2, 3, 5)"),
        "{v:#}"
    );
}

#[test]
fn two_swapped_list_items_are_out_of_order() {
    let (loud, code, v) = verify(&numbered(
        &UEBERSICHT.replace(
            "2. Gruppen senden\n3. Leere Treffer",
            "3. Leere Treffer\n2. Gruppen senden",
        ),
        REGELN,
    ));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB658", 7)], "{v:#}");
    assert!(
        messages(&v, "AB658").contains("`2` (line 7) comes after `3` (line 6)"),
        "{v:#}"
    );
}

#[test]
fn two_swapped_categories_are_out_of_order() {
    let claim = r#"  - name: kategorien-folge
    doc: docs/STAND.md
    section: Kategorien
    members:
      read: bullets
      equals: ids(categories)
      ordered: true
"#;
    let doc = "# Stand\n\n## Kategorien\n\n- `DRIFT` — Quelldrift\n- `FID` — Datentreue\n";
    let (loud, code, v) = verify(&with_claims(doc, claim));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    let swapped = "# Stand\n\n## Kategorien\n\n- `FID` — Datentreue\n- `DRIFT` — Quelldrift\n";
    let (loud, _, v) = verify(&with_claims(swapped, claim));
    assert_eq!(loud, [l("AB658", 6)], "{v:#}");
}

// ---- exactly N matches ----------------------------------------------------------------------

const STAND_ZEILE: &str = "# Stand

## Umfang

Stand: 13 Checks in zwei Kategorien.

Weiter unten steht nichts mehr dazu.
";

const MATCHES_CLAIM: &str = r#"  - name: stand-zeile
    doc: docs/STAND.md
    section: Umfang
    pattern: 'Stand: (?P<n>\d+) Checks'
    matches: 1
    expect:
      n: count(checks)
"#;

#[test]
fn one_stand_line_clean_twin_is_silent() {
    let (loud, code, v) = verify(&with_claims(STAND_ZEILE, MATCHES_CLAIM));
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn a_second_stand_line_is_caught_even_when_it_agrees() {
    let doc = STAND_ZEILE.replace(
        "Weiter unten steht nichts mehr dazu.",
        "Nachtrag — Stand: 13 Checks.",
    );
    let (loud, code, v) = verify(&with_claims(&doc, MATCHES_CLAIM));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB659", 7)], "{v:#}");
    assert!(
        messages(&v, "AB659").contains("matches again at line 7 of section \"Umfang\" of `docs/STAND.md` (first at line 5); the claim expects it once"),
        "{v:#}"
    );
    // Without `matches`, an agreeing copy is no finding: that is what the key is for.
    let (loud, _, _) = verify(&with_claims(
        &doc,
        &MATCHES_CLAIM.replace("    matches: 1\n", ""),
    ));
    assert_eq!(loud, []);
}

#[test]
fn fewer_matches_than_declared_are_caught_at_the_claim() {
    let f = with_claims(
        STAND_ZEILE,
        &MATCHES_CLAIM.replace("matches: 1", "matches: 2"),
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(
        loud,
        [l("AB659", config_line(&f, "name: stand-zeile"))],
        "{v:#}"
    );
}

#[test]
fn one_category_list_split_and_counted() {
    let claim = r#"  - name: kategorienliste
    doc: docs/STAND.md
    pattern: 'Kategorien: (?P<k>[^.]*)\.'
    matches: 1
    members:
      read: split(", ")
      equals: ids(categories)
"#;
    let doc = "# Stand\n\nKategorien: `DRIFT`, `FID`.\n";
    let (loud, code, v) = verify(&with_claims(doc, claim));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    let twice =
        "# Stand\n\nKategorien: `DRIFT`, `FID`.\n\nNoch einmal: Kategorien: `DRIFT`, `FID`.\n";
    let (loud, _, v) = verify(&with_claims(twice, claim));
    // The second copy is the finding; its members are a list's repeats besides.
    assert_eq!(loud, [l("AB659", 5), l("AB654", 5), l("AB654", 5)], "{v:#}");
}

// ---- forbidden patterns and value sets in check bodies, in one section ----------------------

const CRITERIA_CLAIM: &str = r#"  - name: pruefkriterien
    require:
      - where: 'id == "FID-002"'
        section: Pass Criteria
        forbid: '(?i)\bTODO\b'
        each:
          pattern: '(?m)^- \[[ x]\] \*\*(\w+)\*\*'
          in: [Pflicht, Empfehlung]
        message: "Prüfkriterien sind fertig und nennen ihre Stufe"
"#;

/// FID-002 with a level on each criterion and a TODO outside the section the claim reads.
fn criteria(criteria: &str) -> Fixture {
    let f = with_claims(STAND_ZEILE, CRITERIA_CLAIM);
    f.edit(
        "checks/FID-002.md",
        "Recall floors in live tests.\n",
        "Recall floors in live tests. TODO: Quelle nachtragen.\n",
    );
    f.edit(
        "checks/FID-002.md",
        "- [ ] The property holds.\n- [ ] A test shows it.\n",
        criteria,
    );
    f
}

const CRITERIA: &str =
    "- [ ] **Pflicht** The property holds.\n- [ ] **Empfehlung** A test shows it.\n";

/// (code, file, line, column) of every error and warning.
fn placed(f: &Fixture) -> Vec<(String, String, u64, u64)> {
    let (v, _) = f.json_and_code(&["verify", "--format", "json"]);
    loud_in(&v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["file"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn at(code: &str, file: &str, line: u64, col: u64) -> (String, String, u64, u64) {
    (code.into(), file.into(), line, col)
}

#[test]
fn criteria_clean_twin_is_silent() {
    // The TODO in the description is outside `## Pass Criteria`, which the claim reads.
    assert_eq!(placed(&criteria(CRITERIA)), []);
}

#[test]
fn a_value_outside_the_set_and_a_forbidden_word_are_caught_where_they_stand() {
    let f = criteria(
        "- [ ] **Pflicht** The property holds.\n- [ ] **Optional** A test shows it.\n- [ ] TODO: Schwelle festlegen.\n",
    );
    assert_eq!(
        placed(&f),
        [
            at("AB637", "checks/FID-002.md", 19, 9),
            at("AB637", "checks/FID-002.md", 20, 7)
        ]
    );
    let (v, _) = f.json_and_code(&["verify", "--format", "json"]);
    let m = messages(&v, "AB637");
    assert!(
        m.contains("says `Optional` in `## Pass Criteria` where"),
        "{m}"
    );
    assert!(
        m.contains("one of Pflicht, Empfehlung — Prüfkriterien sind fertig"),
        "{m}"
    );
    assert!(
        m.contains("has `TODO` in `## Pass Criteria`, which `forbid: (?i)\\bTODO\\b` rules out"),
        "{m}"
    );
}

#[test]
fn the_section_a_requirement_reads_gone_is_caught_at_the_body() {
    let f = criteria(CRITERIA);
    f.edit("checks/FID-002.md", "## Pass Criteria", "## Kriterien");
    assert_eq!(placed(&f), [at("AB637", "checks/FID-002.md", 10, 0)]);
    let (v, _) = f.json_and_code(&["verify", "--format", "json"]);
    assert!(messages(&v, "AB637")
        .contains("has no section `## Pass Criteria`, which the requirement reads"));
}

// ---- an existence claim, and where a vanished whole-document sentence is reported ----------

const LIZENZ: &str = "# Stand\n\n## Lizenz\n\nDer Katalog steht unter der Apache-Lizenz 2.0.\n";

const EXISTS_CLAIM: &str = r#"  - name: lizenz
    doc: docs/STAND.md
    section: Lizenz
    pattern: 'steht unter der Apache-Lizenz 2\.0'
"#;

#[test]
fn existence_clean_twin_is_silent() {
    let (loud, code, v) = verify(&with_claims(LIZENZ, EXISTS_CLAIM));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    // No `expect` is no longer a claim error: the claim holds the sentence itself.
    assert!(messages(&v, "AB610").is_empty());
}

#[test]
fn a_sentence_that_vanished_is_caught_at_its_section() {
    let doc = LIZENZ.replace("Apache-Lizenz 2.0", "MIT-Lizenz");
    let (loud, code, v) = verify(&with_claims(&doc, EXISTS_CLAIM));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB612", 3)], "{v:#}");
}

#[test]
fn a_whole_document_sentence_that_vanished_is_caught_at_the_claim_s_pattern() {
    let claim = r#"  - name: lizenz-jahr
    doc: docs/STAND.md
    pattern: 'steht seit (?P<n>\d+) Prüfungen unter der Apache-Lizenz 2\.0'
    expect:
      n: '<= count(checks)'
"#;
    let doc = "# Stand\n\nDer Katalog steht seit 10 Prüfungen unter der Apache-Lizenz 2.0.\n";
    let (loud, code, v) = verify(&with_claims(doc, claim));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    let doc = doc.replace("Apache-Lizenz 2.0", "MIT-Lizenz");
    let f = with_claims(&doc, claim);
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    assert_eq!(code, 1);
    let found: Vec<(String, String, u64, u64)> = loud_in(&v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["file"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let line = config_line(&f, "pattern: 'steht seit");
    assert_eq!(found, [at("AB612", "catalogue.yaml", line, 5)], "{v:#}");
    assert!(messages(&v, "AB612").contains("no longer matches in `docs/STAND.md`"));
}

// ---- the mentions of one sentence ------------------------------------------------------------

const VERBINDLICH: &str = "# Stand

## Verbindlich

Verbindlich sind die Regeln 1, 2, 3 und 5. Beratend bleiben Regel 6 und Regel 12.
";

const SENTENCE_CLAIM: &str = r#"  - name: verbindliche-regeln
    doc: docs/STAND.md
    section: Verbindlich
    pattern: '(?m)Verbindlich sind (?P<satz>[^.]*)\.'
    matches: 1
    members:
      read: mentions("Regeln?")
      equals: numbers(rules where set == "FIDELITY" and adoption == "enforced")
"#;

#[test]
fn mentions_of_one_sentence_clean_twin_is_silent() {
    let (loud, code, v) = verify(&with_claims(VERBINDLICH, SENTENCE_CLAIM));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    // Read over the whole section, the advisory rules of the next sentence count too.
    let whole = SENTENCE_CLAIM.replace(
        "    pattern: '(?m)Verbindlich sind (?P<satz>[^.]*)\\.'\n    matches: 1\n",
        "",
    );
    assert_ne!(whole, SENTENCE_CLAIM);
    let (loud, _, v) = verify(&with_claims(VERBINDLICH, &whole));
    assert_eq!(loud, [l("AB653", 5), l("AB653", 5)], "{v:#}");
}

#[test]
fn a_rule_dropped_from_the_sentence_is_caught() {
    let doc = VERBINDLICH.replace("die Regeln 1, 2, 3 und 5", "die Regeln 1, 2 und 5");
    let (loud, code, v) = verify(&with_claims(&doc, SENTENCE_CLAIM));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB652", 5)], "{v:#}");
    assert!(messages(&v, "AB652").contains("has `3`"), "{v:#}");
}

// ---- soft line breaks: never inside fenced code, never in a YAML or Python document ---------

const ARCHIV: &str = "# Stand

## Umfang

Der Katalog umfasst 13 Checks.

```text
$ auditbook stats --archiv
Stand: 7
Checks im Archiv
```
";

const UMFANG_CLAIM: &str = r#"  - name: umfang
    doc: docs/STAND.md
    section: Umfang
    pattern: '(?P<n>\d+) Checks'
    expect:
      n: count(checks)
"#;

#[test]
fn lines_of_a_code_example_are_not_joined_into_a_sentence() {
    let (loud, code, v) = verify(&with_claims(ARCHIV, UMFANG_CLAIM));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    // The prose itself is still read.
    let doc = ARCHIV.replace("umfasst 13 Checks", "umfasst 12 Checks");
    let (loud, _, v) = verify(&with_claims(&doc, UMFANG_CLAIM));
    assert_eq!(loud, [l("AB613", 5)], "{v:#}");
}

#[test]
fn lines_of_a_yaml_document_are_not_joined() {
    let claim = r#"  - name: gate-stand
    doc: gates/stand.yaml
    pattern: '(?m)^checks: (?P<n>\d+)$'
    expect:
      n: count(checks)
"#;
    let yaml = "stand: 7\nchecks im archiv: 3\nchecks: 13\n";
    let (loud, code, v) = verify(&with_docs(&[("gates/stand.yaml", yaml)], claim));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    let (loud, _, v) = verify(&with_docs(
        &[(
            "gates/stand.yaml",
            &yaml.replace("checks: 13", "checks: 14"),
        )],
        claim,
    ));
    assert_eq!(loud, [l("AB613", 3)], "{v:#}");
    // A pattern that a joined line would satisfy finds nothing in a file of lines.
    let joined = claim.replace("'(?m)^checks: (?P<n>\\d+)$'", "'(?P<n>\\d+) checks'");
    let (loud, _, v) = verify(&with_docs(&[("gates/stand.yaml", yaml)], &joined));
    assert_eq!(
        loud.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(),
        ["AB612"],
        "{v:#}"
    );
}

// ---- `gap:` matches the cell as written -----------------------------------------------------

#[test]
fn a_gap_pattern_with_emphasis_marks_matches_the_cell_as_written() {
    let table = crate::claims_forms::TRANSPORT_TABLE
        .replace("gap: 'Kein Check deckt sie ab'", r"gap: '^\*\*Kein Check'");
    let marked = TRANSPORT
        .replace(
            "| Kein Check deckt sie ab |",
            "| **Kein Check** deckt sie ab |",
        )
        .replace(
            "[DRIFT-002](../checks/DRIFT-002.md) | |",
            "[DRIFT-002](../checks/DRIFT-002.md) | **Kein Check** deckt sie ab |",
        );
    // Row 2 is a gap: DRIFT-002 loses its coverage, which its set requires.
    let (v, code) = with_rule_sets(&marked, &table, "").lint_json();
    assert_eq!(code, 1);
    let found: Vec<&str> = loud_in(&v)
        .into_iter()
        .map(|d| d["code"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(found, ["AB413"], "{v:#}");
    // The twin: only row 3 is marked, and every required check is covered.
    let twin = TRANSPORT.replace(
        "| Kein Check deckt sie ab |",
        "| **Kein Check** deckt sie ab |",
    );
    let (v, code) = with_rule_sets(&twin, &table, "").lint_json();
    assert_eq!((loud_in(&v).len(), code), (0, 0), "{v:#}");
}

// ---- table claims: one total row, a total's message over every key ---------------------------

#[test]
fn a_second_total_row_is_caught() {
    use crate::claims_forms::{TABELLE, TABLE_CLAIM};
    let doc = TABELLE.replace(
        "| **Total** | **13** | 1 critical · 6 high · 5 medium · 1 low | 10 |\n",
        "| **Total** | **13** | 1 critical · 6 high · 5 medium · 1 low | 10 |\n| **Total** | **14** | | |\n",
    );
    let (loud, code, v) = verify(&with_claims(&doc, TABLE_CLAIM));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB632", 10)], "{v:#}");
    assert!(
        messages(&v, "AB632").contains("a second `Total` row (the first is at line 9)"),
        "{v:#}"
    );
}

#[test]
fn a_wrong_total_names_the_sum_over_every_key() {
    use crate::claims_forms::{TABELLE, TABLE_CLAIM};
    let doc = TABELLE.replace("| **Total** | **13** |", "| **Total** | **14** |");
    let (loud, _, v) = verify(&with_claims(&doc, TABLE_CLAIM));
    assert_eq!(loud, [l("AB613", 9)], "{v:#}");
    assert!(
        messages(&v, "AB613").contains("the catalogue has 13 (the sum of `count(checks where category == $key)` over `ids(categories)`)"),
        "{v:#}"
    );
}

// ---- a strict list piece that names nothing, or two members ----------------------------------

#[test]
fn a_strict_list_piece_says_what_it_is() {
    let claim = r#"  - name: kategorien
    doc: docs/STAND.md
    pattern: '\((?P<n>\d+) Kategorien: (?P<cats>[^;]*);'
    strict: [cats]
    expect:
      n: count(categories)
      cats: ids(categories)
"#;
    let clean = "# Stand\n\n(2 Kategorien: `DRIFT` und `FID`; jede mit eigener Baseline)\n";
    let (loud, code, v) = verify(&with_claims(clean, claim));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    let two = clean.replace("`DRIFT` und `FID`", "`DRIFT` `FID`");
    let (loud, _, v) = verify(&with_claims(&two, claim));
    assert_eq!(loud, [l("AB619", 3)], "{v:#}");
    assert!(
        messages(&v, "AB619")
            .contains("names 2 categories in one piece (DRIFT, FID): separate them"),
        "{v:#}"
    );
    let none = clean.replace("`DRIFT` und `FID`", "`DRIFT`, `FID` und weitere");
    let (loud, _, v) = verify(&with_claims(&none, claim));
    assert_eq!(loud, [l("AB619", 3)], "{v:#}");
    assert!(
        messages(&v, "AB619").contains("`weitere` names no category"),
        "{v:#}"
    );
}

// ---- backslashes in `where` ------------------------------------------------------------------

#[test]
fn a_single_backslash_in_a_where_string_says_how_to_write_it() {
    let claim = r#"  - name: erste-pruefungen
    doc: docs/STAND.md
    pattern: 'Die ersten (?P<n>\w+) Prüfungen'
    expect:
      n: 'count(checks where id matches "^FID-00\\d$")'
"#;
    let doc = "# Stand\n\nDie ersten sechs Prüfungen der Datentreue.\n";
    let (loud, code, v) = verify(&with_claims(doc, claim));
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
    let single = claim.replace("\\\\d", "\\d");
    assert_ne!(single, claim);
    let (loud, _, v) = verify(&with_claims(doc, &single));
    assert_eq!(loud.len(), 1, "{v:#}");
    assert_eq!(loud[0].0, "AB610");
    assert!(
        messages(&v, "AB610").contains("unknown escape `\\d` in string (the escapes are"),
        "{v:#}"
    );
    assert!(
        messages(&v, "AB610").contains("write `\\\\` for a backslash"),
        "{v:#}"
    );
}
