//! AB226–AB227: code in a check body that verifies nothing.

use super::row::*;

pub static ROWS: &[Explanation] = &[
    ex(
        "AB226",
        "A check's verification often hands the auditor a `grep` command. grep's basic and \
extended syntaxes (`grep`, `grep -E`) know few escapes besides escaped punctuation: `\\w`, \
`\\W`, `\\s`, `\\S`, `\\b`, `\\B` and back-references. `\\x27`, `\\d` or `\\t` are read as the plain letter \
after the backslash, and inside a bracket expression a backslash is an ordinary character, so \
`[\"\\x27]` matches a double quote, a backslash, `x`, `2` or `7` and never a single quote. The \
search runs without an error, finds nothing in code that has the defect, and the empty output \
reads like a clean result.

The finding names the escape and what the pattern matches instead. Write the character itself \
(a single quote inside a double-quoted pattern: `grep -E \"[\\\"']\"`), a class such as `[0-9]` \
or `[[:space:]]`, or switch to `grep -P`, which reads Perl escapes. Code under `## Common \
Failures` shows wrong commands on purpose and is not judged.",
        over(
            &[arch(
                "Die registrierten Werkzeuge auflisten.",
                "Versionsliterale finden: `grep -rnE '__version__ = [\"\\x27][0-9]' src/`.",
            )],
            LINT,
        ),
        over(
            &[arch(
                "Die registrierten Werkzeuge auflisten.",
                "Versionsliterale finden: `grep -rnE \"__version__ = [\\\"'][0-9]\" src/`.",
            )],
            LINT,
        ),
    ),
    ex(
        "AB227",
        "An example test in a check teaches what a good test looks like. An assertion that a \
count or a length is at least zero (`assert len(hits) >= 0`, \
`expect(n).toBeGreaterThanOrEqual(0)`, `self.assertGreaterEqual(total, 0)`) holds for every \
answer, the empty one and the apology of a degraded server included: the test stays green \
whatever the tool returns, and a suite copied from the check proves nothing.

The finding marks the comparison. Assert a floor the source is known to reach, a value only a \
real answer contains (an identifier from the source), or at the very least `> 0`. A comparison \
that can fail (`0 <= share <= 0.4`, `temp_c >= 0`) is not reported, and neither is code under \
`## Common Failures`.",
        over(
            &[fid(
                "Drei Datensätze mit der Quelle vergleichen.",
                "Drei Datensätze mit der Quelle vergleichen:\n\n```python\nassert len(rows) >= 0\n```",
            )],
            LINT,
        ),
        over(
            &[fid(
                "Drei Datensätze mit der Quelle vergleichen.",
                "Drei Datensätze mit der Quelle vergleichen:\n\n```python\nassert len(rows) >= 3\n```",
            )],
            LINT,
        ),
    ),
];
