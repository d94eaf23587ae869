//! The command line: parse arguments, call the library, print, choose the exit code.

mod applicability;
mod args;
mod audit;
mod collect;
mod collect_fleet;
mod common;
mod completions;
mod diff;
mod elsewhere;
mod exit;
mod explain;
mod failure;
mod fix;
mod formats;
mod graph;
mod init;
mod inputs;
mod lint;
mod list;
mod lsp;
mod mcp;
mod merge;
mod new;
pub mod output;
mod portfolio;
mod probe;
mod probe_portfolio;
mod profile;
mod registry;
mod rename;
mod retire;
mod scan;
mod schema;
mod show;
mod site;
mod snapshot;
mod stats;
mod sync;
mod table;
mod test;
mod verify;

pub use args::{Cli, Command};
pub use exit::{EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK};

use std::process::ExitCode;

pub fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(output::exit_code(usage(&e))),
    };
    let code = match run(&cli) {
        Ok(code) => code,
        Err(e) => {
            // After a closed pipe the run ends quietly (see `output`).
            if !output::pipe_closed() && !matches!(e, common::Failure::PipeClosed) {
                output::eprint(&e.report());
            }
            EXIT_FAILURE
        }
    };
    ExitCode::from(output::exit_code(code))
}

/// The command line, with a `--format` written before the command name held to that
/// command's formats as if it had been written after it.
fn parse() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut cmd = Cli::command();
    let matches = cmd.try_get_matches_from_mut(std::env::args_os())?;
    let cli = Cli::from_arg_matches(&matches)?;
    if let Some(value) = &cli.format {
        formats::check_early(&mut cmd, &matches, value)?;
    }
    Ok(cli)
}

/// Help, version and argument errors, through the same writer as everything else (clap's own
/// printing ignores a failed write and exits 0).
fn usage(e: &clap::Error) -> u8 {
    let to_stderr = e.use_stderr();
    let styled = e.render();
    let colour = if to_stderr {
        output::stderr_is_terminal()
    } else {
        output::stdout_is_terminal()
    };
    let text = if colour {
        styled.ansi().to_string()
    } else {
        styled.to_string()
    };
    let code = u8::try_from(e.exit_code()).unwrap_or(EXIT_FAILURE);
    if to_stderr {
        output::eprint(&text);
        code
    } else {
        match output::print(&text) {
            Ok(()) => code,
            Err(f) => {
                if !matches!(f, common::Failure::PipeClosed) {
                    output::eprint(&f.report());
                }
                EXIT_FAILURE
            }
        }
    }
}

/// Run one command; `Err` means the engine could not do its job (exit 2).
pub fn run(cli: &Cli) -> Result<u8, common::Failure> {
    crate::confine::allow(&cli.allow_path);
    match &cli.command {
        Command::Lint(a) if a.fixing.wanted() => {
            fix::run(cli, fix::Scope::Lint(a.verify), &a.fixing, a.format)
        }
        Command::Lint(a) => lint::run(cli, a),
        Command::List(a) => list::run(cli, a),
        Command::Show(a) => show::run(cli, a),
        Command::Stats(a) => stats::run(cli, a),
        Command::Table(a) => table::run(cli, a),
        Command::Graph(a) => graph::run(cli, a),
        Command::New(a) => new::run(cli, a),
        Command::Retire(a) => retire::run(cli, a),
        Command::Rename(a) => rename::run(cli, a),
        Command::Snapshot(_) => snapshot::run(cli),
        Command::Diff(a) => diff::run(cli, a),
        Command::Verify(a) if a.fix.wanted() => fix::run(cli, fix::Scope::Verify, &a.fix, a.format),
        Command::Verify(a) => verify::run(cli, a),
        Command::Sync(a) => sync::run(cli, a),
        Command::Profile(c) => profile::run(cli, c),
        Command::Applicability(a) => applicability::run(cli, a),
        Command::Audit(a) => audit::run(cli, a),
        Command::Portfolio(a) => portfolio::run(cli, a),
        Command::Probe(a) => probe::run(cli, a),
        Command::Scan(a) => scan::run(cli, a),
        Command::Triage(a) => scan::run_triage(cli, a),
        Command::Collect(a) => collect::run(cli, a),
        Command::CatchProxy(a) => collect::run_catch_proxy(a),
        Command::Merge(a) => merge::run(cli, a),
        Command::Registry(a) => registry::run(cli, a),
        Command::Schema(a) => schema::run(cli, a),
        Command::Site(a) => site::run(cli, a),
        Command::Lsp => lsp::run(),
        Command::Mcp(a) => mcp::run(cli, a),
        Command::Completions(a) => completions::run(a),
        Command::Init(a) => init::run(cli, a),
        Command::Test(a) => test::run(cli, a),
        Command::Man => completions::man(),
        Command::Explain(a) => explain::run(cli, a),
    }
}
