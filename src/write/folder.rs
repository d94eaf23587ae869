//! A folder of generated files (`site --out DIR`), written so that nothing planted in the
//! folder can lead a write elsewhere. A published folder is often part of a checkout
//! (`public/`), so whoever can change the repository can put a symbolic link at a page's
//! name, or at a subfolder's, pointing anywhere the build may write.
//!
//! Every path is held before anything is written: below the folder only real folders and
//! regular files (or nothing yet) are accepted; a symbolic link, FIFO, device or socket there
//! is refused and no file is written. The folder itself is refused when it is a link. Each
//! file is then put in place as `file` would put it, by a temporary file renamed over the
//! name, which replaces the directory entry and never writes into what it held. Pages are not
//! flushed to disk one by one: a site is rebuilt, not recovered, and the flushes were most of
//! its CPU time; a reader still never sees half a page.

use super::atomic::{self, Flush, UNLOCKED_MARK};
use super::target::{self, Target};
use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Write `files` (paths relative to `dir`, `/`-separated) into `dir`, creating it and the
/// subfolders the paths need. A page that already holds the same bytes is left as it is (a
/// site rebuilt after an edit changes a few pages). `Err` names the first path refused;
/// nothing was written then.
pub fn folder(dir: &Path, files: &[(String, String)]) -> io::Result<()> {
    prepare(dir)?;
    let base = fs::canonicalize(dir).map_err(|e| named(dir, e))?;
    let mut planned: Vec<(PathBuf, Target, &str)> = Vec::with_capacity(files.len());
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    let mut folders: Vec<PathBuf> = Vec::new();
    for (rel, text) in files {
        let path = dir.join(relative(rel)?);
        for sub in subfolders(dir, rel) {
            if !seen.insert(sub.clone()) {
                continue;
            }
            match held(&sub)? {
                Held::Folder => {}
                Held::Nothing => folders.push(sub),
                Held::File(_) => return Err(refused(&sub, "a regular file, not a folder")),
            }
        }
        let target = match held(&path)? {
            Held::Nothing => Target::New(path.clone()),
            Held::File(len) if len == text.len() as u64 && same_bytes(&path, text) => continue,
            Held::File(_) => target::resolve(&path).map_err(|e| named(&path, e))?,
            Held::Folder => return Err(refused(&path, "a folder, not a file")),
        };
        planned.push((path, target, text));
    }
    for sub in &folders {
        // One level at a time and never following a link: a name taken since it was looked
        // at fails here instead of being entered.
        fs::create_dir(sub).or_else(|e| match held(sub) {
            Ok(Held::Folder) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
            _ => Err(named(sub, e)),
        })?;
    }
    // The check a write session makes, made again now the subfolders exist: once per folder
    // the pages go to (resolving a path costs a system call per component).
    let mut held_to: Vec<&Path> = Vec::new();
    for (path, _, _) in &planned {
        let parent = atomic::parent(path);
        if held_to.contains(&parent) {
            continue;
        }
        if !super::session::lands_within(&base, path).map_err(|e| named(path, e))? {
            return Err(io::Error::other(format!(
                "`{}` would be written outside `{}`; stopped",
                path.display(),
                dir.display()
            )));
        }
        held_to.push(parent);
    }
    for (path, target, text) in &planned {
        let staged = atomic::stage_with(target, text.as_bytes(), UNLOCKED_MARK, Flush::Rename)
            .map_err(|e| named(path, e))?;
        atomic::replace_with(&staged, Flush::Rename).map_err(|e| named(path, e))?;
    }
    Ok(())
}

/// The folder itself: created when missing, refused when it is a link or not a folder.
fn prepare(dir: &Path) -> io::Result<()> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => {
            Err(refused(dir, "a symbolic link; give the folder itself"))
        }
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => Err(refused(
            dir,
            &format!("{}, not a folder", crate::load::text::file_kind(&m)),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(dir).map_err(|e| named(dir, e))
        }
        Err(e) => Err(named(dir, e)),
    }
}

/// A relative path of plain names only: no root, no `..`, nothing that leaves the folder.
fn relative(rel: &str) -> io::Result<&Path> {
    let path = Path::new(rel);
    let plain = !rel.is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)));
    if plain {
        Ok(path)
    } else {
        Err(io::Error::other(format!(
            "`{rel}` is not a plain path inside the folder"
        )))
    }
}

/// The folders between `dir` and the file `rel`, outermost first.
fn subfolders(dir: &Path, rel: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut at = dir.to_path_buf();
    let mut parts: Vec<&str> = rel.split('/').collect();
    parts.pop();
    for part in parts {
        at.push(part);
        out.push(at.clone());
    }
    out
}

/// What may be at a path below the folder.
enum Held {
    Nothing,
    Folder,
    /// A regular file, of this length.
    File(u64),
}

/// Whether the regular file at `path` holds `text`, read without blocking or following a
/// link (anything that cannot be read so is rewritten).
fn same_bytes(path: &Path, text: &str) -> bool {
    crate::load::text::read_unlinked(path).is_ok_and(|b| b == text.as_bytes())
}

/// What is at `path`, without following a link; anything but nothing, a real folder or a
/// regular file is refused.
fn held(path: &Path) -> io::Result<Held> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Held::Nothing),
        Err(e) => Err(named(path, e)),
        Ok(m) if m.file_type().is_symlink() => Err(refused(
            path,
            "a symbolic link; nothing is written through a link in the folder",
        )),
        Ok(m) if m.is_dir() => Ok(Held::Folder),
        Ok(m) if m.is_file() => Ok(Held::File(m.len())),
        Ok(m) => Err(refused(
            path,
            &format!(
                "{}; only regular files are replaced",
                crate::load::text::file_kind(&m)
            ),
        )),
    }
}

fn refused(path: &Path, what: &str) -> io::Error {
    io::Error::other(format!("`{}` is {what}", path.display()))
}

fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("`{}`: {e}", path.display()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_folder_are_refused() {
        for rel in ["../x.html", "/etc/x", "a/../../x", "", "./x"] {
            assert!(relative(rel).is_err(), "{rel}");
        }
        assert!(relative("checks/FID-001.html").is_ok());
    }

    #[test]
    fn a_file_where_a_folder_is_wanted_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("checks"), "a file").unwrap();
        let files = [
            ("index.html".to_string(), "i".to_string()),
            ("checks/A.html".to_string(), "a".to_string()),
        ];
        assert!(folder(dir.path(), &files).is_err());
        assert!(!dir.path().join("index.html").exists());
    }
}
