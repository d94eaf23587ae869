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
// Sections, criteria and references are the bulk of a check's model: their positions are
// 32-bit (files are limited to 10 MB) and their lists are boxed slices, without growth room.
pub struct Section {
    pub title: SectionTitle,
    pub line: u32,
    /// Byte range of the section's content in the body (after its heading, up to the next
    /// level-2 heading); see `content()`.
    #[serde(skip)]
    pub start: u32,
    #[serde(skip)]
    pub end: u32,
}

/// The sections a check of this format has (the template `new` writes).
pub const STANDARD_SECTIONS: [&str; 7] = [
    "Description",
    "Verification",
    "Pass Criteria",
    "Common Failures",
    "Remediation",
    "Effort",
    "References",
];

/// A section title: one of `STANDARD_SECTIONS` by number (no allocation, and half the size of
/// a string), or any other title as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionTitle {
    Standard(u8),
    Other(Box<str>),
}

impl SectionTitle {
    pub fn new(title: &str) -> SectionTitle {
        match STANDARD_SECTIONS.iter().position(|s| *s == title) {
            Some(i) => SectionTitle::Standard(i as u8),
            None => SectionTitle::Other(title.into()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            SectionTitle::Standard(i) => STANDARD_SECTIONS.get(*i as usize).copied().unwrap_or(""),
            SectionTitle::Other(s) => s,
        }
    }
}

impl std::ops::Deref for SectionTitle {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for SectionTitle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for SectionTitle {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SectionTitle {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for SectionTitle {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Section {
    pub fn content(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Criterion {
    pub text: Box<str>,
    pub checked: bool,
    pub line: u32,
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
    /// What few checks have (see `Rare`); `None` when a check has none of it.
    #[serde(flatten)]
    pub rare: Option<Box<Rare>>,
    /// Path relative to the catalogue root, `/`-separated.
    pub file: CompactString,
    pub body_line: usize,
    pub sections: Box<[Section]>,
    pub pass_criteria: Box<[Criterion]>,
    pub references: Box<[Reference]>,
    /// External links of the sources section (see `model::source`), in the order written.
    pub sources: Box<[super::Source]>,
    /// Line of the sources section's house-practice line (`require_sources.house_practice`);
    /// 0 when there is none or no marker is declared.
    #[serde(skip)]
    pub house_practice_line: u32,
    /// Links and images the path and fragment checks follow.
    pub links: Box<[super::LocalLink]>,
    /// Where each of the format's own frontmatter keys is.
    #[serde(skip)]
    pub field_lines: FieldLines,
    /// 1-based column where the applies_when expression starts on its line.
    #[serde(skip)]
    pub applies_when_column: u32,
    /// The whole file's text (held by the check alone), or its stamp after a lean load.
    #[serde(skip)]
    pub source: super::CheckText,
    /// Where the Markdown body (after the frontmatter) starts in `source`.
    #[serde(skip)]
    pub body_start: usize,
}

/// What a check's frontmatter says, typed: all `Check::new` needs before the body is read.
#[derive(Clone, Debug, PartialEq)]
pub struct Frontmatter {
    pub id: CompactString,
    pub title: String,
    pub category: CompactString,
    pub severity: CompactString,
    pub applies_when: CompactString,
    pub spec_baseline: CompactString,
    pub adoption: Adoption,
    pub evidence_required: u32,
    pub rare: Rare,
}

/// Fields most checks leave out, boxed so that those checks pay one pointer for all of them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rare {
    pub pdf_ref: Option<String>,
    pub spec_ref: Option<String>,
    /// Keys declared under `extra_fields`, as JSON values.
    pub extra: BTreeMap<String, serde_json::Value>,
    /// Fields whose value came from the format's default rather than the file.
    pub defaulted: Vec<&'static str>,
    /// The baseline exactly as written, when it was an alias (`beide`).
    pub spec_baseline_alias: Option<String>,
    /// The probes that observe the check on a live server (`probe:`), in the order written.
    #[serde(rename = "probe", skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<crate::model::probe::ProbeSpec>,
    /// The source rules and file facts that observe the check (`scan:`).
    #[serde(rename = "scan", skip_serializing_if = "Vec::is_empty")]
    pub scan: Vec<crate::model::scan::ScanRule>,
    /// Ids of the official conformance suite's checks that observe the check (`conformance:`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conformance: Vec<String>,
    /// `spec_baseline` is a date written without quotes: YAML 1.1 readers take it for a date.
    #[serde(skip)]
    pub spec_baseline_unquoted_date: bool,
}

impl Rare {
    /// Boxed, or `None` when there is nothing to hold.
    pub fn boxed(self) -> Option<Box<Rare>> {
        (self != Rare::default()).then(|| Box::new(self))
    }
}

static NO_EXTRA: BTreeMap<String, serde_json::Value> = BTreeMap::new();

/// 1-based line of each key in `fields::KEYS` (0: not in the file). A fixed array rather than a
/// map: a large catalogue holds one per check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FieldLines([u32; super::fields::COUNT]);

impl FieldLines {
    pub fn set(&mut self, key: &str, line: usize) {
        if let Some(i) = super::fields::KEYS.iter().position(|k| *k == key) {
            if let Some(slot) = self.0.get_mut(i) {
                *slot = u32::try_from(line).unwrap_or(u32::MAX);
            }
        }
    }

    pub fn get(&self, key: &str) -> Option<usize> {
        let i = super::fields::KEYS.iter().position(|k| *k == key)?;
        self.0.get(i).filter(|l| **l > 0).map(|l| *l as usize)
    }
}

impl Check {
    /// The ids this check links to (or mentions), sorted, each once.
    pub fn outgoing(&self, kind: super::reference::RefKind) -> Vec<String> {
        let mut v: Vec<String> = self
            .references
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| r.target.to_string())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// A check of `file` with this frontmatter and no body read yet: no sections, criteria,
    /// references, sources or links, positions at their defaults, and what few checks have
    /// boxed only when there is some.
    pub fn new(f: Frontmatter, file: CompactString, source: super::CheckText) -> Check {
        Check {
            id: f.id,
            title: f.title,
            category: f.category,
            severity: f.severity,
            applies_when: f.applies_when,
            spec_baseline: f.spec_baseline,
            adoption: f.adoption,
            evidence_required: f.evidence_required,
            rare: f.rare.boxed(),
            file,
            body_line: 1,
            sections: Box::default(),
            pass_criteria: Box::default(),
            references: Box::default(),
            sources: Box::default(),
            house_practice_line: 0,
            links: Box::default(),
            field_lines: FieldLines::default(),
            applies_when_column: 1,
            source,
            body_start: 0,
        }
    }

    /// Line of one of the format's frontmatter fields (its first occurrence), falling back to
    /// the frontmatter's first line.
    pub fn field_line(&self, field: &str) -> usize {
        self.field_lines.get(field).unwrap_or(2)
    }

    pub fn pdf_ref(&self) -> Option<&str> {
        self.rare.as_ref()?.pdf_ref.as_deref()
    }

    pub fn spec_ref(&self) -> Option<&str> {
        self.rare.as_ref()?.spec_ref.as_deref()
    }

    /// Keys declared under `extra_fields`, as JSON values.
    pub fn extra(&self) -> &BTreeMap<String, serde_json::Value> {
        self.rare.as_ref().map(|r| &r.extra).unwrap_or(&NO_EXTRA)
    }

    /// Fields whose value came from the format's default rather than the file.
    pub fn defaulted(&self) -> &[&'static str] {
        self.rare.as_ref().map(|r| &r.defaulted[..]).unwrap_or(&[])
    }

    /// The probes declared under `probe:` (none for most checks).
    pub fn probes(&self) -> &[crate::model::probe::ProbeSpec] {
        self.rare.as_ref().map(|r| &r.probes[..]).unwrap_or(&[])
    }

    /// The source rules declared under `scan:` (none for most checks).
    pub fn scan(&self) -> &[crate::model::scan::ScanRule] {
        self.rare.as_ref().map(|r| &r.scan[..]).unwrap_or(&[])
    }

    /// The conformance-suite check ids declared under `conformance:` (none for most checks).
    pub fn conformance(&self) -> &[String] {
        self.rare
            .as_ref()
            .map(|r| &r.conformance[..])
            .unwrap_or(&[])
    }

    /// The baseline exactly as written, when it was an alias (`beide`).
    pub fn spec_baseline_alias(&self) -> Option<&str> {
        self.rare.as_ref()?.spec_baseline_alias.as_deref()
    }

    /// The whole file's text, unless a lean load released it.
    pub fn text(&self) -> Option<&str> {
        self.source.get().map(|t| &**t)
    }

    pub fn section(&self, title: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.title == title)
    }

    /// The Markdown body after the frontmatter; empty after a lean load (only commands that
    /// never read bodies load lean).
    pub fn body(&self) -> &str {
        self.text()
            .and_then(|t| t.get(self.body_start..))
            .unwrap_or("")
    }

    /// The text of a level-2 section (without its heading), if present.
    pub fn section_text(&self, title: &str) -> Option<&str> {
        self.body().get(self.section(title)?.content())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_titles_keep_their_text_and_stay_small() {
        for t in STANDARD_SECTIONS {
            assert!(matches!(SectionTitle::new(t), SectionTitle::Standard(_)));
            assert_eq!(SectionTitle::new(t).as_str(), t);
        }
        let other = SectionTitle::new("Prüfung");
        assert_eq!(other, "Prüfung");
        assert!(matches!(other, SectionTitle::Other(_)));
        // A large catalogue holds several sections per check.
        assert!(std::mem::size_of::<Section>() <= 32);
    }
}
