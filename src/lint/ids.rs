//! Identity of checks: the id's shape, its agreement with the file name and category, declared
//! categories, and ids used twice.

use crate::diag::{codes, Diagnostic};
use crate::model::{Catalogue, Check, Mode};
use std::path::Path;

#[cfg(any(test, feature = "internals"))]
pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let id_re = cat.config.id_regex();
    let mut out: Vec<Diagnostic> = cat
        .checks
        .iter()
        .flat_map(|c| one(cat, &id_re, c))
        .collect();
    out.extend(duplicates(cat));
    out
}

/// What one check's own frontmatter says about its identity (no other check is read).
pub fn one(cat: &Catalogue, id_re: &regex::Regex, c: &Check) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at = |field: &str, code, msg: String| {
        Diagnostic::new(code, msg)
            .file(c.file.clone())
            .at(c.field_line(field), 1)
            .id(c.id.clone())
    };
    if !id_re.is_match(&c.id) {
        out.push(at(
            "id",
            &codes::ID_PATTERN,
            format!("id `{}` does not match `{}`", c.id, id_re.as_str()),
        ));
    }
    let stem = Path::new(&c.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if stem != c.id {
        out.push(
            at(
                "id",
                &codes::ID_STEM,
                format!("id is `{}` but the file is `{stem}.md`", c.id),
            )
            .help(format!(
                "rename the file to `{}.md` or set `id: {stem}`",
                c.id
            )),
        );
    }
    let prefix = c.id.split('-').next().unwrap_or("");
    if prefix != c.category {
        out.push(at(
            "category",
            &codes::ID_CATEGORY,
            format!(
                "category is `{}` but the id's prefix is `{prefix}`",
                c.category
            ),
        ));
    }
    if cat.mode == Mode::Declared && !cat.is_category(&c.category) {
        let declared = cat.categories.join(", ");
        let help = match crate::text::suggest::did_you_mean(
            &c.category,
            cat.categories.iter().map(String::as_str),
        ) {
            Some(s) => format!("{s} declared: {declared}"),
            None => format!("declare it in catalogue.yaml; declared: {declared}"),
        };
        out.push(
            at(
                "category",
                &codes::UNDECLARED_CATEGORY,
                format!(
                    "category `{}` is not declared in catalogue.yaml",
                    c.category
                ),
            )
            .help(help),
        );
    }
    out
}

/// Ids declared by more than one file: the one identity finding that reads every check.
pub fn duplicates(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Sorted by id (then file), duplicates are neighbours: no map of every id is needed.
    for checks in cat.checks_by_id().chunk_by(|a, b| a.id == b.id) {
        if checks.len() < 2 {
            continue;
        }
        let id = checks.first().map(|c| c.id.as_str()).unwrap_or("");
        let files: Vec<&str> = checks.iter().map(|c| c.file.as_str()).collect();
        for c in checks {
            out.push(
                Diagnostic::new(
                    &codes::DUPLICATE_ID,
                    format!(
                        "id `{id}` is declared by {} files: {}",
                        files.len(),
                        files.join(", ")
                    ),
                )
                .file(c.file.clone())
                .at(c.field_line("id"), 1)
                .id(id),
            );
        }
    }
    out
}
