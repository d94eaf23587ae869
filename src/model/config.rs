//! `catalogue.yaml`, typed. Every key of the format is here; unknown keys are rejected by serde
//! (`deny_unknown_fields`) so a misspelt key never silently means "not configured".
//! Defaults live in the `Default` impls and the `effective_*` accessors, nowhere else.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    "docs",
    "claims",
    "scoring",
    "lint",
    "links",
];

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub checks_dir: Option<String>,
    #[serde(default)]
    pub id_pattern: Option<String>,
    #[serde(default)]
    pub categories: Vec<CategoryDecl>,
    #[serde(default)]
    pub severities: Option<Vec<String>>,
    /// Severities whose enforced failures block production readiness.
    #[serde(default)]
    pub blocking_severities: Option<Vec<String>>,
    #[serde(default)]
    pub spec_baselines: Option<BaselineConfig>,
    #[serde(default)]
    pub required_sections: Vec<String>,
    #[serde(default)]
    pub extra_fields: Vec<String>,
    #[serde(default)]
    pub retired: Vec<RetiredDecl>,
    #[serde(default)]
    pub profile: Option<ProfileDecl>,
    #[serde(default)]
    pub rules: Option<RulesConfig>,
    #[serde(default)]
    pub require_coverage: Vec<String>,
    #[serde(default)]
    pub docs: Vec<String>,
    #[serde(default)]
    pub claims: Vec<ClaimDecl>,
    /// The quality score of audit reports; defaults when absent.
    #[serde(default)]
    pub scoring: Option<super::scoring::ScoringConfig>,
    #[serde(default)]
    pub lint: Option<LintConfig>,
    /// How links are followed (catalogue format, section 10).
    #[serde(default)]
    pub links: Option<LinksConfig>,
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
    pub prefix: String,
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaselineConfig {
    #[serde(default = "default_baseline_values")]
    pub values: Vec<String>,
    #[serde(default = "default_baseline_default")]
    pub default: String,
    #[serde(default = "default_baseline_aliases")]
    pub aliases: BTreeMap<String, String>,
    #[serde(default = "default_profile_field")]
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
    pub id: String,
    pub retired: String,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub merged_into: Option<String>,
    #[serde(default)]
    pub replaced_by: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileDecl {
    #[serde(default)]
    pub fields: BTreeMap<String, ProfileFieldDecl>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileFieldDecl {
    #[serde(rename = "type")]
    pub ty: crate::dsl::FieldType,
    /// The vocabulary. Closed unless `open: true`.
    #[serde(default)]
    pub values: Option<Vec<String>>,
    /// Values are known examples, not a closed list.
    #[serde(default)]
    pub open: bool,
    #[serde(default = "yes")]
    pub required: bool,
    #[serde(default)]
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
    /// True iff the list field `from` has an entry outside `values`.
    pub any_other_than: Option<AnyOtherThan>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnyOtherThan {
    pub field: String,
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    #[serde(default)]
    pub dir: Option<String>,
    #[serde(default)]
    pub tables: Vec<RuleTableDecl>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleTableDecl {
    pub doc: String,
    pub section: String,
    #[serde(default = "one")]
    pub rule_column: usize,
    #[serde(default = "two")]
    pub checks_column: usize,
    pub rule_prefix: String,
}

fn one() -> usize {
    1
}
fn two() -> usize {
    2
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimDecl {
    pub name: String,
    pub doc: String,
    #[serde(default)]
    pub section: Option<String>,
    pub pattern: String,
    pub expect: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LintConfig {
    /// Findings the maintainers have reviewed and accepted, each with its reason.
    #[serde(default)]
    pub allow: Vec<AllowDecl>,
    /// Level for a mention of a retired id: note (default), warning or error.
    #[serde(default)]
    pub retired_mentions: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowDecl {
    pub code: String,
    pub id: String,
    pub reason: String,
}

impl Config {
    pub fn checks_dir(&self) -> &str {
        self.checks_dir.as_deref().unwrap_or(DEFAULT_CHECKS_DIR)
    }

    pub fn id_pattern(&self) -> &str {
        self.id_pattern.as_deref().unwrap_or(DEFAULT_ID_PATTERN)
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
        })
    }
}
