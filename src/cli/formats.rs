//! The output formats, one closed set per command: clap lists exactly these in `--help`, in
//! shell completions and in the manual page, and rejects any other value before a command runs.
//! The first variant of each set is its default.

use crate::render::emit::{self, Emitter};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::ValueEnum;

/// Findings of a run (`lint`, `verify`, their `--fix`, `sync` of generated regions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DiagnosticsFormat {
    /// Each finding with its source line, then a summary line
    #[default]
    Human,
    /// One document: the findings and a summary
    Json,
    /// GitHub Actions workflow commands (annotations)
    Github,
    /// SARIF 2.1.0 for code-scanning services
    Sarif,
    /// JUnit XML, one test case per family of findings
    Junit,
}

/// `audit`: the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    #[default]
    Md,
    Json,
    Html,
    Sarif,
    Junit,
}

/// `list`: one row per check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    #[default]
    Table,
    Json,
    Csv,
}

/// `graph`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    #[default]
    Dot,
    Mermaid,
    Json,
}

/// Documents meant for Markdown files (`table`, `diff`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MarkdownFormat {
    #[default]
    Md,
    Json,
}

/// `portfolio`: the matrix as text, JSON, Markdown or an HTML page with pictures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PortfolioFormat {
    #[default]
    Human,
    Json,
    Md,
    Html,
}

/// Commands that tell a person what they did or found, or a script the same as JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    #[default]
    Human,
    Json,
}

/// Commands whose output is JSON only (`snapshot`, `schema`); the flag is accepted so scripts
/// that spell the format out keep working.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum JsonFormat {
    #[default]
    Json,
}

/// `site` writes files and reports in text only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HumanFormat {
    #[default]
    Human,
}

impl DiagnosticsFormat {
    /// The one emitter that writes this format.
    pub fn emitter(self) -> &'static dyn Emitter {
        match self {
            DiagnosticsFormat::Human => &emit::Human,
            DiagnosticsFormat::Json => &emit::Json,
            DiagnosticsFormat::Github => &emit::Github,
            DiagnosticsFormat::Sarif => &emit::Sarif,
            DiagnosticsFormat::Junit => &emit::Junit,
        }
    }

    /// The name a user writes.
    pub fn name(self) -> &'static str {
        match self {
            DiagnosticsFormat::Human => "human",
            DiagnosticsFormat::Json => "json",
            DiagnosticsFormat::Github => "github",
            DiagnosticsFormat::Sarif => "sarif",
            DiagnosticsFormat::Junit => "junit",
        }
    }
}

impl From<TextFormat> for DiagnosticsFormat {
    fn from(f: TextFormat) -> Self {
        match f {
            TextFormat::Human => DiagnosticsFormat::Human,
            TextFormat::Json => DiagnosticsFormat::Json,
        }
    }
}

/// The format a command runs with: its own `--format`, else the one given before the command
/// name (`auditbook --format json lint`, checked by [`check_early`] when the line was parsed),
/// else the command's default.
pub fn chosen<T: ValueEnum + Default>(early: Option<&str>, own: Option<T>) -> T {
    own.or_else(|| early.and_then(|f| T::from_str(f, false).ok()))
        .unwrap_or_default()
}

/// `--format` written before the command name is held to the command's own set, with clap's
/// own error (the value, the accepted ones, exit code 2). A command without formats refuses it.
pub fn check_early(
    root: &mut clap::Command,
    matches: &clap::ArgMatches,
    value: &str,
) -> Result<(), clap::Error> {
    root.build();
    let mut cmd: &clap::Command = root;
    let mut m = matches;
    while let Some((name, sub)) = m.subcommand() {
        match cmd.find_subcommand(name) {
            Some(c) => cmd = c,
            None => break,
        }
        m = sub;
    }
    let mut cmd = cmd.clone();
    let Some(arg) = cmd.get_arguments().find(|a| a.get_id() == "format") else {
        return Err(clap::Error::raw(
            ErrorKind::ArgumentConflict,
            format!(
                "`{}` has no output format; `--format {value}` does not apply to it",
                cmd.get_name()
            ),
        )
        .format(&mut cmd));
    };
    let accepted = arg.get_possible_values();
    if accepted.iter().any(|p| p.matches(value, false)) {
        return Ok(());
    }
    let names = accepted
        .iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| p.get_name().to_string())
        .collect();
    let mut err = clap::Error::new(ErrorKind::InvalidValue).with_cmd(&cmd);
    err.insert(
        ContextKind::InvalidArg,
        ContextValue::String("--format <FORMAT>".into()),
    );
    err.insert(
        ContextKind::InvalidValue,
        ContextValue::String(value.into()),
    );
    err.insert(ContextKind::ValidValue, ContextValue::Strings(names));
    Err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_diagnostics_format_has_its_emitter_under_its_own_name() {
        for f in DiagnosticsFormat::value_variants() {
            let named = f.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(named.as_deref(), Some(f.name()));
            // Each variant reaches an emitter; an empty run of any format is not an error.
            let none = crate::render::diagnostics::Successors::new();
            let sources = crate::diag::SourceMap::new();
            let run = emit::Run {
                command: "lint",
                diagnostics: &[],
                suppressed: &[],
                sources: &sources,
                prefix: ".",
                successors: &none,
                summary_extra: serde_json::Map::new(),
                quiet: false,
                color: false,
                deny_warnings: false,
            };
            assert!(f.emitter().emit(&run).is_ok(), "{f:?}");
        }
    }

    #[test]
    fn an_early_format_falls_back_to_the_default_only_when_absent() {
        assert_eq!(chosen::<ListFormat>(None, None), ListFormat::Table);
        assert_eq!(chosen::<ListFormat>(Some("csv"), None), ListFormat::Csv);
        assert_eq!(
            chosen(Some("csv"), Some(ListFormat::Json)),
            ListFormat::Json
        );
    }
}
