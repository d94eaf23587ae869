//! A check as the engine knows it: effective frontmatter (defaults applied) plus what the body
//! says (sections, pass criteria, references) and where each part was found.

use super::reference::Reference;
use compact_str::CompactString;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Adoption {
    Enforced,
    Advisory,
}

impl Adoption {
    pub const ALL: [Adoption; 2] = [Adoption::Enforced, Adoption::Advisory];

    pub fn as_str(self) -> &'static str {
        match self {
            Adoption::Enforced => "enforced",
            Adoption::Advisory => "advisory",
        }
    }

    pub fn parse(s: &str) -> Option<Adoption> {
        match s {
            "enforced" => Some(Adoption::Enforced),
            "advisory" => Some(Adoption::Advisory),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    /// Inline for the usual section names (no allocation per section).
    pub title: CompactString,
    pub line: usize,
    /// Byte range of the section's content in the body (after its heading, up to the next
    /// level-2 heading).
    #[serde(skip)]
    pub content: std::ops::Range<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Criterion {
    pub text: String,
    pub checked: bool,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
// Short values (id, category, severity, baseline, file name, most expressions) are
// CompactStrings: stored inline, so a check costs no allocation for them. At 100,000 checks
// the heap strings were a large share of the model's memory.
pub struct Check {
    pub id: CompactString,
    pub title: String,
    pub category: CompactString,
    pub severity: CompactString,
    /// The expression's source text; parsed and typed by the lint and audit stages.
    pub applies_when: CompactString,
    /// Canonical baseline (aliases resolved).
    pub spec_baseline: CompactString,
    pub adoption: Adoption,
    pub evidence_required: u32,
    pub pdf_ref: Option<String>,
    pub spec_ref: Option<String>,
    /// Keys declared under `extra_fields`, as JSON values.
    pub extra: BTreeMap<String, serde_json::Value>,
    /// Fields whose value came from the format's default rather than the file.
    pub defaulted: Vec<&'static str>,
    /// The baseline exactly as written, when it was an alias (`beide`).
    pub spec_baseline_alias: Option<String>,
    /// Path relative to the catalogue root, `/`-separated.
    pub file: CompactString,
    pub body_line: usize,
    pub sections: Vec<Section>,
    pub pass_criteria: Vec<Criterion>,
    pub references: Vec<Reference>,
    /// The whole file's text (shared with `Catalogue::sources`, so it is held once).
    #[serde(skip)]
    pub source: std::sync::Arc<str>,
    /// Where the Markdown body (after the frontmatter) starts in `source`.
    #[serde(skip)]
    pub body_start: usize,
}

impl Check {
    /// Line of a frontmatter field (its first occurrence), falling back to the frontmatter's
    /// first line. Found in the text on demand: only findings ask, and keeping a line per
    /// field for every check cost more memory than the rest of the frontmatter.
    pub fn field_line(&self, field: &str) -> usize {
        let head = self.source.get(..self.body_start).unwrap_or("");
        head.split('\n')
            .position(|l| {
                crate::load::frontmatter::top_level_key(l.trim_end_matches('\r')) == Some(field)
            })
            .map(|i| i + 1)
            .unwrap_or(2)
    }

    pub fn section(&self, title: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.title == title)
    }

    /// The Markdown body after the frontmatter.
    pub fn body(&self) -> &str {
        self.source.get(self.body_start..).unwrap_or("")
    }

    /// The text of a level-2 section (without its heading), if present.
    pub fn section_text(&self, title: &str) -> Option<&str> {
        self.body().get(self.section(title)?.content.clone())
    }
}
