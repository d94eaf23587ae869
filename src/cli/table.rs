//! `auditbook table NAME [KEY=VALUE…]`

use super::args::{Cli, TableArgs};
use super::common::{self, Failure};
use crate::graph::Graph;
use crate::render::tables;

/// `key=value` pairs, as regions and the command line write them.
pub fn parse_args(pairs: &[String]) -> Result<tables::Args, String> {
    pairs
        .iter()
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("table argument `{p}` is not KEY=VALUE"))
        })
        .collect()
}

pub fn run(cli: &Cli, args: &TableArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, &["md", "json"])?;
    let loaded = common::load(cli)?;
    common::warn_load_problems(cli, &loaded);
    let graph = Graph::build(&loaded.catalogue);
    let templates = common::templates(cli)?;
    let targs = parse_args(&args.args).map_err(Failure)?;
    let text = tables::render(
        &templates,
        &loaded.catalogue,
        &graph,
        &args.name,
        &targs,
        fmt,
    )
    .map_err(Failure)?;
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
