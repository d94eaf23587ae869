//! auditbook: load, lint, render and verify Markdown audit catalogues.
//!
//! Data flows one way: `load` reads files into a `model::Catalogue`, `lint` passes judge it and
//! return `diag::Diagnostic`s, `render` turns models into text. No stage reaches back.

// A `Diagnostic` is the error currency of every stage and travels by value; the Err path is
// cold, so boxing it would only add noise.
#![allow(clippy::result_large_err)]

// The façade: a program that embeds auditbook opens a `Session` (load, then the findings of
// the stages it asks for), reads the `model` and the `diag`nostics, or runs the command line.
pub mod cli;
pub mod diag;
pub mod model;
pub mod session;
pub use session::{Findings, Needs, Session, Stages};

/// Declares the stages behind the façade. They are private to the crate in the library and the
/// binary; the `internals` feature, which only the package's own tests, benchmarks and fuzz
/// targets turn on, opens them so a stage can be tested by itself.
macro_rules! internal {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

internal!(
    audit,
    claims,
    confine,
    diff,
    dsl,
    expect,
    fix,
    fleet,
    graph,
    init,
    json_schema,
    lint,
    load,
    lsp,
    maintain,
    par,
    evidence,
    render,
    select,
    serve,
    snapshot,
    text,
    write,
);

#[cfg(feature = "testgen")]
#[doc(hidden)]
pub mod testgen;
