//! Confinement of paths written inside files.
//!
//! A path that auditbook reads out of a file (`docs:` and `claims[].doc` in `catalogue.yaml`,
//! `checks_dir`, a portfolio's `profile:`) is data from whoever last edited that file — in CI,
//! the author of a pull request. It must not be able to make auditbook open, print or write a
//! file its author could not already see in the repository. Each such path is therefore
//! resolved against a *fence* (the folder it is allowed to name) before anything is opened:
//! first lexically, so that a path which plainly leaves the fence never touches the file
//! system (not even to learn whether the target exists), then after resolving symbolic links,
//! so that a link inside the fence cannot lead out of it.
//!
//! A deliberate outside path is allowed only from the command line (`--allow-path DIR`),
//! never from configuration: the allow list is a property of the invocation, set once.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

static ALLOWED: OnceLock<Vec<PathBuf>> = OnceLock::new();

/// Record the folders the command line allows beyond every fence. Called once, before loading;
/// later calls are ignored (the first invocation's word stands).
pub fn allow(dirs: &[PathBuf]) {
    let canon = dirs
        .iter()
        .filter_map(|d| d.canonicalize().ok())
        .collect::<Vec<_>>();
    let _ = ALLOWED.set(canon);
}

fn allowed() -> &'static [PathBuf] {
    ALLOWED.get().map(Vec::as_slice).unwrap_or(&[])
}

/// Why a path was refused. The path itself is not echoed by the caller beyond what the file
/// already said: no bytes of the target are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Escape {
    /// An absolute path where a relative one is expected.
    Absolute,
    /// A relative path that leaves the fence (`../..`), or a link that resolves outside it.
    Outside,
}

impl Escape {
    /// The reason as a sentence fragment, e.g. for "`{key}` … {reason}".
    pub fn reason(&self, fence: &str) -> String {
        match self {
            Escape::Absolute => format!(
                "is an absolute path; paths here are relative to {fence} (an outside folder needs --allow-path on the command line)"
            ),
            Escape::Outside => format!(
                "leaves {fence}; the file is not opened (an outside folder needs --allow-path on the command line)"
            ),
        }
    }
}

/// The folder a file's paths may name.
#[derive(Debug, Clone)]
pub struct Fence {
    /// Canonical when the folder exists; as given otherwise.
    base: PathBuf,
}

impl Fence {
    pub fn new(dir: &Path) -> Fence {
        let base = dir
            .canonicalize()
            .unwrap_or_else(|_| absolute(dir).unwrap_or_else(|| dir.to_path_buf()));
        Fence { base }
    }

    /// The fence of the paths in `catalogue.yaml`: the repository that holds the catalogue
    /// (the nearest folder at or above the root with a `.git` entry), else the root itself.
    /// A catalogue's README one level up (`../README.md`) is then legal in a repository and
    /// nothing outside the repository ever is.
    pub fn repository_of(root: &Path) -> Fence {
        let root = Fence::new(root).base;
        let repo = root
            .ancestors()
            .find(|d| d.join(".git").exists())
            .map(Path::to_path_buf)
            .unwrap_or(root);
        Fence { base: repo }
    }

    pub fn base(&self) -> &Path {
        &self.base
    }

    /// Resolve `written` (as it stands in a file in `dir`) and return the path to open, or why
    /// not. A path that does not exist is returned as is when it lies inside lexically: the
    /// read that follows reports it missing.
    pub fn resolve(&self, dir: &Path, written: &str) -> Result<PathBuf, Escape> {
        let given = Path::new(written);
        let absolute_written = given.is_absolute() || given.has_root();
        let joined = if absolute_written {
            given.to_path_buf()
        } else {
            let dir = Fence::new(dir).base;
            dir.join(given)
        };
        let lexical = normalise(&joined);
        let inside =
            |p: &Path| p.starts_with(&self.base) || allowed().iter().any(|a| p.starts_with(a));
        let in_allowed = |p: &Path| allowed().iter().any(|a| p.starts_with(a));
        if absolute_written && !in_allowed(&lexical) {
            return Err(Escape::Absolute);
        }
        if !inside(&lexical) {
            return Err(Escape::Outside);
        }
        match lexical.canonicalize() {
            Ok(real) if inside(&real) => Ok(real),
            Ok(_) => Err(Escape::Outside),
            // Missing: nothing to leak; the reader says "cannot read". A missing file behind a
            // link that leaves the fence is missing all the same.
            Err(_) => Ok(lexical),
        }
    }

    /// Whether an existing path (already built by the engine, e.g. a listed directory entry)
    /// resolves inside the fence.
    pub fn contains(&self, path: &Path) -> bool {
        match path.canonicalize() {
            Ok(real) => {
                real.starts_with(&self.base) || allowed().iter().any(|a| real.starts_with(a))
            }
            Err(_) => normalise(&absolute(path).unwrap_or_else(|| path.to_path_buf()))
                .starts_with(&self.base),
        }
    }
}

fn absolute(p: &Path) -> Option<PathBuf> {
    std::path::absolute(p).ok()
}

/// `a/b/../c/./d` → `a/c/d`, without touching the file system. `..` above the start is kept
/// (it can only make a path leave the fence, which the caller then reports).
pub fn normalise(p: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) | Some(Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    out.iter().collect()
}

/// A path as written in a file, for a message: bounded and without control characters, so a
/// crafted path cannot flood or forge the output.
pub fn shown_path(written: &str) -> String {
    let mut out: String = written
        .chars()
        .take(160)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if written.chars().count() > 160 {
        out.push('…');
    }
    out
}

/// A name that is safe as one file name inside a folder: no separators, no `..`, no control
/// characters, not empty. Used for names that become file names (a portfolio's server name
/// under `--results-dir`).
pub fn plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.chars().any(char::is_control)
        && Path::new(name).components().count() == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_folds_steps() {
        assert_eq!(
            normalise(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(normalise(Path::new("/a/../../x")), PathBuf::from("/x"));
    }

    #[test]
    fn lexical_escape_is_refused_without_touching_the_target() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let fence = Fence::new(dir.path());
        assert_eq!(
            fence.resolve(dir.path(), "../../../../proc/self/environ"),
            Err(Escape::Outside)
        );
        assert_eq!(
            fence.resolve(dir.path(), "/etc/passwd"),
            Err(Escape::Absolute)
        );
        assert!(fence.resolve(dir.path(), "sub/../README.md").is_ok());
    }

    #[test]
    fn plain_names() {
        assert!(plain_file_name("amtsblatt-mcp"));
        for bad in ["", "..", "../leak", "a/b", "a\\b", "x\ny"] {
            assert!(!plain_file_name(bad), "{bad:?}");
        }
    }
}
