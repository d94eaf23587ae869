//! Documents: the files `docs` names and the documents rule tables live in.

use crate::confine::Fence;
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
    // A policy claim (`holds`) reads no document; a glob reads the files it matched.
    for c in config.claims.iter().filter(|c| !c.doc.is_empty()) {
        match config.doc_globs.get(&c.doc) {
            Some(m) => paths.extend(m.iter().cloned()),
            None if super::doc_globs::is_glob(&c.doc) => {}
            None => {
                paths.insert(c.doc.clone());
            }
        }
    }
    paths.into_iter().collect()
}

/// The documents that hold rule tables, each once, sorted.
pub fn rule_tables(config: &Config) -> Vec<String> {
    let paths: BTreeSet<String> = config
        .rules
        .iter()
        .flat_map(|r| r.tables.iter().map(|t| t.doc.clone()))
        .collect();
    paths.into_iter().collect()
}

/// The line of `catalogue.yaml` where `path` is declared: the first `claims[i].doc` or
/// `rules.tables[i].doc` naming it, else the `docs` key.
pub fn declared_line(
    config: &Config,
    positions: &crate::model::config::KeyLines,
    path: &str,
) -> Option<usize> {
    let at = |key: String| positions.line_of(&key);
    if let Some(c) = config.claims.iter().find(|c| c.doc == path) {
        return at(format!("claims[{}].doc", c.entry));
    }
    if let Some(i) = config
        .rules
        .as_ref()
        .and_then(|r| r.tables.iter().position(|t| t.doc == path))
    {
        return at(format!("rules.tables[{i}].doc"));
    }
    at("docs".into())
}

/// Read one declared document. A declared path may leave the catalogue root on purpose
/// (`../README.md` in the repository that holds the catalogue) but never the repository
/// (`fence`): a pull request that edits `catalogue.yaml` must not be able to make `verify`
/// print `/proc/self/environ` into a CI log. A refused path is not opened at all.
/// What a path declared in `catalogue.yaml` names, for its findings: `document` under `docs`.
pub struct Declared {
    pub what: &'static str,
    pub keys: &'static str,
}

/// A file a path in `catalogue.yaml` names (a document, an example input): confined to the
/// repository that holds the catalogue, a regular file (or its unsaved text), within the size
/// limit, decoded. A refused or unreadable path is reported on `catalogue.yaml` (the loader
/// adds the declaring line); a file too large, on the file itself.
pub fn read_declared(
    root: &Path,
    fence: &Fence,
    path: &str,
    declared: Declared,
    overlay: Option<&text::Overlay>,
) -> Result<text::Text, Diagnostic> {
    let Declared { what, keys } = declared;
    let full = fence.resolve(root, path).map_err(|e| {
        Diagnostic::new(
            &codes::PATH_REFUSED,
            format!(
                "{what} path `{}` ({keys}) {}",
                crate::confine::shown_path(path),
                e.reason("the repository that holds the catalogue")
            ),
        )
        .file(crate::model::config::FILE_NAME)
    })?;
    let bytes = match overlay.and_then(|o| o.get(&full)) {
        Some(t) => Ok(t.as_bytes().to_vec()),
        None => text::read_limited(&full),
    }
    .map_err(|e| {
        Diagnostic::new(&codes::UNREADABLE, format!("cannot read {what} `{path}`: {e}"))
            .file(crate::model::config::FILE_NAME)
            .help(format!("correct the path in catalogue.yaml ({keys})"))
    })?;
    if bytes.len() as u64 > text::MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            &codes::FILE_TOO_LARGE,
            format!(
                "{what} `{path}` is over the limit of {} bytes",
                text::MAX_FILE_BYTES
            ),
        )
        .file(path));
    }
    text::decode(path, bytes)
}

/// The text of one declared document, not outlined.
pub fn read_document(
    root: &Path,
    fence: &Fence,
    path: &str,
    overlay: Option<&text::Overlay>,
) -> Result<text::Text, Diagnostic> {
    read_declared(
        root,
        fence,
        path,
        Declared {
            what: "document",
            keys: "docs, rules.tables or claims",
        },
        overlay,
    )
}

/// Read and outline one declared document.
pub fn load(
    root: &Path,
    fence: &Fence,
    path: &str,
    ids: &IdRules<'_>,
    overlay: Option<&text::Overlay>,
) -> Result<(Document, Vec<Diagnostic>), Diagnostic> {
    let t = read_document(root, fence, path, overlay)?;
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
