//! The one pipeline every command, the tests and the language server share: load what a
//! command needs, build the graph once, run the requested stages once, apply the suppression
//! ledger once and normalise once.

mod claims_file;
pub mod ledger;
mod outline_store;
mod sync;

use crate::diag::{self, Diagnostic, Suppressed};
use crate::graph::Graph;
use crate::load::{self, Bodies, Documents, Fatal, Loaded, Options};
use crate::model::Catalogue;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// What a command reads of the catalogue. Reading less is what makes the frequent commands
/// cheap: a check's Markdown outline is most of the cost of loading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    bodies: Bodies,
    documents: Documents,
    texts: bool,
}

impl Needs {
    /// Frontmatter only (applicability, list, stats, schema, profile checks, probes): no
    /// body, no rules, no documents; each check's text is released once its frontmatter is
    /// read (holding a megabyte nobody reads cost more page faults than its stamp costs).
    pub const FRONTMATTER: Needs = Needs {
        bodies: Bodies::None,
        documents: Documents::None,
        texts: false,
    };
    /// What an audit report and a probe show: frontmatter, the named sections, pass criteria and
    /// sources of each check, and the rules (the catalogue's semantic fingerprint, which a
    /// report carries, covers criteria and rules). No links or references.
    pub const REPORT: Needs = Needs {
        bodies: Bodies::Sections,
        documents: Documents::Rules,
        texts: true,
    };
    /// Whole bodies, rules and documents, with every check's text kept (show, site, graph).
    pub const BODIES: Needs = Needs {
        bodies: Bodies::Outline,
        documents: Documents::All,
        texts: true,
    };
    /// Whole bodies, rules and documents for judging them (lint, verify): check texts are
    /// released after reading and read again only to show a finding's line.
    pub const FINDINGS: Needs = Needs {
        bodies: Bodies::Outline,
        documents: Documents::All,
        texts: false,
    };

    fn options(self) -> Options<'static> {
        Options {
            keep_check_texts: self.texts,
            bodies: self.bodies,
            documents: self.documents,
            overlay: None,
            outlines: None,
        }
    }
}

/// Which stages `Session::findings` runs. Loading always ran; its findings are part of
/// every set (a document that cannot be read fails verify, a CRLF file is a lint warning).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages {
    pub lint: bool,
    pub verify: bool,
}

impl Stages {
    pub const LINT: Stages = Stages {
        lint: true,
        verify: false,
    };
    pub const VERIFY: Stages = Stages {
        lint: false,
        verify: true,
    };
    pub const ALL: Stages = Stages {
        lint: true,
        verify: true,
    };
}

/// The findings of a run: those shown and those the ledger accepted (SARIF reports the
/// latter as suppressed, never drops them).
#[derive(Debug, Default)]
pub struct Findings {
    pub shown: Vec<Diagnostic>,
    pub suppressed: Vec<Suppressed>,
}

pub struct Session {
    loaded: Loaded,
    graph: OnceLock<Graph>,
    templates: Option<PathBuf>,
    today: String,
    /// Set when the documents are another repository's (`--claims`).
    foreign: Option<Box<claims_file::Foreign>>,
}

impl Session {
    /// Load the catalogue at `root`, reading what `needs` says.
    /// Outlines of bodies come from the user's cache when an earlier run computed them for
    /// the same bytes (`outline_store`), and this run's are kept for the next.
    pub fn load(root: &Path, needs: Needs) -> Result<Session, Fatal> {
        let store = outline_store::OutlineStore::open(root, needs.bodies);
        let mut options = needs.options();
        options.outlines = store.as_ref().map(|s| &s.cache);
        let loaded = load::load_with(root, options)?;
        if let Some(s) = &store {
            s.save();
        }
        Ok(Session::from_loaded(loaded))
    }

    /// A session over a catalogue loaded elsewhere (a test's, an editor's buffers).
    pub fn from_loaded(loaded: Loaded) -> Session {
        Session {
            loaded,
            graph: OnceLock::new(),
            templates: None,
            today: crate::model::date::today(),
            foreign: None,
        }
    }

    /// Templates to render generated regions with, instead of the built-in ones.
    pub fn with_templates(mut self, dir: Option<PathBuf>) -> Session {
        self.templates = dir;
        self
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.loaded.catalogue
    }

    pub fn loaded(&self) -> &Loaded {
        &self.loaded
    }

    /// The catalogue and its graph, for a caller that keeps them beyond the session (the
    /// language server re-reads one file into the catalogue it holds).
    pub fn into_parts(self) -> (Catalogue, Graph) {
        let graph = match self.graph.into_inner() {
            Some(g) => g,
            None => Graph::build(&self.loaded.catalogue),
        };
        (self.loaded.catalogue, graph)
    }

    /// What loading found about the documents verify and sync read (a refused or unreadable
    /// document fails them, never passes silently).
    fn document_findings(&self) -> Vec<Diagnostic> {
        let docs = load::docs::declared(&self.loaded.catalogue.config);
        self.loaded
            .diagnostics
            .iter()
            .filter(|d| d.file.as_ref().is_some_and(|f| docs.contains(f)))
            .chain(&self.loaded.document_diagnostics)
            .cloned()
            .collect()
    }

    /// The templates generated regions are rendered with.
    fn templates(&self) -> Result<crate::render::templates::Templates, String> {
        crate::render::templates::Templates::new(self.templates.as_deref())
    }

    /// The graph, built on first use.
    pub fn graph(&self) -> &Graph {
        self.graph
            .get_or_init(|| Graph::build(&self.loaded.catalogue))
    }

    /// Run `stages` over the loaded catalogue, apply the ledger and normalise. Over a claims
    /// file, verify is the one stage there is.
    pub fn findings(&self, stages: Stages) -> Result<Findings, String> {
        let cat = &self.loaded.catalogue;
        let mut found: Vec<Diagnostic> = match &self.foreign {
            Some(f) => f.verify(self, &self.templates()?),
            None if stages.lint => self.loaded.diagnostics.clone(),
            None => self.document_findings(),
        };
        if stages.lint && self.foreign.is_none() {
            found.extend(crate::lint::run(cat, self.graph()));
        }
        if stages.verify && self.foreign.is_none() {
            found.extend(crate::claims::verify(cat, self.graph(), &self.templates()?));
        }
        let coverage = if stages.lint && stages.verify {
            ledger::Coverage::Complete
        } else {
            ledger::Coverage::Partial
        };
        let mut out = settle(cat, found, &self.today, coverage);
        if let Some(f) = &self.foreign {
            // The ledger's own findings are about the claims file too.
            out.shown = out.shown.into_iter().map(|d| f.shown(d)).collect();
            diag::normalise(&mut out.shown);
        }
        Ok(out)
    }
}

/// The tail of every run, the language server's included: what the stages found normalised,
/// the ledger applied on `today` (an entry is stale only under `Coverage::Complete`), what is
/// shown normalised again.
pub fn settle(
    cat: &Catalogue,
    mut found: Vec<Diagnostic>,
    today: &str,
    coverage: ledger::Coverage,
) -> Findings {
    diag::normalise(&mut found);
    let mut applied = ledger::apply(cat, found, today, coverage);
    diag::normalise(&mut applied.shown);
    Findings {
        shown: applied.shown,
        suppressed: applied.suppressed,
    }
}
