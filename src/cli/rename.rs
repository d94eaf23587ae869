//! `auditbook rename OLD NEW [--date D]`

use super::args::{Cli, RenameArgs};
use super::common::{self, Failure};
use super::formats::TextFormat;
use crate::maintain::rename;

pub fn run(cli: &Cli, args: &RenameArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let writing = common::write_session(cli)?;
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    let date = args.date.clone().unwrap_or_else(crate::model::date::today);
    let done = rename::rename(&writing, &loaded.catalogue, &args.old, &args.new, &date)
        .map_err(|e| Failure::Message(e.0))?;
    let prefix = common::prefix(cli);
    let join = |f: &str| crate::render::diagnostics::join(&prefix, f);
    let text = if fmt == TextFormat::Json {
        common::json_text(&serde_json::json!({
            "renamed": args.old,
            "to": args.new,
            "file": join(&done.new_file),
            "changed": done.files.iter().map(|(f, n)| serde_json::json!({"file": join(f), "occurrences": n})).collect::<Vec<_>>(),
        }))?
    } else {
        let mut t = format!(
            "renamed {} to {} ({}); recorded {} as replaced by {}\n",
            args.old,
            args.new,
            join(&done.new_file),
            args.old,
            args.new
        );
        if !cli.quiet {
            for (f, n) in &done.files {
                t.push_str(&format!("  {}  {n} change(s)\n", join(f)));
            }
        }
        t
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
