//! Rendering: models in, text out. Nothing here decides anything.

pub mod audit_sarif;
pub mod codes_doc;
pub mod csv;
pub mod diagnostics;
pub mod emit;
pub mod excerpt;
// Regenerates the key tables of docs/catalogue-format.md; only the tests run it.
#[cfg(any(test, feature = "internals"))]
pub mod format_doc;
pub mod graph_export;

pub mod junit;
pub mod pictures;
pub mod sarif;
pub mod site;
pub mod svg;
pub mod tables;
pub mod templates;
pub mod text_table;
pub mod xml;
