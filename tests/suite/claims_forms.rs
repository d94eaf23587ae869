//! The forms of the claims language beyond a plain pattern (catalogue format, section 7): skip
//! regions, string predicates in `where`, strict id lists, comparisons and arithmetic. Each
//! form: the planted defect is found with its code and line, the clean twin is silent.

use crate::common;

use common::{loud_in, Fixture};
use serde_json::Value;

/// The German data-fidelity fixture with one more document, `docs/STAND.md`, and the claims
/// given appended to its catalogue.yaml.
pub(crate) fn with_claims(doc: &str, claims: &str) -> Fixture {
    let f = Fixture::new("graph");
    f.write("docs/STAND.md", doc);
    let yaml = f.read("catalogue.yaml");
    f.write("catalogue.yaml", &format!("{yaml}{claims}"));
    f
}

/// (code, line) of every error and warning `verify` reports, and the exit code.
pub(crate) fn verify(f: &Fixture) -> (Vec<(String, u64)>, i32, Value) {
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    let loud = loud_in(&v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (loud, code, v)
}

pub(crate) fn l(code: &str, line: u64) -> (String, u64) {
    (code.to_string(), line)
}

pub(crate) fn messages(v: &Value, code: &str) -> String {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| d["message"].as_str().unwrap_or("").to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

// ---- skip regions ------------------------------------------------------------------------

const STAND: &str = "# Stand des Katalogs

## Umfang

Der Katalog umfasst 13 Checks. Eine Zeile
weiter: Wir zählen weiterhin 13 Checks, geprüft am Montag.

| Kategorie | Umfang |
|---|---|
| FID | 6 Checks |
| DRIFT | 7 Checks |

```text
$ auditbook stats
99 Checks
```

> Im Vorjahr waren es 11 Checks (zitiert aus dem alten README).

Zum Schluss: 13 Checks, ohne Ausnahme.
";

const SKIP_CLAIM: &str = r#"  - name: umfang-prosa
    doc: docs/STAND.md
    section: Umfang
    pattern: '(?P<n>\d+) Checks'
    skip: [tables, code, quotes]
    expect:
      n: count(checks)
"#;

#[test]
fn skip_regions_clean_twin_is_silent() {
    let f = with_claims(STAND, SKIP_CLAIM);
    let (loud, code, v) = verify(&f);
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn without_skip_tables_code_and_quotes_are_read() {
    // The same claim without `skip`: every number in the table, the example and the quote is
    // held to the count, which is why `skip` exists.
    let f = with_claims(
        STAND,
        &SKIP_CLAIM.replace("    skip: [tables, code, quotes]\n", ""),
    );
    let (loud, code, _) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(
        loud,
        [
            l("AB613", 10),
            l("AB613", 11),
            l("AB613", 15),
            l("AB613", 18)
        ]
    );
}

#[test]
fn skip_regions_every_prose_match_is_checked() {
    // The second sentence of the first paragraph drifts; the first and the last stay right.
    let f = with_claims(
        &STAND.replace("weiterhin 13 Checks", "weiterhin 12 Checks"),
        SKIP_CLAIM,
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB613", 6)]);
    assert!(
        messages(&v, "AB613").contains("the document says 12 (`12`), the catalogue has 13"),
        "{v:#}"
    );
}

#[test]
fn skip_regions_everything_skipped_is_unmatched() {
    // Only the table and the quote still say it: with them skipped the claim matches nothing,
    // which is an error at the section heading, not silence.
    let doc = "# Stand\n\n## Umfang\n\n| FID | 13 Checks |\n|---|---|\n\n> 13 Checks\n";
    let f = with_claims(doc, SKIP_CLAIM);
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB612", 3)]);
    assert!(messages(&v, "AB612").contains("no longer matches"));
}

#[test]
fn skip_regions_unknown_kind_is_reported() {
    let f = with_claims(STAND, &SKIP_CLAIM.replace("quotes]", "zitate]"));
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let bad: Vec<&Value> = loud_in(&v)
        .into_iter()
        .filter(|d| d["code"] == "AB120")
        .collect();
    assert_eq!(bad.len(), 1, "{v:#}");
    assert!(bad[0]["message"]
        .as_str()
        .unwrap_or("")
        .contains("unknown variant `zitate`"));
}

// ---- string tests in `where` -------------------------------------------------------------

const EXTERN: &str = "# Stand des Katalogs

## Extern

Nur bei externen Anfragen gelten vier Checks: DRIFT-002, FID-001, FID-003 und FID-006.
Live-Tests betreffen 4 Checks; 7 Checks tragen das Präfix `DRIFT`, und 3 Titel
enden auf „tests“.
";

const TEXT_CLAIMS: &str = r#"  - name: extern
    doc: docs/STAND.md
    section: Extern
    pattern: 'Nur bei externen Anfragen gelten (?P<n>\w+) Checks: (?P<ids>[^.]*)\.'
    expect:
      n: count(checks where applies_when contains "tools_make_external_requests")
      ids: ids(checks where applies_when contains "tools_make_external_requests")
  - name: titel
    doc: docs/STAND.md
    section: Extern
    pattern: 'Live-Tests betreffen (?P<live>\d+) Checks; (?P<drift>\d+) Checks tragen das Präfix `DRIFT`, und (?P<tests>\d+) Titel'
    expect:
      live: count(checks where title matches "(?i)\\blive\\b")
      drift: count(checks where id starts_with "DRIFT-")
      tests: count(checks where title ends_with "tests")
"#;

#[test]
fn string_tests_clean_twin_is_silent() {
    let f = with_claims(EXTERN, TEXT_CLAIMS);
    let (loud, code, v) = verify(&f);
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn string_tests_select_what_the_text_says() {
    // FID-003 stops depending on external requests; FID-005's title loses "live tests".
    let f = with_claims(EXTERN, TEXT_CLAIMS);
    f.edit(
        "checks/FID-003.md",
        "applies_when: 'tools_make_external_requests == true'",
        "applies_when: 'always'",
    )
    .edit(
        "checks/FID-002.md",
        "Recall floors in live tests",
        "Recall floors",
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(
        loud,
        [l("AB613", 5), l("AB615", 5), l("AB613", 6), l("AB613", 6)],
        "{v:#}"
    );
    let m = messages(&v, "AB613");
    assert!(
        m.contains("the document says 4 (`vier`), the catalogue has 3"),
        "{m}"
    );
    assert!(
        m.contains("group `live`: the document says 4 (`4`), the catalogue has 3"),
        "{m}"
    );
    assert!(
        m.contains("group `tests`: the document says 3 (`3`), the catalogue has 2"),
        "{m}"
    );
    assert!(messages(&v, "AB615").contains("FID-003"));
}

#[test]
fn string_tests_that_cannot_be_true_or_do_not_parse_are_claim_errors() {
    let f = with_claims(
        EXTERN,
        &TEXT_CLAIMS
            .replace(
                r#"id starts_with "DRIFT-""#,
                r#"category starts_with "DRIFTS""#,
            )
            .replace(r#"title ends_with "tests""#, r#"title matches "(tests""#),
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert!(loud.iter().all(|(c, _)| c == "AB610"), "{v:#}");
    let m = messages(&v, "AB610");
    assert!(m.contains("no value of `category`"), "{m}");
    assert!(m.contains("`matches` needs a regular expression"), "{m}");
}

// ---- strict list groups ------------------------------------------------------------------

const KATEGORIEN: &str = "# Stand des Katalogs

## Kategorien

Der Katalog ordnet seine Checks
(2 Kategorien: `DRIFT` und `FID`; jede mit eigener Baseline).

## Extern

Nur bei externen Anfragen gelten vier Checks: DRIFT-002, FID-001, [FID-003](../checks/FID-003.md)
und FID-006.
";

const STRICT_CLAIMS: &str = r#"  - name: kategorien
    doc: docs/STAND.md
    section: Kategorien
    pattern: '\((?P<n>\d+) Kategorien: (?P<cats>[^;]*);'
    strict: [cats]
    expect:
      n: count(categories)
      cats: ids(categories)
  - name: extern
    doc: docs/STAND.md
    section: Extern
    pattern: '(?m)gelten (?P<n>\w+) Checks: (?P<ids>.*)\.$'
    strict: [ids]
    expect:
      n: count(checks where applies_when contains "tools_make_external_requests")
      ids: ids(checks where applies_when contains "tools_make_external_requests")
"#;

#[test]
fn strict_lists_clean_twin_is_silent() {
    let f = with_claims(KATEGORIEN, STRICT_CLAIMS);
    let (loud, code, v) = verify(&f);
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn strict_lists_an_ellipsis_is_an_unknown_piece() {
    let doc = KATEGORIEN.replace("`DRIFT` und `FID`", "`DRIFT`, … `FID`");
    let f = with_claims(&doc, STRICT_CLAIMS);
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB619", 6)], "{v:#}");
    // The message says what the piece is and how to write it.
    assert!(
        messages(&v, "AB619").contains(
            "`… `FID` is more than the category `FID`: a strict list names each category alone (write `FID`"
        ),
        "{v:#}"
    );
    // Without `strict` the same list passes: the words it knows are all there.
    let lax = with_claims(&doc, &STRICT_CLAIMS.replace("    strict: [cats]\n", ""));
    assert_eq!(verify(&lax).0, []);
}

#[test]
fn strict_lists_a_repeated_id_and_a_word_that_is_no_id() {
    let doc = KATEGORIEN
        .replace("FID-001, [FID-003]", "FID-001, FID-001, [FID-003]")
        .replace("und FID-006.", "und weitere FID-006.");
    let f = with_claims(&doc, STRICT_CLAIMS);
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB630", 10), l("AB619", 11)], "{v:#}");
    assert!(messages(&v, "AB630").contains("`FID-001` is named a second time"));
    assert!(
        messages(&v, "AB619").contains("`weitere FID-006` is more than the check id `FID-006`"),
        "{v:#}"
    );
}

#[test]
fn strict_names_a_group_that_is_no_list() {
    let f = with_claims(
        KATEGORIEN,
        &STRICT_CLAIMS.replace("strict: [cats]", "strict: [n, nope]"),
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert!(loud.iter().all(|(c, _)| c == "AB610"), "{v:#}");
    let m = messages(&v, "AB610");
    assert!(m.contains("group `n`, which is a count"), "{m}");
    assert!(m.contains("group `nope`, which `expect` does not"), "{m}");
}

// ---- comparisons -------------------------------------------------------------------------

const GRENZEN: &str = "# Stand des Katalogs

## Grenzen

Der Katalog hat weniger als 20 Checks und mehr als
fünf im Bereich `FID`.
";

const BOUND_CLAIM: &str = r#"  - name: grenzen
    doc: docs/STAND.md
    section: Grenzen
    pattern: 'weniger als (?P<max>\d+) Checks und mehr als (?P<min>\w+) im Bereich'
    expect:
      max: '> count(checks)'
      min: '< count(checks where category == "FID")'
"#;

#[test]
fn comparisons_clean_twin_is_silent() {
    let f = with_claims(GRENZEN, BOUND_CLAIM);
    let (loud, code, v) = verify(&f);
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn comparisons_a_bound_that_no_longer_holds() {
    // 13 is not fewer than 13, and six is not more than six.
    let f = with_claims(
        &GRENZEN
            .replace("weniger als 20", "weniger als 13")
            .replace("fünf", "sechs"),
        BOUND_CLAIM,
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB613", 5), l("AB613", 6)], "{v:#}");
    let m = messages(&v, "AB613");
    assert!(
        m.contains("the document says 13 (`13`), which must be > 13"),
        "{m}"
    );
    assert!(
        m.contains("the document says 6 (`sechs`), which must be < 6"),
        "{m}"
    );
}

// ---- table-row claims --------------------------------------------------------------------

pub(crate) const TABELLE: &str = "# Stand des Katalogs

## Kategorien

| Kategorie | Checks | Schweregrade | enforced |
|---|---:|---|---:|
| `DRIFT` | 7 | 2 high · 4 medium · 1 low | 5 |
| **FID** | sechs | 4 high · 1 critical · 1 medium | 5 |
| **Total** | **13** | 1 critical · 6 high · 5 medium · 1 low | 10 |

Die Tabelle zählt jede Kategorie einmal.
";

pub(crate) const TABLE_CLAIM: &str = r#"  - name: kategorien-tabelle
    doc: docs/STAND.md
    section: Kategorien
    table:
      key: Kategorie
      keys: ids(categories)
      total: Total
      columns:
        Checks: count(checks where category == $key)
        Schweregrade: profile(severity, checks where category == $key)
        enforced: count(checks where category == $key and adoption == "enforced")
"#;

#[test]
fn table_rows_clean_twin_is_silent() {
    let f = with_claims(TABELLE, TABLE_CLAIM);
    let (loud, code, v) = verify(&f);
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn table_rows_a_drifted_count_profile_and_total() {
    let doc = TABELLE
        .replace("| `DRIFT` | 7 |", "| `DRIFT` | 8 |")
        .replace("4 high · 1 critical", "3 high · 1 critical")
        .replace("| **13** |", "| **14** |");
    let f = with_claims(&doc, TABLE_CLAIM);
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB613", 7), l("AB613", 8), l("AB613", 9)], "{v:#}");
    let m = messages(&v, "AB613");
    assert!(m.contains("claim `kategorien-tabelle`: row `DRIFT`, column `Checks`: the document says 8 (`8`), the catalogue has 7 (count(checks where category == \"DRIFT\"))"), "{m}");
    assert!(
        m.contains("row `FID`, column `Schweregrade`: the document says 3 high (`3 high · 1 critical · 1 medium`), the catalogue has 4"),
        "{m}"
    );
    assert!(
        m.contains(
            "row `Total`, column `Checks`: the document says 14 (`14`), the catalogue has 13"
        ),
        "{m}"
    );
    // Each finding points at its cell and names the document.
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["line"] == 7)
        .unwrap();
    assert_eq!(d["file"], "docs/STAND.md");
    assert_eq!(d["column"], 13);
}

#[test]
fn table_rows_an_unknown_bucket_word_is_not_read_as_zero() {
    let doc = TABELLE.replace("· 1 critical ·", "· 1 kritisch ·");
    let f = with_claims(&doc, TABLE_CLAIM);
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB613", 8), l("AB633", 8)], "{v:#}");
    assert!(messages(&v, "AB633").contains(
        "`1 kritisch` counts `kritisch`, which is not one of critical, high, medium, low"
    ));
    // Any order, a bucket left out or a dash: zero, and silent when zero is right.
    let doc = TABELLE.replace(
        "1 critical · 6 high · 5 medium · 1 low",
        "6 high · 1 low · 1 critical · 5 medium",
    );
    assert_eq!(verify(&with_claims(&doc, TABLE_CLAIM)).0, []);
}

#[test]
fn table_rows_a_row_for_an_unknown_key_and_a_key_without_a_row() {
    let doc = TABELLE
        .replace("| `DRIFT` | 7 | 2 high · 4 medium · 1 low | 5 |\n", "")
        .replace("| **Total**", "| SEC | 0 | — | 0 |\n| **Total**");
    let f = with_claims(&doc, TABLE_CLAIM);
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB631", 5), l("AB632", 8)], "{v:#}");
    assert!(messages(&v, "AB631").contains(
        "`ids(categories)` selects `DRIFT`, but the table in section \"Kategorien\" of `docs/STAND.md` has no row for it"
    ));
    assert!(
        messages(&v, "AB632").contains("a row for `SEC`, but `ids(categories)` does not know it")
    );
    // A second row for one key is reported at the second.
    let doc = TABELLE.replace(
        "| **Total**",
        "| FID | 6 | 4 high · 1 critical · 1 medium | 5 |\n| **Total**",
    );
    let (loud, _, v) = verify(&with_claims(&doc, TABLE_CLAIM));
    assert_eq!(loud, [l("AB632", 9)], "{v:#}");
    assert!(messages(&v, "AB632").contains("a second row for `FID` (the first is at line 8)"));
}

#[test]
fn table_rows_a_renamed_column_or_a_bad_query_is_reported() {
    let doc = TABELLE.replace("| Schweregrade |", "| Schwere |");
    let (loud, code, v) = verify(&with_claims(&doc, TABLE_CLAIM));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB612", 5)], "{v:#}");
    assert!(messages(&v, "AB612").contains("has no column `Schweregrade`"));
    let claim = TABLE_CLAIM
        .replace("profile(severity,", "profile(gewicht,")
        .replace("adoption == \"enforced\"", "adoptoin == \"enforced\"");
    let (loud, code, v) = verify(&with_claims(TABELLE, &claim));
    assert_eq!(code, 1);
    assert!(loud.iter().all(|(c, _)| c == "AB610"), "{v:#}");
    let m = messages(&v, "AB610");
    assert!(m.contains("column `Schweregrade`"), "{m}");
    assert!(m.contains("column `enforced`"), "{m}");
    // The table gone from its section: unmatched at the heading, not silence.
    let doc = "# Stand\n\n## Kategorien\n\nKeine Tabelle mehr.\n";
    let (loud, _, _) = verify(&with_claims(doc, TABLE_CLAIM));
    assert_eq!(loud, [l("AB612", 3)]);
}

// ---- comparisons between groups, arithmetic, sums, policies ------------------------------

const AUSBAU: &str = "# Stand des Katalogs

## Ausbau

| Kategorie | Ziel | Stand |
|---|---|---|
| DRIFT | 5–8 | 7 / 7 ✅ |
| FID | 4–6 | 6 / 6 ✅ |

Geplant sind rund ~12 Checks, am Ende des Jahres.
";

const AUSBAU_CLAIMS: &str = r#"  - name: ausbau-zeilen
    doc: docs/STAND.md
    section: Ausbau
    pattern: '(?m)^\| (?P<cat>\w+) \| (?P<lo>\d+)–(?P<hi>\d+) \| (?P<n>\d+) / (?P<m>\d+)'
    expect:
      n: count(checks where category == $cat)
      m: '== $n'
      lo: '<= $n'
      hi: '>= $n'
  - name: ausbau-schaetzung
    doc: docs/STAND.md
    section: Ausbau
    pattern: '~(?P<est>\d+) Checks'
    expect:
      est: '>= sum("\| (\d+)–\d+ \|") and <= sum("\| \d+–(\d+) \|")'
  - name: advisory-anteil
    holds: 'count(checks where adoption == "advisory") * 4 <= count(checks)'
"#;

#[test]
fn arithmetic_clean_twin_is_silent() {
    let f = with_claims(AUSBAU, AUSBAU_CLAIMS);
    let (loud, code, v) = verify(&f);
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn arithmetic_per_row_ranges_and_group_against_group() {
    let doc = AUSBAU
        .replace("| DRIFT | 5–8 | 7 / 7 ✅ |", "| DRIFT | 5–8 | 7 / 8 ✅ |")
        .replace("| FID | 4–6 |", "| FID | 4–5 |");
    let (loud, code, v) = verify(&with_claims(&doc, AUSBAU_CLAIMS));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB613", 7), l("AB613", 8)], "{v:#}");
    let m = messages(&v, "AB613");
    assert!(
        m.contains("claim `ausbau-zeilen`, group `m`: the document says 8 (`8`), which must be == 7 (== $n)"),
        "{m}"
    );
    assert!(
        m.contains("group `hi`: the document says 5 (`5`), which must be >= 6 (>= $n)"),
        "{m}"
    );
    // The count itself, bound to the row's category.
    let doc = AUSBAU.replace("| DRIFT | 5–8 | 7 / 7", "| DRIFT | 5–8 | 8 / 8");
    let (loud, _, v) = verify(&with_claims(&doc, AUSBAU_CLAIMS));
    assert_eq!(loud, [l("AB613", 7)], "{v:#}");
    // The query as answered for this row, not as declared with `$cat` in it.
    assert!(messages(&v, "AB613").contains("group `n`: the document says 8 (`8`), which must be == 7 (count(checks where category == \"DRIFT\"))"), "{v:#}");
}

#[test]
fn arithmetic_an_estimate_outside_the_sums() {
    // lo sums to 9, hi to 14.
    let doc = AUSBAU.replace("~12 Checks", "~15 Checks");
    let (loud, code, v) = verify(&with_claims(&doc, AUSBAU_CLAIMS));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB613", 10)], "{v:#}");
    assert!(messages(&v, "AB613").contains("the document says 15 (`15`), which must be <= 14"));
    let doc = AUSBAU.replace("~12 Checks", "~8 Checks");
    let (loud, _, v) = verify(&with_claims(&doc, AUSBAU_CLAIMS));
    assert_eq!(loud, [l("AB613", 10)], "{v:#}");
    assert!(messages(&v, "AB613").contains("which must be >= 9"));
}

#[test]
fn arithmetic_a_row_for_an_unknown_category_is_not_silent() {
    let doc = AUSBAU.replace(
        "| FID | 4–6 | 6 / 6 ✅ |",
        "| FID | 4–6 | 6 / 6 ✅ |\n| SEC | 0–1 | 0 / 0 ✅ |",
    );
    let (loud, code, v) = verify(&with_claims(&doc, AUSBAU_CLAIMS));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB610", 9)], "{v:#}");
    assert!(messages(&v, "AB610").contains("cannot be evaluated for this match"));
}

#[test]
fn arithmetic_a_policy_that_no_longer_holds() {
    // A fourth advisory check: 4 × 4 = 16 is more than the 13 checks.
    let f = with_claims(AUSBAU, AUSBAU_CLAIMS);
    f.edit(
        "checks/FID-005.md",
        "adoption: enforced",
        "adoption: advisory",
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    let yaml = f.read("catalogue.yaml");
    let line = yaml
        .lines()
        .position(|l| l.contains("name: advisory-anteil"))
        .unwrap() as u64
        + 1;
    // The fixture's own claims and region see the new advisory check too; the policy is
    // reported once, at its declaration.
    let policy: Vec<_> = loud.iter().filter(|(c, _)| c == "AB635").collect();
    assert_eq!(policy, [&l("AB635", line)], "{v:#}");
    let m = messages(&v, "AB635");
    assert!(
        m.contains("the left side is 16, which must be <= 13"),
        "{m}"
    );
    assert_eq!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "AB635")
            .unwrap()["file"],
        "catalogue.yaml"
    );
}

#[test]
fn arithmetic_expressions_that_cannot_be_read_are_claim_errors() {
    let claims = AUSBAU_CLAIMS
        .replace("m: '== $n'", "m: '== $anzahl'")
        .replace("* 4 <= count(checks)", "* 4 count(checks)")
        .replace(
            r#"and <= sum("\| \d+–(\d+) \|")"#,
            r#"and <= sum("\| \d+–\d+ \|")"#,
        );
    let (loud, code, v) = verify(&with_claims(AUSBAU, &claims));
    assert_eq!(code, 1);
    assert!(loud.iter().all(|(c, _)| c == "AB610"), "{v:#}");
    let m = messages(&v, "AB610");
    assert!(m.contains("`$anzahl` names no group of the pattern"), "{m}");
    assert!(m.contains("a policy compares two sides"), "{m}");
    assert!(m.contains("sum's pattern needs a group"), "{m}");
}

// ---- rule sets ---------------------------------------------------------------------------

pub(crate) const TRANSPORT: &str = "# Transportregeln

## Regeln für Transporte

Diese Tabelle führt 3 Transportregeln; die Datentreue-Skill führt 6 Regeln.

| Regel | Check | Anmerkung |
|---|---|---|
| **1.** Nur stdio lokal | [DRIFT-001](../checks/DRIFT-001.md) | |
| **2.** HTTP nur hinter Proxy | [DRIFT-002](../checks/DRIFT-002.md) | |
| **3.** Sitzungen überleben Neustarts | [DRIFT-003](../checks/DRIFT-003.md) | Kein Check deckt sie ab |
";

pub(crate) const TRANSPORT_TABLE: &str = r#"    - doc: docs/TRANSPORT.md
      section: "Regeln für Transporte"
      rule_prefix: TRANSPORT
      set: transport
      require_coverage: ['id == "DRIFT-001" or id == "DRIFT-002"']
      gap: 'Kein Check deckt sie ab'
"#;

const SET_CLAIMS: &str = r#"  - name: regelzahl
    doc: docs/TRANSPORT.md
    pattern: 'führt (?P<t>\d+) Transportregeln; die Datentreue-Skill führt (?P<f>\d+) Regeln'
    expect:
      t: count(rules where set == "transport")
      f: count(rules where set == "FIDELITY")
"#;

/// The graph fixture with a second rule table, `docs/TRANSPORT.md`, in a set of its own.
pub(crate) fn with_rule_sets(doc: &str, table: &str, claims: &str) -> Fixture {
    let f = Fixture::new("graph");
    f.write("docs/TRANSPORT.md", doc);
    let yaml = f.read("catalogue.yaml").replacen(
        "require_coverage:\n",
        &format!("{table}require_coverage:\n"),
        1,
    );
    f.write("catalogue.yaml", &format!("{yaml}{claims}"));
    f
}

#[test]
fn rule_sets_clean_twin_is_silent() {
    // Without sets, the second table would demand the FID checks be linked in it too, and
    // count(rules) would count both tables.
    let f = with_rule_sets(TRANSPORT, TRANSPORT_TABLE, SET_CLAIMS);
    let (loud, code, v) = verify(&f);
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
    let (v, _) = f.lint_json();
    let loud: Vec<&Value> = loud_in(&v);
    assert!(loud.is_empty(), "{v:#}");
}

#[test]
fn rule_sets_counts_per_set_and_coverage_scoped_to_its_table() {
    let doc = TRANSPORT
        .replace("führt 3 Transportregeln", "führt 4 Transportregeln")
        .replace(" [DRIFT-002](../checks/DRIFT-002.md) |", " — |");
    let f = with_rule_sets(&doc, TRANSPORT_TABLE, SET_CLAIMS);
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB620", 3), l("AB613", 5)], "{v:#}");
    assert!(messages(&v, "AB613").contains(
        "the document says 4 (`4`), the catalogue has 3 (count(rules where set == \"transport\"))"
    ));
    assert!(messages(&v, "AB620").contains("`DRIFT-002` must be covered (require_coverage), but the rule table in section \"Regeln für Transporte\" of `docs/TRANSPORT.md` does not link it"));
}

#[test]
fn rule_sets_a_gap_row_is_not_coverage() {
    // Row 2 declares a gap: its link is a related check, and DRIFT-002 loses its coverage.
    let doc = TRANSPORT.replace(
        "[DRIFT-002](../checks/DRIFT-002.md) | |",
        "[DRIFT-002](../checks/DRIFT-002.md) | Kein Check deckt sie ab |",
    );
    let f = with_rule_sets(&doc, TRANSPORT_TABLE, SET_CLAIMS);
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let found: Vec<(String, String)> = loud_in(&v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(found.len(), 1, "{v:#}");
    assert_eq!(found[0].0, "AB413");
    assert!(found[0]
        .1
        .contains("`DRIFT-002` must be covered by a rule of set `transport`"));
}

#[test]
fn rule_sets_an_unknown_set_is_a_claim_error() {
    let f = with_rule_sets(
        TRANSPORT,
        TRANSPORT_TABLE,
        &SET_CLAIMS.replace("set == \"transport\"", "set == \"transprt\""),
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud.len(), 1, "{v:#}");
    assert_eq!(loud[0].0, "AB610");
    assert!(messages(&v, "AB610")
        .contains("no rule set `transprt`; the rule sets are FIDELITY, transport"));
}

// ---- version claims ----------------------------------------------------------------------

const VERSION_DOC: &str =
    "# Stand des Katalogs\n\nDiese Fassung ist v0.1.0; sie ersetzt die Vorabversion.\n";

const VERSION_CLAIM: &str = r#"  - name: fassung
    doc: docs/STAND.md
    pattern: 'Diese Fassung ist (?P<v>v?[0-9][0-9A-Za-z.+-]*[0-9A-Za-z])'
    expect:
      v: version
"#;

#[test]
fn version_claims_clean_twin_is_silent() {
    let (loud, code, v) = verify(&with_claims(VERSION_DOC, VERSION_CLAIM));
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn version_claims_an_old_version_in_prose() {
    let doc = VERSION_DOC.replace("v0.1.0", "v2.3.0");
    let (loud, code, v) = verify(&with_claims(&doc, VERSION_CLAIM));
    assert_eq!(code, 1);
    assert_eq!(loud, [l("AB636", 3)], "{v:#}");
    assert!(messages(&v, "AB636").contains(
        "claim `fassung`, group `v`: the document says version `v2.3.0`, catalogue.yaml says `0.1.0`"
    ));
}

// ---- body requirements for a selection ---------------------------------------------------

const REQUIRE_CLAIM: &str = r#"  - name: kritische-quellen
    require:
      - where: 'category == "FID" and severity == "critical"'
        sections: [References]
        pattern: '(?m)^- \[DRIFT-\d+\]'
        message: "kritische Checks nennen den Drift-Check, der ihre Quelle überwacht"
      - where: 'id == "FID-006"'
        sections: [Pass Criteria]
"#;

#[test]
fn requirements_clean_twin_is_silent() {
    let (loud, code, v) = verify(&with_claims(STAND, REQUIRE_CLAIM));
    assert_eq!(loud, [], "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn requirements_a_missing_section_and_line_are_found_in_the_check() {
    let f = with_claims(STAND, REQUIRE_CLAIM);
    f.edit(
        "checks/FID-001.md",
        "## References\n\n- [DRIFT-001](../checks/DRIFT-001.md) — related.",
        "## Quellen\n\n- keine",
    );
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    assert_eq!(code, 1);
    let found: Vec<&Value> = loud_in(&v)
        .into_iter()
        .filter(|d| d["code"] == "AB637")
        .collect();
    assert_eq!(found.len(), 2, "{v:#}");
    for d in &found {
        // At the start of the check's body: the section or line is missing from all of it.
        assert_eq!(d["line"], 10);
        assert_eq!(d["file"], "checks/FID-001.md");
        assert_eq!(d["id"], "FID-001");
    }
    let m = messages(&v, "AB637");
    assert!(m.contains("claim `kritische-quellen`: `FID-001` (selected by `where category == \"FID\" and severity == \"critical\"`) has no section `## References` — kritische Checks nennen"), "{m}");
    assert!(
        m.contains("has no line matching `(?m)^- \\[DRIFT-\\d+\\]`"),
        "{m}"
    );
}

#[test]
fn requirements_a_selection_of_nothing_is_not_silent() {
    let f = with_claims(
        STAND,
        &REQUIRE_CLAIM.replace("id == \"FID-006\"", "id == \"FID-060\""),
    );
    let (loud, code, v) = verify(&f);
    assert_eq!(code, 1);
    assert_eq!(loud.len(), 1, "{v:#}");
    assert_eq!(loud[0].0, "AB637");
    assert!(messages(&v, "AB637").contains("`where id == \"FID-060\"` selects no check"));
    let yaml = f.read("catalogue.yaml");
    let line = yaml
        .lines()
        .position(|l| l.contains("name: kritische-quellen"))
        .unwrap() as u64
        + 1;
    assert_eq!(loud[0].1, line);
}
