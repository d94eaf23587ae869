//! `auditbook new CATEGORY --title T`

use super::args::{Cli, NewArgs};
use super::common::{self, Failure};
use super::formats::TextFormat;
use crate::maintain::new;

pub fn run(cli: &Cli, args: &NewArgs) -> Result<u8, Failure> {
    // Checked before anything is written: a bad `--format` must not leave a new file behind.
    let fmt = common::format(cli, args.format);
    let writing = common::write_session(cli)?;
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    let templates = common::templates(cli)?;
    let created = new::create(
        &writing,
        &loaded.catalogue,
        &templates,
        &args.category,
        &args.title,
        &args.severity,
    )
    .map_err(|e| Failure::Message(e.0))?;
    let shown = crate::load::text::display_path(&loaded.catalogue.root, &created.file);
    let file = crate::render::diagnostics::join(&common::prefix(cli), &shown);
    if fmt == TextFormat::Json {
        let doc = serde_json::json!({
            "id": created.id,
            "file": file,
            "manifest_updated": created.manifest_updated,
        });
        common::print(&common::json_text(&doc)?)?;
        return Ok(super::EXIT_OK);
    }
    let mut text = format!("created {} ({file})\n", created.id);
    if created.manifest_updated {
        text.push_str("added it to MANIFEST.txt\n");
    }
    text.push_str("it starts advisory with `applies_when: 'always'`; fill in the sections, then run `auditbook lint`\n");
    if !cli.quiet {
        common::print(&text)?;
    }
    Ok(super::EXIT_OK)
}
