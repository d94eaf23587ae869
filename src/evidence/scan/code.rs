//! Structural rules over the tree: each file of a language is parsed once (tree-sitter, through
//! ast-grep) and every rule for that language runs on it. A match is located (file, line,
//! column), its code quoted, and fingerprinted from the whitespace-folded code, the file and
//! the rule, so a triage decision follows the code and reopens when it changes.

use super::prefilter;
use super::tree::Tree;
use super::Finding;
use crate::evidence::untrusted;
use crate::model::scan::{Body, Language, ScanRule};
use ast_grep_core::matcher::{Matcher, MatcherExt};
use ast_grep_core::tree_sitter::LanguageExt;

/// A rule to run, with the check it belongs to.
pub struct Job<'r> {
    pub check: &'r str,
    pub rule: &'r ScanRule,
    globs: Option<globset::GlobSet>,
    /// The node kinds a match can start at (`None`: any), so one walk of a file serves
    /// every rule.
    kinds: Option<Vec<usize>>,
    /// A cheaper rule tried first at each node (`prefilter::gate`).
    gate: Option<ast_grep_config::RuleConfig<ast_grep_language::SupportLang>>,
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
        let kinds = match &rule.body {
            Body::Code { compiled, .. } => compiled
                .matcher
                .potential_kinds()
                .map(|k| k.iter().collect()),
            Body::Fact(_) => Some(Vec::new()),
        };
        let gate = match &rule.body {
            Body::Code {
                rule: core,
                language,
                ..
            } => prefilter::gate(core, &rule.id, language.as_str())
                .and_then(|g| crate::model::scan::compile(g).ok()),
            Body::Fact(_) => None,
        };
        Job {
            check,
            rule,
            globs,
            kinds,
            gate,
        }
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
    let mut words = prefilter::Words::default();
    let needs: Vec<prefilter::Need> = jobs
        .iter()
        .map(|j| match &j.rule.body {
            Body::Code { rule, .. } => words.need(rule),
            Body::Fact(_) => prefilter::Need::Nothing,
        })
        .collect();
    let finder = words.finder();
    let per_file = crate::par::map(&tree.files, |f| {
        let Some(lang) = f.language else {
            return Vec::new();
        };
        let present = finder
            .as_ref()
            .map(|x| x.present(&f.text))
            .unwrap_or_default();
        let mine: Vec<&Job> = jobs
            .iter()
            .zip(&needs)
            .filter(|(j, n)| j.applies(&f.path, lang) && n.met(&present))
            .map(|(j, _)| j)
            .collect();
        if mine.is_empty() {
            return Vec::new();
        }
        let root = lang.ast_grep().ast_grep(&f.text);
        let mut out = Vec::new();
        let mut found = |j: &Job, m: ast_grep_core::NodeMatch<'_, _>| {
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
        };
        // Rules indexed by the node kind a match starts at: one walk of the file tries each
        // node against only the rules that can match it (a walk per rule costs as many walks
        // as there are rules).
        let mut by_kind: Vec<Vec<&Job>> = Vec::new();
        let mut anywhere: Vec<&Job> = Vec::new();
        for j in &mine {
            match &j.kinds {
                Some(kinds) => {
                    for &k in kinds {
                        if by_kind.len() <= k {
                            by_kind.resize_with(k + 1, Vec::new);
                        }
                        by_kind[k].push(j);
                    }
                }
                None => anywhere.push(j),
            }
        }
        for node in root.root().dfs() {
            let Some(candidates) = by_kind.get(usize::from(node.kind_id())) else {
                continue;
            };
            for j in candidates {
                if let Some(g) = &j.gate {
                    if g.matcher.match_node(node.clone()).is_none() {
                        continue;
                    }
                }
                if let Body::Code { compiled, .. } = &j.rule.body {
                    if let Some(m) = compiled.matcher.match_node(node.clone()) {
                        found(j, m);
                    }
                }
            }
        }
        for j in anywhere {
            if let Body::Code { compiled, .. } = &j.rule.body {
                for m in root.root().find_all(&compiled.matcher) {
                    found(j, m);
                }
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
