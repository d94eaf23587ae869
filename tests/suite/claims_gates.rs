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

/// `verify` finds nothing to say and exits 0.
#[track_caller]
fn silent(f: &Fixture) {
    let (loud, code, v) = verify(f);
    assert_eq!((loud, code), (vec![], 0), "{v:#}");
}

/// `verify` fails with exactly `want` (code, line), and the messages of the first code say
/// `says`.
#[track_caller]
fn caught(f: &Fixture, want: &[(&str, u64)], says: &str) {
    let (loud, code, v) = verify(f);
    let want: Vec<(String, u64)> = want.iter().map(|(c, n)| l(c, *n)).collect();
    assert_eq!((loud, code), (want.clone(), 1), "{v:#}");
    assert!(messages(&v, &want[0].0).contains(says), "{v:#}");
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
    silent(&with_claims(&doc, INCLUDES_CLAIM));
}

#[test]
fn includes_a_rule_no_longer_mentioned_is_caught() {
    let doc = LEITFADEN.replace("Regeln 5, 6 und 12", "Regeln 5 und 6");
    caught(
        &with_claims(&doc, INCLUDES_CLAIM),
        &[("AB652", 5)],
        "has `12`, but section \"Anwendung\"",
    );
}

#[test]
fn repeated_mentions_in_prose_are_not_repeats_and_equals_still_finds_strangers() {
    // The same prose held with `equals`: rule 1 named twice is no AB654 (prose repeats);
    // a rule the set lacks is AB653.
    let claim = INCLUDES_CLAIM.replace("includes:", "equals:");
    silent(&with_claims(LEITFADEN, &claim));
    let doc = LEITFADEN.replace("Regeln 5, 6 und 12", "Regeln 5, 6, 12 und 13");
    caught(&with_claims(&doc, &claim), &[("AB653", 6)], "names `13`");
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
    silent(&numbered(UEBERSICHT, REGELN));
}

#[test]
fn a_rule_renumbered_everywhere_leaves_a_gap() {
    // Rule 4 is 5 in the list and in the headings alike: the sets agree, the gap does not.
    caught(
        &numbered(
            &UEBERSICHT.replace("4. Struktur", "5. Struktur"),
            &REGELN.replace("Regel 4 —", "Regel 5 —"),
        ),
        &[("AB657", 8)],
        "jumps from 3 to 5: 4 is missing (read: 1, 2, 3, 5)",
    );
}

#[test]
fn two_swapped_list_items_are_out_of_order() {
    caught(
        &numbered(
            &UEBERSICHT.replace(
                "2. Gruppen senden\n3. Leere Treffer",
                "3. Leere Treffer\n2. Gruppen senden",
            ),
            REGELN,
        ),
        &[("AB658", 7)],
        "`2` (line 7) comes after `3` (line 6)",
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
    silent(&with_claims(doc, claim));
    let swapped = "# Stand\n\n## Kategorien\n\n- `FID` — Datentreue\n- `DRIFT` — Quelldrift\n";
    caught(
        &with_claims(swapped, claim),
        &[("AB658", 6)],
        "`DRIFT` (line 6) comes after `FID` (line 5)",
    );
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
    silent(&with_claims(STAND_ZEILE, MATCHES_CLAIM));
}

#[test]
fn a_second_stand_line_is_caught_even_when_it_agrees() {
    let doc = STAND_ZEILE.replace(
        "Weiter unten steht nichts mehr dazu.",
        "Nachtrag — Stand: 13 Checks.",
    );
    caught(
        &with_claims(&doc, MATCHES_CLAIM),
        &[("AB659", 7)],
        "matches again at line 7 of section \"Umfang\" of `docs/STAND.md` (first at line 5); the claim expects it once",
    );
    // Without `matches`, an agreeing copy is no finding: that is what the key is for.
    silent(&with_claims(
        &doc,
        &MATCHES_CLAIM.replace("    matches: 1\n", ""),
    ));
}

#[test]
fn fewer_matches_than_declared_are_caught_at_the_claim() {
    let f = with_claims(
        STAND_ZEILE,
        &MATCHES_CLAIM.replace("matches: 1", "matches: 2"),
    );
    let line = config_line(&f, "name: stand-zeile");
    caught(&f, &[("AB659", line)], "matches once in section");
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
    silent(&with_claims(doc, claim));
    let twice =
        "# Stand\n\nKategorien: `DRIFT`, `FID`.\n\nNoch einmal: Kategorien: `DRIFT`, `FID`.\n";
    // The second copy is the finding; its members are a list's repeats besides.
    caught(
        &with_claims(twice, claim),
        &[("AB659", 5), ("AB654", 5), ("AB654", 5)],
        "the claim expects it once",
    );
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
    // No `expect` is no longer a claim error: the claim holds the sentence itself.
    silent(&with_claims(LIZENZ, EXISTS_CLAIM));
}

#[test]
fn a_sentence_that_vanished_is_caught_at_its_section() {
    let doc = LIZENZ.replace("Apache-Lizenz 2.0", "MIT-Lizenz");
    caught(
        &with_claims(&doc, EXISTS_CLAIM),
        &[("AB612", 3)],
        "no longer matches in section \"Lizenz\" of `docs/STAND.md`",
    );
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
    silent(&with_claims(doc, claim));
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
    silent(&with_claims(VERBINDLICH, SENTENCE_CLAIM));
    // Read over the whole section, the advisory rules of the next sentence count too.
    let whole = SENTENCE_CLAIM.replace(
        "    pattern: '(?m)Verbindlich sind (?P<satz>[^.]*)\\.'\n    matches: 1\n",
        "",
    );
    assert_ne!(whole, SENTENCE_CLAIM);
    caught(
        &with_claims(VERBINDLICH, &whole),
        &[("AB653", 5), ("AB653", 5)],
        "names `6`",
    );
}

#[test]
fn a_rule_dropped_from_the_sentence_is_caught() {
    let doc = VERBINDLICH.replace("die Regeln 1, 2, 3 und 5", "die Regeln 1, 2 und 5");
    caught(
        &with_claims(&doc, SENTENCE_CLAIM),
        &[("AB652", 5)],
        "has `3`",
    );
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
    silent(&with_claims(ARCHIV, UMFANG_CLAIM));
    // The prose itself is still read.
    let doc = ARCHIV.replace("umfasst 13 Checks", "umfasst 12 Checks");
    caught(
        &with_claims(&doc, UMFANG_CLAIM),
        &[("AB613", 5)],
        "the document says 12",
    );
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
    silent(&with_docs(&[("gates/stand.yaml", yaml)], claim));
    let drifted = yaml.replace("checks: 13", "checks: 14");
    caught(
        &with_docs(&[("gates/stand.yaml", &drifted)], claim),
        &[("AB613", 3)],
        "the document says 14",
    );
    // A pattern that a joined line would satisfy finds nothing in a file of lines.
    let joined = claim.replace("'(?m)^checks: (?P<n>\\d+)$'", "'(?P<n>\\d+) checks'");
    let f = with_docs(&[("gates/stand.yaml", yaml)], &joined);
    let line = config_line(&f, "pattern: '(?P<n>");
    caught(
        &f,
        &[("AB612", line)],
        "no longer matches in `gates/stand.yaml`",
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
    caught(
        &with_claims(&doc, TABLE_CLAIM),
        &[("AB632", 10)],
        "a second `Total` row (the first is at line 9)",
    );
}

#[test]
fn a_wrong_total_names_the_sum_over_every_key() {
    use crate::claims_forms::{TABELLE, TABLE_CLAIM};
    let doc = TABELLE.replace("| **Total** | **13** |", "| **Total** | **14** |");
    caught(
        &with_claims(&doc, TABLE_CLAIM),
        &[("AB613", 9)],
        "the catalogue has 13 (the sum of `count(checks where category == $key)` over `ids(categories)`)",
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
    silent(&with_claims(clean, claim));
    let two = clean.replace("`DRIFT` und `FID`", "`DRIFT` `FID`");
    caught(
        &with_claims(&two, claim),
        &[("AB619", 3)],
        "names 2 categories in one piece (DRIFT, FID): separate them",
    );
    let none = clean.replace("`DRIFT` und `FID`", "`DRIFT`, `FID` und weitere");
    caught(
        &with_claims(&none, claim),
        &[("AB619", 3)],
        "`weitere` names no category",
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
    silent(&with_claims(doc, claim));
    let single = claim.replace("\\\\d", "\\d");
    assert_ne!(single, claim);
    let f = with_claims(doc, &single);
    let line = config_line(&f, "name: erste-pruefungen");
    caught(
        &f,
        &[("AB610", line)],
        "unknown escape `\\d` in string (the escapes are `\\\\`, `\\\"`, `\\'`, `\\n` and `\\t`; write `\\\\` for a backslash)",
    );
}
