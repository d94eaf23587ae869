//! One emitter per diagnostics format: a run's findings in, the text of one format out. The
//! command chooses the format (a closed set, see `cli/formats.rs`) and prints; an emitter only
//! lays out what it is given. JSON-based formats go through [`json_document`], the one JSON
//! writer, which returns its error instead of printing an empty document.

pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;

use super::diagnostics::{Sources, Successors};
use crate::diag::{Diagnostic, Level, Suppressed};

/// The text of a format, or the serialisation error that kept it from being written.
pub type Emitted = Result<String, serde_json::Error>;

/// A diagnostics format.
pub trait Emitter {
    fn emit(&self, run: &Run<'_>) -> Emitted;
}

/// What a run found, and what its output needs besides.
pub struct Run<'a> {
    /// `lint`, `verify` or `sync`: names the JUnit suite and the codes it covers.
    pub command: &'a str,
    /// The findings that count, sorted by their total key.
    pub diagnostics: &'a [Diagnostic],
    /// Findings the ledger accepted: counted in JSON, listed as suppressed in SARIF.
    pub suppressed: &'a [Suppressed],
    /// The text of the files findings point into, for source lines.
    pub sources: &'a dyn Sources,
    /// The catalogue root (or a claims file's folder) as the user named it.
    pub prefix: &'a str,
    /// Retired ids with a live successor; only SARIF reads it.
    pub successors: &'a Successors,
    /// Keys the command adds to the JSON summary.
    pub summary_extra: serde_json::Map<String, serde_json::Value>,
    /// `-q`: formats for readers drop notes (and the human summary).
    pub quiet: bool,
    pub color: bool,
    /// `--deny warnings`: JUnit fails a case on warnings too.
    pub deny_warnings: bool,
}

impl Run<'_> {
    /// The findings a reader sees: `-q` drops notes. Machine formats keep all.
    pub fn visible(&self) -> Vec<Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| !(self.quiet && d.level == Level::Note))
            .cloned()
            .collect()
    }
}

/// A value as one pretty-printed JSON document with a closing line break; a value that cannot
/// be serialised is an error, never an empty or partial document.
pub fn json_document(v: &impl serde::Serialize) -> Emitted {
    serde_json::to_string_pretty(v).map(|t| t + "\n")
}

pub use github::Github;
pub use human::Human;
pub use json::Json;
pub use junit::Junit;
pub use sarif::Sarif;

#[cfg(test)]
mod tests {
    use super::*;

    /// A value whose serialisation fails, as a map with a non-string key or a failing
    /// `Serialize` implementation would.
    struct Refuses;

    impl serde::Serialize for Refuses {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("Wert nicht darstellbar"))
        }
    }

    #[test]
    fn a_value_that_cannot_be_serialised_is_an_error_not_an_empty_document() {
        let e = json_document(&Refuses).unwrap_err();
        assert!(e.to_string().contains("Wert nicht darstellbar"), "{e}");
    }

    #[test]
    fn a_document_ends_with_one_line_break() {
        assert_eq!(json_document(&[1, 2]).unwrap(), "[\n  1,\n  2\n]\n");
    }
}
