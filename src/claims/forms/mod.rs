//! The forms of a declared claim (`claims:` in catalogue.yaml), a closed set: each form is one
//! file implementing `Form`, and `FORMS` is the one list that makes it known. A declaration
//! belongs to the first form that recognises it by its keys.
//!
//! Every form asks `locate` where its claim reads and `memo` for query answers, and reports
//! what it found; adding a form is its file, its line in `FORMS`, its section in the format
//! reference and its test.

mod exists;
mod groups;
mod members;
mod policy;
mod require;
mod table;

use super::memo::Memo;
use crate::diag::Diagnostic;
use crate::model::config::ClaimDecl;
use crate::model::Catalogue;

/// One form of claim.
pub trait Form: Sync {
    /// Whether `claim` is of this form: the key that selects it is set.
    fn declares(&self, claim: &ClaimDecl) -> bool;

    /// Every finding of `claim` (a claim over a glob is held once per file it matched, its
    /// `doc` that file).
    fn check(&self, cat: &Catalogue, claim: &ClaimDecl, memo: &Memo) -> Vec<Diagnostic>;

    /// What is wrong with the declaration itself, read without its document (the examples of
    /// the format reference are held to this).
    #[cfg(any(test, feature = "internals"))]
    fn problems(&self, cat: &Catalogue, claim: &ClaimDecl) -> Vec<String>;
}

/// Every form, in the order a declaration is offered to them; the last, a pattern with named
/// groups, takes any declaration no other form recognises.
static FORMS: &[&dyn Form] = &[
    &policy::Policy,
    &require::Require,
    &table::TableRows,
    &members::Members,
    &exists::Exists,
    &groups::Groups,
];

fn form_of(claim: &ClaimDecl) -> &'static dyn Form {
    FORMS
        .iter()
        .copied()
        .find(|f| f.declares(claim))
        .unwrap_or(&groups::Groups)
}

/// Every finding of every declared claim.
pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let memo = Memo::default();
    for claim in &cat.config.claims {
        let form = form_of(claim);
        // A claim over a glob holds every file it matched (none: `globs` reports it).
        match cat.config.doc_globs.get(&claim.doc) {
            Some(files) => {
                for f in files {
                    let mut one = claim.clone();
                    one.doc = f.clone();
                    out.extend(form.check(cat, &one, &memo));
                }
            }
            None => out.extend(form.check(cat, claim, &memo)),
        }
    }
    out
}

/// What is wrong with a claim's declaration, read without its document.
#[cfg(any(test, feature = "internals"))]
pub fn problems(cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
    form_of(claim).problems(cat, claim)
}
