//! AB0xx: reading files.

use super::row::*;

const HANDBOOK: (&str, Edit) = cat_add("docs: [HANDBUCH.md]\n");

pub static ROWS: &[Explanation] = &[
    ex(
        "AB001",
        "A file the catalogue declares or needs could not be opened: it does not exist, it \
is not readable for the user running auditbook, or it is not a file one can read to the end. \
The finding points at the line that declares the file, so the fix starts where the name was \
written.

Nothing read from such a file can be checked. A declared document that is missing would \
otherwise pass `verify` without a single claim held to it, which is why this is an error and \
not a warning.",
        over(&[HANDBOOK], LINT),
        over(
            &[
                HANDBOOK,
                file("HANDBUCH.md", "# Handbuch\n\nWie wir prüfen.\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB002",
        "Every file auditbook reads is text in UTF-8. A file saved in Latin-1 or Windows-1252 \
looks right in the editor that wrote it, but its umlauts are single bytes that are not valid \
UTF-8, and whatever is read from it would be guessed.

The finding names the byte offset of the first invalid sequence. Re-save the file as UTF-8; \
no content changes.",
        over(
            &[
                HANDBOOK,
                (
                    "HANDBUCH.md",
                    Bytes {
                        bytes: b"# Handbuch\n\nWie wir pr\xfcfen.\n",
                    },
                ),
            ],
            LINT,
        ),
        over(
            &[
                HANDBOOK,
                file("HANDBUCH.md", "# Handbuch\n\nWie wir prüfen.\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB003",
        "A UTF-8 byte-order mark is three invisible bytes at the start of a file. auditbook \
reads past it, but other tools do not: a frontmatter block that starts after a BOM is not \
`---` at the first byte for them, and diffs show a change nobody can see.

It is a warning because nothing is lost; saving the file without the mark removes it.",
        over(
            &[
                HANDBOOK,
                file("HANDBUCH.md", "\u{feff}# Handbuch\n\nWie wir prüfen.\n"),
            ],
            LINT,
        ),
        over(
            &[
                HANDBOOK,
                file("HANDBUCH.md", "# Handbuch\n\nWie wir prüfen.\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB004",
        "Files with CRLF line endings are read as if they had LF endings, so nothing is \
misread. But `sync` rewrites generated regions, and every line it writes and every line \
around it would churn between the two conventions in version control.

The finding points at the first CRLF. Convert the file to LF (or let `.gitattributes` do it).",
        over(
            &[
                HANDBOOK,
                file("HANDBUCH.md", "# Handbuch\r\n\r\nWie wir prüfen.\r\n"),
            ],
            LINT,
        ),
        over(
            &[
                HANDBOOK,
                file("HANDBUCH.md", "# Handbuch\n\nWie wir prüfen.\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB005",
        "The catalogue is what lies under its root. A check file that is a symbolic link to a \
file elsewhere would make the catalogue depend on a file its repository does not hold, and a \
hostile link could make auditbook read any file the user can read.

Such a file is not read. Copy the file into the catalogue instead of linking it.",
        over(
            &[
                (
                    "checks/FID-002.md",
                    Link {
                        target: "/etc/hostname",
                    },
                ),
                ("checks/MANIFEST.txt", Append { text: "FID-002\n" }),
            ],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB006",
        "Without a catalogue.yaml auditbook still reads the checks, but it knows neither the \
categories nor the profile schema, the retired ids, the rules or the claims. Expressions are \
checked for syntax only, and everything that needs a declaration is skipped.

The note says so once per run, so that a clean lint in compatibility mode is not mistaken \
for a full one.",
        over(&[("catalogue.yaml", Remove)], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB007",
        "auditbook reads files whole, and refuses files beyond a fixed limit (32 MiB) rather \
than exhaust memory on a file that is not what it should be: a log written into the checks \
directory, a dump, a runaway generator.

Catalogue files are far smaller. Split the file, or move what is not a catalogue file out of \
the catalogue.",
        over(
            &[
                (
                    "HANDBUCH.md",
                    Large {
                        line: "Dieser Absatz wiederholt sich, bis die Datei zu groß ist.\n",
                        bytes: 32 * 1024 * 1024,
                    },
                ),
                HANDBOOK,
            ],
            LINT,
        ),
        over(
            &[
                HANDBOOK,
                file("HANDBUCH.md", "# Handbuch\n\nWie wir prüfen.\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB008",
        "A catalogue without checks is almost always a catalogue read from the wrong folder: \
`-C` names the repository instead of the catalogue inside it, or `checks_dir` is misspelt.

It is an error so that such a run cannot pass as a clean lint of zero checks.",
        over(
            &[
                ("checks/ARCH-001.md", Remove),
                ("checks/FID-001.md", Remove),
                ("checks/MANIFEST.txt", Remove),
            ],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB009",
        "Reading a named pipe, a socket or a device blocks until someone writes to it, or \
never ends. A catalogue path that names one is reported and not opened, so `lint` in a \
pre-commit hook cannot hang on a planted FIFO.

Point the path at a regular file.",
        over(
            &[
                ("checks/FID-002.md", Fifo),
                ("checks/MANIFEST.txt", Append { text: "FID-002\n" }),
            ],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB010",
        "Paths written in catalogue.yaml (documents, rule tables, claims) and in a portfolio \
are confined: to the repository that holds the catalogue, or to the portfolio's folder. A \
path that climbs out with `..`, or is absolute, is not opened, because a file from a \
repository under review must not make auditbook read files elsewhere.

A deliberate outside folder is allowed from the command line only, with `--allow-path DIR`.",
        over(&[cat_add("docs: [../HANDBUCH.md]\n")], LINT),
        over(&[HANDBOOK, file("HANDBUCH.md", "# Handbuch\n")], LINT),
    ),
];
