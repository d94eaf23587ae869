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
];
