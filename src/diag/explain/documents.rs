//! AB6xx: documents — generated regions, declared claims, links.

use super::row::*;

const DOCS: (&str, Edit) = cat_add("docs: [README.md]\n");
const README: &str = "# Beispielkatalog

## Umfang

Der Katalog umfasst 2 Checks in zwei Kategorien.

## Übersicht

<!-- auditbook:begin category-counts -->
| Category | Name | Checks | Enforced | Advisory |
|---|---|---:|---:|---:|
| ARCH | Architektur | 1 | 1 | 0 |
| FID | Datentreue | 1 | 1 | 0 |
| **Total** | | **2** | | |
<!-- auditbook:end category-counts -->

## Stand

Verbindlich: ARCH-001 und FID-001. Beratend: keine.
";
const CLAIMS: &str = "claims:
  - name: umfang
    doc: README.md
    section: Umfang
    pattern: '(?P<n>\\w+) Checks in (?P<k>\\w+) Kategorien'
    expect:
      n: count(checks)
      k: count(categories)
  - name: stand
    doc: README.md
    pattern: 'Verbindlich: (?P<enf>[^.]*)\\. Beratend: (?P<adv>[^.]*)\\.'
    strict: [enf]
    expect:
      enf: ids(checks where adoption == \"enforced\")
      adv: ids(checks where adoption == \"advisory\")
";
const ENFORCED: &str = "Verbindlich: ARCH-001 und FID-001.";

/// The base catalogue with README.md declared and claims over it, README.md edited so.
const fn readme(find: &'static str, with: &'static str) -> [(&'static str, Edit); 4] {
    [
        DOCS,
        cat_add(CLAIMS),
        file("README.md", README),
        ("README.md", Edit::Replace { find, with }),
    ]
}

/// The same, catalogue.yaml's claims edited so.
const fn claims(find: &'static str, with: &'static str) -> [(&'static str, Edit); 4] {
    [
        DOCS,
        cat_add(CLAIMS),
        file("README.md", README),
        cat(find, with),
    ]
}

const CLEAN: [(&str, Edit); 4] = readme("# Beispielkatalog", "# Beispielkatalog");
const SYNC: Run = Run::Command { args: &["sync"] };

const RULE_TABLE: [(&str, Edit); 2] = [
    cat_add("rules:\n  tables:\n    - {doc: REGELN.md, section: Zuordnung, rule_prefix: REGEL}\nrequire_coverage:\n  - 'category == \"FID\"'\n"),
    file("REGELN.md", "# Regeln\n\n## Zuordnung\n\n| Regel | Checks |\n|---|---|\n| 1. Zahlen bleiben Zahlen | [FID-001](checks/FID-001.md) |\n| 2. Namen folgen einer Konvention | [ARCH-001](checks/ARCH-001.md) |\n"),
];

// ---- documents in another repository (`verify --claims`) ----

/// A rule of the catalogue, so that a rule table elsewhere has something to agree with.
const RULE_1: (&str, Edit) = file(
    "rules/REGEL-1.md",
    "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: [FID-001]\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n\nWerte werden nie gerundet.\n",
);
const SKILL_CLAIMS: &str =
    "# Was dieser Skill über den Beispielkatalog behauptet; der Katalog liegt in einem
# anderen Repository.
links:
  bases: [https://example.org/beispielkatalog/blob/main/]
docs: [SKILL.md]
rules:
  tables:
    - {doc: SKILL.md, section: Regeln, rule_prefix: REGEL}
claims:
  - name: umfang
    doc: SKILL.md
    pattern: 'stützt sich auf (?P<n>\\d+) Prüfungen'
    expect: {n: count(checks)}
";
const SKILL_DOC: &str = "# Datentreue-Skill

Der Skill stützt sich auf 2 Prüfungen des Beispielkatalogs.

## Regeln

| Regel | Prüfungen |
|---|---|
| 1 — Zahlen bleiben Zahlen | [FID-001](https://example.org/beispielkatalog/blob/main/checks/FID-001.md) |
";
const FID_LINK: &str = "https://example.org/beispielkatalog/blob/main/checks/FID-001.md)";
/// `auditbook snapshot` of the base catalogue with `RULE_1`, as a release would publish it.
const SNAPSHOT: (&str, Edit) = file(
    "katalog.snapshot.json",
    r#"{"snapshot_format":2,"engine_version":"0.1.0","name":"beispielkatalog","version":"1.0.0","fingerprints":{"bytes":"f17f872497990711960b411ac94da616ffa354feb3755253de23b9431e881467","semantic":"6324df85a98b283472a4fe70be30dc0ee647cfcfdfd032dba0770a33708c8487"},"severities":["critical","high","medium","low"],"profile_schema":{"fields":{"deployment":{"type":"list","values":["local-stdio","Railway","Kubernetes"]},"transport":{"type":"string","values":["stdio-only","dual","HTTP/SSE"]},"write_capable":{"type":"bool"}},"baseline_field":"mcp_spec_version"},"checks":[{"id":"ARCH-001","title":"Werkzeugnamen folgen einer Konvention","category":"ARCH","severity":"medium","applies_when":"always","spec_baseline":"both","adoption":"enforced","evidence_required":1,"pass_criteria":["Alle Namen folgen derselben Konvention."],"body_digest":"c39606b3150064ad2a2e7345f229d9fbd66f6eb18cac21f9406751759cd009e9","file":"checks/ARCH-001.md"},{"id":"FID-001","title":"Zahlen werden unverändert durchgereicht","category":"FID","severity":"high","applies_when":"write_capable == false","spec_baseline":"both","adoption":"enforced","evidence_required":1,"pass_criteria":["Jede Zahl stimmt mit der Quelle überein."],"body_digest":"dee5920e3f88c36111d9c1562082f68c07a90962bb1bddf12a10f807e1fc52a5","file":"checks/FID-001.md"}],"retired":[],"rules":[{"id":"REGEL-1","title":"Zahlen bleiben Zahlen","coverage":null,"checks":["FID-001"]}],"declarations":{"categories":[{"prefix":"ARCH","name":"Architektur","description":null},{"prefix":"FID","name":"Datentreue","description":null}],"id_pattern":"^[A-Z]{2,6}-\\d{3}$","checks_dir":"checks","spec_baselines":{"values":["2025-11-25","2026-07-28","both"],"default":"both","aliases":{"beide":"both"},"profile_field":"mcp_spec_version","universal":"both"},"blocking_severities":["critical","high"],"require_coverage":[],"link_bases":[]}}
"#,
);
const SKILL: [(&str, Edit); 3] = [
    RULE_1,
    file("skill/claims.yaml", SKILL_CLAIMS),
    file("skill/SKILL.md", SKILL_DOC),
];

/// The skill repository with one replacement in `path`.
const fn skill_with(
    path: &'static str,
    find: &'static str,
    with: &'static str,
) -> [(&'static str, Edit); 4] {
    [
        SKILL[0],
        SKILL[1],
        SKILL[2],
        (path, Edit::Replace { find, with }),
    ]
}

const SKILL_FRAGMENT: [(&str, Edit); 5] = [
    SKILL[0],
    SKILL[1],
    SKILL[2],
    (
        "skill/SKILL.md",
        Edit::Replace {
            find: FID_LINK,
            with: "https://example.org/beispielkatalog/blob/main/checks/FID-001.md#pass-criteria)",
        },
    ),
    SNAPSHOT,
];

const AGAINST_ROOT: Run = Run::Command {
    args: &[
        "verify",
        "--claims",
        "skill/claims.yaml",
        "--catalogue",
        ".",
        "--format",
        "json",
    ],
};
const AGAINST_SNAPSHOT: Run = Run::Command {
    args: &[
        "verify",
        "--claims",
        "skill/claims.yaml",
        "--catalogue",
        "katalog.snapshot.json",
        "--format",
        "json",
    ],
};

const SERVER_CLAIMS: &str = "# Was SECURITY.md über die letzte Prüfung sagt, gehalten am Bericht von
#   auditbook audit PROFIL --results ERGEBNISSE --format json
docs: [SECURITY.md]
claims:
  - name: letzte-pruefung
    doc: SECURITY.md
    section: Letzte Prüfung
    pattern: 'ist (?P<urteil>\\*\\*[^*]+\\*\\*): (?P<stand>\\d+ [a-zäöü ]+(?:, \\d+ [a-zäöü ]+)*)\\.'
    expect: {urteil: audit.verdict, stand: audit.statuses}
";
const SECURITY: &str = "# Sicherheit

Schwachstellen bitte vertraulich an `sicherheit@amtsblatt.example` melden.

## Letzte Prüfung

Der Server ist **produktionsreif**: 2 bestanden, 0 nicht bestanden.
";
/// The parts of an audit report that claims read (a report carries more).
const REPORT: &str = r#"{
  "server": "amtsblatt",
  "verdict": "production-ready",
  "counts": {
    "checks": 2, "applicable": 2,
    "by_status": {"pass": 2, "fail": 0, "partial": 0, "not_verified": 0},
    "findings": 0, "advisory_findings": 0, "would_have_blocked": 0, "blocking": 0
  },
  "score": {"value": 100, "max": 100},
  "findings": [], "advisory_findings": [], "blocking": [], "not_verified": []
}
"#;
const SERVER: [(&str, Edit); 3] = [
    file("server/claims.yaml", SERVER_CLAIMS),
    file("server/SECURITY.md", SECURITY),
    file("server/bericht.json", REPORT),
];

/// The server repository with one replacement in `path`.
const fn server_with(
    path: &'static str,
    find: &'static str,
    with: &'static str,
) -> [(&'static str, Edit); 4] {
    [
        SERVER[0],
        SERVER[1],
        SERVER[2],
        (path, Edit::Replace { find, with }),
    ]
}

const WITH_REPORT: Run = Run::Command {
    args: &[
        "verify",
        "--claims",
        "server/claims.yaml",
        "--report",
        "server/bericht.json",
        "--format",
        "json",
    ],
};

// ---- table-row claims, policies, versions, body requirements ----

const TABLE_DOC: &str = "# Beispielkatalog

## Kategorien

| Kategorie | Name | Checks | Schweregrade |
|---|---|---:|---|
| ARCH | Architektur | 1 | 1 medium |
| `FID` | Datentreue | 1 | 1 high |
| **Gesamt** | | **2** | 1 high · 1 medium |

Jede Kategorie steht einmal in der Tabelle.
";
const TABLE_CLAIM: &str = "claims:
  - name: kategorien-tabelle
    doc: README.md
    section: Kategorien
    table:
      key: Kategorie
      keys: ids(categories)
      total: Gesamt
      columns:
        Name: name
        Checks: count(checks where category == $key)
        Schweregrade: profile(severity, checks where category == $key)
";

/// README.md with a category table held to the catalogue row by row, edited so.
const fn table_rows(find: &'static str, with: &'static str) -> [(&'static str, Edit); 4] {
    [
        DOCS,
        cat_add(TABLE_CLAIM),
        file("README.md", TABLE_DOC),
        ("README.md", Edit::Replace { find, with }),
    ]
}

const TABLE_CLEAN: [(&str, Edit); 4] = table_rows("# Beispielkatalog", "# Beispielkatalog");

const POLICY: (&str, Edit) = cat_add(
    "claims:
  # Höchstens die Hälfte der Checks darf eine Freigabe blockieren.
  - name: hohe-schwere-begrenzt
    holds: 'count(checks where severity == \"high\" or severity == \"critical\") * 2 <= count(checks)'
",
);

const VERSION_CLAIM: (&str, Edit) = cat_add(
    "claims:
  - name: fassung
    doc: README.md
    pattern: 'Diese Fassung ist (?P<v>v?[0-9][0-9A-Za-z.+-]*[0-9A-Za-z])'
    expect:
      v: version
",
);
const VERSION_DOC: &str =
    "# Beispielkatalog\n\nDiese Fassung ist v1.0.0; sie löst den Entwurf vom Frühjahr ab.\n";

const REQUIRE: (&str, Edit) = cat_add(
    "claims:
  - name: quellen-hoher-checks
    require:
      - where: 'severity == \"high\" or severity == \"critical\"'
        sections: [Pass Criteria]
        pattern: '(?m)^Quelle: \\['
        message: \"ein Check hoher Schwere nennt die Quelle, an der er gemessen wird\"
",
);

pub static ROWS: &[Explanation] = &[
    ex(
        "AB601",
        "Between `<!-- auditbook:begin NAME -->` and `<!-- auditbook:end NAME -->` a document \
holds a table the engine renders from the catalogue. When the catalogue changes and the \
document is not re-synced, the table tells an older truth.

`verify` shows the difference; `auditbook sync` rewrites the region, and only the region.",
        over(&readme("| **Total** | | **2** | | |", "| **Total** | | **3** | | |"), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB602",
        "Every begin marker needs its end marker with the same name, in order. Without it, \
where the generated text ends is unknown, and a rewrite could swallow the rest of the \
document — so nothing in the document is rewritten until the markers pair up.

The finding names the marker that has no partner. `verify` reports it; `sync` refuses to touch the document until it is fixed.",
        over(&readme("<!-- auditbook:end category-counts -->\n", ""), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB603",
        "A region that begins inside another would be overwritten when the outer one is \
rendered. Regions follow one another; they do not nest.

`verify` also reports the end markers that no longer pair up (AB602); closing the outer region first fixes both.",
        over(
            &readme(
                "<!-- auditbook:begin category-counts -->\n",
                "<!-- auditbook:begin category-counts -->\n<!-- auditbook:begin severity-counts -->\n<!-- auditbook:end severity-counts -->\n",
            ),
            VERIFY,
        ),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB604",
        "The same region twice in one document — same name, same arguments — is either a copy \
and paste slip, or two places that will be kept identical by hand. Keep one, or give them \
different arguments (`category=FID`).

The finding points at the second region and names the line of the first.",
        over(
            &readme(
                "## Stand\n",
                "<!-- auditbook:begin category-counts -->\n<!-- auditbook:end category-counts -->\n\n## Stand\n",
            ),
            VERIFY,
        ),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB605",
        "A region names a built-in table (rules-table, category-counts, severity-counts, \
advisory-list, check-index) or a project template `templates/NAME.md.tera`. A name that is \
neither, or a marker that is not written as `<!-- auditbook:begin NAME key=value -->`, cannot \
be rendered, and nothing in the document is rewritten.

Templates are looked up in `templates/` beside the catalogue, or in the directory `--templates` names.",
        over(
            &[
                DOCS,
                file(
                    "README.md",
                    "# Beispielkatalog\n\n<!-- auditbook:begin kategorien -->\n<!-- auditbook:end kategorien -->\n",
                ),
            ],
            VERIFY,
        ),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB606",
        "Region arguments narrow a table: `category=`, `where=` (an expression) and `base=` \
(the link prefix from the document to the check files). An unknown key, a category the \
catalogue does not have, or an expression that does not parse leaves nothing to render.

The same arguments work with `auditbook table NAME key=value`, which is a quick way to try them out.",
        over(
            &readme("begin category-counts", "begin category-counts category=XYZ"),
            VERIFY,
        ),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB607",
        "`sync` reads a document, renders its regions, and writes the document back. If the \
file changed on disk in between — an editor saved it, another process wrote it — writing \
would throw that change away. auditbook re-reads the file before writing and, when it \
differs from what it read, writes nothing and reports this.

Run `sync` again once nothing else is editing the document.",
        over(
            &readme("| **Total** | | **2** | | |", "| **Total** | | **3** | | |"),
            Run::Library {
                args: &["sync"],
                how: "with README.md changed by another program while `sync` runs; the test suite changes it between reading and planning the rewrite",
            },
        ),
        over(&readme("| **Total** | | **2** | | |", "| **Total** | | **3** | | |"), SYNC),
    ),
    ex(
        "AB610",
        "A declared claim holds a sentence of a document to the catalogue: a regular \
expression with named groups, and per group a query (`count(checks)`, `ids(checks where \
adoption == \"advisory\")`). A claim whose pattern does not compile, whose query names an \
unknown set or does not parse, or whose document is not declared cannot be checked at all.

The message names the claim and the group whose query is wrong, and what was expected.",
        over(&claims("count(categories)", "count(kategorien)"), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB611",
        "A claim can be confined to one section of its document, by heading. When that heading \
is renamed, the claim finds nothing to read; rather than pass unchecked, it is an error.

Headings are compared as written, without the `#` marks; the claim reads the section up to the next heading of the same or a higher level.",
        over(&claims("section: Umfang", "section: Inhalt"), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB612",
        "A claim whose pattern no longer matches has lost its sentence: it was reworded, moved \
or deleted. Passing would mean the statement is no longer checked while everyone believes it \
is, so it is an error until the pattern follows the new wording or the claim is removed.

A `skip:` setting can also make a claim unmatched, when the only matches were in skipped tables, code or quotes.",
        over(&readme("2 Checks in zwei", "2 Prüfungen in zwei"), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB613",
        "The most common drift: a document states a count (\"2 Checks\") and the catalogue has \
moved on. The finding names both numbers and the query. A claim can also state a bound \
(`<= count(…)`) for sentences like \"weniger als 20\".

A number written as a word (`zwei`, `twelve`) is compared the same way.",
        over(&readme("2 Checks", "3 Checks"), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB614",
        "A group meant to hold a count must hold digits or a number word auditbook reads \
(German or English, up to ninety-nine: `zwölf`, `twenty-one`). \"etliche\" is not a number, \
so the claim cannot be held to anything.

Words that are not numbers are reported instead of read as zero, since a guess would make the claim pass or fail by accident.",
        over(&readme("2 Checks", "etliche Checks"), VERIFY),
        over(&readme("2 Checks", "zwei Checks"), VERIFY),
    ),
    ex(
        "AB615",
        "When a claim lists ids in groups (enforced here, advisory there), each id must sit in \
the group whose query selects it. A check made advisory while the document still lists it \
as enforced tells readers it can block a release when it cannot.

The finding names the group the id belongs in, by the query that selects it.",
        over(
            &[
                DOCS,
                cat_add(CLAIMS),
                file("README.md", README),
                fid("severity: high\n", "severity: high\nadoption: advisory\n"),
            ],
            VERIFY,
        ),
        over(
            &[
                DOCS,
                cat_add(CLAIMS),
                file("README.md", README),
                fid("severity: high\n", "severity: high\nadoption: advisory\n"),
                ("README.md", Edit::Replace { find: "Verbindlich: ARCH-001 und FID-001. Beratend: keine.", with: "Verbindlich: ARCH-001. Beratend: FID-001." }),
            ],
            VERIFY,
        ),
    ),
    ex(
        "AB616",
        "One id listed in two groups of the same claim says two contradicting things about one \
check. The finding says which group the query puts it in.

The id is kept in the group whose query selects it; the other mention is the error.",
        over(&readme("Beratend: keine.", "Beratend: FID-001."), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB617",
        "A list in a document reads as complete: a check the query selects but no group names \
reads as \"not affected\". New checks are the usual cause — the catalogue grew, the sentence \
did not.

The finding names the group whose query selects the missing id.",
        over(&readme(ENFORCED, "Verbindlich: ARCH-001."), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB618",
        "An id in a claimed list that the query does not know — no such check, a retired one, \
or one outside the set — is a statement about something the catalogue does not hold.

A mention of an id no check has is also reported by the link checks (AB211), since the document is declared.",
        over(&readme(ENFORCED, "Verbindlich: ARCH-001, FID-001 und FID-007."), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB619",
        "A group named under `strict` must list its members and nothing else. Each piece of \
the list — split at commas, `und`, `and` and the like — must be one member by itself; an \
ellipsis, a misspelt id or a word that is no id is reported where it stands, since it hides \
what the list really says.

Without `strict`, such a list passes as long as every member appears in it somewhere; `strict` is for lists that must say exactly their members.",
        over(&readme(ENFORCED, "Verbindlich: ARCH-001, … FID-001."), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB620",
        "Every check `require_coverage` selects must be linked in the rule table's section of \
every declared document with such a table — the place readers look to see what enforces a \
rule. A check mentioned there only as text, or not at all, is missing from that view.

A rule table in a document is a view readers trust; the catalogue's rule files alone do not satisfy this check for the document.",
        over(
            &[
                RULE_TABLE[0],
                RULE_TABLE[1],
                file("rules/REGEL-1.md", "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: [FID-001]\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n"),
                ("REGELN.md", Edit::Replace { find: "| 1. Zahlen bleiben Zahlen | [FID-001](checks/FID-001.md) |\n", with: "" }),
            ],
            VERIFY,
        ),
        over(&RULE_TABLE, VERIFY),
    ),
    ex(
        "AB621",
        "A relative link from a document that names an existing check (its text or file name \
is the id) but does not lead to the check's file from where the document lies: \
`FID-001.md` from the repository root instead of `checks/FID-001.md`. On GitHub the link is \
a 404. For generated tables, the region's `base=` sets the prefix.

The finding names the check file the link should lead to.",
        over(&readme("## Umfang\n", "## Umfang\n\nSiehe [FID-001](FID-001.md).\n"), VERIFY),
        over(
            &readme("## Umfang\n", "## Umfang\n\nSiehe [FID-001](checks/FID-001.md).\n"),
            VERIFY,
        ),
    ),
    ex(
        "AB630",
        "In a `strict` group each member is named once. A repeat is harmless to the set, but \
in prose it usually means a different id was meant in one of the two places.

The finding points at the second occurrence.",
        over(&readme(ENFORCED, "Verbindlich: ARCH-001, FID-001 und FID-001."), VERIFY),
        over(&CLEAN, VERIFY),
    ),
    ex(
        "AB631",
        "A table-row claim (`table:` under a claim) holds a whole Markdown table to the \
catalogue: its `keys` query says which rows must be there, one per key, and its `columns` say \
what each cell must hold. A key the query selects but the table has no row for is a gap the \
reader cannot see — a category added to the catalogue is simply not in the overview, and \
every other row still checks out. The same holds for a `total:` row the claim declares and \
the table no longer has.

The finding is at the table's header line and names the missing key and the query that \
selects it.

Add the row for the key. If the table is meant to show only part of the set, narrow the \
claim's `keys` query (`ids(categories where …)`) so it says so.",
        over(&table_rows("| `FID` | Datentreue | 1 | 1 high |\n", ""), VERIFY),
        over(&TABLE_CLEAN, VERIFY),
    ),
    ex(
        "AB632",
        "The other direction of AB631: a row whose key the claim's `keys` query does not \
select. Usually it is a category or check that was renamed, retired or misspelt, and the \
table goes on describing something the catalogue no longer holds. A second row for the same \
key is reported too, since two rows for one key can only disagree or repeat each other.

The finding is at the row; for a repeated key it names the line of the first row.

Correct the key or remove the row. If the row belongs in the table, widen the `keys` query \
so that it selects the key.",
        over(
            &table_rows(
                "| **Gesamt**",
                "| SEC | Sicherheit | 0 | — |\n| **Gesamt**",
            ),
            VERIFY,
        ),
        over(&TABLE_CLEAN, VERIFY),
    ),
    ex(
        "AB633",
        "A column held to `profile(FIELD, …)` is a tally: `1 critical · 2 high`, each piece a \
count and a bucket of the field's vocabulary (for `severity`: critical, high, medium, low). \
The order is free and a bucket left out counts zero. A piece auditbook cannot map — a word \
outside the vocabulary such as `hoch`, a bucket counted twice, text that is no count — is \
not read as zero, because that guess would decide the comparison by accident.

The finding quotes the piece and lists the vocabulary. The bucket the piece was meant for \
usually also shows up as a wrong count (AB613), since it reads as zero.

Write each bucket once as `NUMBER WORD` with a word of the vocabulary, in the catalogue's \
spelling; write `—` or leave the bucket out for zero.",
        over(&table_rows("| 1 high |", "| 1 hoch |"), VERIFY),
        over(&TABLE_CLEAN, VERIFY),
    ),
    ex(
        "AB634",
        "A column of a table-row claim held to `name` must give each row's key the name the \
catalogue gives it: a category's `name`, a check's or a rule's title. When a category is \
renamed in catalogue.yaml and the overview keeps the old name, readers meet two names for one \
thing and search the catalogue for one that no longer exists.

Names are compared as written, after links, code marks and emphasis are read as plain text. \
The finding is at the cell and names both.

Write the catalogue's name in the cell, or rename the category, check or rule in the \
catalogue if the document has the better name.",
        over(&table_rows("| Datentreue |", "| Datenqualität |"), VERIFY),
        over(&TABLE_CLEAN, VERIFY),
    ),
    ex(
        "AB635",
        "A policy claim (`holds:` and no `doc`) states a rule about the catalogue itself: \
\"at most half of the checks block a release\", written as two expressions of counts and \
arithmetic joined by a relation. It is checked on every `verify`, so the catalogue cannot \
drift away from a decision its maintainers took once and wrote down.

The finding is at the claim in catalogue.yaml and names the value of each side. Here, raising \
ARCH-001 to `high` makes both checks blocking, and 2 × 2 is more than the 2 checks.

Change the catalogue so the policy holds again. If the policy itself is out of date, revise \
or remove the claim — that is a decision, and it shows in the history of catalogue.yaml.",
        over(&[POLICY, arch("severity: medium", "severity: high")], VERIFY),
        over(&[POLICY], VERIFY),
    ),
    ex(
        "AB636",
        "A claim group whose expectation is `version` must hold the catalogue's `version:` \
from catalogue.yaml. READMEs, skills and release notes quote the version they describe; after \
a release the prose easily keeps the previous one, and readers then take the current content \
for an older release, or the reverse.

A leading `v` on either side is ignored (`v1.0.0` matches `1.0.0`); otherwise the versions \
are compared as written. The finding names both.

Write the catalogue's version in the document, or correct `version:` in catalogue.yaml if the \
document is the one that is right.",
        over(
            &[
                DOCS,
                VERSION_CLAIM,
                file("README.md", VERSION_DOC),
                ("README.md", Edit::Replace { find: "v1.0.0", with: "v0.9.0" }),
            ],
            VERIFY,
        ),
        over(&[DOCS, VERSION_CLAIM, file("README.md", VERSION_DOC)], VERIFY),
    ),
    ex(
        "AB637",
        "A `require:` claim holds the bodies of a selection of checks to a house rule: every \
check its `where` selects must have each listed `## ` section and a line matching `pattern`. \
Such rules (\"every high-severity check names its source\") are otherwise kept by review \
alone, and a check edited later loses the line without anyone noticing.

A missing section or line is reported at the start of the check's body, with the claim's \
`message` saying why it is required. A `where` that selects no check at all is reported at \
the claim: a renamed or retired check must not let the requirement hold for nothing.

Add the section or line to the check. If the selection is wrong, correct the requirement's \
`where`.",
        over(&[REQUIRE, fid("Quelle: [", "Siehe [")], VERIFY),
        over(&[REQUIRE], VERIFY),
    ),

    ex(
        "AB640",
        "A skill or guide in another repository often carries its own copy of the rule table: \
which checks enforce which rule. `verify --claims` reads that table (declared under \
`rules.tables` in the repository's claims.yaml) and compares every row with the rule in the \
catalogue. A row that links other checks than the rule maps to tells its readers that a \
different set of checks stands behind the rule.

This is the drift that happens when the catalogue moves a rule to new checks and the document \
elsewhere is never told. The finding names the row and both sets of checks.

Make the row link exactly the checks of the rule. A table the repository lets auditbook \
generate is rewritten by `auditbook sync --claims claims.yaml --catalogue …`.",
        over(
            &skill_with(
                "skill/SKILL.md",
                "[FID-001](https://example.org/beispielkatalog/blob/main/checks/FID-001.md)",
                "[ARCH-001](https://example.org/beispielkatalog/blob/main/checks/ARCH-001.md)",
            ),
            AGAINST_ROOT,
        ),
        over(&SKILL, AGAINST_ROOT),
    ),
    ex(
        "AB641",
        "A row of a rule table in another repository names a rule number the catalogue does \
not have. Either the number is mistyped, or the catalogue dropped or renumbered the rule and \
the document still shows it. Readers would look for a rule that does not exist.

The finding is at the row. Correct the number, or remove the row when the rule is gone from \
the catalogue.",
        over(
            &skill_with("skill/SKILL.md", "| 1 — Zahlen", "| 7 — Zahlen"),
            AGAINST_ROOT,
        ),
        over(&SKILL, AGAINST_ROOT),
    ),
    ex(
        "AB642",
        "A repository far from the catalogue usually verifies against its published snapshot \
(`auditbook snapshot`) instead of a checkout. A snapshot holds what claims, rule tables and \
the built-in regions need — every check's fields, rules, categories, retired ids — but not the \
check bodies, their headings, or any other file. A link to `checks/FID-001.md#pass-criteria` \
cannot be followed to its heading, a region rendered from a project template cannot be \
rendered, and a snapshot of format 1 holds no declarations at all.

auditbook never passes what it could not check: each such case is reported. A fragment or a \
link to another catalogue file is a warning; a template region or an old snapshot is an error, \
and `sync --claims` then writes nothing.

Verify against a checkout of the catalogue (`--catalogue DIR`) when the document needs these \
things, or regenerate the snapshot with a current auditbook when it is of format 1.",
        over(&SKILL_FRAGMENT, AGAINST_SNAPSHOT),
        over(&SKILL_FRAGMENT, AGAINST_ROOT),
    ),
    ex(
        "AB643",
        "A claims file is written like catalogue.yaml and read by the same parser, but it only \
declares what a document repository owns: `docs`, `claims`, `links` and `rules.tables`. Keys \
that describe the catalogue — `categories`, `retired`, `id_pattern`, … — belong to the \
catalogue, and a copy in the claims file would be a second source of truth that quietly goes \
out of date.

Such a key is ignored with a warning at its line; the catalogue's own value is used. Remove it \
from the claims file.",
        over(
            &skill_with(
                "skill/claims.yaml",
                "docs: [SKILL.md]\n",
                "docs: [SKILL.md]\ncategories:\n  - {prefix: FID, name: Datentreue}\n",
            ),
            AGAINST_ROOT,
        ),
        over(&SKILL, AGAINST_ROOT),
    ),
    ex(
        "AB644",
        "Claims, rule tables and generated regions in a document repository are statements \
about a catalogue, and claims whose queries start with `audit.` are statements about an audit \
report. Without `--catalogue` (or `--report`) there is nothing to hold them to. They are not \
skipped quietly — a weekly job that lost its download step would otherwise report a clean run \
forever — but reported at the claims file.

Pass `--catalogue` with a checkout or a snapshot of the catalogue, and `--report` with the \
JSON report of `auditbook audit` when the documents quote an audit.",
        over(
            &SKILL,
            Run::Command {
                args: &["verify", "--claims", "skill/claims.yaml", "--format", "json"],
            },
        ),
        over(&SKILL, AGAINST_ROOT),
    ),
    ex(
        "AB645",
        "A server's SECURITY.md or README often quotes its latest audit: production-ready or \
not, how many checks passed. Claims over the audit report (`expect: {urteil: audit.verdict}`) \
hold that sentence to the JSON report of `auditbook audit`. When the document states another \
verdict than the report, readers are told the server is ready when it is not, or the reverse.

Verdicts are read in German and English (`produktionsreif`, `nicht produktionsreif`, \
`production-ready`, …), so the document can stay in its own language.

Correct the verdict in the document, or, if the document is right, re-run the audit and pass \
the new report.",
        over(
            &server_with("server/SECURITY.md", "**produktionsreif**", "**nicht produktionsreif**"),
            WITH_REPORT,
        ),
        over(&SERVER, WITH_REPORT),
    ),
    ex(
        "AB646",
        "A claim over an audit report matched a status or verdict word that auditbook cannot \
map to the report: neither German nor English for pass, fail, partial, not verified, todo, \
not applicable, missing or rejected. The number next to it cannot be compared with anything, \
and a claim that cannot be compared is a finding, not a pass.

Write the status in one of the known words (`bestanden`, `nicht bestanden`, `teilweise`, \
`nicht geprüft`, `offen`, `nicht anwendbar`, `fehlend`, `abgelehnt`, or the English \
`pass`, `fail`, `partial`, …), or narrow the claim's pattern so it does not pick up prose \
around the list.",
        over(
            &server_with("server/SECURITY.md", "0 nicht bestanden", "0 vertagt"),
            WITH_REPORT,
        ),
        over(&SERVER, WITH_REPORT),
    ),
    ex(
        "AB647",
        "The file given with `--report` is not a report of `auditbook audit --format json`: it \
cannot be read, is not JSON, or lacks the verdict, counts, score or finding lists that claims \
ask for. Reading a missing count as zero would make a claim like \"0 nicht bestanden\" pass \
against a report that says nothing, so the whole report is refused with the line where reading \
failed.

Write the report with `auditbook audit PROFILE --results RESULTS --format json` and pass that \
file unchanged. A Markdown or HTML report carries the same numbers but is not read.",
        over(
            &[
                SERVER[0],
                SERVER[1],
                file("server/bericht.json", "{\"verdict\": \"production-ready\"}\n"),
            ],
            WITH_REPORT,
        ),
        over(&SERVER, WITH_REPORT),
    ),
];
