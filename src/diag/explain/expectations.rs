//! AB9xx: the catalogue's own tests (`auditbook test`).

use super::row::*;

const TEST_FILE: &str =
    "# Was der Katalog für den lesenden Amtsblatt-Server entscheidet: beide Prüfungen
# gelten, und mit den Ergebnissen in r.yaml ist er produktionsreif.
tests:
  - name: amtsblatt lesend
    profile: p.yaml
    must_apply: [ARCH-001, FID-001]
    results: r.yaml
    verdict: production-ready
";
const TESTS: (&str, Edit) = file("tests/amtsblatt.yaml", TEST_FILE);
const TEST: Run = Run::Command {
    args: &["test", "--format", "json"],
};

pub static ROWS: &[Explanation] = &[
    ex(
        "AB901",
        "A catalogue can pin its own decisions in `tests/*.yaml` under its root: for a profile, \
which checks must apply and which must not (and why), the verdict and score for a set of \
results, or that a document's claims hold. An expectation file that cannot be read as such — \
an unknown or misspelt key, a test without a name, an id that is no check, a claim that is not \
declared — would test nothing while looking like a safeguard.

Every such problem is reported at its line, and the file's tests do not run. A misspelt key \
comes with the nearest known one.

Fix the file at the reported line. The keys a test takes are `name`, `profile`, `must_apply`, \
`must_not_apply`, `results`, `verdict` and `score`, or `document` and `claims`.",
        over(
            &[
                TESTS,
                (
                    "tests/amtsblatt.yaml",
                    Replace {
                        find: "must_apply:",
                        with: "must_aply:",
                    },
                ),
            ],
            TEST,
        ),
        over(&[TESTS], TEST),
    ),
    ex(
        "AB902",
        "A test under `tests/` states what the catalogue decided when it was written; the \
catalogue no longer decides that. A widened or narrowed `applies_when`, a changed severity \
that moves the score, a verdict that flips: each is a change in what audits will conclude, \
and the test makes it visible before it reaches a report.

`auditbook test` prints a diff of expected against actual decisions for every failing test; \
with `--format json` each failure is also an AB902 finding at the test's line, for CI.

If the change was not intended, change the catalogue back. If it was, update the expectation \
in the same commit, so the review sees both.",
        over(
            &[
                TESTS,
                fid(
                    "applies_when: 'write_capable == false'",
                    "applies_when: 'write_capable == true'",
                ),
            ],
            TEST,
        ),
        over(&[TESTS], TEST),
    ),
];
