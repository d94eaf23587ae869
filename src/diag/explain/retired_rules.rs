//! AB4xx: retired ids, rules, coverage.

use super::row::*;

const RETIRED_FID_002: &str = "retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001, reason: \"zusammengeführt\"}\n";
const FID_002: &str = "---\nid: FID-002\ntitle: \"Einheiten werden mitgeliefert\"\ncategory: FID\nseverity: low\napplies_when: 'always'\n---\n\n# FID-002 — Einheiten werden mitgeliefert\n\n## Beschreibung\n\nHouse practice: Einheiten stehen beim Wert.\n\n## Prüfung\n\nAntworten lesen.\n\n## Pass Criteria\n\n- [ ] Jede Zahl hat eine Einheit.\n";
const FID_003: &str = "---\nid: FID-003\ntitle: \"Einheiten werden mitgeliefert\"\ncategory: FID\nseverity: low\napplies_when: 'always'\n---\n\n# FID-003 — Einheiten werden mitgeliefert\n\n## Beschreibung\n\nHouse practice: Einheiten stehen beim Wert.\n\n## Prüfung\n\nAntworten lesen.\n\n## Pass Criteria\n\n- [ ] Jede Zahl hat eine Einheit.\n";
const RULE_FID: &str = "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: [FID-001]\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n\nWerte werden nie gerundet.\n";
const TABLES: &str =
    "rules:\n  tables:\n    - {doc: REGELN.md, section: Zuordnung, rule_prefix: REGEL}\n";
const TABLE_DOC: &str = "# Regeln\n\n## Zuordnung\n\n| Regel | Checks |\n|---|---|\n| 1. Zahlen bleiben Zahlen | [FID-001](checks/FID-001.md) |\n| 2. Namen folgen einer Konvention | [ARCH-001](checks/ARCH-001.md) |\n";
const COVER_FID: &str = "require_coverage:\n  - 'category == \"FID\"'\n";

const fn table_doc_with(find: &'static str, with: &'static str) -> [(&'static str, Edit); 3] {
    [
        cat_add(TABLES),
        file("REGELN.md", TABLE_DOC),
        ("REGELN.md", Edit::Replace { find, with }),
    ]
}

pub static ROWS: &[Explanation] = &[
    ex(
        "AB401",
        "A retired id's number is burned: audits, reports and links made while it was live \
still name it, and they must not come to mean a different check. A new check that reuses the \
number would inherit all of that history.

`auditbook new CATEGORY` picks the next number that was never used.",
        over(
            &[
                cat_add(RETIRED_FID_002),
                file("checks/FID-002.md", FID_002),
                ("checks/MANIFEST.txt", Append { text: "FID-002\n" }),
            ],
            LINT,
        ),
        over(
            &[
                cat_add(RETIRED_FID_002),
                file("checks/FID-003.md", FID_003),
                ("checks/MANIFEST.txt", Append { text: "FID-003\n" }),
            ],
            LINT,
        ),
    ),
    ex(
        "AB402",
        "A retired id names its successor (`merged_into` or `replaced_by`), so that links, \
mentions and old audit results can be carried over. A successor that is not a check leaves \
them nowhere to go.

Either correct the successor's id, or drop `merged_into`/`replaced_by` if the check was retired without one.",
        over(
            &[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-009}\n")],
            LINT,
        ),
        over(&[cat_add(RETIRED_FID_002)], LINT),
    ),
    ex(
        "AB403",
        "A successor that is itself retired sends readers on a chain of hops. Point every \
retired id at the live end of its chain, so one step always reaches a check.

The finding names the next hop; following it to a live check gives the id to write.",
        over(
            &[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-003}\n  - {id: FID-003, retired: \"2026-08-08\", merged_into: FID-001}\n")],
            LINT,
        ),
        over(
            &[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001}\n  - {id: FID-003, retired: \"2026-08-08\", merged_into: FID-001}\n")],
            LINT,
        ),
    ),
    ex(
        "AB404",
        "Retired ids that name each other as successors form a cycle, and no live check can be \
reached from any of them. Whatever linked to them is lost.

Each entry in the cycle is reported, and AB403 reports each hop as a successor that is itself retired. Fixing one entry to point at a live check breaks the cycle.",
        over(
            &[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-003}\n  - {id: FID-003, retired: \"2026-08-08\", merged_into: FID-002}\n")],
            LINT,
        ),
        over(
            &[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001}\n  - {id: FID-003, retired: \"2026-08-08\", merged_into: FID-001}\n")],
            LINT,
        ),
    ),
    ex(
        "AB405",
        "Numbers in a category are used in order. A gap — FID-001 and FID-003, but no FID-002 \
anywhere — is a check deleted without being retired, and its number could be handed out \
again by mistake.

Record the number as retired (with its date), or add the missing check.",
        over(
            &[
                file("checks/FID-003.md", FID_003),
                ("checks/MANIFEST.txt", Append { text: "FID-003\n" }),
            ],
            LINT,
        ),
        over(
            &[
                file("checks/FID-003.md", FID_003),
                ("checks/MANIFEST.txt", Append { text: "FID-003\n" }),
                cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", replaced_by: FID-003}\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB406",
        "A retired entry records an id, the day it was retired (a real calendar day, \
YYYY-MM-DD), and at most one successor. An entry with an impossible date, a second entry for \
the same id, or both `merged_into` and `replaced_by` cannot be read unambiguously.

The message says which part of the entry is wrong.",
        over(&[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-32\"}\n")], LINT),
        over(&[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-31\"}\n")], LINT),
    ),
    ex(
        "AB410",
        "A rule is a statement the checks enforce. A rule with no checks is either not yet \
covered — which the catalogue should say out loud with `coverage: none` — or its mapping was \
forgotten.

`coverage: none` states the gap openly, which is more honest than a rule that silently maps to nothing.",
        over(
            &[file("rules/REGEL-1.md", "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: []\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n")],
            LINT,
        ),
        over(
            &[file("rules/REGEL-1.md", "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: []\ncoverage: none\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n")],
            LINT,
        ),
    ),
    ex(
        "AB411",
        "A rule that maps to a check id that does not exist claims coverage it does not have.

An id that is retired is reported as AB412 instead, naming its successor.",
        over(
            &[file("rules/REGEL-1.md", "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: [FID-009]\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n")],
            LINT,
        ),
        over(&[file("rules/REGEL-1.md", RULE_FID)], LINT),
    ),
    ex(
        "AB412",
        "A rule mapped to a retired check is enforced by nothing any more. The finding names the \
successor, which is usually where the mapping should now point.

Mappings are not carried over automatically, because the successor may cover the rule only in part.",
        over(
            &[
                cat_add(RETIRED_FID_002),
                file("rules/REGEL-1.md", "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: [FID-002]\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n"),
            ],
            LINT,
        ),
        over(&[cat_add(RETIRED_FID_002), file("rules/REGEL-1.md", RULE_FID)], LINT),
    ),
    ex(
        "AB413",
        "`require_coverage` says which checks must trace back to a rule (for example every \
check of a category that implements a guideline). A selected check no rule maps to is either \
missing from the mapping, or does not belong to the guideline it sits under.

Rules come from rule files (`rules/ID.md`) or from rule tables in documents (`rules.tables`); either kind of mapping covers a check.",
        over(&[cat_add(COVER_FID)], LINT),
        over(&[cat_add(COVER_FID), file("rules/REGEL-1.md", RULE_FID)], LINT),
    ),
    ex(
        "AB414",
        "A rule whose every check is advisory is reported but never enforced: no failure of \
it can block a release. That may be intended while the checks are new; the note makes sure \
it is a decision.

It is a note: nothing is wrong with the catalogue, but a reader of the rule table should not assume the rule is enforced.",
        over(
            &[
                file("rules/REGEL-1.md", RULE_FID),
                fid("severity: high\n", "severity: high\nadoption: advisory\n"),
            ],
            LINT,
        ),
        over(&[file("rules/REGEL-1.md", RULE_FID)], LINT),
    ),
    ex(
        "AB415",
        "`coverage: none` declares that no check enforces the rule yet. A rule that says so and \
maps to checks contradicts itself; one of the two is out of date.

A rule file with checks but still marked `coverage: none` is usually one whose checks were added later; remove the `coverage: none` then.",
        over(
            &[file("rules/REGEL-1.md", "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: [FID-001]\ncoverage: none\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n")],
            LINT,
        ),
        over(&[file("rules/REGEL-1.md", RULE_FID)], LINT),
    ),
    ex(
        "AB416",
        "A rule can be mapped in a rule file and in a table of a document (a skill, a \
guideline). When both map the same rule, they must map it to the same checks, or readers of \
the two sources believe different things about what enforces it.

The finding lists what the table links that the rule file does not map, and the other way round, so the two can be made to agree in one edit.",
        over(
            &[
                cat_add(TABLES),
                file("REGELN.md", TABLE_DOC),
                file("rules/REGEL-1.md", "---\nid: REGEL-1\ntitle: \"Zahlen bleiben Zahlen\"\nchecks: [ARCH-001]\n---\n\n# REGEL-1 — Zahlen bleiben Zahlen\n"),
            ],
            LINT,
        ),
        over(
            &[cat_add(TABLES), file("REGELN.md", TABLE_DOC), file("rules/REGEL-1.md", RULE_FID)],
            LINT,
        ),
    ),
    ex(
        "AB417",
        "Like a check, a rule file is named after its id (`rules/REGEL-1.md` holds REGEL-1). A \
file named otherwise is a rule other files cannot find by its name.

The file name is what is wrong in most cases: rename it to `<ID>.md`.",
        over(&[file("rules/REGEL-2.md", RULE_FID)], LINT),
        over(&[file("rules/REGEL-1.md", RULE_FID)], LINT),
    ),
    ex(
        "AB418",
        "`rules.tables` points at a heading in a document; the mapping is the first table under \
it. When the heading is renamed or the table removed, every rule the table mapped would \
silently lose its checks.

The heading is compared as written in `rules.tables[].section`, without the `#` marks.",
        over(&table_doc_with("## Zuordnung", "## Zuordnung der Regeln"), LINT),
        over(&table_doc_with("## Zuordnung", "## Zuordnung"), LINT),
    ),
    ex(
        "AB419",
        "Each row of a rule table starts its rule cell with the rule's number (`1.`, `12`); \
that number makes the rule's id. A row without one cannot be told apart from a note in the \
table.

The number and the table's `rule_prefix` make the id: the row `2. Namen …` under prefix REGEL is REGEL-2.",
        over(&table_doc_with("| 2. Namen", "| Namen"), LINT),
        over(&table_doc_with("| 2. Namen", "| 2. Namen"), LINT),
    ),
    ex(
        "AB420",
        "One rule defined twice in the same kind of source — two rows with the same number, or \
two rule files with the same id — leaves it open which mapping counts.

Keep one row or file per rule, holding the checks of both.",
        over(&table_doc_with("| 2. Namen", "| 1. Namen"), LINT),
        over(&table_doc_with("| 2. Namen", "| 2. Namen"), LINT),
    ),
    ex(
        "AB421",
        "A `require_coverage` entry is an expression over check fields. One that does not parse \
or type selects nothing, so no check would be held to coverage, silently.

The message gives the column and what was expected there; `list --where EXPR` takes the same language and shows which checks an expression selects.",
        over(&[cat_add("require_coverage:\n  - 'category = \"FID\"'\n")], LINT),
        over(&[cat_add(COVER_FID), file("rules/REGEL-1.md", RULE_FID)], LINT),
    ),
];
