//! Document globs at verify time: a glob that matches nothing is a finding (what it was
//! meant to cover goes unchecked), and so is a file a `docs` glob matches that no claim reads
//! — the new `README.fr.md` beside the checked `README.md`.

use crate::diag::{codes, Diagnostic};
use crate::model::Catalogue;

pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Positions are parsed on first use: only a finding asks.
    let line = || cat.config.positions.line_of("docs").unwrap_or(1);
    let at_docs = |d: Diagnostic| d.file(crate::model::config::FILE_NAME).line(line());
    for (pattern, files) in &cat.config.doc_globs {
        if files.is_empty() {
            let claim_line = cat
                .config
                .claims
                .iter()
                .find(|c| &c.doc == pattern)
                .map(|c| super::locate::declared_line(cat, c));
            out.push(
                Diagnostic::new(
                    &codes::DOC_GLOB,
                    format!(
                        "document glob `{pattern}` matches no file, so nothing it names is checked"
                    ),
                )
                .file(crate::model::config::FILE_NAME)
                .line(claim_line.unwrap_or_else(line)),
            );
            continue;
        }
        for f in files {
            if covered(cat, f) {
                continue;
            }
            out.push(at_docs(
                Diagnostic::new(
                    &codes::DOC_GLOB_UNCOVERED,
                    format!(
                        "`{f}` matches the document glob `{pattern}`, but no claim reads it"
                    ),
                )
                .help(format!(
                    "declare a claim with `doc: {f}` (or `doc: \"{pattern}\"` to hold every match to it), or narrow the glob"
                )),
            ));
        }
    }
    out
}

/// Whether a claim (by its path or a glob that matched it) or a rule table reads `file`.
fn covered(cat: &Catalogue, file: &str) -> bool {
    let by_claim = cat.config.claims.iter().any(|c| {
        c.doc == file
            || cat
                .config
                .doc_globs
                .get(&c.doc)
                .is_some_and(|m| m.iter().any(|x| x == file))
    });
    let by_table = cat
        .config
        .rules
        .iter()
        .flat_map(|r| &r.tables)
        .any(|t| t.doc == file);
    by_claim || by_table
}
