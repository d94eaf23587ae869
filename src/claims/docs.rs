//! The checks `verify` runs on every document, declared claims or not: links reach live
//! checks (the reference findings of the graph, shared with lint), relative link paths lead to
//! the check file, and every check `require_coverage` selects is linked where the rule table is.

use crate::diag::{codes, Diagnostic};
use crate::graph::{Graph, Node};
use crate::text::line_index::LineIndex;
use crate::model::{Catalogue, RefKind};
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

pub fn check(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let mut out =
        crate::lint::references::findings(cat, graph, &|n| matches!(n, Node::Document(_)));
    out.extend(link_paths(cat));
    out.extend(crate::lint::links::check(
        cat,
        crate::lint::links::Sources::Documents,
    ));
    out.extend(required_linked(cat));
    out
}

/// `a/b/../c` → `a/c`, without touching the file system (the target may not exist).
fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A relative link names a live check; does its path lead to that check's file from where the
/// document is? (A table copied between documents keeps its ids and loses its paths.)
fn link_paths(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Absolute, so a document outside the root (`../README.md`) resolves its links too.
    let root = std::fs::canonicalize(&cat.root).unwrap_or_else(|_| lexical(&cat.root));
    for doc in &cat.documents {
        let doc_dir = Path::new(&doc.path).parent().unwrap_or(Path::new(""));
        for r in doc
            .outline
            .references
            .iter()
            .filter(|r| r.kind == RefKind::Link)
        {
            let Some(url) = r.url.as_deref() else {
                continue;
            };
            let path = url.split(['#', '?']).next().unwrap_or(url);
            if path.contains("://") || path.starts_with('/') || path.starts_with("mailto:") {
                continue;
            }
            let Some(check) = cat.check(&r.target) else {
                continue;
            };
            let resolved = lexical(&root.join(doc_dir).join(path));
            let expected = lexical(&root.join(&check.file));
            if resolved != expected {
                let want = relative(&lexical(&root.join(doc_dir)), &expected);
                out.push(
                    Diagnostic::new(
                        &codes::DOC_LINK_PATH,
                        format!("link to `{}` is written `{url}`, which does not lead to `{}` from `{}`", r.target, check.file, doc.path),
                    )
                    .file(doc.path.clone())
                    .at(r.line, r.column)
                    .width(r.target.chars().count())
                    .id(r.target.clone())
                    .help(format!("write `{want}` (in a generated table, set the region's base= so links are written that way)")),
                );
            }
        }
    }
    out
}

/// `to` written relative to the directory `from` (both lexical, same anchor).
pub(super) fn relative(from: &Path, to: &Path) -> String {
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = f[common..].iter().map(|_| "..".to_string()).collect();
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Every check `require_coverage` selects is linked in the section of each rule table.
fn required_linked(cat: &Catalogue) -> Vec<Diagnostic> {
    let Some(rules) = &cat.config.rules else {
        return Vec::new();
    };
    // A bad expression is lint's finding (AB421); here it just selects nothing.
    let select = |exprs: &[String]| -> BTreeSet<String> {
        exprs
            .iter()
            .filter_map(|src| crate::select::compile(cat, src, "require_coverage").ok())
            .filter_map(|e| crate::select::select(cat, &e).ok())
            .flatten()
            .map(|c| c.id.to_string())
            .collect()
    };
    let global = select(&cat.config.require_coverage);
    let mut out = Vec::new();
    for decl in &rules.tables {
        // A table with its own require_coverage answers for that set only.
        let scoped;
        let required = if decl.require_coverage.is_empty() {
            &global
        } else {
            scoped = select(&decl.require_coverage);
            &scoped
        };
        let Some(doc) = cat.document(&decl.doc) else {
            continue;
        };
        // A missing heading is lint's finding (AB418).
        let Some((idx, range)) = doc.section(&decl.section) else {
            continue;
        };
        let index = LineIndex::new(&doc.text);
        let heading = doc.outline.headings.get(idx).map(|h| h.line).unwrap_or(1);
        let last = index
            .position(&doc.text, range.end.saturating_sub(1).max(range.start))
            .0;
        let linked: BTreeSet<String> = doc
            .outline
            .references
            .iter()
            .filter(|r| r.kind == RefKind::Link && (heading..=last).contains(&r.line))
            .map(|r| r.target.to_string())
            .collect();
        for id in required.difference(&linked) {
            out.push(
                Diagnostic::new(
                    &codes::DOC_NOT_LINKED,
                    format!(
                        "`{id}` must be covered (require_coverage), but the rule table in section \"{}\" of `{}` does not link it",
                        decl.section, decl.doc
                    ),
                )
                .file(decl.doc.clone())
                .line(heading)
                .id(id.clone()),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_paths() {
        assert_eq!(lexical(Path::new("./a/b/../c.md")), PathBuf::from("a/c.md"));
        assert_eq!(lexical(Path::new("../x")), PathBuf::from("../x"));
        assert_eq!(
            relative(Path::new("a"), Path::new("a/checks/X.md")),
            "checks/X.md"
        );
        assert_eq!(
            relative(Path::new("b"), Path::new("a/checks/X.md")),
            "../a/checks/X.md"
        );
    }
}
