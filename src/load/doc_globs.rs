//! Document globs: a `docs:` entry or a claim's `doc` may name many files (`README*.md`,
//! `docs/*.md`). A glob is expanded once, when the catalogue loads, into the files it matches
//! (sorted); the documents are then read like any other. Globs are confined like every other
//! path: no absolute pattern, no `..`, and a match behind a symbolic link that leads out of
//! the repository is refused, never opened.

use crate::confine::{Escape, Fence};
use crate::diag::{codes, Diagnostic};
use crate::model::Config;
use std::collections::BTreeMap;
use std::path::Path;

/// The most files one glob may expand to; a pattern like `*` over a large tree is a mistake.
const MAX_MATCHES: usize = 1000;

/// Whether a declared path is a glob.
pub fn is_glob(path: &str) -> bool {
    path.contains(['*', '?'])
}

/// Expand every glob among `docs` and the claims' `doc` into `config.doc_globs`, and replace
/// each glob of `docs` by its matches. Refused patterns and matches are reported.
pub fn expand(root: &Path, fence: &Fence, config: &mut Config) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut patterns: Vec<String> = config.docs.iter().filter(|d| is_glob(d)).cloned().collect();
    patterns.extend(
        config
            .claims
            .iter()
            .filter(|c| is_glob(&c.doc))
            .map(|c| c.doc.clone()),
    );
    patterns.sort();
    patterns.dedup();
    let mut globs = BTreeMap::new();
    for p in patterns {
        let (matches, problems) = matches_of(root, fence, &p);
        out.extend(problems.into_iter().map(|d| {
            d.file(crate::model::config::FILE_NAME)
                .line(config.positions.line_of("docs").unwrap_or(1))
        }));
        globs.insert(p, matches);
    }
    let mut docs = Vec::new();
    for d in &config.docs {
        match globs.get(d) {
            Some(m) => docs.extend(m.iter().cloned()),
            None => docs.push(d.clone()),
        }
    }
    docs.dedup();
    config.docs = docs;
    config.doc_globs = globs;
    out
}

/// The files under `root` that `pattern` matches, as paths relative to `root`, sorted.
fn matches_of(root: &Path, fence: &Fence, pattern: &str) -> (Vec<String>, Vec<Diagnostic>) {
    let refuse = |e: Escape| {
        Diagnostic::new(
            &codes::PATH_REFUSED,
            format!(
                "document glob `{}` {}",
                crate::confine::shown_path(pattern),
                e.reason("the repository that holds the catalogue")
            ),
        )
    };
    let given = Path::new(pattern);
    if given.is_absolute() || given.has_root() {
        return (Vec::new(), vec![refuse(Escape::Absolute)]);
    }
    let segments: Vec<&str> = pattern
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    if segments.contains(&"..") {
        return (Vec::new(), vec![refuse(Escape::Outside)]);
    }
    let mut problems = Vec::new();
    // (relative path so far, whether it is the root)
    let mut frontier: Vec<String> = vec![String::new()];
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let mut next = Vec::new();
        for base in &frontier {
            let dir = root.join(base);
            let names: Vec<String> = if is_glob(seg) {
                let Ok(rd) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut n: Vec<String> = rd
                    .filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| wildcard(seg, n))
                    .collect();
                n.sort();
                n
            } else {
                vec![seg.to_string()]
            };
            for n in names {
                let rel = if base.is_empty() {
                    n
                } else {
                    format!("{base}/{n}")
                };
                let full = root.join(&rel);
                let kind_ok = if last { full.is_file() } else { full.is_dir() };
                if !kind_ok {
                    continue;
                }
                if !fence.contains(&full) {
                    problems.push(refuse(Escape::Outside).message_prefix(&rel));
                    continue;
                }
                next.push(rel);
            }
        }
        frontier = next;
    }
    if frontier.len() > MAX_MATCHES {
        problems.push(Diagnostic::new(
            &codes::DOC_GLOB,
            format!(
                "document glob `{pattern}` matches {} files; only the first {MAX_MATCHES} are read",
                frontier.len()
            ),
        ));
        frontier.truncate(MAX_MATCHES);
    }
    (frontier, problems)
}

trait Prefix {
    fn message_prefix(self, rel: &str) -> Self;
}

impl Prefix for Diagnostic {
    /// Name the match a refusal is about.
    fn message_prefix(mut self, rel: &str) -> Self {
        self.message = format!(
            "{} (the match `{rel}` is a link that leads outside)",
            self.message
        );
        self
    }
}

/// `*` any run of characters, `?` one character; a leading dot is matched only by a dot.
fn wildcard(pattern: &str, name: &str) -> bool {
    if name.starts_with('.') && !pattern.starts_with('.') {
        return false;
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(c) if *c == '?' || Some(c) == n.get(ni) => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..)
        .is_some_and(|rest| rest.iter().all(|c| *c == '*'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(wildcard("README*.md", "README.md"));
        assert!(wildcard("README*.md", "README.de.md"));
        assert!(!wildcard("README*.md", "README.md.bak"));
        assert!(wildcard("*.md", "a.md"));
        assert!(!wildcard("*.md", ".hidden.md"));
        assert!(wildcard("?.md", "a.md"));
        assert!(!wildcard("?.md", "ab.md"));
        assert!(wildcard("a*b*c", "aXbYbc"));
    }

    #[test]
    fn globs_are_confined() {
        // Refused before the file system is asked: the folder need not exist.
        let dir = std::env::temp_dir().join("auditbook-globs-never-created");
        let fence = Fence::new(&dir);
        for bad in ["../*.md", "/etc/*", "docs/../../*.md"] {
            let (m, p) = matches_of(&dir, &fence, bad);
            assert!(m.is_empty() && p.len() == 1, "{bad}");
            assert_eq!(p[0].code, codes::PATH_REFUSED.code);
        }
    }
}
