//! The command line: parse arguments, call the library, print, choose the exit code.

mod applicability;
mod args;
mod audit;
mod common;
mod completions;
mod diff;
mod graph;
mod inputs;
mod lint;
mod list;
mod new;
mod portfolio;
mod probe;
mod profile;
mod retire;
mod schema;
mod show;
mod site;
mod snapshot;
mod stats;
mod sync;
mod table;
mod verify;

pub use args::{Cli, Command};

use clap::Parser;
use std::process::ExitCode;

/// Exit codes of the catalogue format, section 8.
pub const EXIT_OK: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_FAILURE: u8 = 2;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("auditbook: error: {e}");
            EXIT_FAILURE
        }
    };
    ExitCode::from(code)
}

/// Run one command; `Err` means the engine could not do its job (exit 2).
pub fn run(cli: &Cli) -> Result<u8, common::Failure> {
    crate::load::confine::allow(&cli.allow_path);
    match &cli.command {
        Command::Lint(a) => lint::run(cli, a),
        Command::List(a) => list::run(cli, a),
        Command::Show(a) => show::run(cli, a),
        Command::Stats => stats::run(cli),
        Command::Table(a) => table::run(cli, a),
        Command::Graph(a) => graph::run(cli, a),
        Command::New(a) => new::run(cli, a),
        Command::Retire(a) => retire::run(cli, a),
        Command::Snapshot => snapshot::run(cli),
        Command::Diff(a) => diff::run(cli, a),
        Command::Verify => verify::run(cli),
        Command::Sync => sync::run(cli),
        Command::Profile(c) => profile::run(cli, c),
        Command::Applicability(a) => applicability::run(cli, a),
        Command::Audit(a) => audit::run(cli, a),
        Command::Portfolio(a) => portfolio::run(cli, a),
        Command::Probe(a) => probe::run(cli, a),
        Command::Schema(a) => schema::run(cli, a),
        Command::Site(a) => site::run(cli, a),
        Command::Completions(a) => completions::run(a),
        Command::Man => completions::man(),
    }
}
