//! The registry of diagnostic codes. A code never changes meaning once released; new findings
//! get new codes. `docs/lint-codes.md` is generated from this table (and a test keeps it current).

use super::Level;

#[derive(Debug, PartialEq, Eq)]
pub struct Code {
    pub code: &'static str,
    pub name: &'static str,
    pub level: Level,
    /// One line: what the finding means.
    pub summary: &'static str,
    /// What to do about it.
    pub help: &'static str,
}

macro_rules! codes {
    ($( $konst:ident = $code:literal, $name:literal, $level:ident, $summary:literal, $help:literal; )*) => {
        $( pub const $konst: Code = Code {
            code: $code, name: $name, level: Level::$level, summary: $summary, help: $help,
        }; )*
        /// Every code, in code order.
        pub static CODES: &[&Code] = &[ $( &$konst ),* ];
    };
}

codes! {
    // AB0xx — reading files
    UNREADABLE = "AB001", "unreadable-file", Error,
        "A file the catalogue needs could not be read.",
        "Check that the path exists and is readable.";
    NOT_UTF8 = "AB002", "not-utf8", Error,
        "A file is not valid UTF-8.",
        "Re-save the file as UTF-8.";
    BOM = "AB003", "byte-order-mark", Warning,
        "A file starts with a UTF-8 byte-order mark; it is read, but the mark is noise.",
        "Save the file without a BOM.";
    CRLF = "AB004", "crlf-line-endings", Warning,
        "A file uses CRLF line endings; it is read, but diffs and generated regions churn.",
        "Convert the file to LF line endings.";
    OUTSIDE_ROOT = "AB005", "outside-root", Error,
        "A path (or a symbolic link) points outside the catalogue root.",
        "Keep catalogue files inside the root; copy the file instead of linking it.";
    COMPATIBILITY_MODE = "AB006", "compatibility-mode", Note,
        "No catalogue.yaml: the catalogue is read in compatibility mode and some checks are skipped.",
        "Add a catalogue.yaml to declare categories, the profile schema, retired ids, rules and claims.";
    FILE_TOO_LARGE = "AB007", "file-too-large", Error,
        "A file is larger than the engine reads.",
        "Split the file; catalogue files are expected to be far smaller.";
    NO_CHECKS = "AB008", "no-checks", Error,
        "The checks directory is missing or holds no check files.",
        "Point -C at the catalogue root, or set checks_dir in catalogue.yaml.";
    NOT_REGULAR_FILE = "AB009", "not-a-regular-file", Error,
        "A path the catalogue reads names a FIFO, socket, device or directory; reading it could block forever or never end.",
        "Point the path at a regular file.";
    PATH_REFUSED = "AB010", "path-refused", Error,
        "A path written in a file (catalogue.yaml, a portfolio) leaves the folder it is confined to, or is absolute; the file is not opened.",
        "Name a file inside the repository (catalogue.yaml) or beside the portfolio; a deliberate outside folder needs --allow-path DIR on the command line.";
    // AB1xx — check frontmatter
    FRONTMATTER_MISSING = "AB101", "frontmatter-missing", Error,
        "A check file does not start with a `---` frontmatter block.",
        "Start the file with `---`, the YAML fields, and a closing `---` line.";
    FRONTMATTER_UNTERMINATED = "AB102", "frontmatter-unterminated", Error,
        "The frontmatter block is opened but never closed.",
        "Add a line holding only `---` after the last field.";
    YAML_INVALID = "AB103", "yaml-invalid", Error,
        "The frontmatter is not valid YAML, or not a mapping of fields.",
        "Fix the YAML at the reported line; quote values that contain `: ` or start with a special character.";
    DUPLICATE_KEY = "AB104", "duplicate-key", Error,
        "A key appears twice in one mapping; YAML readers disagree on which value wins.",
        "Keep one of the two lines.";
    MISSING_FIELD = "AB105", "missing-field", Error,
        "A required frontmatter field is missing.",
        "Add the field; the catalogue format, section 2, lists the required ones.";
    UNKNOWN_FIELD = "AB106", "unknown-field", Error,
        "A frontmatter key is not part of the format (a typo here silently changes nothing).",
        "Fix the spelling, or declare the key under extra_fields in catalogue.yaml.";
    WRONG_TYPE = "AB107", "wrong-type", Error,
        "A field holds a value of the wrong type; values are never coerced.",
        "Quote identifiers and dates; write numbers without quotes where a number is expected.";
    ID_PATTERN = "AB108", "id-pattern", Error,
        "A check id does not match the catalogue's id_pattern.",
        "Rename the check so its id matches the pattern.";
    ID_STEM = "AB109", "id-file-mismatch", Error,
        "A check's id differs from its file name.",
        "Rename the file to <ID>.md or correct the id.";
    ID_CATEGORY = "AB110", "id-category-mismatch", Error,
        "A check id's prefix differs from its category.",
        "Make the category equal to the id's prefix.";
    UNDECLARED_CATEGORY = "AB111", "undeclared-category", Error,
        "A check's category is not declared in catalogue.yaml.",
        "Declare the category under categories, or correct the check.";
    BAD_SEVERITY = "AB112", "severity-vocabulary", Error,
        "A severity outside the declared vocabulary.",
        "Use one of the declared severities.";
    BAD_ADOPTION = "AB113", "adoption-vocabulary", Error,
        "An adoption value other than enforced or advisory; a typo must never demote or promote a check.",
        "Write `enforced` or `advisory`.";
    BAD_BASELINE = "AB114", "baseline-vocabulary", Error,
        "A spec_baseline outside the declared values and aliases.",
        "Use one of the declared baselines.";
    BAD_EVIDENCE = "AB115", "evidence-required", Error,
        "evidence_required is not a whole number of at least 0.",
        "Write a whole number such as 1 or 2, unquoted.";
    DUPLICATE_ID = "AB116", "duplicate-id", Error,
        "Two check files declare the same id.",
        "Give each check its own id; a number is never shared.";
    EMPTY_VALUE = "AB117", "empty-value", Error,
        "A required field is present but empty.",
        "Fill in the value.";
    YAML_TAG = "AB118", "yaml-tag", Error,
        "A YAML value in frontmatter or catalogue.yaml carries a tag (`!!python/object:…`, `!custom`); tags are not accepted.",
        "Remove the tag and write the plain value.";
    // AB12x — catalogue.yaml
    PROBE_INVALID = "AB119", "probe-invalid", Error,
        "A check's `probe:` names an unknown probe kind, an unknown parameter, or a parameter of the wrong type.",
        "Name a built-in probe kind (README, section Probing) with the parameters it takes.";
    CONFIG_INVALID = "AB120", "config-invalid", Error,
        "catalogue.yaml is not valid YAML or a field has the wrong shape.",
        "Fix catalogue.yaml at the reported line.";
    CONFIG_UNKNOWN_KEY = "AB121", "config-unknown-key", Error,
        "catalogue.yaml has a key the format does not know.",
        "Fix the spelling; the catalogue format, section 3, lists every key.";
    CONFIG_BAD_VALUE = "AB122", "config-bad-value", Error,
        "A catalogue.yaml value is well-formed YAML but not usable (bad regex, duplicate category, …).",
        "Correct the value as the message says.";
    DATE_UNQUOTED = "AB123", "date-unquoted", Warning,
        "`spec_baseline` is a date written without quotes; YAML 1.1 readers (PyYAML, many frontmatter tools) read it as a date, not as the baseline's name.",
        "Quote it: `spec_baseline: \"2025-11-25\"` (`auditbook lint --fix` does).";
    ALLOW_EXPIRED = "AB124", "allow-expired", Error,
        "An accepted finding in `lint.allow` has passed its `until:` date; the finding is reported again.",
        "Fix the finding, or review the acceptance and move its `until:` date.";
    ALLOW_STALE = "AB125", "allow-stale", Warning,
        "An entry in `lint.allow` accepts a finding that no longer occurs.",
        "Remove the entry: what it accepted is gone.";
    // AB2xx — manifest, references, sections
    MANIFEST_ONLY = "AB201", "manifest-only", Error,
        "An id listed in MANIFEST.txt has no check file.",
        "Add the check file or remove the line from the manifest.";
    FILE_ONLY = "AB202", "not-in-manifest", Error,
        "A check file is not listed in MANIFEST.txt.",
        "Add the id to MANIFEST.txt, or remove the file.";
    MANIFEST_DUPLICATE = "AB203", "manifest-duplicate", Error,
        "An id is listed twice in MANIFEST.txt.",
        "Keep one line per id.";
    MANIFEST_MALFORMED = "AB204", "manifest-malformed", Error,
        "A MANIFEST.txt line is not an id.",
        "Write one id per line; comments start with #.";
    LINK_UNKNOWN = "AB210", "link-to-unknown-check", Error,
        "A link points at a check file that does not exist.",
        "Correct the id or remove the link.";
    MENTION_UNKNOWN = "AB211", "mention-of-unknown-check", Warning,
        "Text mentions a check id that does not exist (it may be a deliberate counter-statement).",
        "Correct the id, or reword if the id is meant hypothetically.";
    LINK_RETIRED = "AB212", "link-to-retired-check", Error,
        "A link points at a retired check.",
        "Link the successor instead.";
    MENTION_RETIRED = "AB213", "mention-of-retired-check", Note,
        "Text mentions a retired check id (history is allowed).",
        "Nothing to do if this is history; otherwise name the successor.";
    LINK_TARGET_MISSING = "AB214", "link-target-missing", Warning,
        "A relative link (or one under a configured base) leads to a file that does not exist.",
        "Correct the path: links resolve against the file they are written in (the catalogue format, section 10).";
    LINK_FRAGMENT_MISSING = "AB215", "link-fragment-missing", Warning,
        "A link's #fragment names no heading (GitHub's slug) or HTML anchor of the file it leads to.",
        "Link an existing heading's slug: lowercase, punctuation dropped, spaces as `-`, repeats numbered `-1`, `-2` (the catalogue format, section 10).";
    MISSING_SECTION = "AB220", "missing-section", Error,
        "A check lacks a section the catalogue requires.",
        "Add the `## Section` heading and its content.";
    NO_PASS_CRITERIA = "AB221", "no-pass-criteria", Warning,
        "The Pass Criteria section has no task-list items (`- [ ] …`).",
        "Write each criterion as a task-list item so audits can cite it.";
    SOURCE_MISSING = "AB222", "source-missing", Error,
        "A check that require_sources selects cites no external source: its sources section has no link to an http(s) address.",
        "Cite the specification page, SEP, RFC or law the criteria come from as a Markdown link (revision and section in the address), or narrow require_sources.where.";
    BASIS_UNDECLARED = "AB223", "basis-undeclared", Warning,
        "A check cites no external source and has no line saying its basis is house practice.",
        "Link the source the criteria come from, or add a line matching require_sources.house_practice (default `House practice: …`).";
    SOURCE_LINK_DEFECT = "AB224", "source-link-defect", Note,
        "An external source link has no host or no text, or points at a revision that moves (`latest`).",
        "Link the exact revision and section, with text that names them (`MCP 2025-11-25, Transports`).";
    SOURCES_EXPRESSION = "AB225", "sources-expression-invalid", Error,
        "The require_sources.where expression does not parse or cannot be typed against check fields.",
        "Fix the expression in catalogue.yaml; it is written like require_coverage and `list --where`.";
    GREP_STRAY_ESCAPE = "AB226", "grep-stray-escape", Warning,
        "A grep command in a check's code uses a backslash escape grep does not interpret (`\\x27`, `\\d`, any escape inside brackets), so the pattern misses what it was written to find.",
        "Write the character itself: a single quote inside a double-quoted pattern (`grep -E \"[\\\"']\"`), `[0-9]` for `\\d`, `[[:space:]]` inside brackets; or use `grep -P`, which reads Perl escapes.";
    ASSERTION_CANNOT_FAIL = "AB227", "assertion-cannot-fail", Warning,
        "An assertion in a check's code compares a count or length with zero in a way no answer can fail (`assert len(hits) >= 0`), so it passes on an empty or degraded answer too.",
        "Assert what only a real answer satisfies: a floor the source is known to reach, an identifier from the source, or at least `> 0`.";
    // AB3xx — the applies_when language
    EXPR_PARSE = "AB301", "expression-syntax", Error,
        "An applies_when expression does not parse.",
        "Fix the expression; the grammar is in the catalogue format, section 4.";
    EXPR_UNKNOWN_FIELD = "AB302", "expression-unknown-field", Error,
        "An expression reads a field the schema does not declare.",
        "Use a declared field, or declare it in catalogue.yaml.";
    EXPR_TYPE = "AB303", "expression-type-mismatch", Error,
        "An expression compares values of different types or uses .includes on a non-list.",
        "Compare strings with strings and booleans with booleans; .includes needs a list field.";
    EXPR_VOCABULARY = "AB304", "expression-literal-outside-vocabulary", Error,
        "A literal is compared with a closed-vocabulary field but is not in its vocabulary: it can never be true.",
        "Use a value from the field's vocabulary.";
    EXPR_INCLUDES_VOCABULARY = "AB305", "expression-includes-outside-vocabulary", Error,
        ".includes tests for a value outside the list field's vocabulary: it can never be true.",
        "Use a value from the field's vocabulary.";
    EXPR_CONSTANT_PART = "AB306", "expression-constant-part", Warning,
        "Part of an expression is constant, so the rest of it does not matter.",
        "Remove the constant part, or the parts it overrides.";
    EXPR_ALWAYS_TRUE = "AB307", "expression-always-true", Warning,
        "The expression is true for every profile but is not written as `always`.",
        "Write `always`, or narrow the expression.";
    EXPR_UNSATISFIABLE = "AB308", "expression-unsatisfiable", Error,
        "No profile can make the expression true: the check can never apply.",
        "Fix the expression.";
    EXPR_BASELINE = "AB309", "expression-reads-baseline", Error,
        "The expression reads the spec-baseline field, which has its own gate.",
        "Use spec_baseline on the check instead.";
    EXPR_UNKNOWN_SET = "AB310", "expression-unknown-set", Error,
        "An expression tests membership in a set (`id in set(\"NAME\")`) that catalogue.yaml's `sets:` does not declare.",
        "Correct the set's name, or declare the set under `sets:` in catalogue.yaml.";
    VOCABULARY_VALUE_DEAD = "AB311", "vocabulary-value-dead", Note,
        "A value of a closed vocabulary of a string field in the profile schema is compared by no check's applies_when, while checks select other values of the field: a profile that picks it may silently lose those checks.",
        "Compare the value in the applies_when of the checks it should select, remove it from the vocabulary, or accept it in lint.allow with the reason it selects nothing.";
    // AB4xx — retired ids, rules, coverage
    RETIRED_REUSED = "AB401", "retired-id-reused", Error,
        "A check file uses a retired id: retired numbers are burned and never reused.",
        "Give the check the next free number (`auditbook new CATEGORY`).";
    SUCCESSOR_UNKNOWN = "AB402", "successor-unknown", Error,
        "A retired id's merged_into or replaced_by names no existing check.",
        "Point the successor at a live check.";
    SUCCESSOR_RETIRED = "AB403", "successor-retired", Error,
        "A retired id's successor is itself retired.",
        "Point the successor at the live end of the chain.";
    RETIRED_CYCLE = "AB404", "retired-chain-cycle", Error,
        "Retired ids point at each other in a cycle: no live successor is reachable.",
        "Break the cycle by pointing one entry at a live check.";
    NUMBERING_GAP = "AB405", "numbering-gap", Warning,
        "A number inside a category's range is neither a check nor retired.",
        "Record the number as retired, or add the missing check.";
    RETIRED_INVALID = "AB406", "retired-entry-invalid", Error,
        "A retired entry is malformed (date, duplicate id, or two successors).",
        "Write `retired: YYYY-MM-DD` and at most one of merged_into and replaced_by.";
    RULE_WITHOUT_CHECKS = "AB410", "rule-without-checks", Error,
        "A rule maps to no checks and does not declare `coverage: none`.",
        "Map the rule to its checks, or declare the gap with `coverage: none`.";
    RULE_UNKNOWN_CHECK = "AB411", "rule-maps-unknown-check", Error,
        "A rule maps to a check id that does not exist.",
        "Correct the id or remove it from the rule.";
    RULE_RETIRED_CHECK = "AB412", "rule-maps-retired-check", Error,
        "A rule maps to a retired check.",
        "Map the rule to the retired check's successor.";
    NOT_COVERED = "AB413", "check-not-covered", Error,
        "A check that require_coverage selects is covered by no rule.",
        "Map a rule to the check, or narrow require_coverage.";
    ADVISORY_ONLY = "AB414", "rule-advisory-only", Note,
        "Every check a rule maps to is advisory, so nothing enforces the rule.",
        "Promote one of its checks to enforced if the rule must block.";
    GAP_WITH_CHECKS = "AB415", "rule-gap-with-checks", Warning,
        "A rule declares `coverage: none` but maps to checks.",
        "Remove the checks or the `coverage: none`.";
    RULE_SOURCES_DISAGREE = "AB416", "rule-sources-disagree", Warning,
        "A rule file and a mapping table map the same rule to different checks.",
        "Make the table and the rule file agree.";
    RULE_ID_FILE = "AB417", "rule-id-file-mismatch", Error,
        "A rule file's id differs from its file name.",
        "Rename the file to <ID>.md or correct the id.";
    RULE_TABLE_MISSING = "AB418", "rule-table-missing", Error,
        "A declared rule table cannot be found (no such heading, or no table under it).",
        "Correct rules.tables in catalogue.yaml or the document.";
    RULE_ROW_NUMBER = "AB419", "rule-row-number", Error,
        "A rule-table row has no rule number leading its rule cell.",
        "Start the rule cell with the rule's number.";
    RULE_DUPLICATE = "AB420", "rule-duplicate", Error,
        "A rule is defined twice in the same kind of source.",
        "Keep one definition per rule.";
    COVERAGE_EXPRESSION = "AB421", "coverage-expression-invalid", Error,
        "A require_coverage expression does not parse or cannot be typed against check fields.",
        "Fix the expression in catalogue.yaml.";
    // AB5xx — profiles, portfolios, results, audits
    PROFILE_INVALID = "AB501", "profile-invalid", Error,
        "A profile is not valid YAML or JSON, or not a mapping of fields.",
        "Write the profile as `field: value` lines (nested fields as nested maps), or as a JSON object.";
    PROFILE_MISSING_FIELD = "AB502", "profile-missing-field", Error,
        "A field the profile schema requires is not in the profile.",
        "Add the field; every declared field is required unless the schema says `required: false`.";
    PROFILE_PLACEHOLDER = "AB503", "profile-placeholder", Error,
        "A profile value is a placeholder (`...`, `<…>`, `TODO`, `FIXME`, empty), not an answer.",
        "Replace the placeholder with the server's actual value.";
    PROFILE_WRONG_TYPE = "AB504", "profile-wrong-type", Error,
        "A profile value has the wrong type for its field (values are never coerced).",
        "Write a string, a boolean (true/false, unquoted) or a list of strings, as the schema declares.";
    PROFILE_VOCABULARY = "AB505", "profile-outside-vocabulary", Error,
        "A profile value is outside the field's closed vocabulary, so no check can compare against it.",
        "Use one of the values the schema lists for this field.";
    PROFILE_UNKNOWN_FIELD = "AB506", "profile-unknown-field", Error,
        "A profile names a field the schema does not declare (often a typo).",
        "Fix the spelling, or declare the field under profile.fields in catalogue.yaml.";
    PROFILE_DERIVED = "AB507", "profile-derived-contradiction", Error,
        "A derived profile field contradicts the field it follows from.",
        "Make the two fields agree; the schema says how one follows from the other.";
    PROFILE_NOT_CHECKED = "AB508", "profile-not-checked", Note,
        "The catalogue declares no profile schema, so the profile's fields are not checked.",
        "Declare profile.fields in catalogue.yaml.";
    PORTFOLIO_INVALID = "AB510", "portfolio-invalid", Error,
        "A portfolio file is not a list of servers with a name and a profile each.",
        "Write `servers: [{name: N, profile: FILE-or-mapping, results: FILE}]` with unique names.";
    PORTFOLIO_UNKNOWN_KEY = "AB511", "portfolio-unknown-key", Note,
        "A server entry of a portfolio holds a key auditbook does not read (a key for other tooling, or a misspelt one); the entry is audited without it.",
        "Keep it if other tooling reads it; otherwise correct the spelling (the keys of an entry: name, profile, results, waivers, url, stdio, repo, path, ignore, version).";
    REGISTRY_ENTRY_INVALID = "AB512", "registry-entry-invalid", Error,
        "An entry of an MCP registry export is not a server.json the fleet can read: no name, version or description, a name outside the registry's pattern, a package without registry type, identifier or transport, a remote without a known type and an http(s) URL, or a server listed twice; the entry is left out.",
        "Correct the entry as the registry's server.json schema has it, or export it again from the registry.";
    RUN_FILE_INVALID = "AB513", "run-file-invalid", Error,
        "A fleet run file is not what `collect --portfolio` writes: a line that is not JSON, a server line before the run's header, or runs of different portfolios, catalogues or shard counts given to one merge; the line or file is left out.",
        "Merge the run files of one run (every shard of the same portfolio and catalogue), as `collect --portfolio --run` wrote them.";
    RESULTS_INVALID = "AB520", "results-invalid", Error,
        "A results file is not valid YAML or JSON, or a result does not have the shape of section 5.",
        "Write `results: {ID: {status: S, evidence: [..], gaps: [..]}}`, optionally with `audit_meta`.";
    RESULTS_UNKNOWN_ID = "AB521", "results-unknown-id", Error,
        "A result is recorded for an id the catalogue does not have.",
        "Fix the id, or remove the result.";
    RESULTS_RETIRED_ID = "AB522", "results-retired-id", Error,
        "A result is recorded for a retired id.",
        "Record the result under the successor the catalogue names.";
    RESULTS_BAD_STATUS = "AB523", "results-bad-status", Error,
        "A result's status is not one of pass, fail, partial, not_verified, todo, n/a.",
        "Use one of the six statuses.";
    RESULTS_EVIDENCE_SHORT = "AB524", "results-evidence-short", Error,
        "A result carries fewer evidence items than its status owes; the result is rejected.",
        "Add evidence: pass/fail/partial owe the check's evidence_required, not_verified owes one item.";
    RESULTS_NOT_APPLICABLE = "AB525", "results-on-inapplicable-check", Error,
        "A result other than n/a is recorded for a check that does not apply to the profile.",
        "Mark the result n/a, or correct the profile if the check should apply.";
    RESULTS_UNKNOWN_KEY = "AB526", "results-unknown-key", Error,
        "A results file or a result holds a key the format does not know (often a typo).",
        "Fix the spelling; a result knows status, evidence, gaps, effort, note, severity, category, adoption, title.";
    RESULTS_CATALOGUE_FIELD = "AB527", "results-contradicts-catalogue", Warning,
        "A result states a severity, category or adoption that differs from the catalogue; the catalogue's value is used.",
        "Remove the field from the result, or fix the check in the catalogue.";
    RESULTS_NA_APPLICABLE = "AB528", "results-na-on-applicable-check", Warning,
        "An applicable check is marked n/a; it is left unscored and not counted as verified.",
        "Record what was observed, or correct the profile if the check really does not apply.";
    RESULTS_EFFORT = "AB529", "results-effort-vocabulary", Warning,
        "A result's effort is not one of XS, S, M, L, XL; the remediation order ignores it.",
        "Use XS, S, M, L or XL.";
    RESULTS_CATALOGUE_VERSION = "AB530", "results-catalogue-version", Warning,
        "The results were recorded against a different catalogue version than the one loaded.",
        "Re-check the results against the current catalogue, then update audit_meta.catalogue_version.";
    RESULTS_STALE = "AB531", "results-stale", Warning,
        "A result was recorded against server definitions, an artifact or a source tree that differ from the latest evidence's; it is reopened.",
        "Look at the check again against the server as it is now and record the result anew (with the latest fingerprint or digest).";
    RESULTS_CONTRADICT_MACHINE = "AB532", "results-contradict-machine", Error,
        "A person recorded `pass` for a check a machine proved `fail` (the machine's result is kept beside it under `machine:`).",
        "Look at the machine's evidence: correct the result, or show why the proof does not hold (a false positive of a rule is triaged with `auditbook triage`).";
    APPLICABILITY_ERROR = "AB540", "applicability-error", Error,
        "A check's applies_when could not be evaluated against the profile; its applicability is unknown.",
        "Fix the profile (a missing or mistyped field) or the check's expression.";
    RESULT_MISSING = "AB541", "result-missing", Warning,
        "Applicable checks have no result (one finding lists them all); the audit is incomplete.",
        "Record a result for the check (todo if it has not been looked at yet).";
    PREVIOUS_NOT_COMPARABLE = "AB542", "previous-not-comparable", Warning,
        "The previous audit summary cannot be compared with this audit.",
        "Compare audits made against the same catalogue semantics and the same server.";
    WAIVER_INVALID = "AB543", "waiver-invalid", Error,
        "A waiver cannot be used: a key is missing or unknown, a date is not a real day, the check is unknown, or the check has a second waiver.",
        "A waiver is a mapping with check, reason, approved_by, date and until (dates YYYY-MM-DD, until on or after date).";
    WAIVER_EXPIRED = "AB544", "waiver-expired", Warning,
        "A waiver's `until` lies before the audit date; it is ignored and the finding counts again.",
        "Fix the finding, or have the risk approved again with a new `until`.";
    WAIVER_STALE = "AB545", "waiver-stale", Warning,
        "A waiver names a check that does not apply to the profile, passes, or is marked n/a: there is no risk to accept.",
        "Remove the waiver, so the list of accepted risks stays the list of real ones.";
    // AB6xx — documents: generated regions, declared claims, links
    REGION_STALE = "AB601", "region-stale", Error,
        "A generated region differs from a fresh rendering of the catalogue.",
        "Run `auditbook sync` to rewrite the region.";
    REGION_UNBALANCED = "AB602", "region-unbalanced", Error,
        "A begin marker has no matching end marker, or an end marker no begin; nothing is rewritten.",
        "Pair every `<!-- auditbook:begin NAME -->` with `<!-- auditbook:end NAME -->`.";
    REGION_NESTED = "AB603", "region-nested", Error,
        "A region begins inside another region; nothing is rewritten.",
        "Close the outer region before opening the next one.";
    REGION_DUPLICATE = "AB604", "region-duplicate", Error,
        "The same region (name and arguments) appears twice in one document; nothing is rewritten.",
        "Keep one of the two, or give them different arguments.";
    REGION_UNKNOWN = "AB605", "region-unknown", Error,
        "A marker is malformed or names no built-in table and no template; nothing is rewritten.",
        "Use a built-in table name or add templates/NAME.md.tera; write markers as `<!-- auditbook:begin NAME key=value -->`.";
    REGION_ARGUMENTS = "AB606", "region-arguments", Error,
        "A region's arguments cannot be rendered (an unknown key, category or expression).",
        "Region arguments are category=, where= and base=, as for `auditbook table`.";
    DOC_CHANGED_WHILE_READING = "AB607", "document-changed-while-reading", Error,
        "A document changed on disk between being read and being rewritten; nothing is written.",
        "Run `auditbook sync` again once nothing else is editing the document.";
    CLAIM_INVALID = "AB610", "claim-invalid", Error,
        "A declared claim cannot be checked: its pattern, a query, or its document is wrong.",
        "Fix the claim in catalogue.yaml; queries are count(SET) or ids(SET) [where EXPR].";
    CLAIM_SECTION_MISSING = "AB611", "claim-section-missing", Error,
        "A claim's section heading is not in its document, so the claim goes unchecked.",
        "Correct the section in the claim, or restore the heading.";
    CLAIM_UNMATCHED = "AB612", "claim-unmatched", Error,
        "A claim's pattern no longer matches its document: reworded? The claim would go unchecked.",
        "Update the pattern to the new wording, or remove the claim if the statement is gone.";
    CLAIM_COUNT = "AB613", "claim-count-drift", Error,
        "A number a document states differs from the catalogue.",
        "Correct the number in the document (or the query, if the sentence means something else).";
    CLAIM_NUMBER_UNREADABLE = "AB614", "claim-number-unreadable", Error,
        "A claim group meant to hold a count is neither digits nor a number word the engine reads.",
        "Write the number in digits or as a German or English number word up to ninety-nine.";
    CLAIM_ID_MISPLACED = "AB615", "claim-id-misplaced", Error,
        "A document lists a check under a group whose query does not select it (e.g. as enforced while it is advisory).",
        "Move the id to the list it belongs to, or change the check.";
    CLAIM_ID_IN_BOTH = "AB616", "claim-id-in-both", Error,
        "A document lists one id in two groups of the same claim.",
        "Keep the id in the one list it belongs to.";
    CLAIM_ID_MISSING = "AB617", "claim-id-missing", Error,
        "A query selects an id that none of the claim's lists names; not mentioning it reads as 'not affected'.",
        "Add the id to the list it belongs to.";
    CLAIM_ID_UNKNOWN = "AB618", "claim-id-unknown", Error,
        "A document lists an id the claim's query does not know (not a check, retired, or not in the set).",
        "Remove or correct the id, or widen the query.";
    CLAIM_LIST_UNKNOWN = "AB619", "claim-list-unknown-token", Error,
        "A strict list group holds a piece that is not one member of its set (a typo, an ellipsis, a word that is no id).",
        "Write each member by itself, separated by commas or `und`/`and`; drop or correct the piece.";
    DOC_NOT_LINKED = "AB620", "doc-required-check-not-linked", Error,
        "A check that require_coverage selects is not linked in the section of the rule table.",
        "Link the check in its rule's row, as a Markdown link to its file.";
    DOC_LINK_PATH = "AB621", "doc-link-path-broken", Error,
        "A relative link names an existing check but its path does not lead to the check file from the document.",
        "Correct the link's path (for generated tables, the region's base= argument).";
    CLAIM_LIST_REPEATED = "AB630", "claim-list-repeated-token", Error,
        "A strict list group names the same member twice.",
        "Name each member once.";
    CLAIM_TABLE_ROW_MISSING = "AB631", "claim-table-row-missing", Error,
        "A table-row claim's keys query selects a key the table has no row for (or the declared total row is gone).",
        "Add the row, or narrow the claim's `keys` query if the table is meant to leave the key out.";
    CLAIM_TABLE_ROW_UNKNOWN = "AB632", "claim-table-row-unknown", Error,
        "A table-row claim's table has a row for a key its keys query does not select (unknown, retired, misspelt), or a second row for one key.",
        "Correct or remove the row, or widen the claim's `keys` query.";
    CLAIM_TALLY_UNREADABLE = "AB633", "claim-tally-unreadable", Error,
        "A tally cell (`2 critical · 8 high`) counts a bucket outside the field's vocabulary, counts one twice, or holds a piece that is no count and bucket.",
        "Write each bucket once as NUMBER WORD with a word of the field's vocabulary; leave a bucket out (or write —) for zero.";
    CLAIM_TEXT = "AB634", "claim-name-drift", Error,
        "A table-row claim's `name` column gives a row's key another name than the catalogue does.",
        "Write the catalogue's name (category name, check or rule title) in the cell, or rename it in the catalogue.";
    CLAIM_POLICY = "AB635", "claim-policy-violated", Error,
        "A policy claim (`holds:`) over the catalogue does not hold: one side's value stands in the wrong relation to the other's.",
        "Change the catalogue so the policy holds again, or revise the policy in catalogue.yaml if it no longer applies.";
    CLAIM_VERSION = "AB636", "claim-version-drift", Error,
        "A document states another catalogue version than `version:` in catalogue.yaml.",
        "Write the catalogue's version in the document (a leading `v` is allowed), or correct `version:`.";
    CLAIM_REQUIREMENT = "AB637", "claim-requirement-unmet", Error,
        "A check a claim's `require:` selects lacks a required section or a line matching the required pattern, or the selection names no check at all.",
        "Add the section or line to the check (the claim's message says why), or correct the requirement's `where`.";
    ELSEWHERE_RULE_DISAGREES = "AB640", "elsewhere-rule-disagrees", Error,
        "A rule table in a document repository maps a rule to other checks than the catalogue does.",
        "Make the row link exactly the checks the catalogue maps the rule to (`auditbook sync --claims` rewrites a generated rules-table).";
    ELSEWHERE_RULE_UNKNOWN = "AB641", "elsewhere-rule-unknown", Error,
        "A rule table in a document repository names a rule the catalogue does not have.",
        "Correct the rule number, or remove the row if the catalogue dropped the rule.";
    SNAPSHOT_CANNOT_ANSWER = "AB642", "snapshot-cannot-answer", Error,
        "A claim, region or link asks what a catalogue snapshot does not hold (check bodies and headings, other files, a format-1 snapshot); it is not checked.",
        "Verify against a checkout of the catalogue (--catalogue DIR), or write the snapshot with a current auditbook.";
    CLAIMS_KEY_IGNORED = "AB643", "claims-key-ignored", Warning,
        "A claims file sets a key that describes the catalogue itself; the catalogue's own value is used.",
        "Remove the key: a claims file declares docs, claims, rules.tables and links only.";
    CLAIMS_SOURCE_MISSING = "AB644", "claims-source-missing", Error,
        "A claims file declares claims, rule tables or regions that need a catalogue (or claims over an audit report that need --report), and none was given.",
        "Pass --catalogue DIR-OR-SNAPSHOT (and --report audit.json for `audit.` claims).";
    REPORT_VERDICT_DRIFT = "AB645", "report-verdict-drift", Error,
        "A document states another verdict than the audit report.",
        "Correct the verdict in the document.";
    REPORT_WORD_UNKNOWN = "AB646", "report-word-unknown", Error,
        "A claim over an audit report holds a status or verdict word auditbook does not know in German or English.",
        "Write a status as pass/bestanden, fail/nicht bestanden, partial/teilweise, not verified/nicht geprüft, todo/offen, n/a/nicht anwendbar, missing/fehlend, rejected/abgelehnt.";
    REPORT_UNREADABLE = "AB647", "report-unreadable", Error,
        "The audit report given with --report cannot be read as a report of `auditbook audit --format json`.",
        "Write the report with `auditbook audit PROFILE --results RESULTS --format json`.";
    SET_ID_UNKNOWN = "AB650", "set-id-unknown", Error,
        "A named set in catalogue.yaml (`sets:`) names an id that is no check of the catalogue.",
        "Correct the id, or remove it from the set.";
    SET_ID_RETIRED = "AB651", "set-id-retired", Error,
        "A named set in catalogue.yaml (`sets:`) names a retired id; `in set(…)` would never select it.",
        "Name the retired check's successor instead, or remove the id from the set.";
    CLAIM_SET_MISSING = "AB652", "claim-set-member-missing", Error,
        "A set claim's document does not name a member of the set it is held against (a rule without its heading, a vocabulary value the prose leaves out).",
        "Add the member to the document, or correct the claim's `equals` if the document lists something else.";
    CLAIM_SET_EXTRA = "AB653", "claim-set-member-unknown", Error,
        "A set claim's document names a member the set it is held against does not have (a heading for a rule without a table row, a vocabulary value the schema does not know).",
        "Remove or correct the member in the document, or add it to the catalogue.";
    CLAIM_SET_REPEATED = "AB654", "claim-set-member-repeated", Error,
        "A set claim's document names one member twice (two headings for one rule, a value listed twice).",
        "Remove the second mention, or correct its number.";
    DOC_GLOB_UNCOVERED = "AB655", "doc-glob-uncovered", Error,
        "A file matches a document glob of `docs:`, but no claim reads it: a new README or guide would go unchecked.",
        "Declare a claim for the file (a claim's `doc` may be the same glob), or narrow the glob.";
    DOC_GLOB = "AB656", "doc-glob-matches", Error,
        "A document glob in catalogue.yaml matches no file (or more files than auditbook reads), so what it was meant to cover goes unchecked.",
        "Correct the glob, or remove it if the documents are gone.";
    CLAIM_NUMBERING_GAP = "AB657", "claim-numbering-gap", Error,
        "A set claim with `contiguous: true` reads numbers that skip one: rule 14 renumbered as 15 everywhere leaves every set equal, and only the gap shows it.",
        "Number the members without a gap (renumber the one after it), or drop `contiguous` if the gap is deliberate.";
    CLAIM_SET_ORDER = "AB658", "claim-set-order", Error,
        "A set claim with `ordered: true` reads its members in another order than the side it is held to: two swapped list items or headings.",
        "Put the member back in its place, or drop `ordered` if the order does not matter.";
    CLAIM_MATCH_COUNT = "AB659", "claim-match-count", Error,
        "A claim with `matches: N` finds its pattern more or fewer times than N in the part it reads: a second `Stand:` line, a list written twice.",
        "Remove the extra copy (or restore the missing one), or correct `matches`.";
    // AB7xx — scoring
    SCORING_BAD_VALUE = "AB701", "scoring-bad-value", Error,
        "A value in the scoring block is negative, not a fraction where one is expected, or names an undeclared severity.",
        "Weights are numbers ≥ 0, fractions lie between 0 and 1, floor ≤ max, severities are declared ones.";
    // AB8xx — probing live servers
    PROBE_UNREACHABLE = "AB801", "probe-not-reachable-as-mcp", Warning,
        "The probe target did not answer as an MCP server (it crashed, hung, or answered with something else); nothing was observed.",
        "Check the command or URL; a 403 or 404 page, a login page or a proxy answer is not the server.";
    PROBE_KEPT = "AB802", "probe-kept-recorded-result", Note,
        "A result recorded by a person was kept; the probe's own observation for that check was not written.",
        "Compare the two, or pass --overwrite to replace results recorded by a person.";
    PROBE_DRIFT = "AB803", "probe-definition-drift", Warning,
        "Tool, resource or prompt definitions differ from the lock file.",
        "Review each change; when it is intended, run probe --lock to record the new definitions.";
    // AB9xx — the catalogue's own tests
    TEST_INVALID = "AB901", "test-invalid", Error,
        "An expectation file under `tests/` is not valid: unknown key, missing name, an id that is no check, a claim that does not exist.",
        "Fix the file at the reported line; `auditbook test` lists the keys a test takes.";
    TEST_FAILED = "AB902", "test-failed", Error,
        "The catalogue no longer decides what one of its tests expects: a check applies or not, a verdict, a score or a claim changed.",
        "Run `auditbook test` for the diff; change the catalogue back, or the expectation when the new decision is intended.";
}

pub fn lookup(code: &str) -> Option<&'static Code> {
    CODES.iter().copied().find(|c| c.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_sorted() {
        for pair in CODES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} before {}",
                pair[0].code,
                pair[1].code
            );
        }
        let mut names: Vec<_> = CODES.iter().map(|c| c.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(n, names.len(), "names are unique");
    }
}
