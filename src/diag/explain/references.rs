//! AB2xx: the manifest, references between checks, sections and sources.

use super::row::*;

pub static ROWS: &[Explanation] = &[
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
            &[(
                "catalogue.yaml",
                Append {
                    text: "retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001, reason: \"zusammengeführt\"}\n",
                },
            ), (
                "checks/ARCH-001.md",
                Replace {
                    find: "[FID-001](FID-001.md)",
                    with: "[FID-002](FID-002.md)",
                },
            )],
            LINT,
        ),
        good: over(
            &[(
                "catalogue.yaml",
                Append {
                    text: "retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001, reason: \"zusammengeführt\"}\n",
                },
            )],
            LINT,
        ),
    },
];
