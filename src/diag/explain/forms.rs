//! Named id sets, set claims over a document's structure and vocabulary, document globs.

use super::row::*;

const SETS_COVERAGE: &str = "sets:\n  pilot: [FID-001]\nrules:\n  tables:\n    - {doc: REGELN.md, section: Zuordnung, rule_prefix: REGEL}\n";
const RULES_DOC: (&str, Edit) = file(
    "REGELN.md",
    "# Regeln\n\n## Zuordnung\n\n| Regel | Checks |\n|---|---|\n| 1. Zahlen bleiben Zahlen | [FID-001](checks/FID-001.md) |\n",
);

const VOCAB_CLAIM: (&str, Edit) = cat_add(
    "docs: [README.md]
claims:
  - name: transporte
    doc: README.md
    pattern: 'Transporte: (?P<werte>[^.]*)\\.'
    members:
      read: split(\" / \")
      equals: values(profile.transport)
",
);
const VOCAB_DOC: &str = "# Beispielkatalog\n\nTransporte: `stdio-only` / `dual` / `HTTP/SSE`.\n";
const VOCAB_LINE: &str = "`stdio-only` / `dual` / `HTTP/SSE`";

const fn vocab(with: &'static str) -> [(&'static str, Edit); 3] {
    [
        VOCAB_CLAIM,
        file("README.md", VOCAB_DOC),
        (
            "README.md",
            Edit::Replace {
                find: VOCAB_LINE,
                with,
            },
        ),
    ]
}

const GLOB_CLAIM: &str = "docs: [README.md, \"handbuch/*.md\"]
claims:
  - name: fassung
    doc: \"handbuch/*.md\"
    pattern: 'Fassung (?P<v>[0-9.]+)'
    expect:
      v: version
";
const HANDBUCH: (&str, Edit) = file(
    "handbuch/einfuehrung.md",
    "# Einführung\n\nFassung 1.0.0.\n",
);
const README: (&str, Edit) = file("README.md", "# Beispielkatalog\n");

const NUMBERED_LIST: (&str, Edit) = file(
    "README.md",
    "# Beispielkatalog\n\n## Regeln\n\n1. Zahlen bleiben Zahlen\n2. Namen folgen einer Konvention\n",
);
const NUMBERED_HEADINGS: (&str, Edit) = file(
    "REGELN.md",
    "# Regeln\n\n## Regel 1 — Zahlen bleiben Zahlen\n\n## Regel 2 — Namen folgen einer Konvention\n",
);
const NUMBERING_CLAIM: (&str, Edit) = cat_add(
    "docs: [README.md, REGELN.md]
claims:
  - name: regelliste
    doc: README.md
    section: Regeln
    members:
      read: list
      equals: 'headings(\"^Regel (\\d+)\") in \"REGELN.md\"'
      contiguous: true
",
);
const ORDER_CLAIM: (&str, Edit) = cat(
    "      equals: values(profile.transport)\n",
    "      equals: values(profile.transport)\n      ordered: true\n",
);
const STAND_CLAIM: (&str, Edit) = cat_add(
    "docs: [README.md]
claims:
  - name: stand
    doc: README.md
    pattern: 'Stand: (?P<n>\\d+) Prüfungen'
    matches: 1
    expect:
      n: count(checks)
",
);

/// After the expression codes: an unknown set is an expression finding.
pub static EXPRESSION_ROWS: &[Explanation] = &[ex(
    "AB310",
    "`id in set(\"NAME\")` tests whether a check belongs to a named set of catalogue.yaml \
(`sets:`), in every `where` — `require_coverage`, `require_sources`, claims, `list --where`. A \
set name that is not declared would otherwise select nothing, and a requirement over it would \
hold for no check at all.

The finding names the set and, when one is close, the declared set that was probably meant.

Correct the name, or declare the set under `sets:`.",
    over(
        &[
            cat_add(SETS_COVERAGE),
            cat_add("require_coverage:\n  - 'id in set(\"pilott\")'\n"),
            RULES_DOC,
        ],
        LINT,
    ),
    over(
        &[
            cat_add(SETS_COVERAGE),
            cat_add("require_coverage:\n  - 'id in set(\"pilot\")'\n"),
            RULES_DOC,
        ],
        LINT,
    ),
)];

pub static ROWS: &[Explanation] = &[
    ex(
        "AB650",
        "A named set (`sets:` in catalogue.yaml) lists check ids that `id in set(\"NAME\")` \
selects. An id in it that is no check — mistyped, or never created — silently shrinks every \
selection over the set.

The finding is at the id's line in catalogue.yaml. Correct the id, or remove it.",
        over(&[cat_add("sets:\n  pilot:\n    - FID-001\n    - FID-009\n")], LINT),
        over(&[cat_add("sets:\n  pilot:\n    - FID-001\n")], LINT),
    ),
    ex(
        "AB651",
        "A named set lists a retired id. Retired ids are never checks again, so the set \
selects less than it names; the check that took over the retired one's work is usually what \
the set should hold.

The finding is at the id's line in catalogue.yaml and names the successor. Name the successor \
instead, or remove the id.",
        over(
            &[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001}\nsets:\n  pilot: [ARCH-001, FID-002]\n")],
            LINT,
        ),
        over(
            &[cat_add("retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001}\nsets:\n  pilot: [ARCH-001, FID-001]\n")],
            LINT,
        ),
    ),
    ex(
        "AB652",
        "A set claim (`members:`) reads what a document enumerates — numbered headings, a \
numbered or bulleted list, rule-number mentions, a list split at a separator — and holds it as a \
set against the catalogue or another document. Here the document leaves out a member: a rule \
without its `## Regel N` section, a vocabulary value the prose forgets.

The finding names the claim, the document, the line the reading starts at, what it read and the \
member that is missing. Add the member to the document, or correct the claim.",
        over(&vocab("`stdio-only` / `dual`"), VERIFY),
        over(&vocab(VOCAB_LINE), VERIFY),
    ),
    ex(
        "AB653",
        "A set claim's document names a member the other side does not have: a heading for a \
rule with no table row, a transport the profile schema does not know, a rule number outside \
the rule set.

The finding is at the member's line and column and names the members the other side has. \
Correct or remove the member, or add it to the catalogue.",
        over(&vocab("`stdio-only` / `dual` / `HTTP/SSE` / `sse`"), VERIFY),
        over(&vocab(VOCAB_LINE), VERIFY),
    ),
    ex(
        "AB654",
        "A set claim's document names a member twice: two `## Regel 3` headings, a numbered \
list that counts `3.` twice, a value listed again. One of the two is usually a mistyped other \
member.

The finding is at the second mention and names the line of the first. Remove it, or correct \
its number.",
        over(&vocab("`stdio-only` / `dual` / `HTTP/SSE` / `dual`"), VERIFY),
        over(&vocab(VOCAB_LINE), VERIFY),
    ),
    ex(
        "AB655",
        "A `docs:` entry may be a glob (`README*.md`, `docs/*.md`). A file that matches it but \
that no claim reads — a translated README added later, a new guide — would be published \
unchecked although the catalogue declared that such files are held to it.

The finding is at the `docs` line of catalogue.yaml and names the file. Declare a claim for it \
(a claim's `doc` may be the glob itself, so every match is held to it), or narrow the glob.",
        over(
            &[
                cat_add(GLOB_CLAIM),
                README,
                HANDBUCH,
                file("handbuch/anhang.md", "# Anhang\n"),
                cat("    doc: \"handbuch/*.md\"", "    doc: handbuch/einfuehrung.md"),
            ],
            VERIFY,
        ),
        over(
            &[
                cat_add(GLOB_CLAIM),
                README,
                HANDBUCH,
                file("handbuch/anhang.md", "# Anhang\n\nFassung 1.0.0.\n"),
            ],
            VERIFY,
        ),
    ),
    ex(
        "AB656",
        "A document glob that matches no file covers nothing: the documents it was declared \
for were moved or renamed, and every claim over them silently stopped being checked.

The finding is at the claim over the glob, or at the `docs` line. Correct the glob, or remove \
it when the documents are gone.",
        over(&[cat_add(GLOB_CLAIM), README], VERIFY),
        over(&[cat_add(GLOB_CLAIM), README, HANDBUCH], VERIFY),
    ),
    ex(
        "AB657",
        "A set claim with `contiguous: true` holds the numbers it reads — numbered headings, a \
numbered list, rule-number mentions — to running from the smallest to the largest without a \
gap. Renumbering rule 2 as 3 in every place keeps every set claim equal to every other, so only \
the gap in the numbering shows it.

The finding is at the first number after the gap and names what is missing. Number the members \
without a gap, or drop `contiguous` if the gap is deliberate.",
        over(
            &[
                NUMBERING_CLAIM,
                (
                    "README.md",
                    Edit::Text {
                        text: "# Beispielkatalog\n\n## Regeln\n\n1. Zahlen bleiben Zahlen\n3. Namen folgen einer Konvention\n",
                    },
                ),
                (
                    "REGELN.md",
                    Edit::Text {
                        text: "# Regeln\n\n## Regel 1 — Zahlen bleiben Zahlen\n\n## Regel 3 — Namen folgen einer Konvention\n",
                    },
                ),
            ],
            VERIFY,
        ),
        over(&[NUMBERING_CLAIM, NUMBERED_LIST, NUMBERED_HEADINGS], VERIFY),
    ),
    ex(
        "AB658",
        "A set claim with `ordered: true` holds the members it reads to the order of the side it \
is held to: numbers ascending, categories and a profile field's values as catalogue.yaml \
declares them, another document's reading as it reads. Two swapped list items or headings \
leave the set as it was, so without the order nothing would notice.

The finding is at the member out of place and names the one it follows and the order expected. \
Put the member back, or drop `ordered` if the order does not matter.",
        over(
            &[
                VOCAB_CLAIM,
                file("README.md", VOCAB_DOC),
                ORDER_CLAIM,
                (
                    "README.md",
                    Edit::Replace {
                        find: VOCAB_LINE,
                        with: "`dual` / `stdio-only` / `HTTP/SSE`",
                    },
                ),
            ],
            VERIFY,
        ),
        over(&[VOCAB_CLAIM, file("README.md", VOCAB_DOC), ORDER_CLAIM], VERIFY),
    ),
    ex(
        "AB659",
        "A claim with `matches: N` holds its pattern to matching exactly N times in the part of \
the document it reads: one `Stand:` line, one list of the categories. A second copy of a \
sentence is how a stale statement survives a rewrite beside the new one.

A match beyond the N-th is a finding at its line, naming where the first is; fewer matches than \
N (but some) is a finding at the claim. Remove the extra copy or restore the missing one, or \
correct `matches`.",
        over(
            &[
                STAND_CLAIM,
                file(
                    "README.md",
                    "# Beispielkatalog\n\nStand: 2 Prüfungen.\n\nNachtrag — Stand: 2 Prüfungen.\n",
                ),
            ],
            VERIFY,
        ),
        over(
            &[
                STAND_CLAIM,
                file("README.md", "# Beispielkatalog\n\nStand: 2 Prüfungen.\n"),
            ],
            VERIFY,
        ),
    ),
];
