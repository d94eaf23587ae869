//! `auditbook table NAME [KEY=VALUE…]`

use super::args::{Cli, TableArgs};
use super::common::{self, Failure};
use super::formats::MarkdownFormat;
use crate::render::tables;

pub fn run(cli: &Cli, args: &TableArgs) -> Result<u8, Failure> {
    // The renderer names formats as template files do.
    let fmt = match common::format(cli, args.format) {
        MarkdownFormat::Md => "md",
        MarkdownFormat::Json => "json",
    };
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let templates = common::templates(cli)?;
    let targs = tables::parse_args(&args.args).map_err(Failure::Message)?;
    let text = tables::render(&templates, &loaded.catalogue, &args.name, &targs, fmt)
        .map_err(Failure::Message)?;
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
