//! A session over the documents of another repository held to a catalogue (`verify --claims`,
//! `sync --claims`): the same pipeline — one graph, the ledger, one normalising — over the
//! model `load::claims_file` builds, with what only such documents have added to verify.

use super::Session;
use crate::diag::Diagnostic;
use crate::load::claims_file::{self, ClaimsFile};
use crate::load::Fatal;
use std::path::{Path, PathBuf};

/// What a session over a claims file holds besides the combined model.
pub(super) struct Foreign {
    pub(super) claims: ClaimsFile,
    /// The audit report the claims over an audit read (`--report`).
    pub(super) report: Option<PathBuf>,
}

impl Session {
    /// Load `claims.yaml` at `claims` and what it declares, held to `catalogue` (a root or a
    /// snapshot; `None` when only an audit report is verified).
    pub fn of_claims_file(claims: &Path, catalogue: Option<&Path>) -> Result<Session, Fatal> {
        let e = claims_file::load(claims, catalogue, &crate::claims::report::is_report_claim)?;
        let mut session = Session::from_loaded(e.loaded);
        session.foreign = Some(Box::new(Foreign {
            claims: e.claims,
            report: None,
        }));
        Ok(session)
    }

    /// The audit report the claims file's report claims are held to.
    pub fn with_report(mut self, report: Option<PathBuf>) -> Session {
        if let Some(f) = self.foreign.as_mut() {
            f.report = report;
        }
        self
    }

    /// The claims file, when the session is over one.
    pub fn claims_file(&self) -> Option<&ClaimsFile> {
        self.foreign.as_ref().map(|f| &f.claims)
    }
}

impl Foreign {
    /// Verify's findings over the claims file's documents, before the ledger, named as its
    /// folder shows them.
    pub(super) fn verify(
        &self,
        session: &Session,
        templates: &crate::render::templates::Templates,
    ) -> Vec<Diagnostic> {
        let cat = session.catalogue();
        let mut out = session.loaded.diagnostics.clone();
        out.extend(crate::claims::elsewhere::verify(
            cat,
            &self.claims,
            session.graph(),
            templates,
            self.report.as_deref(),
        ));
        out.into_iter().map(|d| self.shown(d)).collect()
    }

    /// A finding as the claims file's folder names it.
    pub(super) fn shown(&self, d: Diagnostic) -> Diagnostic {
        crate::claims::elsewhere::in_claims_file(d, &self.claims)
    }
}
