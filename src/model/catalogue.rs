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
    /// Text of every file read, by root-relative path, for rendering diagnostics with source.
    pub sources: BTreeMap<String, String>,
}

impl Catalogue {
    /// The check with this id (the first file, if an id is duplicated).
    pub fn check(&self, id: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.id == id)
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

    pub fn name(&self) -> &str {
        self.config.name.as_deref().unwrap_or("catalogue")
    }
}
