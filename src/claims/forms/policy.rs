//! Policy claims (`holds:`): a relation between two expressions over the catalogue alone, no
//! document — "ordinary advisory checks are at most a tenth of the catalogue" is
//! `count(checks where adoption == "advisory" and severity == "medium") * 10 <= count(checks)`.

use crate::claims::arith::{self, Env};
use crate::claims::locate::declaration_error;
use crate::claims::memo::Memo;
use crate::claims::query::Scope;
use crate::diag::{codes, Diagnostic};
use crate::model::config::ClaimDecl;
use crate::model::Catalogue;
use std::collections::BTreeMap;

pub struct Policy;

impl super::Form for Policy {
    fn declares(&self, claim: &ClaimDecl) -> bool {
        claim.holds.is_some()
    }

    fn check(&self, cat: &Catalogue, claim: &ClaimDecl, memo: &Memo) -> Vec<Diagnostic> {
        check(cat, claim, claim.holds.as_deref().unwrap_or(""), memo)
    }

    #[cfg(any(test, feature = "internals"))]
    fn problems(&self, _cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
        match arith::parse_policy(claim.holds.as_deref().unwrap_or("")) {
            Err(e) => vec![e],
            Ok(_) => Vec::new(),
        }
    }
}

fn check(cat: &Catalogue, claim: &ClaimDecl, src: &str, memo: &Memo) -> Vec<Diagnostic> {
    let bad = |msg: String| declaration_error(cat, claim, &codes::CLAIM_INVALID, msg);
    let mut errors = Vec::new();
    if !claim.doc.is_empty()
        || !claim.pattern.is_empty()
        || !claim.expect.is_empty()
        || claim.table.is_some()
    {
        errors.push(bad(
            "a policy (`holds`) reads no document: leave out `doc`, `pattern`, `expect` and `table`"
                .into(),
        ));
    }
    let (left, right) = match arith::parse_policy(src) {
        Ok(p) => p,
        Err(e) => {
            errors.push(bad(e));
            return errors;
        }
    };
    let groups = BTreeMap::new();
    let scope = Scope::default();
    let env = Env {
        cat,
        scope: &scope,
        groups: &groups,
        section: "",
        memo,
    };
    let l = match arith::eval(&left, &env) {
        Ok(v) => v,
        Err(e) => {
            errors.push(bad(format!("`{src}` cannot be evaluated: {e}")));
            return errors;
        }
    };
    let left_text = src.trim();
    for (bound, expr) in &right.parts {
        match arith::eval(expr, &env) {
            Ok(r) if arith::holds(*bound, l, r) => {}
            Ok(r) => errors.push(
                declaration_error(
                    cat,
                    claim,
                    &codes::CLAIM_POLICY,
                    format!(
                        "the policy `{left_text}` does not hold: the left side is {}, which must be {} {}",
                        arith::show(l),
                        bound.as_str(),
                        arith::show(r)
                    ),
                ),
            ),
            Err(e) => errors.push(bad(format!("`{src}` cannot be evaluated: {e}"))),
        }
    }
    errors
}
