//! Answers to claim queries, kept for one `verify` run: a table claim asks the same
//! `count(checks where category == "FID")` for its row, its total and every other claim over
//! the same table, and each answer is a pass over every check. Queries over the links or
//! mentions of a section (`linked`, `mentioned`) depend on where they are asked and are never
//! kept.

use super::query::{self, Answer, Query, Scope, Set};
use crate::model::Catalogue;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Shared, not copied: an answer over the checks holds every check id.
pub type Shared = Rc<(Query, Answer)>;
type Entry = Result<Shared, String>;

#[derive(Default)]
pub struct Memo {
    answers: RefCell<HashMap<String, Entry>>,
}

impl Memo {
    /// The parsed query `src` and its answer in `scope`.
    pub fn answer(&self, cat: &Catalogue, src: &str, scope: &Scope) -> Entry {
        if let Some(hit) = self.answers.borrow().get(src) {
            return hit.clone();
        }
        let entry = query::parse(cat, src).and_then(|q| {
            let a = query::eval(cat, &q, scope)?;
            Ok(Rc::new((q, a)))
        });
        let scoped = matches!(&entry, Ok(qa) if matches!(qa.0.set, Set::Linked | Set::Mentioned));
        if !scoped {
            self.answers
                .borrow_mut()
                .insert(src.to_string(), entry.clone());
        }
        entry
    }
}
