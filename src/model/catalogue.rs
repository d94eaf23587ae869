//! The loaded catalogue: configuration, checks and the raw material later stages need.

use super::check::Check;
use super::config::Config;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `catalogue.yaml` present: everything declared is checked.
    Declared,
    /// No `catalogue.yaml`: categories inferred, declarations absent, some checks skipped.
    Compatibility,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    pub id: String,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub file: String,
    pub entries: Vec<ManifestEntry>,
}

/// A check file whose frontmatter could not be typed: its id (from the file stem) still exists
/// for reference purposes, so one broken file does not cascade into dead-link errors elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenCheck {
    pub stem: String,
    pub file: String,
}

#[derive(Clone, Debug)]
pub struct Catalogue {
    pub root: PathBuf,
    pub mode: Mode,
    pub config: Config,
    /// Categories in display order: declared ones, or (compatibility mode) the ones checks use.
    pub categories: Vec<String>,
    /// Every successfully typed check, in file order (sorted by file name).
    pub checks: Vec<Check>,
    pub broken: Vec<BrokenCheck>,
    pub manifest: Option<Manifest>,
    /// Rules from rule files and mapping tables, merged by id, sorted by id.
    pub rules: Vec<super::Rule>,
    /// Documents read for `docs` and rule tables, sorted by path.
    pub documents: Vec<super::Document>,
    /// Text of every file read, by root-relative path, for rendering diagnostics with source.
    /// Shared with the checks (`Check::source`): each file's text is held once.
    pub sources: BTreeMap<String, std::sync::Arc<str>>,
    /// Position in `checks` of each id's first file; built by `index()`.
    pub by_id: BTreeMap<String, usize>,
}

impl Catalogue {
    /// The check with this id (the first file, if an id is duplicated).
    pub fn check(&self, id: &str) -> Option<&Check> {
        match self.by_id.get(id) {
            Some(&i) => self.checks.get(i),
            // Before indexing (or for a catalogue built by hand) fall back to a scan.
            None if self.by_id.is_empty() => self.checks.iter().find(|c| c.id == id),
            None => None,
        }
    }

    /// Build the id index; loading calls this once the checks are final.
    pub fn index(&mut self) {
        self.by_id.clear();
        for (i, c) in self.checks.iter().enumerate() {
            self.by_id.entry(c.id.to_string()).or_insert(i);
        }
    }

    /// Ids that exist as check files, typed or not.
    pub fn known_ids(&self) -> BTreeSet<&str> {
        self.checks
            .iter()
            .map(|c| c.id.as_str())
            .chain(self.broken.iter().map(|b| b.stem.as_str()))
            .collect()
    }

    /// Checks sorted by id (then file), the order every listing uses.
    pub fn checks_by_id(&self) -> Vec<&Check> {
        let mut v: Vec<&Check> = self.checks.iter().collect();
        v.sort_by(|a, b| a.id.cmp(&b.id).then_with(|| a.file.cmp(&b.file)));
        v
    }

    pub fn is_category(&self, prefix: &str) -> bool {
        self.categories.iter().any(|c| c == prefix)
    }

    pub fn rule(&self, id: &str) -> Option<&super::Rule> {
        self.rules.iter().find(|r| r.id == id)
    }

    pub fn document(&self, path: &str) -> Option<&super::Document> {
        self.documents.iter().find(|d| d.path == path)
    }

    pub fn retired(&self, id: &str) -> Option<&super::config::RetiredDecl> {
        self.config.retired.iter().find(|r| r.id == id)
    }

    pub fn name(&self) -> &str {
        self.config.name.as_deref().unwrap_or("catalogue")
    }
}
