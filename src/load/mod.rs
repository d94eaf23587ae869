//! Loading: files on disk into a `Catalogue`. Loading reports what it cannot read or type;
//! judging what it read is the lint stage's job.

pub mod anchors;
pub mod audit_report;
pub mod check;
pub mod claims_file;
pub mod config;
pub mod data_file;
pub mod doc_globs;
pub mod docs;
pub mod examples;
pub mod frontmatter;
pub mod link_dest;
pub mod manifest;
pub mod markdown;
pub mod outline_cache;
mod phases;
pub mod portfolio;
pub mod rules;
pub mod sections;
pub mod snapshot_model;
pub mod text;
pub mod yaml_depth;
pub mod yaml_tags;

use crate::diag::Diagnostic;
use crate::model::{Catalogue, Mode};
use markdown::IdRules;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The engine could not do its job at all (exit code 2): what failed, and the error
/// underneath it when there is one (printed as `caused by:`).
#[derive(Debug, thiserror::Error)]
#[error("{what}")]
pub struct Fatal {
    what: String,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Fatal {
    /// A failure its message describes in full.
    pub fn new(what: impl Into<String>) -> Fatal {
        Fatal {
            what: what.into(),
            source: None,
        }
    }

    /// `map_err(Fatal::caused("cannot read `x`"))`: the error becomes the cause.
    pub fn caused<E>(what: impl Into<String>) -> impl FnOnce(E) -> Fatal
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        let what = what.into();
        move |e| Fatal {
            what,
            source: Some(Box::new(e)),
        }
    }

    /// The message and its causes on one line (`what: cause: …`), for a place that shows
    /// one line, such as an editor's status.
    pub fn one_line(&self) -> String {
        let mut out = self.what.clone();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            out.push_str(": ");
            out.push_str(&c.to_string());
            cause = c.source();
        }
        out
    }
}

pub struct Loaded {
    pub catalogue: Catalogue,
    /// Everything loading found, documents included.
    pub diagnostics: Vec<Diagnostic>,
    /// What loading found about the declared documents (also in `diagnostics`): `verify`
    /// reports these, so a document it cannot read is an error there too.
    pub document_diagnostics: Vec<Diagnostic>,
}

/// The default root: `./catalogue` if it exists, else `.`.
pub fn default_root() -> PathBuf {
    let c = PathBuf::from("catalogue");
    if c.is_dir() {
        c
    } else {
        PathBuf::from(".")
    }
}

/// How much of what it reads loading keeps, and what it reads in place of the disk.
#[derive(Clone, Copy, Debug)]
pub struct Options<'o> {
    /// Keep each check file's text in the model (`Check::body`, `section_text`). Commands that
    /// never read bodies (lint, verify) load without: the model of a large catalogue is then
    /// a fraction of its size, and a finding's source line is read again from the file.
    pub keep_check_texts: bool,
    /// Texts an editor holds unsaved, read instead of the files at those paths (the language
    /// server checks what the maintainer sees, not what was last saved).
    pub overlay: Option<&'o text::Overlay>,
    /// How much of each check body is read.
    pub bodies: Bodies,
    /// Which of the rules and the documents `catalogue.yaml` declares are read.
    pub documents: Documents,
    /// Outlines of earlier runs to reuse, and to collect this run's into (`session` reads and
    /// writes the file; the language server, which keeps its catalogue, has none).
    pub outlines: Option<&'o outline_cache::OutlineCache>,
}

/// How much of the rules and declared documents loading reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Documents {
    /// Every declared document (claims, regions and rule tables), the example inputs, the
    /// rule files: what `lint` and `verify` judge.
    All,
    /// What an audit report reads: the rules (rule files, and the outlines of the documents
    /// holding rule tables); every other declared document and example is read for its bytes
    /// only (the report's files digest covers them), never outlined.
    Rules,
    /// Neither (applicability, list, stats).
    None,
}

/// How much of a check body loading reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bodies {
    /// The whole Markdown outline: sections, criteria, references, links, sources.
    Outline,
    /// Only the level-2 sections and the sources section's links (`check::attach_sections`):
    /// what an audit report reads, at a fraction of the cost.
    Sections,
    /// Frontmatter only (applicability, list, stats): the body is not looked at.
    None,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            keep_check_texts: true,
            bodies: Bodies::Outline,
            documents: Documents::All,
            overlay: None,
            outlines: None,
        }
    }
}

/// Read a check body as much as `options` asks.
fn attach(
    c: &mut crate::model::Check,
    ids: &IdRules<'_>,
    source_rules: &check::SourceRules<'_>,
    options: Options,
) {
    match options.bodies {
        Bodies::Outline => check::attach_body(c, ids, source_rules),
        Bodies::Sections => check::attach_sections(c, ids, source_rules),
        Bodies::None => {}
    }
    if !options.keep_check_texts {
        c.source.release();
    }
}

/// The text of a file the catalogue read, by root-relative path, for showing a finding's
/// source line. A check's text comes from the check, or after a lean load from the file again,
/// and only if it is still the text that was loaded (else `None`: the finding is then shown
/// with its place but without the line).
pub fn source(cat: &Catalogue, file: &str) -> Option<Arc<str>> {
    if let Some(t) = cat.sources.get(file) {
        return Some(Arc::clone(t));
    }
    match &cat.check_by_file(file)?.source {
        crate::model::CheckText::Held(t) => Some(Arc::clone(t)),
        crate::model::CheckText::Released(stamp) => {
            let t = text::read(&cat.root, &cat.root.join(file)).ok()?;
            stamp.matches(&t.text).then(|| Arc::from(t.text))
        }
    }
}

/// Load with every check text kept.
pub fn load(root: &Path) -> Result<Loaded, Fatal> {
    load_with(root, Options::default())
}

/// Load in phases (see `phases`): `catalogue.yaml`, the check files, the manifest, the
/// documents, the rules.
pub fn load_with(root: &Path, options: Options<'_>) -> Result<Loaded, Fatal> {
    phases::check_root(root)?;
    let mut diags = Vec::new();
    let mut sources = phases::Sources::new();
    let (mode, mut config) = phases::read_config(root, options.overlay, &mut diags, &mut sources);
    phases::confine_dirs(root, &mut config, &mut diags);
    let derived = phases::Derived::of(&config);
    let checks_dir = root.join(config.checks_dir());
    let vocab = derived.vocab(&config);
    let source_rules = derived.source_rules(&config);

    // Categories decide which words are mentions. Declared ones are known now, so each file's
    // body is read while its text is at hand; in compatibility mode they come from every
    // check's frontmatter, so bodies wait for the whole directory.
    let declared: Vec<String> = config.categories.iter().map(|c| c.prefix.clone()).collect();
    let early = derived.id_rules(&declared, options.outlines);
    let body_rules = (mode == Mode::Declared).then_some(&early);
    let read = phases::read_checks(
        root,
        &checks_dir,
        &derived.id_re,
        &vocab,
        body_rules.map(|r| (r, &source_rules)),
        options,
    );
    diags.extend(read.diagnostics);
    sources.extend(read.sources);
    let mut checks = read.checks;
    let manifest = phases::read_manifest(
        root,
        &checks_dir,
        &derived.id_re,
        options.overlay,
        &mut diags,
        &mut sources,
    );
    if read.listed == 0 && checks_dir.is_dir() {
        diags.push(phases::no_check_files(root, &checks_dir));
    }

    let categories = phases::categories_of(mode, &declared, &checks);
    let ids = derived.id_rules(&categories, options.outlines);
    if body_rules.is_none() {
        crate::par::for_each_mut(&mut checks, |c| attach(c, &ids, &source_rules, options));
    }
    let (documents, document_diagnostics) =
        phases::read_documents(root, &mut config, &ids, options, &mut sources);
    diags.extend(document_diagnostics.iter().cloned());
    let rules = phases::read_rules(
        root,
        &config,
        &ids,
        &documents,
        options,
        &mut diags,
        &mut sources,
    );

    let mut catalogue = Catalogue::empty(root, mode);
    catalogue.config = config;
    catalogue.categories = categories;
    catalogue.broken = read.broken;
    catalogue.manifest = manifest;
    catalogue.rules = rules;
    catalogue.documents = documents;
    catalogue.sources = sources;
    catalogue.set_checks(checks);
    Ok(Loaded {
        catalogue,
        diagnostics: diags,
        document_diagnostics,
    })
}

/// Read one check file of a loaded catalogue again, in place (the language server re-reads
/// only the file being typed in). Returns what loading reports about that file, or `None`
/// when only a whole load gives the right answer: the compatibility layout (every check's
/// frontmatter decides the categories there) or a file the last load did not read.
pub fn reload_check(
    cat: &mut Catalogue,
    path: &Path,
    options: Options<'_>,
) -> Option<Vec<Diagnostic>> {
    if cat.mode != Mode::Declared {
        return None;
    }
    let root = cat.root.clone();
    let checks_dir = root.join(cat.config.checks_dir());
    if path.parent() != Some(checks_dir.as_path()) {
        return None;
    }
    let shown = text::display_path(&root, path);
    let known = cat.checks.iter().any(|c| c.file == shown)
        || cat.broken.iter().any(|b| b.file == shown)
        || cat.sources.contains_key(&shown);
    if !known {
        return None;
    }
    let config = &cat.config;
    let derived = phases::Derived::of(config);
    let vocab = derived.vocab(config);
    let source_rules = derived.source_rules(config);
    let rules = derived.id_rules(&cat.categories, options.outlines);
    let (typed, rest) = phases::load_check_file(
        &root,
        path,
        &derived.id_re,
        &vocab,
        Some((&rules, &source_rules)),
        options,
    );
    cat.checks.retain(|c| c.file != shown);
    cat.broken.retain(|b| b.file != shown);
    cat.sources.remove(&shown);
    if let Some(c) = typed {
        let at = cat
            .checks
            .partition_point(|x| x.file.as_str() < c.file.as_str());
        cat.checks.insert(at, c);
    }
    if let Some(b) = rest.broken {
        let at = cat.broken.partition_point(|x| x.file < b.file);
        cat.broken.insert(at, b);
    }
    if let Some((shown, text)) = rest.source {
        cat.sources.insert(shown, text);
    }
    cat.index();
    Some(rest.diagnostics)
}
