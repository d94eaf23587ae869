//! Lint passes: each judges the loaded model and returns diagnostics. None reads a file,
//! except `links`, which follows links to the files they name.

pub mod applies_when;
pub mod ids;
pub mod links;
pub mod manifest;
pub mod quoting;
pub mod references;
pub mod retired;
pub mod rules;
pub mod sections;
pub mod sets;
pub mod sources;
pub mod vocabulary;

use crate::diag::{self, codes, Diagnostic};
use crate::graph::Graph;
use crate::model::{Catalogue, Mode};

/// Every lint pass over the catalogue, sorted. Accepted findings are the ledger's business
/// (`session::ledger`), which covers every stage alike.
pub fn run(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    out.extend(compatibility_note(cat));
    out.extend(ids::check(cat));
    out.extend(manifest::check(cat));
    out.extend(references::check(cat, graph));
    out.extend(links::check(cat, links::Sources::ChecksAndRules));
    out.extend(retired::check(cat, graph));
    out.extend(rules::check(cat, graph));
    out.extend(sections::check(cat));
    out.extend(sources::check(cat));
    out.extend(sets::check(cat));
    out.extend(applies_when::check(cat));
    out.extend(quoting::check(cat));
    out.extend(vocabulary::check(cat));
    diag::normalise(&mut out);
    out
}

/// Compatibility mode says once what it could not check, never silently.
fn compatibility_note(cat: &Catalogue) -> Option<Diagnostic> {
    (cat.mode == Mode::Compatibility).then(|| {
        Diagnostic::new(
            &codes::COMPATIBILITY_MODE,
            format!(
                "no catalogue.yaml: read in compatibility mode; for {} checks the applies_when \
                 expressions were checked for syntax only (no profile schema), and retired ids, \
                 rule coverage, required sections and document claims were not checked \
                 (nothing declares them)",
                cat.checks.len()
            ),
        )
        .help(codes::COMPATIBILITY_MODE.help)
    })
}
