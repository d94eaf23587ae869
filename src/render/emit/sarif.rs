//! SARIF 2.1.0: the findings and the accepted findings as results (the document is laid out by
//! `render::sarif`, whose rule descriptors and tool object the audit report shares).

use super::{json_document, Emitted, Emitter, Run};

pub struct Sarif;

impl Emitter for Sarif {
    fn emit(&self, run: &Run<'_>) -> Emitted {
        json_document(&crate::render::sarif::document(
            run.diagnostics,
            run.suppressed,
            run.prefix,
            run.successors,
        ))
    }
}
