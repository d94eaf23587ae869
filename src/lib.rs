//! auditbook: load, lint, render and verify Markdown audit catalogues.
//!
//! Data flows one way: `load` reads files into a `model::Catalogue`, `lint` passes judge it and
//! return `diag::Diagnostic`s, `render` turns models into text. No stage reaches back.

// A `Diagnostic` is the error currency of every stage and travels by value; the Err path is
// cold, so boxing it would only add noise.
#![allow(clippy::result_large_err)]

pub mod audit;
pub mod claims;
pub mod cli;
pub mod diag;
pub mod diff;
pub mod dsl;
pub mod expect;
pub mod fix;
pub mod graph;
pub mod init;
pub mod json_schema;
pub mod lint;
pub mod load;
pub mod lsp;
pub mod maintain;
pub mod model;
pub mod probe;
pub mod render;
pub mod select;
pub mod session;
pub mod snapshot;
#[cfg(feature = "testgen")]
#[doc(hidden)]
pub mod testgen;
pub mod text;
pub mod write;
