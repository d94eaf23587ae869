//! `auditbook registry EXPORT --profile FILE [--out FILE]`: MCP registry entries (`server.json`:
//! one entry, the registry's list answer, a list, or a folder of such files) as a portfolio
//! whose servers are all audited against one profile. Bad entries are left out with their
//! finding (`AB512`) at file and line; nothing is fetched.

use super::args::Cli;
use super::common::{self, Failure};
use super::inputs;
use crate::fleet::registry;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RegistryArgs {
    /// A server.json file, a registry list answer, or a folder of exported entries
    #[arg(value_name = "EXPORT")]
    pub export: PathBuf,
    /// The profile every server is audited against, as the portfolio names it (a path
    /// relative to the portfolio file)
    #[arg(long, value_name = "FILE")]
    pub profile: String,
    /// Write the portfolio to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub fn run(cli: &Cli, args: &RegistryArgs) -> Result<u8, Failure> {
    let shown = inputs::shown(&args.export);
    let read = registry::read(&args.export, &shown).map_err(Failure::Message)?;
    inputs::eprint_problems(cli, &read.diagnostics, &read.sources);
    let text = registry::to_portfolio(&read.entries, &args.profile);
    match &args.out {
        Some(f) => crate::write::file(f, &text)
            .map_err(Failure::io(format!("cannot write `{}`", inputs::shown(f))))?,
        None => common::print(&text)?,
    }
    Ok(if inputs::fails(cli, &read.diagnostics) {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}
