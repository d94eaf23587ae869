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
    let text = crate::load::text::read_limited(path)
        .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
        .map_err(Failure::io(format!("cannot read `{}`", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        Failure::Message(format!(
            "`{}` is neither a catalogue directory nor a snapshot written by `auditbook snapshot`: {e}",
            path.display()
        ))
    })
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
