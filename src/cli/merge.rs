//! `auditbook merge RUN… [--results-dir DIR]`: the shards of one fleet run combined. Each
//! server's last line across the run files counts (`fleet::run`); the report is the one
//! `collect --portfolio` prints for an unsharded run, byte for byte, and with `--results-dir`
//! every server's results file is written as the shard wrote it. Run files of another
//! portfolio, catalogue or shard count are left out with their finding (`AB513`), and a shard
//! with no run file leaves its servers out of the coverage.

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use crate::fleet::report::Report;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The run files of the shards (`collect --portfolio --shard I/N --run FILE`)
    #[arg(value_name = "RUN", required = true)]
    pub runs: Vec<PathBuf>,
    /// Write every server's results file into DIR, as its shard wrote it
    #[arg(long = "results-dir", value_name = "DIR")]
    pub results_dir: Option<PathBuf>,
    /// Give a verdict even when some declared servers have no evidence (the report says so)
    #[arg(long)]
    pub partial: bool,
    /// Also write the "state of" summary (counts only, no server named) to FILE: HTML with
    /// pictures when FILE ends in `.html`, else Markdown
    #[arg(long = "state-of", value_name = "FILE")]
    pub state_of: Option<PathBuf>,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

pub fn run(cli: &Cli, args: &MergeArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let mut runs = super::collect_fleet::read_runs(&args.runs)?;
    crate::diag::normalise(&mut runs.diagnostics);
    inputs::eprint_problems(cli, &runs.diagnostics, &runs.sources);
    if let Some(dir) = &args.results_dir {
        let shown = inputs::shown(dir);
        if !dir.exists() {
            crate::write::dir(dir).map_err(Failure::io(format!("cannot create `{shown}`")))?;
        } else if !dir.is_dir() {
            return Err(Failure::Message(format!(
                "--results-dir `{shown}` is not a directory"
            )));
        }
        for l in runs.lines.values() {
            if let (Some(name), Some(results)) = (&l.results_file, &l.results) {
                // Only a plain file name is written (a run file is input like any other).
                if crate::confine::plain_file_name(name)
                    && *name == super::collect_fleet::results_name(&l.server)
                {
                    super::collect_fleet::write_raw(&dir.join(name), results)?;
                }
            }
        }
    }
    let report = Report::of(&runs, args.partial);
    super::collect_fleet::finish(
        cli,
        fmt,
        &report,
        args.state_of.as_deref(),
        &runs.diagnostics,
    )
}
