//! A server's source tree as the scan reads it: the files below a folder, sorted by path,
//! read through `load::text` (regular files only, bounded), with folders that hold no source of
//! the server's own left out (version control, dependencies, build output, caches), no link
//! followed, and a digest over every path and its bytes, which each result names.

use crate::model::scan::Language;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Folders never read: not the server's own source.
const SKIPPED: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".tox",
    ".next",
    "coverage",
    ".idea",
    ".vscode",
];

/// Build output: not the source in a repository, but the code itself in a published package
/// (an npm package ships its compiled JavaScript in `dist/`).
const BUILD_OUTPUT: &[&str] = &["target", "dist", "build"];

/// At most this many files are read, each at most `FILE_BYTES`.
pub const FILES: usize = 20_000;
pub const FILE_BYTES: u64 = 1 << 20;

/// One file of the tree.
pub struct File {
    /// Relative to the tree's root, `/`-separated.
    pub path: String,
    pub text: String,
    pub language: Option<Language>,
}

/// The tree.
pub struct Tree {
    pub root: PathBuf,
    pub files: Vec<File>,
    /// Files passed over (too large, not text, over the count), with why.
    pub skipped: Vec<String>,
    /// `sha256:` over every path and its bytes.
    pub digest: String,
    /// The tree is what a package ships (a wheel's or an npm tarball's installed files, an
    /// sdist), not a repository: lockfiles, CI and test files are left out of those by
    /// design, so their absence proves nothing.
    pub shipped: bool,
    /// The globs whose files were left out (`--exclude`): neither scanned nor digested, and
    /// named in the results so the digest can be read again.
    pub excluded: Vec<String>,
}

impl Tree {
    /// How many files of each language the tree holds.
    pub fn languages(&self) -> BTreeMap<Language, usize> {
        let mut out = BTreeMap::new();
        for f in &self.files {
            if let Some(l) = f.language {
                *out.entry(l).or_insert(0) += 1;
            }
        }
        out
    }
}

fn walk(
    root: &Path,
    dir: &Path,
    depth: usize,
    shipped: bool,
    out: &mut Vec<PathBuf>,
    skipped: &mut Vec<String>,
) {
    if depth > 24 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        skipped.push(format!("{}: cannot be read", rel(root, dir)));
        return;
    };
    let mut entries: Vec<_> = rd.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let Ok(t) = e.file_type() else { continue };
        let name = e.file_name().to_string_lossy().into_owned();
        let p = e.path();
        if t.is_dir() {
            let build = BUILD_OUTPUT.contains(&name.as_str());
            if !SKIPPED.contains(&name.as_str())
                && !name.ends_with(".egg-info")
                && (shipped || !build)
            {
                walk(root, &p, depth + 1, shipped, out, skipped);
            }
        } else if t.is_file() {
            if out.len() >= FILES {
                skipped.push(format!(
                    "{}: more than {FILES} files; the rest were not read",
                    rel(root, &p)
                ));
                return;
            }
            out.push(p);
        }
    }
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// A tree of files given as text (a catalogue's sample for a rule), digested like one read
/// from disk.
pub fn of_texts(root: &Path, texts: &[(String, String)]) -> Tree {
    let mut hasher = Sha256::new();
    let mut sorted: Vec<&(String, String)> = texts.iter().collect();
    sorted.sort();
    let files = sorted
        .into_iter()
        .map(|(path, text)| {
            hasher.update(path.as_bytes());
            hasher.update([0]);
            hasher.update(Sha256::digest(text.as_bytes()));
            File {
                path: path.clone(),
                text: text.clone(),
                language: Language::of_file(path),
            }
        })
        .collect();
    Tree {
        root: root.to_path_buf(),
        files,
        skipped: Vec::new(),
        digest: format!("sha256:{}", crate::text::digest::hex(&hasher.finalize())),
        shipped: false,
        excluded: Vec::new(),
    }
}

/// Read the tree below `root`.
pub fn read(root: &Path) -> std::io::Result<Tree> {
    read_roots(root, &[(root.to_path_buf(), String::new())], false)
}

/// Read the tree below `root` without the files whose path (relative to `root`) matches one
/// of `exclude` — test fixtures, vendored code, examples that are not the server.
pub fn read_except(root: &Path, exclude: &[String]) -> std::io::Result<Tree> {
    let mut b = globset::GlobSetBuilder::new();
    for g in exclude {
        let glob = globset::Glob::new(g).map_err(|e| {
            std::io::Error::other(format!("`{g}` is not a glob ({e}); e.g. `tests/fixtures/**`"))
        })?;
        b.add(glob);
    }
    let set = b.build().map_err(std::io::Error::other)?;
    let mut t = read_matching(
        root,
        &[(root.to_path_buf(), String::new())],
        false,
        &|path: &str| !set.is_match(path),
    )?;
    t.excluded = exclude.to_vec();
    Ok(t)
}

/// Read several folders as one tree, each below the name given with it (an installed package:
/// its metadata folder and its modules, which lie side by side among other packages' files).
/// `shown` is the tree's root as results name it; `shipped` says the roots are what a package
/// ships, whose build output is its code.
pub fn read_roots(
    shown: &Path,
    roots: &[(PathBuf, String)],
    shipped: bool,
) -> std::io::Result<Tree> {
    read_matching(shown, roots, shipped, &|_: &str| true)
}

/// [`read_roots`], keeping only the files whose tree path `keep` accepts.
fn read_matching(
    shown: &Path,
    roots: &[(PathBuf, String)],
    shipped: bool,
    keep: &dyn Fn(&str) -> bool,
) -> std::io::Result<Tree> {
    let mut hasher = Sha256::new();
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for (root, name) in roots {
        if !std::fs::symlink_metadata(root)?.is_dir() {
            return Err(std::io::Error::other(format!(
                "`{}` is not a folder",
                root.display()
            )));
        }
        let mut paths = Vec::new();
        walk(root, root, 0, shipped, &mut paths, &mut skipped);
        for p in paths {
            let path = match name.as_str() {
                "" => rel(root, &p),
                n => format!("{n}/{}", rel(root, &p)),
            };
            if !keep(&path) {
                continue;
            }
            let size = std::fs::symlink_metadata(&p).map(|m| m.len()).unwrap_or(0);
            if size > FILE_BYTES {
                skipped.push(format!(
                    "{path}: {size} bytes, over the {FILE_BYTES}-byte limit"
                ));
                continue;
            }
            let Ok(bytes) = crate::load::text::read_limited(&p) else {
                skipped.push(format!("{path}: not a regular file that can be read"));
                continue;
            };
            hasher.update(path.as_bytes());
            hasher.update([0]);
            hasher.update(Sha256::digest(&bytes));
            let Ok(text) = String::from_utf8(bytes) else {
                // Binary files count for the digest but hold no source to scan.
                continue;
            };
            let language = Language::of_file(&path);
            files.push(File {
                path,
                text,
                language,
            });
        }
    }
    let digest = format!("sha256:{}", crate::text::digest::hex(&hasher.finalize()));
    Ok(Tree {
        root: shown.to_path_buf(),
        files,
        skipped,
        digest,
        shipped,
        excluded: Vec::new(),
    })
}
