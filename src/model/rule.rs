//! A rule: a statement (from a skill or guideline) that checks enforce. Rules come from rule
//! files (`rules/<ID>.md`) and from mapping tables inside documents; both end up here.

use super::Reference;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Coverage {
    Full,
    Partial,
    None,
}

impl Coverage {
    pub fn parse(s: &str) -> Option<Coverage> {
        match s {
            "full" => Some(Coverage::Full),
            "partial" => Some(Coverage::Partial),
            "none" => Some(Coverage::None),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Coverage::Full => "full",
            Coverage::Partial => "partial",
            Coverage::None => "none",
        }
    }
}

/// Where a rule's mapping was read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RuleOrigin {
    /// A rule file; `line` is the line of its `checks:` key.
    File { file: String, line: usize },
    /// A row of a mapping table in a document.
    Table { file: String, line: usize },
}

impl RuleOrigin {
    pub fn file(&self) -> &str {
        match self {
            RuleOrigin::File { file, .. } | RuleOrigin::Table { file, .. } => file,
        }
    }

    pub fn line(&self) -> usize {
        match self {
            RuleOrigin::File { line, .. } | RuleOrigin::Table { line, .. } => *line,
        }
    }
}

/// One mapping of a rule to checks, as one source states it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mapping {
    pub origin: RuleOrigin,
    /// The check ids this source maps the rule to (in the order written).
    pub checks: Vec<String>,
    /// The 1-based line on which each of `checks` is written.
    pub lines: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rule {
    pub id: String,
    pub title: Option<String>,
    pub coverage: Option<Coverage>,
    pub source: Option<String>,
    /// Every source that maps this rule (a file, a table row, or both).
    pub mappings: Vec<Mapping>,
    /// References in a rule file's body (not coverage: the mapping is `checks:`).
    pub references: Vec<Reference>,
    /// Links and images in a rule file's body, for the path and fragment checks.
    #[serde(skip)]
    pub links: Vec<super::LocalLink>,
    /// The Markdown body of the rule file (empty for a rule stated only in a table).
    #[serde(skip)]
    pub body: String,
}

/// Sort key that orders `FIDELITY-2` before `FIDELITY-10`.
pub fn natural_key(id: &str) -> (String, u64, String) {
    let digits = id.len() - id.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (head, tail) = id.split_at(id.len() - digits);
    (head.to_string(), tail.parse().unwrap_or(0), id.to_string())
}

impl Rule {
    /// The checks the rule maps to: the union over its sources, sorted.
    pub fn checks(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self
            .mappings
            .iter()
            .flat_map(|m| m.checks.iter().map(String::as_str))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The first place the rule is stated, for findings about the rule as a whole.
    pub fn origin(&self) -> Option<&RuleOrigin> {
        self.mappings.iter().map(|m| &m.origin).min()
    }
}
