//! Existence claims: a pattern and no `expect` — the sentence must stand in the document (or
//! its section), with `matches: N` exactly N times. "Stand: … Checks" that a rewrite dropped,
//! a licence line, a heading a gate looks for: what needs no number from the catalogue, only
//! to be there.

use crate::claims::locate::{self, declaration_error};
use crate::claims::memo::Memo;
use crate::diag::{codes, Diagnostic};
use crate::model::config::ClaimDecl;
use crate::model::Catalogue;
use regex::Regex;

pub struct Exists;

impl super::Form for Exists {
    fn declares(&self, claim: &ClaimDecl) -> bool {
        claim.expect.is_empty() && !claim.pattern.is_empty()
    }

    fn check(&self, cat: &Catalogue, claim: &ClaimDecl, _memo: &Memo) -> Vec<Diagnostic> {
        let bad = |msg: String| declaration_error(cat, claim, &codes::CLAIM_INVALID, msg);
        let pattern = match Regex::new(&claim.pattern) {
            Ok(p) => p,
            Err(e) => {
                return vec![bad(format!(
                    "the pattern is not a valid regular expression: {e}"
                ))]
            }
        };
        if !claim.strict.is_empty() {
            return vec![bad(
                "`strict` reads the lists of `expect` groups, and the claim has no `expect`"
                    .into(),
            )];
        }
        let place = match locate::locate(cat, claim) {
            Ok(p) => p,
            Err(d) => return d,
        };
        let starts: Vec<usize> = pattern
            .find_iter(&place.hay(&claim.skip))
            .map(|m| place.range.start + m.start())
            .collect();
        if starts.is_empty() {
            return vec![locate::unmatched(
                cat,
                claim,
                &place,
                format!(
                    "the pattern no longer matches in {} — the sentence it holds is gone or reworded",
                    place.described()
                ),
            )];
        }
        locate::match_count(cat, claim, &place, &starts)
    }

    #[cfg(any(test, feature = "internals"))]
    fn problems(&self, _cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
        match Regex::new(&claim.pattern) {
            Ok(_) => Vec::new(),
            Err(e) => vec![format!("pattern: {e}")],
        }
    }
}
