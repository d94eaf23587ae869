//! Following links to files (catalogue format, section 10): a relative link, or one under a
//! configured base, must lead to a file that exists, and its `#fragment` must name a heading or
//! anchor there. This is the one pass that looks at the file system, because a link's target
//! is a file the catalogue need not have loaded. Which check a link names — and so the dead
//! and retired link errors — is the graph's (`references`); this pass stays silent on those
//! links so one defect gives one finding.

use crate::diag::{codes, Diagnostic};
use crate::load::link_dest::{self, Dest};
use crate::load::markdown::LinkRules;
use crate::load::{anchors, frontmatter, text};
use crate::model::{Catalogue, Check, LocalLink};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Which files' links to follow: lint reads checks and rules, verify the declared documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sources {
    ChecksAndRules,
    Documents,
}

/// One file whose links are followed.
struct Source<'c> {
    /// Root-relative path as the catalogue shows it (findings point here).
    file: &'c str,
    links: &'c [LocalLink],
}

pub fn check(cat: &Catalogue, which: Sources) -> Vec<Diagnostic> {
    follow_all(cat, sources(cat, which), which)
}

/// The links of `checks` alone, one list per check in the order given: a check's link
/// findings sit on its own file, so the language server re-judges only the checks an edit
/// can reach.
pub fn of_checks(cat: &Catalogue, checks: &[&Check]) -> Vec<Vec<Diagnostic>> {
    if checks.iter().all(|c| c.links.is_empty()) {
        return vec![Vec::new(); checks.len()];
    }
    let follow = Follow::new(cat);
    crate::par::map(checks, |c| {
        let s = Source {
            file: &c.file,
            links: &c.links,
        };
        s.links
            .iter()
            .filter_map(|l| follow.judge(&s, l, Sources::ChecksAndRules))
            .collect()
    })
}

/// The links of the rule files alone (the share of `Sources::ChecksAndRules` that is not
/// [`of_checks`]).
pub fn of_rules(cat: &Catalogue) -> Vec<Diagnostic> {
    let rules = sources(cat, Sources::ChecksAndRules)
        .into_iter()
        .skip(cat.checks.len())
        .collect();
    follow_all(cat, rules, Sources::ChecksAndRules)
}

fn follow_all(cat: &Catalogue, sources: Vec<Source<'_>>, which: Sources) -> Vec<Diagnostic> {
    if sources.iter().all(|s| s.links.is_empty()) {
        return Vec::new();
    }
    let follow = Follow::new(cat);
    // Files are independent: judged on all cores when there are many; the order stays the
    // sources' order.
    crate::par::flat_map(&sources, |s| {
        s.links.iter().filter_map(|l| follow.judge(s, l, which))
    })
}

fn sources(cat: &Catalogue, which: Sources) -> Vec<Source<'_>> {
    match which {
        Sources::ChecksAndRules => {
            let checks = cat.checks.iter().map(|c| Source {
                file: &c.file,
                links: &c.links,
            });
            let rules = cat.rules.iter().filter_map(|r| {
                let file = r.mappings.iter().find_map(|m| match &m.origin {
                    crate::model::RuleOrigin::File { file, .. } => Some(file.as_str()),
                    _ => None,
                })?;
                Some(Source {
                    file,
                    links: &r.links,
                })
            });
            checks.chain(rules).collect()
        }
        Sources::Documents => cat
            .documents
            .iter()
            .map(|d| Source {
                file: &d.path,
                links: &d.outline.links,
            })
            .collect(),
    }
}

/// What following links needs, built once per run: the id rules (so a link's named check is
/// known), the repository bound, and the anchors of each file read so far.
struct Follow<'c> {
    cat: &'c Catalogue,
    rules: LinkRules,
    bases: Vec<String>,
    /// The root with links resolved, and the repository bound (computed once per run).
    canonical_root: PathBuf,
    repository: PathBuf,
    anchors: Mutex<BTreeMap<String, Option<Arc<BTreeSet<String>>>>>,
}

impl<'c> Follow<'c> {
    fn new(cat: &'c Catalogue) -> Follow<'c> {
        Follow {
            cat,
            rules: LinkRules::of(cat),
            bases: cat.config.link_bases(),
            canonical_root: text::canonical(&cat.root),
            repository: text::repository_root(&cat.root),
            anchors: Mutex::new(BTreeMap::new()),
        }
    }

    fn judge(&self, s: &Source<'_>, l: &LocalLink, which: Sources) -> Option<Diagnostic> {
        let (path, fragment) = match link_dest::resolve(&l.dest, s.file, &self.bases) {
            Dest::External => return None,
            Dest::SameFile { fragment } => (link_dest::lexical("", s.file), Some(fragment)),
            Dest::Local { path, fragment } => (path, fragment),
        };
        // Only a path that climbs above the root can leave the repository.
        if path.is_empty()
            || (path.starts_with("..")
                && !text::within_repository(&self.canonical_root, &self.repository, &path))
        {
            // Above the repository nothing is the catalogue's to judge.
            return None;
        }
        // The common case, once per link of a large catalogue: the link leads to the file of
        // the check it names. The loader read that file, so no look at the disk is needed.
        let stem = path
            .rsplit('/')
            .next()
            .and_then(|f| f.strip_suffix(".md"))
            .unwrap_or("");
        let leads_to_check = self
            .cat
            .check(stem)
            .is_some_and(|c| c.file == path.as_str());
        if leads_to_check && fragment.is_none() {
            return None;
        }
        let full = self.cat.root.join(&path);
        if !leads_to_check && !full.exists() {
            return self.missing_target(s, l, &path, which);
        }
        let fragment = fragment?;
        if !path.ends_with(".md") || !(leads_to_check || full.is_file()) {
            // Fragments into code or images are the host's business (`#L10`).
            return None;
        }
        self.missing_fragment(s, l, &path, &fragment)
    }

    /// A link whose file does not exist: when it names a live check, the path the check is at.
    fn missing_target(
        &self,
        s: &Source<'_>,
        l: &LocalLink,
        path: &str,
        which: Sources,
    ) -> Option<Diagnostic> {
        let named = self
            .rules
            .with(&self.cat.categories)
            .link_target(&l.dest, s.file);
        if let Some(id) = named {
            match self.cat.check(&id) {
                // A dead or retired id is the graph's finding; a wrong path to a live
                // check in a document is AB621's.
                None => return None,
                Some(_) if which == Sources::Documents && !l.dest.contains("://") => return None,
                Some(c) => {
                    let want = relative(s.file, &c.file);
                    return Some(
                        at(
                            s,
                            l,
                            &codes::LINK_TARGET_MISSING,
                            format!(
                                "link to `{id}` is written `{}`, which leads to `{path}`: no such file (the check is `{}`)",
                                l.dest, c.file
                            ),
                        )
                        .id(id.as_str())
                        .help(format!("write `{want}`")),
                    );
                }
            }
        }
        Some(at(
            s,
            l,
            &codes::LINK_TARGET_MISSING,
            format!("link `{}` leads to `{path}`, which does not exist", l.dest),
        ))
    }

    /// A link into a Markdown file to a heading or anchor it does not have.
    fn missing_fragment(
        &self,
        s: &Source<'_>,
        l: &LocalLink,
        path: &str,
        fragment: &str,
    ) -> Option<Diagnostic> {
        let known = self.known_anchors(path);
        if anchors::answers(known.as_ref()?, fragment) {
            return None;
        }
        let mut d = at(
            s,
            l,
            &codes::LINK_FRAGMENT_MISSING,
            format!(
                "link `{}`: `{path}` has no heading or anchor `#{fragment}`",
                l.dest
            ),
        );
        if let Some(c) = self.cat.check_by_file(path) {
            d = d.id(c.id.as_str());
        }
        let help = known
            .as_ref()
            .and_then(|k| crate::text::suggest::suggest(fragment, k.iter().map(String::as_str)))
            .map(|s| crate::text::suggest::phrase(&format!("`#{s}`")))
            .unwrap_or_else(|| codes::LINK_FRAGMENT_MISSING.help.into());
        Some(d.help(help))
    }

    /// The anchors of a file, read once per run.
    fn known_anchors(&self, path: &str) -> Option<Arc<BTreeSet<String>>> {
        let cached = self.anchors.lock().ok().and_then(|c| c.get(path).cloned());
        match cached {
            Some(k) => k,
            None => {
                // Read outside the lock; two threads may read the same file once each.
                let k = self.anchors_of(path).map(Arc::new);
                if let Ok(mut c) = self.anchors.lock() {
                    c.insert(path.to_string(), k.clone());
                }
                k
            }
        }
    }

    /// The anchors of the Markdown file at `path` (root-relative): a check's body, a loaded
    /// document or rule file, else the file read afresh. `None` when it cannot be read (the
    /// fragment then goes unjudged rather than wrongly flagged).
    fn anchors_of(&self, path: &str) -> Option<BTreeSet<String>> {
        let body = |t: &str| match frontmatter::split(t) {
            Ok(split) => anchors::of_markdown(split.body),
            Err(_) => anchors::of_markdown(t),
        };
        if self.cat.check_by_file(path).is_some() {
            let t = crate::load::source(self.cat, path)?;
            return Some(body(&t));
        }
        if let Some(d) = self
            .cat
            .documents
            .iter()
            .find(|d| link_dest::lexical("", &d.path) == path)
        {
            return Some(anchors::of_markdown(&d.text));
        }
        if let Some(t) = self.cat.sources.get(path) {
            return Some(body(t));
        }
        let t = text::read(&self.repository, &self.cat.root.join(path)).ok()?;
        Some(if t.text.starts_with("---") {
            body(&t.text)
        } else {
            anchors::of_markdown(&t.text)
        })
    }
}

/// `to` written relative to the directory of `from` (both root-relative, lexical).
fn relative(from: &str, to: &str) -> String {
    let from = link_dest::lexical("", from);
    let to = link_dest::lexical("", to);
    let f: Vec<&str> = from
        .rsplit_once('/')
        .map(|(d, _)| d.split('/').collect())
        .unwrap_or_default();
    let t: Vec<&str> = to.split('/').collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = f[common..].iter().map(|_| "..").collect();
    parts.extend(&t[common..]);
    parts.join("/")
}

/// A finding at a link.
fn at(s: &Source<'_>, l: &LocalLink, code: &'static crate::diag::Code, msg: String) -> Diagnostic {
    Diagnostic::new(code, msg)
        .file(s.file)
        .at(l.line as usize, l.column as usize)
}

#[cfg(test)]
mod tests {
    use super::relative;

    #[test]
    fn relative_paths() {
        assert_eq!(relative("checks/A.md", "checks/B.md"), "B.md");
        assert_eq!(relative("README.md", "checks/B.md"), "checks/B.md");
        assert_eq!(relative("docs/x/y.md", "checks/B.md"), "../../checks/B.md");
    }
}
