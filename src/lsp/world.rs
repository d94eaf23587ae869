//! The catalogue as the language server sees it: the files on disk with the editor's unsaved
//! texts laid over them, loaded, linted and verified the way `lint --verify` does, and the
//! facts the requests ask for (findings per file, an id's definition and its occurrences).
//! Everything the server knows about the catalogue comes through here.

use crate::diag::Diagnostic;
use crate::graph::Graph;
use crate::lint::Head;
use crate::load::text::Overlay;
use crate::model::{Catalogue, Check};
use crate::render::templates::Templates;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The catalogue that holds `file`: the nearest directory at or above it with a
/// `catalogue.yaml`, else the nearest one with a `checks/` folder (compatibility layout).
pub fn find_root(file: &Path) -> Option<PathBuf> {
    let start = file.parent()?;
    let declared = start
        .ancestors()
        .find(|d| d.join(crate::model::config::FILE_NAME).is_file());
    let found = declared
        .map(Path::to_path_buf)
        .or_else(|| {
            start
                .ancestors()
                .find(|d| d.join("checks").is_dir())
                .map(Path::to_path_buf)
        })
        // A document above the catalogue (the repository's README): the catalogue in
        // `./catalogue`, the default root of every command.
        .or_else(|| {
            start
                .ancestors()
                .map(|d| d.join("catalogue"))
                .find(|d| d.join(crate::model::config::FILE_NAME).is_file())
        })?;
    Some(normal(&crate::load::text::canonical(&found)))
}

/// `path` with `.` and `..` folded away, without touching the file system.
pub fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Where an id is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// The `id:` of its own check file.
    Definition,
    /// The `id:` of its entry in the retired ledger, or a successor named there.
    Ledger,
    /// A line of the manifest.
    Manifest,
    /// Inside a Markdown link or reference definition.
    Link,
    /// Anywhere else: prose, a table cell, frontmatter.
    Mention,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Occurrence {
    /// Root-relative, `/`-separated.
    pub file: String,
    /// Byte range of the id in the file's text.
    pub start: usize,
    pub end: usize,
    pub place: Place,
}

struct Loaded {
    catalogue: Catalogue,
    /// What loading reported, kept so one re-read file replaces only its own findings.
    load_diagnostics: Vec<Diagnostic>,
    graph: Graph,
    /// What the per-check lint passes found, by check file, before the ledger: an edit
    /// re-judges only the checks it can reach (`lint::per_check`).
    own: BTreeMap<String, Vec<Diagnostic>>,
    /// What the catalogue-wide lint passes that read no body found, before the ledger, by
    /// group: an edit that keeps a check's id runs again only the groups that read what it
    /// changed.
    heads: BTreeMap<Head, Vec<Diagnostic>>,
    /// What the catalogue-wide lint passes that read bodies found, before the ledger.
    bodies: Vec<Diagnostic>,
    /// What verify found, before the ledger (nothing without templates).
    verified: Vec<Diagnostic>,
    /// Everything shown, after the ledger, by file.
    findings: BTreeMap<String, Vec<Diagnostic>>,
}

pub struct World {
    root: PathBuf,
    overlay: Overlay,
    templates: Option<Templates>,
    loaded: Option<Loaded>,
    /// Why the catalogue could not be loaded at all (an unreadable root).
    fatal: Option<String>,
}

/// Findings with no file of their own are shown on `catalogue.yaml`, or in the compatibility
/// layout on the manifest's folder's first check; this is the name they are filed under.
pub const CATALOGUE_FILE: &str = crate::model::config::FILE_NAME;

impl World {
    /// A world rooted at `root` (already found by [`find_root`]); nothing is read yet.
    pub fn new(root: PathBuf) -> World {
        World {
            root,
            overlay: Overlay::new(),
            templates: Templates::new(None).ok(),
            loaded: None,
            fatal: None,
        }
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The root-relative name of an absolute path, if it lies in this catalogue's repository
    /// view (documents may sit above the root: `../README.md`).
    pub fn relative(&self, abs: &Path) -> Option<String> {
        let abs = normal(abs);
        if let Ok(rel) = abs.strip_prefix(&self.root) {
            return Some(crate::load::text::display_path(Path::new(""), rel));
        }
        // One or more levels above the root, as declared documents are named.
        let mut up = String::new();
        for base in self.root.ancestors().skip(1) {
            up.push_str("../");
            if let Ok(rel) = abs.strip_prefix(base) {
                let rest = crate::load::text::display_path(Path::new(""), rel);
                return Some(format!("{up}{rest}"));
            }
        }
        None
    }

    pub fn absolute(&self, rel: &str) -> PathBuf {
        normal(&self.root.join(rel))
    }

    /// Hold `text` as the content of `abs` until [`World::forget`].
    pub fn set_text(&mut self, abs: &Path, text: String) {
        self.overlay.insert(normal(abs), text);
    }

    /// Read `abs` from disk again (the editor closed it).
    pub fn forget(&mut self, abs: &Path) {
        self.overlay.remove(&normal(abs));
    }

    /// Load, lint and verify again, with every unsaved text in place.
    pub fn recheck(&mut self) {
        let options = crate::load::Options {
            keep_check_texts: true,
            bodies: crate::load::Bodies::Outline,
            documents: crate::load::Documents::All,
            outlines: None,
            overlay: Some(&self.overlay),
        };
        match crate::load::load_with(&self.root, options) {
            Err(e) => {
                self.fatal = Some(e.one_line());
                self.loaded = None;
            }
            Ok(l) => {
                self.fatal = None;
                self.judge(l.catalogue, l.diagnostics);
            }
        }
    }

    /// After an edit of `abs` only: when it is a check, read that one file again (the rest
    /// of the model stands) and judge again only what the edit can reach; anything else is a
    /// whole [`World::recheck`].
    ///
    /// What is judged again: the edited check's own findings; those of every check whose
    /// links may name its file or its old or new id (a link's target and its anchors); the
    /// catalogue-wide passes that read bodies (references off the rebuilt graph, rule files'
    /// links, sources); the groups of catalogue-wide passes that read ids and frontmatter
    /// (`lint::Head`) and verify, each only when the edit changed something it reads (any of
    /// them after a new id; after an edit that keeps the id, the fields whose value changed and
    /// the line of `id:`, see [`Kept`]); verify also when something it reads depends on the
    /// check's body. The findings equal those of a whole re-check of the same texts (the
    /// differential tests in `tests/suite/lsp_world.rs`).
    pub fn recheck_file(&mut self, abs: &Path) {
        let Some(mut loaded) = self.loaded.take() else {
            return self.recheck();
        };
        let abs = normal(abs);
        if super::inputs::kind(&abs).is_some() {
            // A profile or results file: no part of the catalogue reads it.
            return self.settle(loaded);
        }
        let options = crate::load::Options {
            keep_check_texts: true,
            bodies: crate::load::Bodies::Outline,
            documents: crate::load::Documents::All,
            outlines: None,
            overlay: Some(&self.overlay),
        };
        let shown = crate::load::text::display_path(&self.root, &abs);
        if loaded.catalogue.documents.iter().any(|d| d.path == shown) {
            // A check file that is also a declared document: reading the check again would
            // leave the document's text as it was.
            return self.recheck();
        }
        let old = loaded.catalogue.check_by_file(&shown).cloned();
        let Some(fresh) = crate::load::reload_check(&mut loaded.catalogue, &abs, options) else {
            return self.recheck();
        };
        let before = old.as_ref().map(|c| c.id.to_string());
        let after = loaded
            .catalogue
            .check_by_file(&shown)
            .map(|c| c.id.to_string());
        loaded
            .load_diagnostics
            .retain(|d| d.file.as_deref() != Some(shown.as_str()));
        loaded.load_diagnostics.extend(fresh);
        loaded.load_diagnostics.sort();
        // The graph reads a check's id, file and references only: while the id stands, an edit
        // of any other field leaves every edge but the check's own references as they were.
        let same_id = matches!((&before, &after), (Some(b), Some(a)) if b == a);
        let cat = &loaded.catalogue;
        match cat.check_by_file(&shown).filter(|_| same_id) {
            Some(c) => loaded.graph.replace_references(cat, c),
            None => loaded.graph = Graph::build(cat),
        }

        let stem = Path::new(&shown)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut names = vec![stem];
        names.extend(before.into_iter().chain(after));
        names.retain(|n| !n.is_empty());
        names.sort();
        names.dedup();
        let again: Vec<&Check> = cat
            .checks
            .iter()
            .filter(|c| c.file == shown || c.links.iter().any(|l| may_name(&l.dest, &names)))
            .collect();
        loaded.own.remove(&shown);
        for (c, list) in again.iter().zip(crate::lint::per_check(cat, &again)) {
            loaded.own.insert(c.file.to_string(), list);
        }
        // An edit that keeps the id: what it changed of what the catalogue-wide passes read.
        let kept = match (&old, cat.check_by_file(&shown)) {
            (Some(o), Some(n)) if o.id == n.id => Some(Kept::between(o, n)),
            _ => None,
        };
        for h in Head::ALL {
            let again = kept.as_ref().is_none_or(|k| {
                (k.id_line && h.reads_id_line()) || k.fields.iter().any(|f| h.reads_field(cat, f))
            });
            if again {
                loaded.heads.insert(h, crate::lint::catalogue_head(cat, &loaded.graph, h));
            }
        }
        loaded.bodies = crate::lint::catalogue_bodies(cat, &loaded.graph);
        let verify_again = kept
            .as_ref()
            .is_none_or(|k| k.fields.iter().any(|f| crate::claims::reads::field(cat, f)))
            || verify_reads_bodies(cat, &names);
        if verify_again {
            loaded.verified = self.verify(cat, &loaded.graph);
        }
        self.settle(loaded);
    }

    /// Every stage over the whole catalogue, as `lint --verify` runs them.
    fn judge(&mut self, cat: Catalogue, mut load_diagnostics: Vec<Diagnostic>) {
        load_diagnostics.sort();
        let graph = Graph::build(&cat);
        let all: Vec<&Check> = cat.checks.iter().collect();
        let own = all
            .iter()
            .map(|c| c.file.to_string())
            .zip(crate::lint::per_check(&cat, &all))
            .collect();
        let heads = Head::ALL
            .iter()
            .map(|h| (*h, crate::lint::catalogue_head(&cat, &graph, *h)))
            .collect();
        let bodies = crate::lint::catalogue_bodies(&cat, &graph);
        let verified = self.verify(&cat, &graph);
        self.settle(Loaded {
            catalogue: cat,
            load_diagnostics,
            graph,
            own,
            heads,
            bodies,
            verified,
            findings: BTreeMap::new(),
        });
    }

    fn verify(&self, cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
        self.templates
            .as_ref()
            .map(|t| crate::claims::verify(cat, graph, t))
            .unwrap_or_default()
    }

    /// The findings shown: every stage's, through the ledger, as `Session::findings` makes
    /// them (the ledger can only judge an entry stale when verify ran too).
    fn settle(&mut self, mut loaded: Loaded) {
        let mut found = loaded.load_diagnostics.clone();
        found.extend(loaded.own.values().flatten().cloned());
        found.extend(loaded.heads.values().flatten().cloned());
        found.extend(loaded.bodies.iter().cloned());
        found.extend(loaded.verified.iter().cloned());
        let coverage = if self.templates.is_some() {
            crate::session::ledger::Coverage::Complete
        } else {
            crate::session::ledger::Coverage::Partial
        };
        let today = crate::model::date::today();
        let shown = crate::session::settle(&loaded.catalogue, found, &today, coverage).shown;
        let mut findings: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        for d in shown {
            let file = d.file.clone().unwrap_or_else(|| CATALOGUE_FILE.into());
            findings.entry(file).or_default().push(d);
        }
        for (rel, list) in self.input_findings(&loaded.catalogue) {
            let all = findings.entry(rel).or_default();
            all.extend(list);
            crate::diag::normalise(all);
        }
        loaded.findings = findings;
        self.loaded = Some(loaded);
    }

    /// The findings about every profile and results file the editor holds open, by
    /// root-relative name.
    fn input_findings(&self, cat: &Catalogue) -> Vec<(String, Vec<Diagnostic>)> {
        let profile_text = |p: &Path| {
            let shown = self.relative(p)?;
            let text = match self.overlay.get(&normal(p)) {
                Some(t) => t.clone(),
                None => {
                    let repository = crate::load::text::repository_root(&self.root);
                    crate::load::text::read(&repository, p).ok()?.text
                }
            };
            Some((shown, text))
        };
        self.overlay
            .iter()
            .filter_map(|(abs, text)| {
                let kind = super::inputs::kind(abs)?;
                let rel = self.relative(abs)?;
                let found = super::inputs::findings(cat, kind, abs, &rel, text, &profile_text);
                Some((rel, found))
            })
            .collect()
    }

    /// Whether `abs` is a file this catalogue reads from outside its root (a declared
    /// document such as `../README.md`).
    pub fn reads(&self, abs: &Path) -> bool {
        let Some(rel) = self.relative(abs) else {
            return false;
        };
        self.catalogue()
            .is_some_and(|c| c.documents.iter().any(|d| d.path == rel))
    }

    pub fn fatal(&self) -> Option<&str> {
        self.fatal.as_deref()
    }

    /// Findings by root-relative file, each list sorted.
    pub fn findings(&self) -> BTreeMap<String, Vec<Diagnostic>> {
        self.loaded
            .as_ref()
            .map(|l| l.findings.clone())
            .unwrap_or_default()
    }

    pub fn findings_in(&self, rel: &str) -> &[Diagnostic] {
        self.loaded
            .as_ref()
            .and_then(|l| l.findings.get(rel))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn catalogue(&self) -> Option<&Catalogue> {
        self.loaded.as_ref().map(|l| &l.catalogue)
    }

    pub fn graph(&self) -> Option<&Graph> {
        self.loaded.as_ref().map(|l| &l.graph)
    }

    /// The text of a root-relative file: the editor's if it holds one, else as loaded, else
    /// from disk (through the same bounded reader loading uses).
    pub fn text_of(&self, rel: &str) -> Option<Arc<str>> {
        let abs = self.absolute(rel);
        if let Some(t) = self.overlay.get(&abs) {
            return Some(Arc::from(t.as_str()));
        }
        if let Some(cat) = self.catalogue() {
            if let Some(t) = crate::load::source(cat, rel) {
                return Some(t);
            }
        }
        let repository = crate::load::text::repository_root(&self.root);
        crate::load::text::read(&repository, &abs)
            .ok()
            .map(|t| Arc::from(t.text))
    }

    /// Whether `id` is a live check or a retired one.
    pub fn is_known(&self, id: &str) -> bool {
        self.catalogue()
            .is_some_and(|c| c.check(id).is_some() || c.retired(id).is_some())
    }

    /// Where `id` is defined: its check file's `id:` line, or its retired entry.
    pub fn definition(&self, id: &str) -> Option<Occurrence> {
        let cat = self.catalogue()?;
        if let Some(c) = cat.check(id) {
            let text = self.text_of(&c.file)?;
            let start = crate::fix::id_positions(&text, id).into_iter().next()?;
            return Some(Occurrence {
                file: c.file.to_string(),
                start,
                end: start + id.len(),
                place: Place::Definition,
            });
        }
        cat.retired(id)?;
        let line = *crate::graph::retired_lines(cat).get(id)?;
        let text = self.text_of(CATALOGUE_FILE)?;
        let offset = line_start(&text, line)?;
        let rest = text.get(offset..)?;
        let end_of_line = rest.find('\n').unwrap_or(rest.len());
        let at = crate::fix::id_positions(&rest[..end_of_line], id)
            .into_iter()
            .next()?;
        Some(Occurrence {
            file: CATALOGUE_FILE.into(),
            start: offset + at,
            end: offset + at + id.len(),
            place: Place::Ledger,
        })
    }

    /// Every place `id` is written in the catalogue's files (checks, rules, documents, the
    /// manifest and catalogue.yaml), sorted.
    pub fn occurrences(&self, id: &str) -> Vec<Occurrence> {
        let Some(cat) = self.catalogue() else {
            return Vec::new();
        };
        let manifest = cat.manifest.as_ref().map(|m| m.file.as_str());
        let mut files: Vec<String> = cat.sources.keys().cloned().collect();
        files.extend(cat.checks.iter().map(|c| c.file.to_string()));
        files.sort();
        files.dedup();
        let mut out = Vec::new();
        for file in files {
            let Some(text) = self.text_of(&file) else {
                continue;
            };
            let own = cat.check_by_file(&file).is_some_and(|c| c.id == id);
            for start in crate::fix::id_positions(&text, id) {
                let place = if Some(file.as_str()) == manifest {
                    Place::Manifest
                } else if file == CATALOGUE_FILE {
                    Place::Ledger
                } else if own && in_frontmatter(&text, start) && is_id_key(&text, start) {
                    Place::Definition
                } else if in_link(&text, start) {
                    Place::Link
                } else {
                    Place::Mention
                };
                out.push(Occurrence {
                    file: file.clone(),
                    start,
                    end: start + id.len(),
                    place,
                });
            }
        }
        out.sort();
        out
    }

    /// The check file that defines `id`, absolute, for a rename to move.
    #[cfg(any(test, feature = "internals"))]
    pub fn check_file(&self, id: &str) -> Option<String> {
        Some(self.catalogue()?.check(id)?.file.to_string())
    }
}

/// What an edit that kept a check's id changed of what the catalogue-wide passes read of it:
/// the fields (`model::fields`) whose value differs, and whether its `id:` line moved (the
/// line findings about the id are placed on). Nothing else of a check's frontmatter is read
/// by a pass over the whole catalogue.
struct Kept {
    fields: Vec<&'static str>,
    id_line: bool,
}

impl Kept {
    fn between(old: &Check, new: &Check) -> Kept {
        Kept {
            fields: crate::model::fields::FIELDS
                .iter()
                .filter(|f| (f.value)(old) != (f.value)(new))
                .map(|f| f.key)
                .collect(),
            id_line: old.field_line("id") != new.field_line("id"),
        }
    }
}

/// Whether a link written `dest` may lead to a file or id among `names` (a percent-encoded
/// destination is counted in, whatever it decodes to).
fn may_name(dest: &str, names: &[String]) -> bool {
    dest.contains('%') || names.iter().any(|n| dest.contains(n.as_str()))
}

/// Whether verify reads anything of a check's body that an edit of the check named by
/// `names` could change: a `require` claim (sections, a pattern over the body), a region a
/// template renders (templates may read bodies), or a document's link into that check (its
/// headings answer the link's fragment). The built-in tables and the claims' queries read
/// frontmatter only.
fn verify_reads_bodies(cat: &Catalogue, names: &[String]) -> bool {
    cat.config.claims.iter().any(|c| !c.require.is_empty())
        || cat.documents.iter().any(|d| {
            d.outline.links.iter().any(|l| may_name(&l.dest, names))
                || crate::claims::regions::parse(&d.text)
                    .regions
                    .iter()
                    .any(|r| !crate::render::tables::BUILT_IN.contains(&r.name.as_str()))
        })
}

/// Byte offset of the start of 1-based `line`.
pub fn line_start(text: &str, line: usize) -> Option<usize> {
    if line == 1 {
        return Some(0);
    }
    memchr::memchr_iter(b'\n', text.as_bytes())
        .nth(line.checked_sub(2)?)
        .map(|i| i + 1)
}

/// Whether byte `at` lies inside the leading `---` frontmatter block.
pub fn in_frontmatter(text: &str, at: usize) -> bool {
    frontmatter_end(text).is_some_and(|end| at < end)
}

/// Byte offset of the closing `---` line of the frontmatter (the whole text when unclosed).
pub fn frontmatter_end(text: &str) -> Option<usize> {
    let rest = text.strip_prefix("---\n")?;
    let mut offset = 4;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(offset);
        }
        offset += line.len();
    }
    Some(text.len())
}

fn line_around(text: &str, at: usize) -> (usize, &str) {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (start, &text[start..end])
}

fn is_id_key(text: &str, at: usize) -> bool {
    let (start, line) = line_around(text, at);
    line[..at - start].trim_start().starts_with("id:")
}

/// Whether byte `at` is inside `[…](…)`, `[…][…]`, `<…>` or a reference definition.
fn in_link(text: &str, at: usize) -> bool {
    let (start, line) = line_around(text, at);
    let col = at - start;
    let before = &line[..col];
    if line.trim_start().starts_with('[') && line.contains("]:") {
        return true;
    }
    // Inside a destination: an unclosed `](` before the id.
    if let Some(open) = before.rfind("](") {
        if !before[open..].contains(')') {
            return true;
        }
    }
    // Inside the text of a link: an unclosed `[` before, and `](` after.
    if let Some(open) = before.rfind('[') {
        if !before[open..].contains(']') {
            let after = &line[col..];
            if let Some(close) = after.find(']') {
                return matches!(after.as_bytes().get(close + 1), Some(b'(' | b'['));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_mentions_are_told_apart() {
        let t = "Siehe [FID-006](FID-006.md), nicht FID-006.\n[x]: checks/FID-006.md\n";
        let ats = crate::fix::id_positions(t, "FID-006");
        let kinds: Vec<bool> = ats.iter().map(|&a| in_link(t, a)).collect();
        assert_eq!(kinds, [true, true, false, true]);
    }

    #[test]
    fn frontmatter_ends_at_its_closing_line() {
        let t = "---\nid: A-001\n---\nbody A-001\n";
        assert_eq!(frontmatter_end(t), Some(14));
        assert!(in_frontmatter(t, 8));
        assert!(!in_frontmatter(t, 22));
    }
}
