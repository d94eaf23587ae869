//! AB1xx: check frontmatter and catalogue.yaml.

use super::row::*;

const FID_SEVERITY: &str = "severity: high\n";

/// FID-001 with its baseline written as a bare date, which draws `AB123`.
const BARE_DATE: (&str, Edit) = fid(FID_SEVERITY, "severity: high\nspec_baseline: 2025-11-25\n");

/// `lint.allow` entries accepting the bare date of FID-001.
const ALLOW_UNTIL_PAST: (&str, Edit) = cat_add("lint:\n  allow:\n    - code: AB123\n      id: FID-001\n      reason: \"Das Redaktionswerkzeug liest das Datum; Umstellung bis Mitte 2025\"\n      until: \"2025-06-30\"\n");
const ALLOW_UNTIL_LATER: (&str, Edit) = cat_add("lint:\n  allow:\n    - code: AB123\n      id: FID-001\n      reason: \"Das Redaktionswerkzeug liest das Datum; Umstellung verschoben\"\n      until: \"2999-12-31\"\n");
const ALLOW_FOR_GOOD: (&str, Edit) = cat_add("lint:\n  allow:\n    - {code: AB123, id: FID-001, reason: \"Das Redaktionswerkzeug liest das Datum\"}\n");

pub static ROWS: &[Explanation] = &[
    ex(
        "AB101",
        "A check's fields — id, title, category, severity, applies_when — live in a YAML block \
between two `---` lines at the very top of the file. A file that starts with anything else \
(a heading, a blank line) has no fields, so it is not a check the catalogue can use.

The finding shows the first line found instead.",
        over(
            &[file(
                "checks/FID-001.md",
                "# FID-001 — Zahlen werden unverändert durchgereicht\n\n## Beschreibung\n\nWerte aus der Quelle erreichen das Modell ohne Rundung.\n",
            )],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB102",
        "The frontmatter starts with `---` and ends at the next line that holds only `---`. \
Without the closing line, where the fields end and the text begins is a guess: the whole \
file would be read as YAML.

Add the closing `---` after the last field.",
        over(
            &[fid(
                "applies_when: 'write_capable == false'\n---\n",
                "applies_when: 'write_capable == false'\n\n",
            )],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB103",
        "The frontmatter is YAML, and YAML is strict in places that look harmless: an unquoted \
value holding `: ` starts a nested mapping, a leading `*` or `&` is an alias. Such a block \
does not parse, or parses into something other than a mapping of fields.

The finding gives YAML's own message with its line. Quoting the value is almost always the fix.",
        over(
            &[fid(
                "title: \"Zahlen werden unverändert durchgereicht\"",
                "title: Zahlen: unverändert durchgereicht",
            )],
            LINT,
        ),
        over(
            &[fid(
                "title: \"Zahlen werden unverändert durchgereicht\"",
                "title: \"Zahlen: unverändert durchgereicht\"",
            )],
            LINT,
        ),
    ),
    ex(
        "AB104",
        "YAML readers disagree about a key written twice in one mapping: some keep the first \
value, some the last, some refuse the file. auditbook keeps the first and reports the second, \
so that two tools reading the same catalogue cannot see two different severities.

Keep the line you mean and delete the other.",
        over(
            &[cat("version: 1.0.0\n", "version: 1.0.0\nversion: 1.1.0\n")],
            LINT,
        ),
        over(&[cat("version: 1.0.0\n", "version: 1.1.0\n")], LINT),
    ),
    ex(
        "AB105",
        "Some fields have no sensible default: a check without a severity cannot be weighed, \
one without a category cannot be placed. Such a field must be written.

The catalogue format, section 2, lists which fields are required; the others have defaults.",
        over(&[fid(FID_SEVERITY, "")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB106",
        "A key the format does not know is not ignored: a misspelt `severety:` would otherwise \
leave the check at a default nobody chose, and nothing would say so.

Keys a catalogue adds on purpose (an owner, a ticket) are declared under `extra_fields` in \
catalogue.yaml and are then accepted on every check.",
        over(&[fid(FID_SEVERITY, "severity: high\nverantwortlich: Team Daten\n")], LINT),
        over(
            &[
                fid(FID_SEVERITY, "severity: high\nverantwortlich: Team Daten\n"),
                cat_add("extra_fields: [verantwortlich]\n"),
            ],
            LINT,
        ),
    ),
    ex(
        "AB107",
        "YAML guesses types: `title: 2026` is a number, `applies_when: yes` may be a boolean. \
auditbook never converts such a value into what the field expects, because the guess is \
usually a sign that something else was meant.

Quote text values; write numbers and booleans unquoted where the field wants them.",
        over(
            &[fid(
                "title: \"Zahlen werden unverändert durchgereicht\"",
                "title: 2026",
            )],
            LINT,
        ),
        over(&[fid("title: \"Zahlen werden unverändert durchgereicht\"", "title: \"2026\"")], LINT),
    ),
    ex(
        "AB108",
        "Ids are how checks are linked, mapped to rules, retired and cited in audits. \
catalogue.yaml's `id_pattern` (by default two to six capitals, a hyphen and three digits) \
keeps them uniform, so that a reference can be recognised in running text.

Rename the check (file and id) so that its id matches.",
        over(
            &[
                file("checks/FID-02.md", "---\nid: FID-02\ntitle: \"Einheiten werden mitgeliefert\"\ncategory: FID\nseverity: low\napplies_when: 'always'\n---\n\n# FID-02 — Einheiten werden mitgeliefert\n\n## Beschreibung\n\nHouse practice: Einheiten stehen beim Wert.\n\n## Prüfung\n\nAntworten lesen.\n\n## Pass Criteria\n\n- [ ] Jede Zahl hat eine Einheit.\n"),
                ("checks/MANIFEST.txt", Append { text: "FID-02\n" }),
            ],
            LINT,
        ),
        over(
            &[
                file("checks/FID-002.md", "---\nid: FID-002\ntitle: \"Einheiten werden mitgeliefert\"\ncategory: FID\nseverity: low\napplies_when: 'always'\n---\n\n# FID-002 — Einheiten werden mitgeliefert\n\n## Beschreibung\n\nHouse practice: Einheiten stehen beim Wert.\n\n## Prüfung\n\nAntworten lesen.\n\n## Pass Criteria\n\n- [ ] Jede Zahl hat eine Einheit.\n"),
                ("checks/MANIFEST.txt", Append { text: "FID-002\n" }),
            ],
            LINT,
        ),
    ),
    ex(
        "AB109",
        "A check's id and its file name must agree: links are written to `ID.md`, and \
`auditbook new` and `retire` find checks by file name. A file whose id says something else is \
a check nobody's link reaches.

Rename the file, or correct the id — whichever was the mistake.",
        over(&[fid("id: FID-001", "id: FID-010")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB110",
        "The prefix of an id is its category: FID-001 belongs to FID. A check whose `category` \
field says otherwise would be counted in one category and numbered in another.

The id wins the argument: links, the manifest and retired entries all go by id. So the usual fix is to correct `category`; renumbering is only right when the check really moved to another category, and then the old id is retired.",
        over(&[arch("category: ARCH", "category: FID")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB111",
        "Categories are declared in catalogue.yaml, with their display names and order. A check \
in an undeclared category would be missing from every table that lists the categories.

Declare the category, or correct the check's category.",
        over(&[cat("  - {prefix: ARCH, name: Architektur}\n", "")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB112",
        "Severities come from a closed list (by default critical, high, medium, low; \
`severities` in catalogue.yaml may declare others). Blocking rules and the score weigh \
findings by severity, so a value outside the list — `hoch`, `High` — cannot be weighed.

Which values count as severities, and which of them block a release (`blocking_severities`), is the catalogue's decision, made once in catalogue.yaml. A check cannot introduce a level of its own.",
        over(&[fid("severity: high", "severity: hoch")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB113",
        "Adoption is `enforced` (the default: a failure can block) or `advisory` (it is \
reported but never blocks). Any other value is refused rather than read as one of the two, \
since a typo must never silently demote or promote a check.

Leaving the field out is the same as `enforced`; write `adoption: advisory` for a check that is being introduced and should not block yet.",
        over(&[fid(FID_SEVERITY, "severity: high\nadoption: optional\n")], LINT),
        over(&[fid(FID_SEVERITY, "severity: high\nadoption: advisory\n")], LINT),
    ),
    ex(
        "AB114",
        "`spec_baseline` says which protocol revision a check was written for; profiles that \
speak another revision skip it. The values (and aliases such as `beide`) are declared in \
catalogue.yaml; a revision that is not declared cannot be compared with any profile.

A check written for every revision needs no `spec_baseline` at all: the default (`both` unless catalogue.yaml says otherwise) applies.",
        over(&[fid(FID_SEVERITY, "severity: high\nspec_baseline: \"2024-11-05\"\n")], LINT),
        over(&[fid(FID_SEVERITY, "severity: high\nspec_baseline: \"2025-11-25\"\n")], LINT),
    ),
    ex(
        "AB115",
        "`evidence_required` is how many evidence items a pass, fail or partial result of the \
check must carry. It is a count: a whole number, zero or more, written without quotes. A \
quoted `\"2\"` is text and is not converted.

Zero is allowed, for a check whose results need no evidence item; the default is one.",
        over(&[fid(FID_SEVERITY, "severity: high\nevidence_required: \"2\"\n")], LINT),
        over(&[fid(FID_SEVERITY, "severity: high\nevidence_required: 2\n")], LINT),
    ),
    ex(
        "AB116",
        "Two files that declare the same id make every reference to it ambiguous: which one \
does a link, a rule, an audit result mean? Numbers are never shared, not even for a moment \
while a check is being split.

Give the second check the next free number (`auditbook new CATEGORY`).",
        over(
            &[
                file("checks/FID-002.md", "---\nid: FID-001\ntitle: \"Einheiten werden mitgeliefert\"\ncategory: FID\nseverity: low\napplies_when: 'always'\n---\n\n# FID-001 — Einheiten werden mitgeliefert\n\n## Beschreibung\n\nHouse practice: Einheiten stehen beim Wert.\n\n## Prüfung\n\nAntworten lesen.\n\n## Pass Criteria\n\n- [ ] Jede Zahl hat eine Einheit.\n"),
                ("checks/MANIFEST.txt", Append { text: "FID-002\n" }),
            ],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB117",
        "A required field that is present but empty (`title: \"\"`, `severity:`) is as missing \
as one that is absent, but it looks filled in at a glance. It is reported on its own so the \
message can point at the line.

Fields that may be left out have defaults; a field that is written must hold a value, since an empty one is almost always a template that was not filled in.",
        over(
            &[fid("title: \"Zahlen werden unverändert durchgereicht\"", "title: \"\"")],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB118",
        "YAML tags (`!!python/object:…`, `!!binary`, `!custom`) ask a reader to construct a \
particular type. Some YAML libraries execute code to do so. auditbook reads plain values \
only, and refuses tags in frontmatter and catalogue.yaml so that a catalogue cannot carry an \
instruction for a less careful reader.

The finding names the tag. Removing it leaves the plain scalar, which is almost always what was meant (`!!str 1.0.0` is just `1.0.0`, quoted if it must stay text).",
        over(&[cat("version: 1.0.0", "version: !!str 1.0.0")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB119",
        "A check can declare `probe:`, the observations `auditbook probe` makes on a live \
server for it. Each probe has a kind from a fixed list and the parameters that kind takes. An \
unknown kind or parameter would be a probe that never runs, and the check would silently stay \
unobserved.

`auditbook schema check` prints the JSON Schema of check frontmatter including `probe:`, so an editor can complete kinds and parameters; README, section Probing, describes what each kind observes.",
        over(&[fid(FID_SEVERITY, "severity: high\nprobe: {kind: tool-nams}\n")], LINT),
        over(&[fid(FID_SEVERITY, "severity: high\nprobe: {kind: tool-names}\n")], LINT),
    ),
    ex(
        "AB120",
        "catalogue.yaml is read key by key. A key whose value has the wrong shape — a string \
where a list is expected, a list where a mapping is — is reported at its line and dropped; \
every other key is kept, so one mistake costs only that key.

The message quotes what was expected and what was found. The catalogue format, section 3, lists every key with its type.",
        over(
            &[cat(
                "required_sections: [Beschreibung, Prüfung, Pass Criteria]",
                "required_sections: Beschreibung",
            )],
            LINT,
        ),
        over(&[], LINT),
    ),
    ex(
        "AB121",
        "A key catalogue.yaml does not know is usually a misspelling, and a misspelt key is a \
setting that silently does nothing. The finding suggests the nearest known key.

An unknown key is reported and ignored; the rest of catalogue.yaml is read as usual.",
        over(&[cat("required_sections:", "requried_sections:")], LINT),
        over(&[], LINT),
    ),
    ex(
        "AB122",
        "Some values are well-formed YAML but cannot be used: an `id_pattern` that is not a \
regular expression, a category prefix declared twice, a blocking severity that is not a \
severity. The message says which value and why.

The key is then treated as absent (its default applies where it has one), so one unusable value does not stop the rest of the catalogue from being checked.",
        over(&[cat_add("id_pattern: '^[A-Z{2,6}-\\d{3}$'\n")], LINT),
        over(&[cat_add("id_pattern: '^[A-Z]{2,6}-\\d{3}$'\n")], LINT),
    ),

    ex(
        "AB123",
        "auditbook reads frontmatter as YAML 1.2, where `spec_baseline: 2025-11-25` is the \
text `2025-11-25`. Most other readers of the same files follow YAML 1.1 — PyYAML, static site \
generators, editor plugins — and turn an unquoted date into a date object. A script that \
compares baselines as strings, or a page that prints the field, then works with something that \
is no longer the name of the protocol revision.

The catalogue itself is not affected, so this is a warning. But check files are read by more \
than auditbook, and the baseline is exactly the field other tools like to filter on.

Quote the value: `spec_baseline: \"2025-11-25\"`. `auditbook lint --fix` quotes every bare \
date in one pass.",
        over(&[BARE_DATE], LINT),
        over(&[fid(FID_SEVERITY, "severity: high\nspec_baseline: \"2025-11-25\"\n")], LINT),
    ),
    ex(
        "AB124",
        "An entry in `lint.allow` accepts a finding for a while: `{code, id or file, reason, \
until}`. The `until:` date is the promise that someone looks at it again. Once that day has \
passed, the entry no longer hides anything: the finding it accepted is shown as before, and \
the entry itself is an error at its line in catalogue.yaml, so the lapse cannot go unnoticed \
in a CI run that only counts errors.

This is deliberate: an acceptance that silently outlives its date is a permanent exception \
nobody decided on.

Either fix what the entry accepted and delete the entry, or review the reason and move \
`until:` to a new date. An entry without `until:` never lapses; use that only for findings \
that are accepted for good.",
        over(&[BARE_DATE, ALLOW_UNTIL_PAST], LINT),
        over(&[BARE_DATE, ALLOW_UNTIL_LATER], LINT),
    ),
    ex(
        "AB125",
        "An entry in `lint.allow` that no longer matches any finding is stale: the problem it \
accepted was fixed, the check was renamed, or the file moved. Left in place it would silently \
accept the same finding if it ever came back, without anyone deciding that again.

Findings come from different stages — loading, lint, and the document checks of `verify` — \
and an entry may accept any of them. Only a run that went through every stage can tell that \
nothing matched, so this warning appears with `auditbook lint --verify` and never with `lint` \
or `verify` alone.

Delete the entry. If the finding returns, it is reported again and can be accepted anew with \
a current reason.",
        over(&[ALLOW_FOR_GOOD], VERIFY),
        over(&[BARE_DATE, ALLOW_FOR_GOOD], VERIFY),
    ),
];
