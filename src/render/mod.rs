//! Rendering: models in, text out. Nothing here decides anything.

pub mod codes_doc;
pub mod csv;
pub mod diagnostics;
pub mod text_table;
