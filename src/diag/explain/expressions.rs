//! AB3xx: the applies_when language.

use super::row::*;

const ALWAYS: &str = "applies_when: 'always'";

pub static ROWS: &[Explanation] = &[
    ex(
        "AB301",
        "`applies_when` decides for which servers a check applies, from the fields of their \
profile. An expression that does not parse cannot decide anything, so the check's \
applicability would be unknown for every audit.

The message says what was expected at the column where reading stopped; the grammar is in \
the catalogue format, section 4.",
        over(&[arch(ALWAYS, "applies_when: 'transport =='")], LINT),
        over(
            &[arch(ALWAYS, "applies_when: 'transport == \"dual\"'")],
            LINT,
        ),
    ),
    ex(
        "AB302",
        "An expression may read only the fields the profile schema declares. A field that is \
not declared is absent from every profile, so the comparison is decided by a missing value — \
usually a misspelt field name.

Declare new fields under `profile.fields` in catalogue.yaml; every profile then has to answer them (unless `required: false`).",
        over(
            &[arch(ALWAYS, "applies_when: 'sdk_language == \"rust\"'")],
            LINT,
        ),
        over(
            &[arch(ALWAYS, "applies_when: 'transport == \"dual\"'")],
            LINT,
        ),
    ),
    ex(
        "AB303",
        "Comparisons are typed: a string field is compared with a string, a boolean field with \
`true` or `false`, and `.includes(…)` works on list fields only. `write_capable == \"nein\"` \
compares a boolean with text and would be false for every profile.

There is no conversion between types: quoting a boolean makes it a string, and a string compared with a boolean is reported rather than guessed at.",
        over(
            &[arch(ALWAYS, "applies_when: 'write_capable == \"nein\"'")],
            LINT,
        ),
        over(
            &[arch(ALWAYS, "applies_when: 'write_capable == false'")],
            LINT,
        ),
    ),
    ex(
        "AB304",
        "A field with a closed vocabulary can only hold its listed values. Comparing it with \
another literal — `transport == \"stdio\"` when the value is `stdio-only` — can never be \
true, so the check silently never applies (or, with `!=`, always does).

The finding lists the field's vocabulary. Fields declared with `open: true` have example values only and are not held to them.",
        over(
            &[arch(ALWAYS, "applies_when: 'transport == \"stdio\"'")],
            LINT,
        ),
        over(
            &[arch(ALWAYS, "applies_when: 'transport == \"stdio-only\"'")],
            LINT,
        ),
    ),
    ex(
        "AB305",
        "The same as AB304 for list fields: `.includes(\"AWS\")` on a list whose vocabulary \
has no `AWS` is never true.

Like AB304, the finding lists the vocabulary, and open fields are exempt.",
        over(
            &[arch(ALWAYS, "applies_when: 'deployment.includes(\"AWS\")'")],
            LINT,
        ),
        over(
            &[arch(
                ALWAYS,
                "applies_when: 'deployment.includes(\"Railway\")'",
            )],
            LINT,
        ),
    ),
    ex(
        "AB306",
        "When part of an expression is constant — `always` in an `or`, `never` in an `and`, a \
test that is true for every profile — the rest of it is dead: it can be edited at will and \
nothing changes. That is rarely what the author meant.

It is a warning: the expression still works, but part of it is noise that misleads the next reader.",
        over(
            &[arch(
                ALWAYS,
                "applies_when: 'write_capable == false or always'",
            )],
            LINT,
        ),
        over(
            &[arch(ALWAYS, "applies_when: 'write_capable == false'")],
            LINT,
        ),
    ),
    ex(
        "AB307",
        "An expression that is true for every profile the schema allows says the same as \
`always`, in more words. Written out, it suggests a condition that does not exist; a reader \
looking for the checks that always apply will miss it.

It is a warning, because the check still applies exactly where it should; only the way it says so is misleading.",
        over(
            &[arch(
                ALWAYS,
                "applies_when: 'write_capable == true or write_capable == false'",
            )],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB308",
        "An expression that no profile can satisfy makes the check dead: it never applies, so \
it is never audited, and nothing in an audit report shows that. It is an error because such a \
check is in the catalogue in name only.

Usually two conditions were joined with `and` where `or` was meant, or a condition contradicts one the schema makes impossible.",
        over(
            &[arch(
                ALWAYS,
                "applies_when: 'write_capable == true and write_capable == false'",
            )],
            LINT,
        ),
        over(
            &[arch(ALWAYS, "applies_when: 'write_capable == true'")],
            LINT,
        ),
    ),
    ex(
        "AB309",
        "Which protocol revision a check is written for is declared by `spec_baseline`, and a \
dedicated gate compares it with the profile's revision field. Reading that field in \
`applies_when` as well would make two rules decide the same question, and they can disagree.

`spec_baseline` takes the revisions catalogue.yaml declares (`spec_baselines.values`), and the gate reads the profile field named by `spec_baselines.profile_field`.",
        over(
            &[arch(
                ALWAYS,
                "applies_when: 'mcp_spec_version == \"2025-11-25\"'",
            )],
            LINT,
        ),
        over(
            &[arch(
                "severity: medium\n",
                "severity: medium\nspec_baseline: \"2025-11-25\"\n",
            )],
            LINT,
        ),
    ),
];

/// After the set codes (`forms::EXPRESSION_ROWS`): the vocabulary no expression compares.
pub static VOCABULARY_ROWS: &[Explanation] = &[ex(
    "AB311",
    "A closed vocabulary in the profile schema lists every value a profile may give a \
field. When checks select some values of a string field (`==`, a string test) but nothing \
compares one of them, a profile that picks that value is selected by none of those checks, \
and no finding says so. A value added to the vocabulary without the checks that should select \
it quietly shrinks every audit of a server that uses it.

A value counts as compared when an expression names it (`==`, `!=`) or it satisfies a string \
test of the field (`starts_with`, `ends_with`, `contains`, `matches`). Left alone: a field no \
expression reads, one only excluded from (`!=` selects every value it does not name), one \
compared with another field, list fields (their entries add up, an unselected entry takes \
nothing away), the baseline field (the baseline gate reads it) and the values a derived field \
is read from.

It is a note: a value can rightly select nothing of its own (`stdio-only` where every check \
asks for HTTP), and only the maintainers know which. Compare it where it should select \
checks, or accept the note in `lint.allow` with the reason.",
    over(
        &[arch(
            ALWAYS,
            "applies_when: 'transport == \"dual\" or transport == \"HTTP/SSE\"'",
        )],
        LINT,
    ),
    over(
        &[
            arch(
                ALWAYS,
                "applies_when: 'transport == \"dual\" or transport == \"HTTP/SSE\"'",
            ),
            fid(
                "applies_when: 'write_capable == false'",
                "applies_when: 'transport == \"stdio-only\"'",
            ),
        ],
        LINT,
    ),
)];
