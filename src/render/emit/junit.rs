//! JUnit XML: one test case per diagnostic code the command reports (the document itself is
//! written by `render::junit`, shared with the audit report).

use super::{Emitted, Emitter, Run};

pub struct Junit;

impl Emitter for Junit {
    fn emit(&self, run: &Run<'_>) -> Emitted {
        Ok(crate::render::junit::diagnostics(
            run.command,
            run.diagnostics,
            run.deny_warnings,
        ))
    }
}
