//! What every command shares: loading the catalogue, choosing formats and colour, printing.

use super::args::{Cli, ColorChoice, Deny};
use crate::diag::{Diagnostic, Level, Summary};
use crate::load::{self, Loaded};
use crate::render::diagnostics;
use std::io::IsTerminal;
use std::path::PathBuf;

/// The engine could not do its job (exit code 2).
#[derive(Debug)]
pub struct Failure(pub String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<load::Fatal> for Failure {
    fn from(e: load::Fatal) -> Self {
        Failure(e.0)
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure(format!("cannot write output: {e}"))
    }
}

pub fn root(cli: &Cli) -> PathBuf {
    cli.catalogue.clone().unwrap_or_else(load::default_root)
}

/// The root as the user named it, for paths in output (`catalogue/checks/X.md`).
pub fn prefix(cli: &Cli) -> String {
    root(cli).to_string_lossy().replace('\\', "/")
}

pub fn load(cli: &Cli) -> Result<Loaded, Failure> {
    warn_pending_change(cli);
    Ok(load::load(&root(cli))?)
}

/// A reader of a catalogue whose last change was interrupted sees it half done (a check
/// without its manifest line); say why, and what finishes it. Writing commands finish it
/// before they load, so they never see this.
fn warn_pending_change(cli: &Cli) {
    if !cli.quiet && crate::write::journal::pending(&root(cli)) {
        super::output::eprint(&format!(
            "auditbook: warning: an interrupted change to this catalogue is pending ({}); \
             run `auditbook sync` (or any writing command) to finish it\n",
            crate::write::journal::FILE_NAME
        ));
    }
}

/// Load without keeping check texts, for commands that never read a check's body (lint,
/// verify): what runs on every save stays small on a large catalogue.
pub fn load_lean(cli: &Cli) -> Result<Loaded, Failure> {
    warn_pending_change(cli);
    let options = load::Options {
        keep_check_texts: false,
        overlay: None,
    };
    Ok(load::load_with(&root(cli), options)?)
}

/// The requested format, checked against what this command offers (first = default).
pub fn format<'a>(cli: &Cli, offered: &[&'a str]) -> Result<&'a str, Failure> {
    match &cli.format {
        None => Ok(offered.first().copied().unwrap_or("human")),
        Some(f) => offered.iter().copied().find(|o| o == f).ok_or_else(|| {
            Failure(format!(
                "this command has no `{f}` format; choose one of: {}",
                offered.join(", ")
            ))
        }),
    }
}

pub fn color(cli: &Cli) -> bool {
    match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

pub fn deny_warnings(cli: &Cli) -> bool {
    cli.deny == Some(Deny::Warnings)
}

/// A value as one JSON document with a closing line break, for `--format json`.
pub fn json_text(v: &impl serde::Serialize) -> Result<String, Failure> {
    serde_json::to_string_pretty(v)
        .map(|t| t + "\n")
        .map_err(|e| Failure(format!("cannot write JSON output: {e}")))
}

pub use super::output::print;

/// Begin a writing command: lock the catalogue (saying so when another run holds it), finish
/// an interrupted change and say what was repaired. Taken before the catalogue is loaded, so
/// what the command plans from is what it changes.
pub fn write_session(cli: &Cli) -> Result<crate::write::Session, Failure> {
    let session = crate::write::Session::begin(&root(cli), || {
        super::output::eprint(
            "auditbook: waiting for another auditbook run that is changing this catalogue\n",
        )
    })
    .map_err(|e| Failure(e.to_string()))?;
    for line in &session.repairs {
        super::output::eprint(&format!("auditbook: {line}\n"));
    }
    Ok(session)
}

/// For data commands: load problems go to stderr (never silently), the data to stdout.
pub fn warn_load_problems(cli: &Cli, loaded: &Loaded) {
    let s = Summary::of(&loaded.diagnostics);
    if s.errors > 0 && !cli.quiet {
        // Not every loading error drops a file (a malformed manifest line does not), so say
        // both numbers rather than one that can be wrong.
        super::output::eprint(&format!(
            "auditbook: warning: {} error(s) while loading; {} check file(s) left out; run `auditbook lint` for details\n",
            s.errors,
            loaded.catalogue.broken.len()
        ));
    }
}

/// Print diagnostics in the chosen format and return the exit code they call for.
pub fn report(
    cli: &Cli,
    command: &str,
    diags: Vec<Diagnostic>,
    loaded: &Loaded,
    fmt: &str,
    extra: serde_json::Map<String, serde_json::Value>,
) -> Result<u8, Failure> {
    let summary = Summary::of(&diags);
    let prefix = prefix(cli);
    let text = match fmt {
        "json" => diagnostics::json(&diags, extra),
        "github" => diagnostics::github(&visible(cli, &diags), &prefix),
        "sarif" => diagnostics::sarif(&diags, &prefix, &successors(&loaded.catalogue)),
        "junit" => crate::render::junit::diagnostics(command, &diags, deny_warnings(cli)),
        _ => human(cli, &diags, &loaded.catalogue, &prefix),
    };
    print(&text)?;
    Ok(if summary.fails(deny_warnings(cli)) {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}

/// The diagnostics a reader sees: `-q` drops notes. Machine formats (json, sarif) keep all.
pub fn visible(cli: &Cli, diags: &[Diagnostic]) -> Vec<Diagnostic> {
    diags
        .iter()
        .filter(|d| !(cli.quiet && d.level == Level::Note))
        .cloned()
        .collect()
}

/// Human diagnostics as `-q` wants them: without notes and without the summary line.
pub fn human(
    cli: &Cli,
    diags: &[Diagnostic],
    sources: &dyn diagnostics::Sources,
    prefix: &str,
) -> String {
    let shown = visible(cli, diags);
    if cli.quiet {
        diagnostics::human_findings(&shown, sources, prefix, color(cli))
    } else {
        diagnostics::human(&shown, sources, prefix, color(cli))
    }
}

/// Every retired id with a live successor, and that successor's file, for SARIF.
pub fn successors(cat: &crate::model::Catalogue) -> diagnostics::Successors {
    let graph = crate::graph::Graph::build(cat);
    cat.config
        .retired
        .iter()
        .filter_map(|r| match graph.successor(&r.id) {
            crate::graph::Successor::Live(s) => {
                let file = cat.check(&s)?.file.to_string();
                Some((r.id.clone(), (s, file)))
            }
            _ => None,
        })
        .collect()
}

/// The template set, with `--templates DIR` applied.
pub fn templates(cli: &Cli) -> Result<crate::render::templates::Templates, Failure> {
    crate::render::templates::Templates::new(cli.templates.as_deref()).map_err(Failure)
}
