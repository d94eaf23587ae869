//! What every command shares: loading the catalogue, choosing formats and colour, printing.

use super::args::{Cli, ColorChoice, Deny};
use super::formats::DiagnosticsFormat;
use crate::diag::{Diagnostic, Summary};
use crate::load::{self, Loaded};
use crate::render::diagnostics;
use crate::render::emit::{self, Emitter};
use std::path::PathBuf;

pub use super::failure::Failure;

pub fn root(cli: &Cli) -> PathBuf {
    cli.catalogue.clone().unwrap_or_else(load::default_root)
}

/// The root as the user named it, for paths in output (`catalogue/checks/X.md`).
pub fn prefix(cli: &Cli) -> String {
    root(cli).to_string_lossy().replace('\\', "/")
}

/// A reader of a catalogue whose last change was interrupted sees it half done (a check
/// without its manifest line); say why, and what finishes it. Writing commands finish it
/// before they load, so they never see this. `-q` drops notes, not this: it explains the
/// errors a quiet run still shows.
fn warn_pending_change(cli: &Cli) {
    if crate::write::journal::pending(&root(cli)) {
        super::output::eprint(&format!(
            "auditbook: warning: an interrupted change to this catalogue is pending ({}); \
             run `auditbook sync` (or any writing command) to finish it\n",
            crate::write::journal::FILE_NAME
        ));
    }
}

/// The session a command runs in: the catalogue read as much as `needs` says, with the
/// command line's templates.
pub fn session(
    cli: &Cli,
    needs: crate::session::Needs,
) -> Result<crate::session::Session, Failure> {
    warn_pending_change(cli);
    Ok(crate::session::Session::load(&root(cli), needs)?.with_templates(cli.templates.clone()))
}

/// The format a command runs with (see `formats::chosen`).
pub fn format<T: clap::ValueEnum + Default>(cli: &Cli, own: Option<T>) -> T {
    super::formats::chosen(cli.format.as_deref(), own)
}

pub fn color(cli: &Cli) -> bool {
    match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && super::output::stdout_is_terminal()
        }
    }
}

pub fn deny_warnings(cli: &Cli) -> bool {
    cli.deny == Some(Deny::Warnings)
}

/// A value as one JSON document with a closing line break, for `--format json`.
pub fn json_text(v: &impl serde::Serialize) -> Result<String, Failure> {
    emit::json_document(v).map_err(|source| Failure::Json {
        what: "cannot write JSON output".into(),
        source,
    })
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
    .map_err(Failure::io("cannot lock the catalogue for writing"))?;
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

/// Print a run's findings in the chosen format and return the exit code they call for.
/// Accepted findings never fail a run; SARIF lists them as suppressed.
pub fn report(
    cli: &Cli,
    command: &str,
    findings: &crate::session::Findings,
    session: &crate::session::Session,
    fmt: DiagnosticsFormat,
    extra: serde_json::Map<String, serde_json::Value>,
) -> Result<u8, Failure> {
    let shown = Shown {
        findings,
        catalogue: session.catalogue(),
        graph: Some(session.graph()),
    };
    report_at(cli, command, shown, fmt, extra, &prefix(cli))
}

/// What a run found, with the catalogue it judged (for source lines) and its graph if one
/// was built (SARIF names retired ids' successors from it).
pub struct Shown<'a> {
    pub findings: &'a crate::session::Findings,
    pub catalogue: &'a crate::model::Catalogue,
    pub graph: Option<&'a crate::graph::Graph>,
}

/// `report` with the files of the findings shown under `prefix` (a claims file's folder
/// rather than the catalogue root).
pub fn report_at(
    cli: &Cli,
    command: &str,
    shown: Shown<'_>,
    fmt: DiagnosticsFormat,
    extra: serde_json::Map<String, serde_json::Value>,
    prefix: &str,
) -> Result<u8, Failure> {
    let findings = shown.findings;
    let cat = shown.catalogue;
    // Only SARIF names successors, and only it needs a graph for them.
    let successors = match (fmt, shown.graph) {
        (DiagnosticsFormat::Sarif, Some(g)) => successors(cat, g),
        (DiagnosticsFormat::Sarif, None) => successors(cat, &crate::graph::Graph::build(cat)),
        _ => diagnostics::Successors::new(),
    };
    let run = emit::Run {
        command,
        diagnostics: &findings.shown,
        suppressed: &findings.suppressed,
        sources: cat,
        prefix,
        successors: &successors,
        summary_extra: extra,
        quiet: cli.quiet,
        color: color(cli),
        deny_warnings: deny_warnings(cli),
    };
    let text = fmt.emitter().emit(&run).map_err(|source| Failure::Json {
        what: format!("cannot write the findings as {}", fmt.name()),
        source,
    })?;
    print(&text)?;
    Ok(if Summary::of(&findings.shown).fails(deny_warnings(cli)) {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}

/// The diagnostics a reader sees: `-q` drops notes.
pub fn visible(cli: &Cli, diags: &[Diagnostic]) -> Vec<Diagnostic> {
    diags
        .iter()
        .filter(|d| !(cli.quiet && d.level == crate::diag::Level::Note))
        .cloned()
        .collect()
}

/// Findings of a command's own input (a profile, an expression) as human text, as `-q` wants
/// them: without notes and without the summary line.
pub fn human(
    cli: &Cli,
    diags: &[Diagnostic],
    sources: &dyn diagnostics::Sources,
    prefix: &str,
) -> String {
    let none = diagnostics::Successors::new();
    let run = emit::Run {
        command: "",
        diagnostics: diags,
        suppressed: &[],
        sources,
        prefix,
        successors: &none,
        summary_extra: serde_json::Map::new(),
        quiet: cli.quiet,
        color: color(cli),
        deny_warnings: deny_warnings(cli),
    };
    // Human text is laid out in memory and cannot fail.
    emit::Human.emit(&run).unwrap_or_default()
}

/// Every retired id with a live successor, and that successor's file, for SARIF.
pub fn successors(
    cat: &crate::model::Catalogue,
    graph: &crate::graph::Graph,
) -> diagnostics::Successors {
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
    crate::render::templates::Templates::new(cli.templates.as_deref()).map_err(Failure::Message)
}
