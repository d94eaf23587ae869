//! `auditbook collect --portfolio FILE`: many servers' evidence (the fleet). Not yet built:
//! the options are declared here so that `collect` has one place that hands a portfolio on.

use super::args::Cli;
use super::common::Failure;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Clone, Default)]
pub struct FleetArgs {
    /// Collect every server of a portfolio file instead of one profile
    #[arg(long, value_name = "FILE")]
    pub portfolio: Option<PathBuf>,
}

pub fn run(_cli: &Cli, _args: &super::collect::CollectArgs) -> Result<u8, Failure> {
    Err(Failure::Message(
        "collect --portfolio is not available yet; use `probe --portfolio`".into(),
    ))
}
