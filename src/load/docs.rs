//! Documents: the files `docs` names and the documents rule tables live in.

use super::markdown::{self, IdRules};
use super::text;
use crate::diag::{codes, Diagnostic};
use crate::model::{Config, Document};
use std::collections::BTreeSet;
use std::path::Path;

/// Every document path the configuration names, deduplicated and sorted.
pub fn declared(config: &Config) -> Vec<String> {
    let mut paths: BTreeSet<String> = config.docs.iter().cloned().collect();
    if let Some(rules) = &config.rules {
        paths.extend(rules.tables.iter().map(|t| t.doc.clone()));
    }
    paths.extend(config.claims.iter().map(|c| c.doc.clone()));
    paths.into_iter().collect()
}

/// Read one declared document. A declared path may leave the catalogue root on purpose
/// (`../README.md` beside a catalogue in a subdirectory), but never the repository
/// (`text::repository_root`); absolute paths are refused. Every refusal points at the line of
/// `catalogue.yaml` (`config_text`) that declares the path.
pub fn load(
    root: &Path,
    repository: &Path,
    config_text: Option<&str>,
    path: &str,
    ids: &IdRules<'_>,
) -> Result<(Document, Vec<Diagnostic>), Diagnostic> {
    let declared = |d: Diagnostic| {
        let at = config_text.and_then(|t| {
            t.split('\n').enumerate().find_map(|(i, l)| {
                let col = l.find(path)?;
                Some((i + 1, l.get(..col).unwrap_or("").chars().count() + 1))
            })
        });
        let d = d.file(super::config::FILE_NAME);
        match at {
            Some((line, column)) => d.at(line, column).width(path.chars().count()),
            None => d,
        }
    };
    if Path::new(path).is_absolute() {
        return Err(declared(
            Diagnostic::new(
                &codes::OUTSIDE_ROOT,
                format!(
                    "document path `{path}` is absolute; paths are relative to the catalogue root"
                ),
            )
            .help(codes::OUTSIDE_ROOT.help),
        ));
    }
    let full = root.join(path);
    let inside = text::within_repository(
        &text::canonical(root),
        repository,
        &super::link_dest::lexical("", path),
    ) && full
        .canonicalize()
        .map_or(true, |p| p.starts_with(repository));
    if !inside {
        return Err(declared(
            Diagnostic::new(
                &codes::OUTSIDE_ROOT,
                format!(
                    "document `{path}` lies outside the repository (`{}`); documents are read from inside it only",
                    repository.display()
                ),
            )
            .help("declare a document inside the repository, or copy it there"),
        ));
    }
    let bytes = text::read_limited(&full).map_err(|e| {
        declared(
            Diagnostic::new(
                &codes::UNREADABLE,
                format!("cannot read document `{path}`: {e}"),
            )
            .help("correct the path in catalogue.yaml (docs, rules.tables or claims)"),
        )
    })?;
    if bytes.len() as u64 > text::MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            &codes::FILE_TOO_LARGE,
            format!(
                "document `{path}` is over the limit of {} bytes",
                text::MAX_FILE_BYTES
            ),
        )
        .file(path)
        .help(codes::FILE_TOO_LARGE.help));
    }
    let t = text::decode(path, bytes)?;
    let outline = markdown::outline(&t.text, 1, path, ids, None);
    Ok((
        Document {
            path: path.to_string(),
            text: t.text,
            outline,
        },
        t.notes,
    ))
}
