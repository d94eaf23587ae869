//! `catalogue.yaml`, typed. Every key of the format is here; unknown keys are rejected by serde
//! (`deny_unknown_fields`) so a misspelt key never silently means "not configured".
//! Defaults live in the `Default` impls and the `effective_*` accessors, nowhere else.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The file that declares a catalogue, at its root.
pub const FILE_NAME: &str = "catalogue.yaml";

pub const DEFAULT_ID_PATTERN: &str = r"^[A-Z]{2,6}-\d{3}$";
pub const DEFAULT_CHECKS_DIR: &str = "checks";

/// Keys `catalogue.yaml` may hold at the top level, for "did you mean" suggestions.
pub const TOP_LEVEL_KEYS: &[&str] = &[
    "name",
    "version",
    "checks_dir",
    "id_pattern",
    "categories",
    "severities",
    "blocking_severities",
    "spec_baselines",
    "required_sections",
    "extra_fields",
    "retired",
    "profile",
    "rules",
    "require_coverage",
    "require_sources",
    "docs",
    "claims",
    "sets",
    "scoring",
    "lint",
    "links",
    "tests",
    "examples",
];

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    /// The catalogue's name, shown in reports and schemas.
    pub name: Option<String>,
    #[serde(default)]
    /// The catalogue's version (reports and results files record it).
    pub version: Option<String>,
    #[serde(default)]
    /// Where the check files are, relative to the catalogue root (default `checks`).
    pub checks_dir: Option<String>,
    #[serde(default)]
    /// The regular expression every check id matches (default `^[A-Z]{2,6}-\\d{3}$`).
    pub id_pattern: Option<String>,
    #[serde(default)]
    /// The categories, prefix and name, in display order.
    pub categories: Vec<CategoryDecl>,
    #[serde(default)]
    /// The severities, most severe first (default `critical`, `high`, `medium`, `low`).
    pub severities: Option<Vec<String>>,
    /// Severities whose enforced failures block production readiness.
    #[serde(default)]
    pub blocking_severities: Option<Vec<String>>,
    #[serde(default)]
    /// The protocol revisions a check can be written for, and the profile field the baseline gate reads.
    pub spec_baselines: Option<BaselineConfig>,
    #[serde(default)]
    /// The `## ` sections every check must have.
    pub required_sections: Vec<String>,
    #[serde(default)]
    /// Further frontmatter keys a check may hold.
    pub extra_fields: Vec<String>,
    #[serde(default)]
    /// Burned numbers: retired ids, never reused, with their successor.
    pub retired: Vec<RetiredDecl>,
    #[serde(default)]
    /// The schema of a server profile.
    pub profile: Option<ProfileDecl>,
    #[serde(default)]
    /// Where rules come from: rule files and mapping tables in documents.
    pub rules: Option<RulesConfig>,
    #[serde(default)]
    /// Expressions over check fields: every check one selects must be covered by a rule.
    pub require_coverage: Vec<String>,
    /// Which checks must cite an external source, and how a check says its basis is house
    /// practice instead.
    #[serde(default)]
    pub require_sources: Option<RequireSources>,
    #[serde(default)]
    /// Documents `verify` reads, relative to the catalogue root (inside the repository).
    pub docs: Vec<String>,
    #[serde(default)]
    /// Declared claims: statements in documents held to the catalogue.
    pub claims: Vec<ClaimDecl>,
    /// Named sets of check ids, for `id in set("NAME")` in every `where` (catalogue format, section 7).
    #[serde(default)]
    pub sets: BTreeMap<String, Vec<String>>,
    /// The quality score of audit reports; defaults when absent.
    #[serde(default)]
    pub scoring: Option<super::scoring::ScoringConfig>,
    #[serde(default)]
    /// Lint settings: accepted findings, the level of retired mentions.
    pub lint: Option<LintConfig>,
    /// How links are followed (catalogue format, section 10).
    #[serde(default)]
    pub links: Option<LinksConfig>,
    /// The catalogue's own tests, inline: the entries a `tests/*.yaml` file holds under
    /// `tests:` (`auditbook test`).
    #[serde(default)]
    pub tests: Vec<serde_json::Map<String, serde_json::Value>>,
    /// Example inputs `verify` checks against the profile schema, relative to the catalogue
    /// root (inside the repository): profile files and portfolio files (catalogue format, section 5).
    #[serde(default)]
    pub examples: Option<ExamplesDecl>,
    /// The 1-based line of every key path (`lint.allow[0]`, `rules.tables[1].doc`) as the
    /// file was read: findings about the configuration point here, so nothing searches the
    /// text again.
    #[serde(skip)]
    #[schemars(skip)]
    pub positions: KeyLines,
    /// For each top-level list a defect shortened (a malformed item left out), the index as
    /// written of every item kept, so a finding about an item asks the position table for the
    /// entry it came from (`item_path`).
    #[serde(skip)]
    #[schemars(skip)]
    pub kept_items: BTreeMap<String, Vec<usize>>,
    /// Each document glob of `docs` and of the claims' `doc` (`README*.md`) and the files it
    /// matched when the catalogue was loaded (`docs` itself then lists the files).
    #[serde(skip)]
    #[schemars(skip)]
    pub doc_globs: BTreeMap<String, Vec<String>>,
}

/// Example inputs held to the profile schema by `verify`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExamplesDecl {
    /// Profile files (YAML or JSON), each checked as `auditbook audit` checks a profile.
    #[serde(default)]
    pub profiles: Vec<String>,
    /// Portfolio files: the entries, and the profile of every server (inline or beside the file).
    #[serde(default)]
    pub portfolios: Vec<String>,
}

impl ExamplesDecl {
    /// Every declared example path with its key path in `catalogue.yaml`, profiles first.
    pub fn paths(&self) -> Vec<(String, &str)> {
        let profiles = self
            .profiles
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("examples.profiles[{i}]"), p.as_str()));
        let portfolios = self
            .portfolios
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("examples.portfolios[{i}]"), p.as_str()));
        profiles.chain(portfolios).collect()
    }
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinksConfig {
    /// URLs under which the catalogue root is published
    /// (`https://github.com/ORG/REPO/blob/main/`): a link under one is followed like a
    /// relative link from the root.
    #[serde(default)]
    pub bases: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CategoryDecl {
    /// The id prefix (`FID`); a check's `category` and the start of its id.
    pub prefix: String,
    /// The category's display name.
    pub name: String,
    #[serde(default)]
    /// One sentence on what the category covers.
    pub description: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaselineConfig {
    #[serde(default = "default_baseline_values")]
    /// Every baseline a check may declare.
    pub values: Vec<String>,
    #[serde(default = "default_baseline_default")]
    /// The baseline of a check that declares none.
    pub default: String,
    #[serde(default = "default_baseline_aliases")]
    /// Other spellings, each mapped to a value (`beide: both`).
    pub aliases: BTreeMap<String, String>,
    #[serde(default = "default_profile_field")]
    /// The profile field that says which revision a server speaks.
    pub profile_field: String,
    /// The value that means "every revision" (not gated).
    #[serde(default = "default_baseline_default")]
    pub universal: String,
}

impl Default for BaselineConfig {
    fn default() -> Self {
        BaselineConfig {
            values: default_baseline_values(),
            default: default_baseline_default(),
            aliases: default_baseline_aliases(),
            profile_field: default_profile_field(),
            universal: default_baseline_default(),
        }
    }
}

fn default_baseline_values() -> Vec<String> {
    vec!["2025-11-25".into(), "2026-07-28".into(), "both".into()]
}
fn default_baseline_default() -> String {
    "both".into()
}
fn default_baseline_aliases() -> BTreeMap<String, String> {
    BTreeMap::from([("beide".to_string(), "both".to_string())])
}
fn default_profile_field() -> String {
    "mcp_spec_version".into()
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetiredDecl {
    /// The retired id.
    pub id: String,
    /// The date of retirement (`YYYY-MM-DD`).
    pub retired: String,
    #[serde(default)]
    /// Why it was retired.
    pub reason: Option<String>,
    #[serde(default)]
    /// The check it was merged into.
    pub merged_into: Option<String>,
    #[serde(default)]
    /// The check that replaces it (at most one of this and `merged_into`).
    pub replaced_by: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileDecl {
    #[serde(default)]
    /// The profile's fields by dotted name (`data_source.is_swiss_open_data`).
    pub fields: BTreeMap<String, ProfileFieldDecl>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileFieldDecl {
    #[serde(rename = "type")]
    /// The field's type.
    pub ty: crate::dsl::FieldType,
    /// The vocabulary. Closed unless `open: true`.
    #[serde(default)]
    pub values: Option<Vec<String>>,
    /// Values are known examples, not a closed list.
    #[serde(default)]
    pub open: bool,
    #[serde(default = "yes")]
    /// Whether a profile must give the field.
    pub required: bool,
    #[serde(default)]
    /// What the field records.
    pub description: Option<String>,
    /// A field whose value follows from another one; a profile that contradicts it is an error.
    #[serde(default)]
    pub derived: Option<DerivedDecl>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DerivedDecl {
    /// True iff the list field `field` has an entry outside `values`.
    pub any_other_than: Option<AnyOtherThan>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnyOtherThan {
    /// The list field the derived field follows from.
    pub field: String,
    /// The entries that do not make the derived field true.
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    #[serde(default)]
    /// The directory of rule files (default `rules`).
    pub dir: Option<String>,
    #[serde(default)]
    /// Mapping tables inside documents.
    pub tables: Vec<RuleTableDecl>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleTableDecl {
    /// The document holding the table, relative to the catalogue root.
    pub doc: String,
    /// The heading text; the table is the first one under it.
    pub section: String,
    #[serde(default = "one")]
    /// The 1-based column whose leading number is the rule's.
    pub rule_column: usize,
    #[serde(default = "two")]
    /// The 1-based column whose linked check ids the rule maps to.
    pub checks_column: usize,
    /// Rule ids are `PREFIX-N`.
    pub rule_prefix: String,
    /// The rule set this table states, for `count(rules where set == "NAME")` (default: the rule prefix).
    #[serde(default)]
    pub set: Option<String>,
    /// Expressions over check fields scoped to this table: every check one selects must be linked in it and covered by a rule of its set. A table with none is held to the top-level `require_coverage`.
    #[serde(default)]
    pub require_coverage: Vec<String>,
    /// A regular expression: a row with a cell it matches declares a gap (`Kein Check deckt sie ab`); its links are related checks, not coverage.
    #[serde(default)]
    pub gap: Option<String>,
}

impl RuleTableDecl {
    /// The set's name: `set`, else the rule prefix.
    pub fn set_name(&self) -> &str {
        self.set.as_deref().unwrap_or(&self.rule_prefix)
    }
}

impl RulesConfig {
    /// The rule set a rule id belongs to: that of the table with its prefix, else the prefix
    /// itself (a rule file with no table).
    pub fn set_of<'a>(&'a self, rule_id: &'a str) -> &'a str {
        let prefix = rule_id.rsplit_once('-').map(|(p, _)| p).unwrap_or(rule_id);
        self.tables
            .iter()
            .find(|t| t.rule_prefix == prefix)
            .map(|t| t.set_name())
            .unwrap_or(prefix)
    }
}

fn one() -> usize {
    1
}
fn two() -> usize {
    2
}

/// The section a check's sources are read from when the catalogue does not name one.
pub const DEFAULT_SOURCES_SECTION: &str = "References";
/// The line that says a check's basis is house practice, when the catalogue does not say.
pub const DEFAULT_HOUSE_PRACTICE: &str = "^House practice:";

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequireSources {
    /// The checks that must cite an external source: an expression over check fields, as in
    /// `require_coverage` and `list --where`.
    #[serde(rename = "where")]
    pub selection: String,
    /// The level-2 section the sources are read from (default `References`).
    #[serde(default)]
    pub section: Option<String>,
    /// A regular expression matched against each line of that section, list marker removed,
    /// that marks the check's basis as house practice (default `^House practice:`).
    #[serde(default)]
    pub house_practice: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimDecl {
    /// The claim's name, shown in its findings.
    pub name: String,
    /// The document the claim reads (none for a policy, `holds`).
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    /// A heading's text: the claim reads that section only.
    pub section: Option<String>,
    /// A regular expression with named groups (not with `table`).
    #[serde(default)]
    pub pattern: String,
    /// What each named group must equal: `count(SET)` or `ids(SET)`, with an optional `where EXPR`.
    #[serde(default)]
    pub expect: BTreeMap<String, String>,
    /// `ids` groups read strictly: every piece of the list is one member, named once.
    #[serde(default)]
    pub strict: Vec<String>,
    /// Blocks the pattern does not read: `tables`, `code` (fenced and indented), `quotes`.
    #[serde(default)]
    pub skip: Vec<SkipRegion>,
    /// How many times the pattern matches in the part read: exactly this many (one `Stand:` line). Without it, at least once.
    #[serde(default)]
    pub matches: Option<usize>,
    /// A whole Markdown table held row by row instead of a pattern (catalogue format, section 7).
    #[serde(default)]
    pub table: Option<TableClaimDecl>,
    /// A policy over the catalogue alone, no document: `LEFT RELATION RIGHT`, both sides expressions (`count(…) * 10 <= count(checks)`).
    #[serde(default)]
    pub holds: Option<String>,
    /// Body requirements for a selection of checks, no document: each selected check has the sections and a line matching the pattern.
    #[serde(default)]
    pub require: Vec<RequireDecl>,
    /// A set claim: what the document enumerates (headings, a list, rule-number mentions, a split list) held as a set against the catalogue or another document.
    #[serde(default)]
    pub members: Option<MembersDecl>,
    /// The entry's index in the `claims` list of the file that declares it, as written (an
    /// entry dropped for a defect keeps its number): findings about the declaration ask the
    /// position table for `claims[entry]`.
    #[serde(skip)]
    #[schemars(skip)]
    pub entry: usize,
}

/// A set claim (`members:`): a reading of the claim's document and the set it is held to.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MembersDecl {
    /// How the document is read: `headings("REGEX")`, `list`, `mentions("REGEX")` (inside the matches of the claim's pattern, when it has one), `bullets`, or `split("SEPARATOR")` over the claim's pattern.
    pub read: String,
    /// The set it must equal: `numbers(rules …)`, `ids(SET …)`, `values(profile.FIELD)`, `literals(FIELD)`, or a reading `in "DOC" [section "TITLE"]`. This or `includes`.
    #[serde(default)]
    pub equals: Option<String>,
    /// A set, as for `equals`, every member of which the document names at least once (repeats and further members allowed): "every rule is mentioned in this file".
    #[serde(default)]
    pub includes: Option<String>,
    /// The numbers read run from the smallest to the largest without a gap (rule 14 renumbered as 15 everywhere).
    #[serde(default)]
    pub contiguous: bool,
    /// The members read come in the order of the set they are held to (numbers ascending, categories and vocabulary values as declared, another reading as it reads).
    #[serde(default)]
    pub ordered: bool,
}

/// One body requirement of a claim (`require:`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequireDecl {
    /// The checks it applies to: an expression over check fields. Selecting none is a finding.
    #[serde(rename = "where")]
    pub selection: String,
    /// `## ` sections every selected check has.
    #[serde(default)]
    pub sections: Vec<String>,
    /// A regular expression that matches in every selected check's body (`(?m)^> Nachfolger:`).
    #[serde(default)]
    pub pattern: Option<String>,
    /// A `## ` section: `pattern`, `forbid` and `each` read only that section of each selected check.
    #[serde(default)]
    pub section: Option<String>,
    /// A regular expression that matches nowhere in a selected check's body (`(?i)\bTODO\b`): every match is a finding.
    #[serde(default)]
    pub forbid: Option<String>,
    /// A value set: every match of `pattern` in a selected check's body (its first group, else the whole match) is one of `in`.
    #[serde(default)]
    pub each: Option<EachDecl>,
    /// Said with each finding: why the requirement exists.
    #[serde(default)]
    pub message: Option<String>,
}

/// The values a pattern may read in a check's body (`each:` of a requirement).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EachDecl {
    /// A regular expression; its first group (else the whole match) is the value read (`(?m)^Status: (\w+)`).
    pub pattern: String,
    /// The values allowed.
    #[serde(rename = "in")]
    pub values: Vec<String>,
}

/// A table-row claim: the first table of the claim's section, one row per key.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableClaimDecl {
    /// The header of the column that names each row's key (default: the first column).
    #[serde(default)]
    pub key: Option<String>,
    /// The keys the table has a row for: an `ids(SET)` query. A selected key without a row and a row for any other key are findings.
    pub keys: String,
    /// Per column header: the query its cells must equal, `$key` standing for the row's key: `count(…)` (with an optional bound), `profile(FIELD, checks where …)` or `name`.
    pub columns: BTreeMap<String, String>,
    /// The key-cell text of a total row (`Total`): its cells hold the column's sum over every selected key.
    #[serde(default)]
    pub total: Option<String>,
}

/// A kind of Markdown block a claim can skip.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SkipRegion {
    Tables,
    Code,
    Quotes,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LintConfig {
    /// Findings the maintainers have reviewed and accepted, each with its reason.
    #[serde(default)]
    pub allow: Vec<AllowDecl>,
    /// A level per code (`AB311: error`): every finding of that code, from every stage, is reported at it.
    #[serde(default)]
    pub levels: BTreeMap<String, LevelDecl>,
    /// Level for a mention of a retired id: note (default), warning or error.
    #[serde(default)]
    pub retired_mentions: Option<String>,
}

/// The level a finding is reported at.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LevelDecl {
    Error,
    Warning,
    Note,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowDecl {
    /// The accepted finding's code.
    pub code: String,
    /// The id the finding is about (this, `file` or `where`).
    #[serde(default)]
    pub id: Option<String>,
    /// The file the finding is in, relative to the catalogue root (this, `id` or `where`).
    #[serde(default)]
    pub file: Option<String>,
    /// A selection of checks (an expression over check fields, as in `require_coverage`): the code is accepted for every finding about a selected check, by its id or its file (`where: always`).
    #[serde(default, rename = "where")]
    pub selection: Option<String>,
    /// Why it is accepted.
    pub reason: String,
    /// The last day the acceptance holds (`YYYY-MM-DD`); after it the entry is an error.
    #[serde(default)]
    pub until: Option<String>,
}

impl Config {
    /// The key path of item `i` of the top-level list `list` as the file writes it
    /// (`retired[3]`), for the position table.
    pub fn item_path(&self, list: &str, i: usize) -> String {
        let written = self
            .kept_items
            .get(list)
            .and_then(|kept| kept.get(i).copied())
            .unwrap_or(i);
        format!("{list}[{written}]")
    }

    pub fn checks_dir(&self) -> &str {
        self.checks_dir.as_deref().unwrap_or(DEFAULT_CHECKS_DIR)
    }

    pub fn id_pattern(&self) -> &str {
        self.id_pattern.as_deref().unwrap_or(DEFAULT_ID_PATTERN)
    }

    /// The id pattern, compiled; an invalid one (reported when `catalogue.yaml` is read) falls
    /// back to the default.
    pub fn id_regex(&self) -> regex::Regex {
        use crate::text::patterns::compiled;
        compiled(self.id_pattern())
            .or_else(|_| compiled(DEFAULT_ID_PATTERN))
            .unwrap_or_else(|_| unreachable!("the default id pattern is valid"))
    }

    pub fn severities(&self) -> Vec<String> {
        self.severities.clone().unwrap_or_else(|| {
            ["critical", "high", "medium", "low"]
                .iter()
                .map(|s| s.to_string())
                .collect()
        })
    }

    pub fn blocking_severities(&self) -> Vec<String> {
        self.blocking_severities
            .clone()
            .unwrap_or_else(|| vec!["critical".into(), "high".into()])
    }

    /// Rank of a severity: 0 is the most severe; unknown severities sort last.
    pub fn severity_rank(&self, severity: &str) -> usize {
        let all = self.severities();
        all.iter().position(|s| s == severity).unwrap_or(all.len())
    }

    /// The section sources are read from; `References` unless `require_sources` names one.
    pub fn sources_section(&self) -> &str {
        self.require_sources
            .as_ref()
            .and_then(|r| r.section.as_deref())
            .unwrap_or(DEFAULT_SOURCES_SECTION)
    }

    /// The house-practice pattern, only when `require_sources` is declared (nothing else
    /// reads it).
    pub fn house_practice_pattern(&self) -> Option<&str> {
        self.require_sources.as_ref().map(|r| {
            r.house_practice
                .as_deref()
                .unwrap_or(DEFAULT_HOUSE_PRACTICE)
        })
    }

    pub fn baselines(&self) -> BaselineConfig {
        self.spec_baselines.clone().unwrap_or_default()
    }

    /// `links.bases`, or none.
    pub fn link_bases(&self) -> Vec<String> {
        self.links
            .as_ref()
            .map(|l| l.bases.clone())
            .unwrap_or_default()
    }

    pub fn category_name(&self, prefix: &str) -> Option<&str> {
        self.categories
            .iter()
            .find(|c| c.prefix == prefix)
            .map(|c| c.name.as_str())
    }
}

impl Config {
    /// The profile schema as the expression checker sees it; `None` when none is declared.
    pub fn profile_schema(&self) -> Option<crate::dsl::Schema> {
        let decl = self.profile.as_ref()?;
        let fields = decl
            .fields
            .iter()
            .map(|(name, f)| {
                let values = if f.open { None } else { f.values.clone() };
                (name.clone(), crate::dsl::FieldSpec { ty: f.ty, values })
            })
            .collect();
        Some(crate::dsl::Schema {
            fields,
            baseline_field: Some(self.baselines().profile_field),
            sets: BTreeMap::new(),
        })
    }
}

/// Key paths of a YAML file and the 1-based line each is written on. Only findings read
/// them, and most runs have none, so a file that parsed whole keeps its text and finds the
/// lines the first time one is asked for (parsing `catalogue.yaml` for positions was a tenth
/// of the instructions of a frontmatter-only command).
#[derive(Clone, Debug, Default)]
pub struct KeyLines {
    text: Option<std::sync::Arc<str>>,
    lines: std::sync::OnceLock<std::collections::BTreeMap<String, (usize, usize)>>,
}

impl KeyLines {
    /// Positions (line, column) already known (a file read key by key).
    pub fn known(lines: std::collections::BTreeMap<String, (usize, usize)>) -> KeyLines {
        KeyLines {
            text: None,
            lines: std::sync::OnceLock::from(lines),
        }
    }

    /// Positions of `text`, found when first asked for.
    pub fn of_text(text: std::sync::Arc<str>) -> KeyLines {
        KeyLines {
            text: Some(text),
            lines: std::sync::OnceLock::new(),
        }
    }

    /// Every key path and its line and column.
    pub fn all(&self) -> &std::collections::BTreeMap<String, (usize, usize)> {
        self.lines.get_or_init(|| match &self.text {
            Some(t) => crate::text::yaml_lines::key_positions(t),
            None => std::collections::BTreeMap::new(),
        })
    }

    /// The line of `path`, or of its nearest ancestor that has one (a missing nested field is
    /// reported where its parent is written).
    pub fn line_of(&self, path: &str) -> Option<usize> {
        self.position_of(path).map(|(line, _)| line)
    }

    /// The line and column of `path`'s key, or of its nearest ancestor's.
    pub fn position_of(&self, path: &str) -> Option<(usize, usize)> {
        crate::text::yaml_lines::line_of(self.all(), path)
    }
}

impl PartialEq for KeyLines {
    fn eq(&self, other: &KeyLines) -> bool {
        self.all() == other.all()
    }
}

impl Eq for KeyLines {}
