//! Structural rules over the tree: each file of a language is parsed once (tree-sitter, through
//! ast-grep) and every rule for that language runs on it. A match is located (file, line,
//! column), its code quoted, and fingerprinted from the whitespace-folded code, the file and
//! the rule, so a triage decision follows the code and reopens when it changes.

use super::tree::Tree;
use super::Finding;
use crate::evidence::untrusted;
use crate::model::scan::{Body, Language, ScanRule};
use ast_grep_core::tree_sitter::LanguageExt;

/// A rule to run, with the check it belongs to.
pub struct Job<'r> {
    pub check: &'r str,
    pub rule: &'r ScanRule,
    globs: Option<globset::GlobSet>,
}

impl<'r> Job<'r> {
    pub fn new(check: &'r str, rule: &'r ScanRule) -> Job<'r> {
        let globs = match &rule.body {
            Body::Code { files, .. } if !files.is_empty() => {
                let mut b = globset::GlobSetBuilder::new();
                for g in files {
                    if let Ok(g) = globset::Glob::new(g) {
                        b.add(g);
                    }
                }
                b.build().ok()
            }
            _ => None,
        };
        Job { check, rule, globs }
    }

    fn applies(&self, path: &str, file: Language) -> bool {
        self.rule.language().is_some_and(|l| l.covers(file))
            && self.globs.as_ref().is_none_or(|g| g.is_match(path))
    }
}

/// The fingerprint of a match: the check, the rule, the file and the code without its
/// whitespace (re-indenting or re-wrapping a line is no change), hashed, 12 hex digits.
pub fn fingerprint(check: &str, rule: &str, path: &str, code: &str) -> String {
    let folded: String = code.split_whitespace().collect();
    let digest =
        crate::text::digest::sha256(format!("{check}\0{rule}\0{path}\0{folded}").as_bytes());
    digest.chars().take(12).collect()
}

/// Run every job on every file it applies to; findings in file, line, column order.
pub fn run(tree: &Tree, jobs: &[Job<'_>]) -> Vec<Finding> {
    let per_file = crate::par::map(&tree.files, |f| {
        let Some(lang) = f.language else {
            return Vec::new();
        };
        let mine: Vec<&Job> = jobs.iter().filter(|j| j.applies(&f.path, lang)).collect();
        if mine.is_empty() {
            return Vec::new();
        }
        let root = lang.ast_grep().ast_grep(&f.text);
        let mut out = Vec::new();
        for j in mine {
            let Body::Code { compiled, .. } = &j.rule.body else {
                continue;
            };
            for m in root.root().find_all(&compiled.matcher) {
                let p = m.start_pos();
                let code = m.text().to_string();
                out.push(Finding {
                    check: j.check.to_string(),
                    rule: j.rule.id.clone(),
                    file: f.path.clone(),
                    line: p.line() + 1,
                    column: p.column(&m) + 1,
                    code: untrusted::quote(code.trim(), 160),
                    fingerprint: fingerprint(j.check, &j.rule.id, &f.path, &code),
                });
            }
        }
        out
    });
    let mut all: Vec<Finding> = per_file.into_iter().flatten().collect();
    all.sort_by(|a, b| {
        (&a.check, &a.rule, &a.file, a.line, a.column)
            .cmp(&(&b.check, &b.rule, &b.file, b.line, b.column))
    });
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_changes_the_fingerprint_and_whitespace_does_not() {
        let a = fingerprint("X-001", "r", "a.py", "from . import  __version__");
        assert_eq!(
            a,
            fingerprint("X-001", "r", "a.py", "from .  import __version__")
        );
        assert_ne!(
            a,
            fingerprint("X-001", "r", "a.py", "from .x import __version__")
        );
        assert_eq!(a.len(), 12);
    }
}
