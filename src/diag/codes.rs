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
        "Add the field; the catalogue format lists the required ones.";
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
    // AB12x — catalogue.yaml
    CONFIG_INVALID = "AB120", "config-invalid", Error,
        "catalogue.yaml is not valid YAML or a field has the wrong shape.",
        "Fix catalogue.yaml at the reported line.";
    CONFIG_UNKNOWN_KEY = "AB121", "config-unknown-key", Error,
        "catalogue.yaml has a key the format does not know.",
        "Fix the spelling; the catalogue format lists every key.";
    CONFIG_BAD_VALUE = "AB122", "config-bad-value", Error,
        "A catalogue.yaml value is well-formed YAML but not usable (bad regex, duplicate category, …).",
        "Correct the value as the message says.";
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
    MISSING_SECTION = "AB220", "missing-section", Error,
        "A check lacks a section the catalogue requires.",
        "Add the `## Section` heading and its content.";
    NO_PASS_CRITERIA = "AB221", "no-pass-criteria", Warning,
        "The Pass Criteria section has no task-list items (`- [ ] …`).",
        "Write each criterion as a task-list item so audits can cite it.";
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
