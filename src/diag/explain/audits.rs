//! AB5xx: profiles, portfolios, results, audits.

use super::row::*;

const ARCH_PASS: &str =
    "ARCH-001: {status: pass, evidence: [\"tools/list: alle Namen in snake_case\"]}";
const FID_PASS: &str = "FID-001: {status: pass";
const WAIVER: &str = "waivers:\n  - check: FID-001\n    reason: \"Quelle liefert ohne Kanton alle Gemeinden; Abfrage ist nur intern\"\n    approved_by: \"Dr. Anna Müller (CISO)\"\n    date: 2026-01-15\n    until: 2026-12-31\n";
const RETIRED_FID_002: &str = "retired:\n  - {id: FID-002, retired: \"2026-08-07\", merged_into: FID-001, reason: \"zusammengeführt\"}\n";

const fn profile(find: &'static str, with: &'static str) -> (&'static str, Edit) {
    ("p.yaml", Edit::Replace { find, with })
}

const fn results(find: &'static str, with: &'static str) -> (&'static str, Edit) {
    ("r.yaml", Edit::Replace { find, with })
}

const fn results_add(text: &'static str) -> (&'static str, Edit) {
    ("r.yaml", Edit::Append { text })
}

const AUDIT_JUNE: Run = Run::Command {
    args: &[
        "audit",
        "p.yaml",
        "--results",
        "r.yaml",
        "--format",
        "json",
        "--as-of",
        "2026-06-01",
    ],
};
const AUDIT_NEXT_JUNE: Run = Run::Command {
    args: &[
        "audit",
        "p.yaml",
        "--results",
        "r.yaml",
        "--format",
        "json",
        "--as-of",
        "2027-06-01",
    ],
};

pub static ROWS: &[Explanation] = &[
    ex(
        "AB501",
        "A profile describes the server under audit: its transport, whether it can write, \
where it runs. It is YAML (or JSON) holding one mapping of fields. A profile that does not \
parse describes nothing, so no check's applicability can be decided.

The profile is not used at all then: the audit stops with this finding, since no check could be decided without it.",
        over(&[file("p.yaml", "transport: [stdio-only\nwrite_capable: false\n")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB502",
        "Every field the profile schema declares is required unless the schema says \
`required: false`. A missing field would make every check that reads it undecidable — \
neither applicable nor not — so the profile is incomplete until the field is answered.

Fields the schema marks `required: false` may be left out.",
        over(&[profile("write_capable: false\n", "")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB503",
        "Profiles are often started from a template full of `TODO`, `...` and `<fill in>`. A \
placeholder is not an answer: read as a value it would decide applicability by accident.

The finding names the field and what it expects, so the answer can be looked up and filled in.",
        over(&[profile("transport: stdio-only", "transport: TODO")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB504",
        "Profile values are typed by the schema and never converted: `write_capable: \"nein\"` \
is text, not `false`, and a check asking `write_capable == false` could not be decided.

The message names the type expected and the value found; for booleans, write `true` or `false` without quotes.",
        over(&[profile("write_capable: false", "write_capable: \"nein\"")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB505",
        "A field with a closed vocabulary can only hold its listed values, because checks \
compare against exactly those. `stdio` where the vocabulary says `stdio-only` would match no \
check's condition.

The finding lists the vocabulary. If the server really has a value that is not listed, the schema is what needs extending, in catalogue.yaml.",
        over(&[profile("transport: stdio-only", "transport: stdio")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB506",
        "A profile field the schema does not declare is read by no check. It is usually a \
misspelling of a declared field, which is then missing; the finding lists the declared ones.

The finding lists the declared fields, so a misspelling is quick to spot.",
        over(&[("p.yaml", Append { text: "sdk_language: rust\n" })], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB507",
        "Some profile fields follow from others: a server deployed anywhere other than \
locally runs in the cloud. The schema declares such a field as derived, and a profile whose \
answers contradict each other is refused — one of the two answers is wrong, and checks would \
apply by whichever they read.

The schema states how the derived field follows (for example `any_other_than` a set of values of a list field); the finding says which answer contradicts which.",
        over(
            &[
                cat(
                    "    deployment:",
                    "    cloud: {type: bool, derived: {any_other_than: {field: deployment, values: [local-stdio]}}}\n    deployment:",
                ),
                ("p.yaml", Append { text: "cloud: true\n" }),
            ],
            AUDIT,
        ),
        over(
            &[
                cat(
                    "    deployment:",
                    "    cloud: {type: bool, derived: {any_other_than: {field: deployment, values: [local-stdio]}}}\n    deployment:",
                ),
                ("p.yaml", Append { text: "cloud: false\n" }),
            ],
            AUDIT,
        ),
    ),
    ex(
        "AB508",
        "Without `profile.fields` in catalogue.yaml there is no schema to check a profile \
against: a typo in a field name or a value goes unnoticed and quietly changes which checks \
apply. The note says so once.

It is a note: the audit runs, but without the schema nothing protects the profile from typos.",
        over(
            &[cat(
                "profile:\n  fields:\n    transport: {type: string, values: [stdio-only, dual, HTTP/SSE]}\n    write_capable: {type: bool}\n    deployment: {type: list, values: [local-stdio, Railway, Kubernetes]}\n",
                "",
            )],
            AUDIT,
        ),
        over(&[], AUDIT),
    ),
    ex(
        "AB510",
        "A portfolio lists servers, each with a unique name, a profile (a file beside the \
portfolio or an inline mapping) and optionally a results file. A name used twice, or an \
entry without a profile, makes the matrix ambiguous.

Names are how the matrix tells servers apart, so each must be unique.",
        over(
            &[file(
                "pf.yaml",
                "servers:\n  - name: amtsblatt\n    profile: p.yaml\n    results: r.yaml\n  - name: amtsblatt\n    profile: p.yaml\n",
            )],
            Run::Command {
                args: &["portfolio", "pf.yaml"],
            },
        ),
        over(
            &[file(
                "pf.yaml",
                "servers:\n  - name: amtsblatt\n    profile: p.yaml\n    results: r.yaml\n",
            )],
            Run::Command {
                args: &["portfolio", "pf.yaml"],
            },
        ),
    ),
    ex(
        "AB511",
        "A portfolio entry holds `name` and `profile`, optionally `results`, `waivers`, `url` or \
`stdio`, and the server's source: `repo` (its repository), `path` (the folder of its manifest \
in a checkout) and `ignore` (folders of the checkout that are no server). Portfolios are often \
shared with other tooling that keeps its own keys in an entry; such a key is not read, and the \
entry is audited without it.

It is a note, not an error: a key auditbook does not know must not turn a server's verdict \
`incomplete`. When the key is a misspelling of one auditbook reads, the help names it.",
        over(
            &[file(
                "pf.yaml",
                "servers:\n  - name: amtsblatt\n    repo: https://github.com/beispiel/amtsblatt-mcp\n    betreuer: Team Amtsblatt\n    profile: p.yaml\n    results: r.yaml\n",
            )],
            Run::Command {
                args: &["portfolio", "pf.yaml"],
            },
        ),
        over(
            &[file(
                "pf.yaml",
                "servers:\n  - name: amtsblatt\n    repo: https://github.com/beispiel/amtsblatt-mcp\n    profile: p.yaml\n    results: r.yaml\n",
            )],
            Run::Command {
                args: &["portfolio", "pf.yaml"],
            },
        ),
    ),
    ex(
        "AB512",
        "A fleet's targets can come from the official MCP registry: `auditbook registry EXPORT \
--profile FILE` reads `server.json` entries (one entry, the registry's list answer, a list of \
entries, or a folder of such files) into a portfolio. Each entry needs a `name` in the \
registry's `namespace/name` pattern, a `version` and a `description`; a package names its \
`registryType`, `identifier` and `transport`, a remote its `type` (`streamable-http` or `sse`) \
and an http(s) `url`.

An entry that breaks these rules is left out of the portfolio, with this finding at its line, \
so a fleet never audits a server it read wrongly.",
        over(
            &[file(
                "export.json",
                "[{\"name\": \"io.example/wetter\", \"version\": \"1.0.0\", \"description\": \"Wetter\",\n  \"remotes\": [{\"type\": \"websocket\", \"url\": \"https://wetter.example/mcp\"}]}]\n",
            )],
            Run::Command {
                args: &["registry", "export.json", "--profile", "p.yaml"],
            },
        ),
        over(
            &[file(
                "export.json",
                "[{\"name\": \"io.example/wetter\", \"version\": \"1.0.0\", \"description\": \"Wetter\",\n  \"remotes\": [{\"type\": \"streamable-http\", \"url\": \"https://wetter.example/mcp\"}]}]\n",
            )],
            Run::Command {
                args: &["registry", "export.json", "--profile", "p.yaml"],
            },
        ),
    ),
    ex(
        "AB513",
        "`collect --portfolio FILE --run RUN` appends to the run file one JSON line per server \
after a header line that names the portfolio, the catalogue's fingerprint and the shard. \
`auditbook merge RUN…` combines the run files of the shards of one run into one report.

A line that is not JSON, a server line before any header, or run files of different \
portfolios, catalogues or shard counts cannot be merged into one honest count: the line or \
file is left out with this finding, and the merged report's coverage names what is missing.",
        over(
            &[file("shard.jsonl", "{\"server\": \"a\"}\n")],
            Run::Command {
                args: &["merge", "shard.jsonl"],
            },
        ),
        over(
            &[file(
                "shard.jsonl",
                "{\"auditbook_run\": 1, \"portfolio\": \"pf.yaml\", \"portfolio_digest\": \"d\", \"catalogue\": \"c\", \"shard\": {\"index\": 1, \"count\": 1}, \"declared\": [], \"started\": 0}\n",
            )],
            Run::Command {
                args: &["merge", "shard.jsonl"],
            },
        ),
    ),
    ex(
        "AB520",
        "A results file maps check ids to results: `results: {ID: {status, evidence, gaps}}`, \
optionally with `audit_meta`. A file that does not parse, or a result of another shape, \
cannot be scored.

The catalogue format, section 5, shows the expected shape.",
        over(&[file("r.yaml", "results: [ARCH-001, FID-001]\n")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB521",
        "A result for an id the catalogue does not have cannot count for anything: a typo in \
the id, or a result carried over from another catalogue.

Correct the id if it is a typo, or remove the result.",
        over(&[results_add("  FID-009: {status: pass, evidence: [\"x\"]}\n")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB522",
        "A result recorded under a retired id belongs to its successor now. It is refused \
rather than moved silently, because the successor may demand more than the old check did; \
the finding names where it belongs.

The finding names the successor, taken from catalogue.yaml's retired entry.",
        over(
            &[
                cat_add(RETIRED_FID_002),
                results_add("  FID-002: {status: pass, evidence: [\"Stichprobe vom Mai\"]}\n"),
            ],
            AUDIT,
        ),
        over(&[cat_add(RETIRED_FID_002)], AUDIT),
    ),
    ex(
        "AB523",
        "There are six statuses: pass, fail, partial, not_verified, todo and n/a. The verdict \
and the score are defined on exactly these; `ok` or `bestanden` would be a guess.

Statuses are written in lower case, as listed, with `n/a` for not applicable.",
        over(&[results("ARCH-001: {status: pass", "ARCH-001: {status: ok")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB524",
        "A result is only as good as what it rests on. pass, fail and partial owe the check's \
`evidence_required` items (one by default), not_verified owes one saying why. A result with \
fewer is rejected and the check counts as open.

The finding names how many items the status owes and how many were found.",
        over(&[results(ARCH_PASS, "ARCH-001: {status: pass, evidence: []}")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB525",
        "A check that does not apply to the profile can only be n/a. A pass or fail recorded \
for it means either the result is for another server or the profile is wrong, and both \
would distort the report.

The finding says why the check does not apply, quoting the expression and the profile's value.",
        over(&[profile("write_capable: false", "write_capable: true")], AUDIT),
        over(
            &[
                profile("write_capable: false", "write_capable: true"),
                results(
                    "FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}",
                    "FID-001: {status: n/a}",
                ),
            ],
            AUDIT,
        ),
    ),
    ex(
        "AB526",
        "A result knows status, evidence, gaps, effort, note and a few more keys. A key it does \
not know is usually a typo — `efort`, `evidance` — whose value is then lost.

The catalogue format, section 5, lists the keys a result knows.",
        over(&[results("ARCH-001: {status: pass,", "ARCH-001: {status: pass, efort: S,")], AUDIT),
        over(&[results("ARCH-001: {status: pass,", "ARCH-001: {status: pass, effort: S,")], AUDIT),
    ),
    ex(
        "AB527",
        "Severity, category and adoption belong to the catalogue. A result that states a \
different one — copied from an older catalogue, or an auditor's opinion — is overruled, and \
the warning says so, so nobody reads the report believing the result's value counted.

It is a warning: the catalogue's value is used, so the audit is not distorted, but the results file says something the report does not.",
        over(
            &[results("ARCH-001: {status: pass,", "ARCH-001: {status: pass, severity: low,")],
            AUDIT,
        ),
        over(
            &[results("ARCH-001: {status: pass,", "ARCH-001: {status: pass, severity: medium,")],
            AUDIT,
        ),
    ),
    ex(
        "AB528",
        "n/a on a check that applies takes it out of the score without a finding, which is \
how risks disappear from reports. The check is left unscored and not counted as verified, \
and the warning asks for what was actually observed.

If the check really should not apply to this server, the profile or the check's `applies_when` is what needs changing.",
        over(&[results(ARCH_PASS, "ARCH-001: {status: n/a}")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB529",
        "Effort orders the remediation plan: XS, S, M, L, XL. Any other value is ignored for \
the order, so the finding says the plan is missing it.

The result itself is used; only its place in the remediation order is lost.",
        over(
            &[results("ARCH-001: {status: pass,", "ARCH-001: {status: fail, effort: XXL,")],
            AUDIT,
        ),
        over(
            &[results("ARCH-001: {status: pass,", "ARCH-001: {status: fail, effort: XL,")],
            AUDIT,
        ),
    ),
    ex(
        "AB530",
        "Results recorded against one catalogue version may not mean the same against \
another: criteria change, checks are split. The results stay usable, but the warning asks \
for a re-check before `audit_meta.catalogue_version` is updated.

The version is read from `audit_meta.catalogue_version` in the results file and compared with `version` in catalogue.yaml.",
        over(&[file("r.yaml", "audit_meta: {catalogue_version: 0.9.0}\nresults:\n  ARCH-001: {status: pass, evidence: [\"tools/list: alle Namen in snake_case\"]}\n  FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}\n")], AUDIT),
        over(&[file("r.yaml", "audit_meta: {catalogue_version: 1.0.0}\nresults:\n  ARCH-001: {status: pass, evidence: [\"tools/list: alle Namen in snake_case\"]}\n  FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}\n")], AUDIT),
    ),
    ex(
        "AB531",
        "A probe records a fingerprint of the server's tool, resource and prompt definitions. \
A result recorded against other definitions than the latest probe saw was judged on a server \
that has since changed; it is listed so it can be re-audited.

`probe` writes the fingerprint (`probe.definitions`) into the results file; results carry the fingerprint they were recorded against.",
        over(
            &[file("r.yaml", "probe: {definitions: sha256-neu}\nresults:\n  ARCH-001: {status: pass, fingerprint: sha256-alt, evidence: [\"tools/list: alle Namen in snake_case\"]}\n  FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}\n")],
            AUDIT,
        ),
        over(
            &[file("r.yaml", "probe: {definitions: sha256-neu}\nresults:\n  ARCH-001: {status: pass, fingerprint: sha256-neu, evidence: [\"tools/list: alle Namen in snake_case\"]}\n  FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}\n")],
            AUDIT,
        ),
    ),
    ex(
        "AB532",
        "When a person's result and a machine's disagree, the person's is kept (unless \
`--overwrite`) and the machine's is written beside it under `machine:`. A person's `pass` \
against a machine's proof of `fail` means one of the two is wrong: the rule matched real code, \
or the person missed what it found. The audit cannot be complete until someone settles it.

Correct the result, or — when the rule's match is not a defect — record the person's reasons \
and triage the finding as a false positive, so the machine stops proving it.",
        over(
            &[file("r.yaml", "results:\n  ARCH-001: {status: pass, evidence: [\"alle Namen geprüft\"], machine: {status: fail, source: scan, evidence: [\"src/tools.py:4: `def GetItem`\"]}}\n  FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}\n")],
            AUDIT,
        ),
        over(
            &[file("r.yaml", "results:\n  ARCH-001: {status: fail, evidence: [\"src/tools.py:4: `def GetItem`\"], machine: {status: fail, source: scan, evidence: [\"src/tools.py:4: `def GetItem`\"]}}\n  FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}\n")],
            AUDIT,
        ),
    ),
    ex(
        "AB540",
        "When a check's `applies_when` cannot be evaluated against the profile — a field is \
missing or holds the wrong type — its applicability is unknown. It is neither applied nor \
skipped silently; the audit stays undecided until the profile or the expression is fixed.

Usually AB502 or AB504 reports the profile's defect at the same time; fixing the profile resolves both.",
        over(&[profile("write_capable: false\n", "")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB541",
        "An applicable check without a result is an audit gap. One finding lists every such \
check, and the verdict is not production-ready while any is open. Record `todo` for checks \
that have not been looked at yet, so the gap is visible in the results file too.

It is a warning rather than an error because the audit itself is valid; it is just not finished, and the verdict says so.",
        over(&[results("  ARCH-001: {status: pass, evidence: [\"tools/list: alle Namen in snake_case\"]}\n", "")], AUDIT),
        over(&[], AUDIT),
    ),
    ex(
        "AB542",
        "`audit --previous REPORT` compares this audit with an earlier JSON report: what got \
worse, what was fixed. The comparison is refused when the earlier file is not such a report, \
when the catalogue changed in what audits depend on (checks, applicability, evidence rules), \
or when it audits another server — statuses from either would not mean the same.

The report's comparison section says why; this warning says it on the terminal, so a refused \
comparison is not mistaken for one without changes.",
        over(
            &[file("vorher.json", "Bericht vom Mai (als PDF verschickt)\n")],
            Run::Command {
                args: &["audit", "p.yaml", "--results", "r.yaml", "--previous", "vorher.json"],
            },
        ),
        over(
            &[],
            Run::Command {
                args: &["audit", "p.yaml", "--results", "r.yaml"],
            },
        ),
    ),
    ex(
        "AB543",
        "A waiver accepts a known risk: a failing check, the reason, who approved it, when, and \
until when. A waiver missing any of these, with a date that is not a real day, for an unknown \
check, or a second one for the same check, cannot be relied on and is not applied.

The waiver is not applied, so the finding it was meant to accept counts as open.",
        over(
            &[
                results(FID_PASS, "FID-001: {status: fail"),
                results_add(
                    "waivers:\n  - check: FID-001\n    reason: \"Quelle liefert ohne Kanton alle Gemeinden; Abfrage ist nur intern\"\n    approved_by: \"Dr. Anna Müller (CISO)\"\n    date: 2026-02-30\n    until: 2026-12-31\n",
                ),
            ],
            AUDIT_JUNE,
        ),
        over(
            &[results(FID_PASS, "FID-001: {status: fail"), results_add(WAIVER)],
            AUDIT_JUNE,
        ),
    ),
    ex(
        "AB544",
        "A waiver ends on its `until` day. After that it is ignored and the finding counts \
again — in the verdict and the score — until the risk is fixed or approved anew.

`--as-of DATE` sets the day waivers are judged on, so an audit can be reproduced for a past date.",
        over(
            &[results(FID_PASS, "FID-001: {status: fail"), results_add(WAIVER)],
            AUDIT_NEXT_JUNE,
        ),
        over(
            &[results(FID_PASS, "FID-001: {status: fail"), results_add(WAIVER)],
            AUDIT_JUNE,
        ),
    ),
    ex(
        "AB545",
        "A waiver for a check that passes, does not apply, or is n/a accepts no risk. Left in \
place it makes the list of accepted risks longer than the real one and would silently cover \
a later failure.

It is a warning: nothing in the verdict changes, but the list of accepted risks should be kept accurate.",
        over(&[results_add(WAIVER)], AUDIT_JUNE),
        over(
            &[results(FID_PASS, "FID-001: {status: fail"), results_add(WAIVER)],
            AUDIT_JUNE,
        ),
    ),
];
