//! Manifest drift: the manifest and the checks directory must list the same ids.

use crate::diag::{codes, Diagnostic};
use crate::model::Catalogue;
use std::collections::{BTreeMap, BTreeSet};

pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let Some(m) = &cat.manifest else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut listed: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &m.entries {
        if let Some(first) = listed.get(e.id.as_str()) {
            out.push(
                Diagnostic::new(
                    &codes::MANIFEST_DUPLICATE,
                    format!("`{}` is listed again (first on line {first})", e.id),
                )
                .file(m.file.clone())
                .at(e.line, 1)
                .id(e.id.clone()),
            );
        } else {
            listed.insert(&e.id, e.line);
        }
    }
    let files: BTreeSet<&str> = cat.known_ids();
    for (id, line) in &listed {
        if !files.contains(id) {
            out.push(
                Diagnostic::new(
                    &codes::MANIFEST_ONLY,
                    format!("`{id}` is in the manifest but there is no check file `{id}.md`"),
                )
                .file(m.file.clone())
                .at(*line, 1)
                .id(*id),
            );
        }
    }
    for c in &cat.checks {
        if !listed.contains_key(c.id.as_str()) {
            out.push(
                Diagnostic::new(
                    &codes::FILE_ONLY,
                    format!("`{}` has a check file but is not in {}", c.id, m.file),
                )
                .file(c.file.clone())
                .at(c.field_line("id"), 1)
                .id(c.id.clone()),
            );
        }
    }
    out
}
