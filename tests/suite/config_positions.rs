//! Every finding about `catalogue.yaml` points at the line of the key it is about, as the
//! position table has it: a claim whose name starts another claim's name (in either order),
//! a comment above a key that writes the key, and entries left out for a defect before the
//! one reported never move the line.

use crate::common;

use common::Fixture;
use serde_json::Value;

/// The 1-based line of the line that is exactly `whole` (it must be there once).
fn line_of(text: &str, whole: &str) -> u64 {
    let at: Vec<usize> = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| *l == whole)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(at.len(), 1, "{whole:?} is not one line of:\n{text}");
    at[0] as u64
}

/// (code, line, message) of every finding on catalogue.yaml, sorted.
fn on_config(v: &Value) -> Vec<(String, u64, String)> {
    let mut out: Vec<(String, u64, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"] == "catalogue.yaml")
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// `found` is `want` (code, line, the message's start), in the same order.
#[track_caller]
fn assert_at(found: &[(String, u64, String)], want: &[(String, u64, String)], v: &Value) {
    let places = |x: &[(String, u64, String)]| -> Vec<(String, u64)> {
        x.iter().map(|(c, l, _)| (c.clone(), *l)).collect()
    };
    assert_eq!(places(found), places(want), "{v:#}");
    for ((_, _, msg), (code, _, start)) in found.iter().zip(want) {
        assert!(msg.starts_with(start.as_str()), "{code}: {msg}");
    }
}

/// The graph fixture with this catalogue.yaml, a document the claims read, and FID-004
/// removed (a numbering gap).
fn catalogue(yaml: &str) -> Fixture {
    let f = Fixture::new("graph");
    f.write("catalogue.yaml", yaml);
    f.write(
        "docs/STAND.md",
        "# Stand\n\n## Umfang\n\nDer Katalog zählt 13 Checks.\n",
    );
    f.remove("checks/FID-004.md");
    f
}

/// Each defect below is reported at the line its key is written on; the comment above each
/// key writes the key and its value too, and a line search for the key (or a claim's name)
/// would have found the comment, or the earlier claim whose name starts the same.
const DEFECTS: &str = r#"name: graph-fixture
version: 0.1.0
# id_pattern: '^[A-Z]+-\d+$' was the old pattern
id_pattern: '^[A-Z]{2,6}-\d{3}$('
categories:
  # prefix: FID comes second
  - {prefix: DRIFT, name: Source drift}
  - {prefix: FID, name: Data fidelity}
  - {prefix: FID, name: Fidelity again}
required_sections: [Description, Pass Criteria, References]
retired:
  # id: DRIFT-007 was merged into FID-006
  - id: DRIFT-007
    retired: "2026-08-07"
    merged_into: FID-098
    reason: "Same object and boundary as FID-006."
rules:
  dir: rules
  tables:
    - doc: skills/mcp-data-fidelity/SKILL.md
      section: "Welche Regel welcher Check ist"
      rule_prefix: FIDELITY
      # gap: '(kein' would not compile
      gap: '(kein'
require_coverage:
  # 'categroy == "FID"' was a typo of 'category == "FID"'
  - 'category == "FID"'
  - 'categroy == "FID"'
sets:
  # pilot: [FID-001, FID-099]
  pilot: [FID-001, FID-099]
profile:
  fields:
    tools_make_external_requests: {type: bool}
    transport: {type: string, values: [stdio-only, dual, HTTP/SSE]}
require_sources:
  # where: 'severty == "high"' has a typo
  where: 'severty == "high"'
  # house_practice: '^(Hauspraxis'
  house_practice: '^(Hauspraxis'
docs: [skills/mcp-data-fidelity/SKILL.md, docs/STAND.md, "handbuch/*.md"]
lint:
  allow:
    # - code: AB004 for an old file
    - code: AB004
      file: checks/FID-001.md
      reason: alt
      until: "2020-01-01"
claims:
  # name: stand-zeile is declared below, name: stand first
  - name: stand
    doc: docs/STAND.md
    pattern: '(?P<n>\d+ Checks'
    expect: {n: count(checks)}
  - name: stand-zeile
    doc: docs/STAND.md
    pattern: '(?P<n>\d+) Checks'
    expect: {n: count(chekcs)}
  # name: stand-abschnitt reads a section that is gone; name: stand-zweimal matches once
  - name: stand-abschnitt
    doc: docs/STAND.md
    section: Fehlt
    pattern: '(?P<n>\d+) Checks'
    expect: {n: count(checks)}
  - name: stand-zweimal
    doc: docs/STAND.md
    pattern: 'zählt (?P<n>\d+) Checks'
    matches: 2
    expect: {n: count(checks)}
  - name: stand-nie
    doc: docs/STAND.md
    pattern: 'zählt (?P<n>\d+) Checks'
    matches: 0
    expect: {n: count(checks)}
  - name: anteil-streng
    holds: 'count(checks) < 2'
  - name: anteil
    holds: 'count(checks) < 1'
  - name: nachfolger
    require:
      - where: 'id == "FID-999"'
        sections: [Description]
  - name: nachfolger-alt
    require:
      - where: 'id == "FID-998"'
        sections: [Description]
  # name: handbuch reads every file of the glob
  - name: handbuch-alt
    doc: docs/STAND.md
    pattern: 'zählt (?P<n>\d+) Checks'
    expect: {n: count(checks)}
  - name: handbuch
    doc: "handbuch/*.md"
    pattern: 'Fassung (?P<v>[0-9.]+)'
    expect: {v: version}
"#;

#[test]
fn every_finding_on_the_configuration_is_at_its_key() {
    let f = catalogue(DEFECTS);
    let (v, code) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    assert_eq!(code, 1);
    let at = |whole: &str| line_of(DEFECTS, whole);
    let want = |code: &str, whole: &str, msg: &str| (code.to_string(), at(whole), msg.to_string());
    let mut expected = vec![
        want(
            "AB122",
            "id_pattern: '^[A-Z]{2,6}-\\d{3}$('",
            "id_pattern is not a valid regular express",
        ),
        want(
            "AB405",
            "  - {prefix: FID, name: Data fidelity}",
            "FID-004 is neither a check nor retired",
        ),
        want(
            "AB122",
            "  - {prefix: FID, name: Fidelity again}",
            "category prefix `FID` is declared twice",
        ),
        want(
            "AB402",
            "  - id: DRIFT-007",
            "`DRIFT-007`'s successor `FID-098` is no",
        ),
        want(
            "AB122",
            "      gap: '(kein'",
            "rules.tables gap pattern is not a valid",
        ),
        want(
            "AB421",
            "  - 'categroy == \"FID\"'",
            "require_coverage `categroy == \"FID\"`: u",
        ),
        want(
            "AB650",
            "  pilot: [FID-001, FID-099]",
            "set `pilot` names `FID-099`, which is n",
        ),
        want(
            "AB225",
            "  where: 'severty == \"high\"'",
            "require_sources.where `severty == \"high\"",
        ),
        want(
            "AB122",
            "  house_practice: '^(Hauspraxis'",
            "require_sources.house_practice is not a",
        ),
        want(
            "AB124",
            "    - code: AB004",
            "the acceptance of AB004 in checks/FID-00",
        ),
        want(
            "AB610",
            "  - name: stand",
            "claim `stand`: the pattern is not a vali",
        ),
        want(
            "AB610",
            "  - name: stand-zeile",
            "claim `stand-zeile`: group `n`: `count(c",
        ),
        want(
            "AB611",
            "  - name: stand-abschnitt",
            "claim `stand-abschnitt`: `docs/STAND.md` has no heading",
        ),
        want(
            "AB659",
            "  - name: stand-zweimal",
            "claim `stand-zweimal`: the pattern matches once",
        ),
        want("AB122", "    matches: 0", "claim `stand-nie`: `matches: 0`"),
        want(
            "AB635",
            "  - name: anteil-streng",
            "claim `anteil-streng`: the policy `count",
        ),
        want(
            "AB635",
            "  - name: anteil",
            "claim `anteil`: the policy `count(checks",
        ),
        want(
            "AB637",
            "  - name: nachfolger",
            "claim `nachfolger`: `where id == \"FID-99",
        ),
        want(
            "AB637",
            "  - name: nachfolger-alt",
            "claim `nachfolger-alt`: `where id == \"FI",
        ),
        want(
            "AB656",
            "  - name: handbuch",
            "document glob `handbuch/*.md` matches no",
        ),
    ];
    expected.sort();
    assert_at(&on_config(&v), &expected, &v);
}

#[test]
fn the_clean_twin_has_no_finding_on_the_configuration() {
    // The same file, comments and names kept, every defect corrected.
    let clean = DEFECTS
        .replace("\\d{3}$('", "\\d{3}$'")
        .replace("  - {prefix: FID, name: Fidelity again}\n", "")
        .replace("merged_into: FID-098", "merged_into: FID-006")
        .replace("      gap: '(kein'", "      gap: '^keine'")
        .replace("  - 'categroy == \"FID\"'\n", "")
        .replace("[FID-001, FID-099]\n", "[FID-001]\n")
        .replace(
            "  where: 'severty == \"high\"'",
            "  where: 'severity == \"critical\"'",
        )
        .replace(
            "  house_practice: '^(Hauspraxis'",
            "  house_practice: '^Hauspraxis:'",
        )
        .replace("      until: \"2020-01-01\"\n", "")
        .replace("'(?P<n>\\d+ Checks'", "'(?P<n>\\d+) Checks'")
        .replace("count(chekcs)", "count(checks)")
        .replace("    section: Fehlt\n", "    section: Umfang\n")
        .replace("    matches: 2\n", "    matches: 1\n")
        .replace("    matches: 0\n", "")
        .replace("'count(checks) < 2'", "'count(checks) > 2'")
        .replace("'count(checks) < 1'", "'count(checks) > 1'")
        .replace("'id == \"FID-999\"'", "'id == \"FID-001\"'")
        .replace("'id == \"FID-998\"'", "'id == \"FID-002\"'")
        .replace("\"handbuch/*.md\"]", "\"docs/*.md\"]")
        .replace("doc: \"handbuch/*.md\"", "doc: \"docs/*.md\"");
    let f = catalogue(&clean);
    f.write(
        "checks/FID-004.md",
        &Fixture::new("graph").read("checks/FID-004.md"),
    );
    f.write(
        "docs/STAND.md",
        "# Stand\n\n## Umfang\n\nDer Katalog zählt 13 Checks, Fassung 0.1.0.\n",
    );
    // What the `lint.allow` entry accepts, so it is not stale either.
    f.write(
        "checks/FID-001.md",
        &f.read("checks/FID-001.md").replace('\n', "\r\n"),
    );
    let (v, _) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    assert_eq!(on_config(&v), [], "{v:#}");
}

#[test]
fn entries_left_out_for_a_defect_keep_the_lines_of_the_others() {
    // The first claim and the first retired entry are malformed and dropped; the findings
    // about the entries after them are still at those entries, not one entry early.
    let yaml = r#"name: graph-fixture
version: 0.1.0
categories:
  - {prefix: DRIFT, name: Source drift}
  - {prefix: FID, name: Data fidelity}
retired:
  - id: DRIFT-009
  - id: DRIFT-007
    retired: "2026-08-07"
    merged_into: FID-098
docs: [docs/STAND.md]
claims:
  - name: kaputt
    doc: docs/STAND.md
    patern: 'x'
  - name: anteil
    holds: 'count(checks) < 1'
"#;
    let f = catalogue(yaml);
    f.write(
        "checks/FID-004.md",
        &Fixture::new("graph").read("checks/FID-004.md"),
    );
    let (v, _) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    let found: Vec<(String, u64)> = on_config(&v)
        .into_iter()
        .filter(|(code, _, _)| ["AB402", "AB635"].contains(&code.as_str()))
        .map(|(c, l, _)| (c, l))
        .collect();
    assert_eq!(
        found,
        [
            ("AB402".to_string(), line_of(yaml, "  - id: DRIFT-007")),
            ("AB635".to_string(), line_of(yaml, "  - name: anteil")),
        ],
        "{v:#}"
    );
}
