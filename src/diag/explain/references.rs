//! AB2xx: the manifest, references between checks, sections and sources.

use super::row::*;

const RETIRED_FID_002: &str = "retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001, reason: \"zusammengeführt\"}\n";
const SOURCES_ALL: &str = "require_sources:\n  where: 'always'\n  section: Beschreibung\n";
const SOURCES_FID: &str =
    "require_sources:\n  where: 'category == \"FID\"'\n  section: Beschreibung\n";

pub static ROWS: &[Explanation] = &[
    ex(
        "AB201",
        "MANIFEST.txt is the list of the catalogue's checks, one id per line: the record of \
what the catalogue holds, reviewed in every change. An id listed there without a check file \
means a check was deleted without retiring it, or its file was never added.

Add the file, or remove the line (and retire the id if it was ever released).",
        over(
            &[("checks/MANIFEST.txt", Append { text: "FID-003\n" })],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB202",
        "A check file that the manifest does not list was added without being recorded. The \
manifest is what reviewers read to see the catalogue change, so a check must not slip in \
past it.

Add the id to MANIFEST.txt in the same change that adds the file; `auditbook new` does both.",
        over(
            &[(
                "checks/MANIFEST.txt",
                Replace {
                    find: "FID-001\n",
                    with: "",
                },
            )],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB203",
        "An id listed twice in the manifest is harmless to read but suggests a merge gone \
wrong, and counts taken from the manifest would be off by one. The finding points at the \
second line and names the first.

Delete the second line; the order of the manifest carries no meaning, so it does not matter which of the two stays.",
        over(
            &[("checks/MANIFEST.txt", Append { text: "FID-001\n" })],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB204",
        "Each line of MANIFEST.txt is one id, a comment starting with `#`, or empty. Anything \
else — a title, an id with a space, two ids on a line — is not read as an id at all, so the \
check it was meant to list counts as unlisted.

Comments (`# …`) and empty lines are allowed anywhere, so notes about planned checks can stay in the manifest as comments.",
        over(
            &[(
                "checks/MANIFEST.txt",
                Append {
                    text: "FID 003 neu\n",
                },
            )],
            LINT,
        ),
        over(
            &[(
                "checks/MANIFEST.txt",
                Append {
                    text: "# FID-003 folgt\n",
                },
            )],
            LINT,
        ),
    ),
    ex(
        "AB210",
        "A Markdown link to a check file (`[FID-009](FID-009.md)`) promises a reader that the \
check exists. When no check has that id, the link leads nowhere: a typo in the number, or a \
check that was deleted instead of retired.

Correct the id, or remove the link.",
        over(
            &[arch("[FID-001](FID-001.md)", "[FID-009](FID-009.md)")],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB211",
        "An id written in running text (`FID-009`), not as a link, that no check has. It is a \
warning, not an error, because text sometimes names an id on purpose — \"there is no \
FID-009\" — but far more often it is a typo that a reader will follow.

A mention of an existing id is not a finding at all, and a mention of a retired id is a note (AB213). Only an id that nothing in the catalogue knows is a warning.",
        over(
            &[arch(
                "Siehe auch [FID-001](FID-001.md).",
                "Siehe auch FID-009.",
            )],
            LINT,
        ),
        over(
            &[arch(
                "Siehe auch [FID-001](FID-001.md).",
                "Siehe auch FID-001.",
            )],
            LINT,
        ),
    ),
    Explanation {
        code: "AB212",
        since: V0_1_0,
        text: "A retired check keeps its number for good, but its file is gone: a link to it \
leads a reader to nothing, or to an old copy that no longer counts. When a check is retired \
because it was merged into another or replaced by one, catalogue.yaml records that successor, \
and that is where the link should now point.

The finding is an error because a link is a promise that the target is part of the \
catalogue. A mere mention of a retired id in running text is history and only a note \
(AB213); a link is not.",
        bad: over(
            &[
                (
                    "catalogue.yaml",
                    Append {
                        text: RETIRED_FID_002,
                    },
                ),
                (
                    "checks/ARCH-001.md",
                    Replace {
                        find: "[FID-001](FID-001.md)",
                        with: "[FID-002](FID-002.md)",
                    },
                ),
            ],
            LINT,
        ),
        good: over(
            &[(
                "catalogue.yaml",
                Append {
                    text: RETIRED_FID_002,
                },
            )],
            LINT,
        ),
    },
    ex(
        "AB213",
        "Text that names a retired id is usually history (\"merged from FID-002 in 2.1\"), and \
history is allowed. The note names the successor, in case the text is not history but a \
reference that should have been updated.

`lint.retired_mentions` in catalogue.yaml raises the level for catalogues that want no \
mentions of retired ids at all.",
        over(
            &[
                cat_add(RETIRED_FID_002),
                arch(
                    "Siehe auch [FID-001](FID-001.md).",
                    "Früher hieß diese Prüfung FID-002.",
                ),
            ],
            LINT,
        ),
        over(&[cat_add(RETIRED_FID_002)], LINT),
    ),
    ex(
        "AB214",
        "A relative link to a file (not a check) that does not exist: an image, a document, a \
guide that moved. Links resolve against the file they are written in, as on GitHub; links \
under a configured base (`links.bases`) resolve against the catalogue root.

It is a warning because the catalogue itself is intact; the reader is not.",
        over(
            &[arch(
                "Siehe auch [FID-001](FID-001.md).",
                "Siehe [Handbuch](../HANDBUCH.md).",
            )],
            LINT,
        ),
        over(
            &[
                arch(
                    "Siehe auch [FID-001](FID-001.md).",
                    "Siehe [Handbuch](../HANDBUCH.md).",
                ),
                file("HANDBUCH.md", "# Handbuch\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB215",
        "A link's `#fragment` must name a heading of the target (by GitHub's slug: lower case, \
punctuation dropped, spaces as hyphens, repeats numbered) or an HTML anchor in it. A fragment \
that matches nothing opens the file at its top, and the reader does not find what the link \
promised.

The slug of a heading like `## Pass Criteria` is `pass-criteria`; headings that repeat get `-1`, `-2` in order. An `<a id=…>` anchor in the target counts as well.",
        over(
            &[arch(
                "[FID-001](FID-001.md)",
                "[FID-001](FID-001.md#kriterien)",
            )],
            LINT,
        ),
        over(
            &[arch(
                "[FID-001](FID-001.md)",
                "[FID-001](FID-001.md#pass-criteria)",
            )],
            LINT,
        ),
    ),
    ex(
        "AB220",
        "`required_sections` in catalogue.yaml names the `## ` sections every check has. \
Audits rely on them: the auditor needs the verification steps and the criteria. A check \
without one of them cannot be audited the same way as the others.

The finding names the missing heading as catalogue.yaml declares it; add it with that text.",
        over(
            &[arch(
                "## Prüfung\n\nDie registrierten Werkzeuge auflisten.\n\n",
                "",
            )],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB221",
        "Audit results cite pass criteria. Written as task-list items (`- [ ] …`) they can be \
counted, ticked and cited one by one; written as prose or a plain list they cannot. The \
warning points at the section.

The section itself is there; only its items lack the task-list form.",
        over(&[arch("- [ ] Alle Namen", "- Alle Namen")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB222",
        "`require_sources` names the checks whose criteria must come from an external source \
— a specification page, an RFC, a law — and the section the source is cited in. A selected \
check whose section links no http(s) address states requirements nobody can trace.

Cite the exact revision and section, or narrow `require_sources.where` if the check is house \
practice.",
        over(&[cat_add(SOURCES_ALL)], LINT),
        over(&[cat_add(SOURCES_FID)], LINT),
    ),
    ex(
        "AB223",
        "A check `require_sources` does not select may rest on house practice, but it should \
say so: a line matching `require_sources.house_practice` (by default `House practice: …`). \
Without a source and without that line, a reader cannot tell a deliberate house rule from a \
forgotten citation.

It is a warning, not an error: house practice is a legitimate basis, it just has to be declared.",
        over(
            &[
                cat_add(SOURCES_FID),
                arch("House practice: Namenskonvention des Hauses.\n\n", ""),
            ],
            LINT,
        ),
        over(&[cat_add(SOURCES_FID)], LINT),
    ),
    ex(
        "AB224",
        "A source link should let a reader find the very text the criteria come from, years \
later. A link without text, without a host, or to a revision that moves (`latest`, `main`) \
will one day show something else.

It is a note: the source is cited, just not precisely enough.",
        over(
            &[
                cat_add(SOURCES_FID),
                fid(
                    "specification/2025-11-25/server",
                    "specification/latest/server",
                ),
            ],
            LINT,
        ),
        over(&[cat_add(SOURCES_FID)], LINT),
    ),
    ex(
        "AB225",
        "`require_sources.where` is an expression over check fields, in the language of \
`require_coverage` and `list --where`. If it does not parse or does not type, nobody knows \
which checks must cite a source, and none is held to it.

The message gives the column and what was expected there. `list --where` takes the same language, so an expression can be tried out on the command line before it goes into catalogue.yaml.",
        over(
            &[cat_add(
                "require_sources:\n  where: 'category = \"FID\"'\n  section: Beschreibung\n",
            )],
            LINT,
        ),
        over(&[cat_add(SOURCES_FID)], LINT),
    ),
];
