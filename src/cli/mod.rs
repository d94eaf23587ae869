//! The command line: parse arguments, call the library, print, choose the exit code.

mod args;
mod common;
mod lint;
mod list;
mod show;
mod stats;

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
    match &cli.command {
        Command::Lint => lint::run(cli),
        Command::List(a) => list::run(cli, a),
        Command::Show(a) => show::run(cli, a),
        Command::Stats => stats::run(cli),
    }
}
