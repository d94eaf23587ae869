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
/// (`../README.md`): the maintainer named it. Absolute paths are refused.
pub fn load(
    root: &Path,
    path: &str,
    ids: &IdRules<'_>,
) -> Result<(Document, Vec<Diagnostic>), Diagnostic> {
    if Path::new(path).is_absolute() {
        return Err(Diagnostic::new(
            &codes::OUTSIDE_ROOT,
            format!("document path `{path}` is absolute; paths are relative to the catalogue root"),
        )
        .file(super::config::FILE_NAME)
        .help(codes::OUTSIDE_ROOT.help));
    }
    let full = root.join(path);
    let bytes = text::read_limited(&full).map_err(|e| {
        Diagnostic::new(
            &codes::UNREADABLE,
            format!("cannot read document `{path}`: {e}"),
        )
        .file(path)
        .help("correct the path in catalogue.yaml (docs, rules.tables or claims)")
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
