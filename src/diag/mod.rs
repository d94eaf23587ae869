//! Diagnostics: the one currency every stage pays its findings in.
//!
//! A diagnostic names its code (stable, documented in `codes.rs`), its level, where it was
//! found (file relative to the catalogue root, 1-based line and column) and says what was found
//! and what was expected. Sorting is by a total key so output never depends on the order in
//! which passes ran.

pub mod codes;
pub mod explain;

use serde::Serialize;
use std::cmp::Ordering;

pub use codes::{Code, CODES};

/// Texts of the files findings point into, by the path they are shown with.
pub type SourceMap = std::collections::BTreeMap<String, std::sync::Arc<str>>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Note,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: &'static str,
    pub level: Level,
    pub message: String,
    pub help: Option<String>,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// Width of the offending text in characters, for carets; not part of the JSON contract.
    #[serde(skip)]
    pub width: usize,
    pub id: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at the level its code is registered with, carrying the registered help
    /// until a finding-specific one replaces it (`help`).
    pub fn new(code: &'static Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code: code.code,
            level: code.level,
            message: message.into(),
            help: Some(code.help.to_string()),
            file: None,
            line: None,
            column: None,
            width: 1,
            id: None,
        }
    }

    pub fn file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    pub fn line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    pub fn width(mut self, width: usize) -> Self {
        self.width = width.max(1);
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// A finding-specific help when there is one (a "did you mean"); otherwise the registered
    /// help stays.
    pub fn help_if(self, help: Option<String>) -> Self {
        match help {
            Some(h) => self.help(h),
            None => self,
        }
    }

    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    pub fn level(mut self, level: Level) -> Self {
        self.level = level;
        self
    }

    /// Report this finding under another code (and its level), keeping message and help: an
    /// expression problem found while reading `require_coverage` is that setting's finding.
    pub fn under(mut self, code: &'static Code) -> Self {
        self.code = code.code;
        self.level = code.level;
        self
    }

    fn sort_key(&self) -> impl Ord + '_ {
        (
            self.file.as_deref().unwrap_or(""),
            self.line.unwrap_or(0),
            self.column.unwrap_or(0),
            self.code,
            self.id.as_deref().unwrap_or(""),
            &self.message,
            self.level,
        )
    }
}

impl PartialOrd for Diagnostic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Diagnostic {
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key()
            .cmp(&other.sort_key())
            .then_with(|| self.help.cmp(&other.help))
    }
}

/// Sort by the total key and drop exact repeats (two passes may reach the same fact).
pub fn normalise(diags: &mut Vec<Diagnostic>) {
    diags.sort();
    diags.dedup();
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

impl Summary {
    pub fn of(diags: &[Diagnostic]) -> Self {
        let mut s = Summary::default();
        for d in diags {
            match d.level {
                Level::Error => s.errors += 1,
                Level::Warning => s.warnings += 1,
                Level::Note => s.notes += 1,
            }
        }
        s
    }

    /// Whether these findings fail the run: errors always, warnings when denied.
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.errors > 0 || (deny_warnings && self.warnings > 0)
    }
}

/// A finding the maintainers accepted (`lint.allow`), with the reason written beside it.
/// Formats that can say so (SARIF) report it as suppressed; the others leave it out.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub reason: String,
}
