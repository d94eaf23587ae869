//! `auditbook init [--from-existing] [--dry-run]`: a starter catalogue in an empty folder, or
//! a `catalogue.yaml` inferred from a catalogue that has none. Never overwrites a file.

use super::args::{Cli, InitArgs};
use super::common::{self, Failure};
use crate::init::{infer, starter};
use crate::model::config::FILE_NAME;
use crate::write::Change;

pub fn run(cli: &Cli, args: &InitArgs) -> Result<u8, Failure> {
    let root = cli
        .catalogue
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("."));
    let name = args.name.clone().unwrap_or_else(|| {
        std::path::absolute(&root)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "catalogue".into())
    });
    if root.join(FILE_NAME).exists() || std::fs::symlink_metadata(root.join(FILE_NAME)).is_ok() {
        return Err(Failure::Message(format!(
            "`{}` already has a {FILE_NAME}; init never overwrites it",
            root.display()
        )));
    }
    let files: Vec<(String, String)> = if args.from_existing {
        let loaded = crate::load::load(&root)?;
        let cat = &loaded.catalogue;
        if cat.checks.is_empty() && cat.broken.is_empty() {
            return Err(Failure::Message(format!(
                "`{}` holds no check files to infer from; run `auditbook init` without --from-existing for a starter",
                root.display()
            )));
        }
        let texts = documents(&root, cat);
        let docs: Vec<infer::Doc<'_>> = texts
            .iter()
            .map(|(p, t)| infer::Doc { path: p, text: t })
            .collect();
        vec![(FILE_NAME.to_string(), infer::config(cat, &name, &docs))]
    } else {
        if root.is_dir() && has_entries(&root) {
            return Err(Failure::Message(format!(
                "`{}` is not empty; use --from-existing to infer a {FILE_NAME} from the checks in it",
                root.display()
            )));
        }
        starter::files(&name)
            .into_iter()
            .map(|(p, t)| (p.to_string(), t))
            .collect()
    };
    if args.dry_run {
        let mut text = String::new();
        for (p, t) in &files {
            if files.len() > 1 {
                text.push_str(&format!("==> {p} <==\n"));
            }
            text.push_str(t);
        }
        common::print(&text)?;
        return Ok(super::EXIT_OK);
    }
    for (p, _) in &files {
        if let Some(dir) = root.join(p).parent() {
            crate::write::dir(dir)
                .map_err(Failure::io(format!("cannot create `{}`", dir.display())))?;
        }
    }
    let writing = crate::write::Session::begin(&root, || {
        super::output::eprint(
            "auditbook: waiting for another auditbook run that is changing this catalogue\n",
        )
    })
    .map_err(Failure::io("cannot lock the catalogue for writing"))?;
    let changes: Vec<Change> = files
        .iter()
        .map(|(p, t)| Change::Create(root.join(p), t.clone()))
        .collect();
    writing
        .apply("init", &changes)
        .map_err(Failure::io("nothing was written"))?;
    if !args.from_existing {
        // The README's generated region is rendered by the engine itself, from the files just
        // written, so the starter verifies clean whatever the templates hold.
        let session = crate::session::Session::from_loaded(crate::load::load(&root)?);
        let loaded = session.loaded();
        let templates = common::templates(cli)?;
        let diags = crate::claims::verify(&loaded.catalogue, session.graph(), &templates);
        let read = |rel: &str| {
            crate::load::text::read_limited(&root.join(rel))
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map(std::sync::Arc::from)
        };
        let fixes = crate::fix::fixes_with(
            &loaded.catalogue,
            session.graph(),
            &diags,
            &read,
            &templates,
        );
        let chosen: Vec<&crate::fix::Fix> = fixes.iter().collect();
        let edited = crate::fix::apply::edit(&chosen, &read).map_err(Failure::Message)?;
        let changes: Vec<Change> = edited
            .into_iter()
            .map(|e| Change::Write(root.join(&e.file), e.after))
            .collect();
        writing
            .apply("init", &changes)
            .map_err(Failure::io("cannot write the generated region"))?;
    }
    if !cli.quiet {
        let mut text = String::new();
        for (p, _) in &files {
            text.push_str(&format!("created {}\n", root.join(p).display()));
        }
        text.push_str(if args.from_existing {
            "review the commented offers in catalogue.yaml, then run `auditbook lint --verify`\n"
        } else {
            "run `auditbook lint --verify` to check it\n"
        });
        common::print(&text)?;
    }
    Ok(super::EXIT_OK)
}

fn has_entries(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir)
        .map(|mut d| d.any(|e| e.is_ok_and(|e| !e.file_name().to_string_lossy().starts_with('.'))))
        .unwrap_or(false)
}

/// Markdown documents in the root (not check files), for rule tables and claims.
fn documents(root: &std::path::Path, cat: &crate::model::Catalogue) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let fence = crate::confine::Fence::new(root);
    let mut out: Vec<(String, String)> = entries
        .flatten()
        .filter(|e| fence.contains(&e.path()))
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".md") || cat.check_by_file(&name).is_some() {
                return None;
            }
            let bytes = crate::load::text::read_limited(&e.path()).ok()?;
            Some((name, String::from_utf8(bytes).ok()?))
        })
        .collect();
    out.sort();
    out
}
