//! `MANIFEST.txt`: the authoritative list of check ids, one per line, `#` comments.

use crate::diag::{codes, Diagnostic};
use crate::model::catalogue::{Manifest, ManifestEntry};
use regex::Regex;

pub const FILE_NAME: &str = "MANIFEST.txt";

pub fn parse(file: &str, text: &str, id_pattern: &Regex) -> (Manifest, Vec<Diagnostic>) {
    let mut entries = Vec::new();
    let mut diags = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if id_pattern.is_match(line) {
            entries.push(ManifestEntry {
                id: line.to_string(),
                line: i + 1,
            });
        } else {
            diags.push(
                Diagnostic::new(
                    &codes::MANIFEST_MALFORMED,
                    format!(
                        "`{line}` is not a check id (expected a match of `{}`)",
                        id_pattern.as_str()
                    ),
                )
                .file(file)
                .at(i + 1, 1)
                .width(line.chars().count()),
            );
        }
    }
    (
        Manifest {
            file: file.to_string(),
            entries,
        },
        diags,
    )
}
