//! The loaded catalogue: configuration, checks and the raw material later stages need.

use super::check::Check;
use super::config::Config;
use serde::Serialize;
use std::collections::BTreeSet;
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
    /// Text of every file read that is not a typed check (configuration, manifest, rules,
    /// documents, check files that did not type), by root-relative path. A check holds its
    /// own text (`Check::source`); `source()` finds either.
    pub sources: crate::diag::SourceMap,
    /// Positions in `checks`, sorted by id (then position): `check()` is a binary search.
    /// Built by `index()`; private, so no catalogue is built with an index of other checks.
    by_id: Vec<u32>,
}

impl Catalogue {
    /// A catalogue with nothing read into it: the default configuration, no checks, rules or
    /// documents. Loaders fill it and hand their checks to `set_checks`.
    pub fn empty(root: impl Into<PathBuf>, mode: Mode) -> Catalogue {
        Catalogue {
            root: root.into(),
            mode,
            config: Config::default(),
            categories: Vec::new(),
            checks: Vec::new(),
            broken: Vec::new(),
            manifest: None,
            rules: Vec::new(),
            documents: Vec::new(),
            sources: Default::default(),
            by_id: Vec::new(),
        }
    }

    /// Replace the checks (in file order) and index them by id.
    pub fn set_checks(&mut self, checks: Vec<Check>) {
        self.checks = checks;
        self.index();
    }

    /// The check with this id (the first file, if an id is duplicated).
    pub fn check(&self, id: &str) -> Option<&Check> {
        if self.by_id.len() != self.checks.len() {
            // `checks` changed since it was last indexed: fall back to a scan.
            return self.checks.iter().find(|c| c.id == id);
        }
        let at = self.by_id.partition_point(|&i| self.id_at(i) < id);
        let i = *self.by_id.get(at)?;
        let c = self.checks.get(i as usize)?;
        (c.id == id).then_some(c)
    }

    fn id_at(&self, i: u32) -> &str {
        self.checks
            .get(i as usize)
            .map(|c| c.id.as_str())
            .unwrap_or("")
    }

    /// The check read from `file` (root-relative), if it typed.
    pub fn check_by_file(&self, file: &str) -> Option<&Check> {
        // Checks are in file order; fall back to a scan for a catalogue built by hand.
        let at = self.checks.partition_point(|c| c.file.as_str() < file);
        match self.checks.get(at).filter(|c| c.file == file) {
            Some(c) => Some(c),
            None => self.checks.iter().find(|c| c.file == file),
        }
    }

    /// Every text held, by path, sorted: the catalogue's bytes as loaded (for fingerprints).
    pub fn texts(&self) -> Vec<(&str, &str)> {
        let mut v: Vec<(&str, &str)> = self
            .sources
            .iter()
            .map(|(p, t)| (p.as_str(), &**t))
            .chain(
                self.checks
                    .iter()
                    .filter_map(|c| Some((c.file.as_str(), c.text()?))),
            )
            .collect();
        v.sort();
        v
    }

    /// Build the id index again after `checks` changed in place (re-reading one check file).
    pub fn index(&mut self) {
        let n = u32::try_from(self.checks.len()).unwrap_or(u32::MAX);
        let mut by_id: Vec<u32> = (0..n).collect();
        by_id.sort_by(|a, b| self.id_at(*a).cmp(self.id_at(*b)).then(a.cmp(b)));
        self.by_id = by_id;
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
