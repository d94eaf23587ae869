//! `auditbook diff OLD NEW` — each a snapshot (json file) or a catalogue root.

use super::args::{Cli, DiffArgs};
use super::common::{self, Failure};
use super::formats::MarkdownFormat;
use crate::snapshot::Snapshot;
use std::path::Path;

fn snapshot_of(path: &Path) -> Result<Snapshot, Failure> {
    if path.is_dir() {
        let loaded = crate::load::load(path)?;
        return Ok(crate::snapshot::take(&loaded.catalogue));
    }
    Ok(crate::load::claims_file::read_snapshot(path)?)
}

pub fn run(cli: &Cli, args: &DiffArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let old = snapshot_of(&args.old)?;
    let new = snapshot_of(&args.new)?;
    let d = crate::diff::diff(&old, &new);
    let text = match fmt {
        MarkdownFormat::Json => common::json_text(&d)?,
        MarkdownFormat::Md => crate::diff::markdown(&d),
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
