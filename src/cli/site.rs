//! `auditbook site --out DIR`

use super::args::Cli;
use super::common::{self, Failure};
use crate::render::site;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SiteArgs {
    /// Directory to write the site into (created if missing; files of the same name are
    /// replaced; a symbolic link, FIFO or device in it is refused and nothing is written)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::HumanFormat>,
}

pub fn run(cli: &Cli, args: &SiteArgs) -> Result<u8, Failure> {
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let graph = session.graph();
    let templates = common::templates(cli)?;
    let pages = site::pages(&templates, &loaded.catalogue, graph).map_err(Failure::Message)?;
    let files: Vec<(String, String)> = pages.into_iter().map(|p| (p.path, p.text)).collect();
    crate::write::folder(&args.out, &files).map_err(Failure::io(format!(
        "cannot write the site into `{}`",
        args.out.display()
    )))?;
    if !cli.quiet {
        common::print(&format!(
            "wrote {} files to {} (open {})\n",
            files.len(),
            args.out.display(),
            args.out.join("index.html").display()
        ))?;
    }
    Ok(super::EXIT_OK)
}
