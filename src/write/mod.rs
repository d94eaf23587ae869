//! Every file auditbook writes goes through this module, safely against whatever is at the
//! path:
//!
//! - a regular file or a new path is written atomically: a temporary file beside it, flushed
//!   to disk, renamed over it, the directory flushed. A replaced file keeps its permissions; a
//!   new one gets 0666 less the umask. A read-only file is refused, not replaced.
//! - a symlink is followed and its final target rewritten that way; the link stays a link.
//! - a FIFO or character device (`/dev/stdout`, `/dev/null`) is written through, never replaced.
//! - a directory, block device or socket is refused with a message.
//!
//! `site --out DIR` writes a whole folder through [`folder`], which refuses links, FIFOs and
//! devices anywhere below the folder before it writes anything.
//!
//! Writing commands (`new`, `retire`, `sync`) work in a [`Session`]: an exclusive lock on the
//! catalogue, an intent journal for changes to several files, recovery of an interrupted
//! change and a sweep of leftover temporary files.

mod atomic;
pub mod fault;
mod folder;
pub mod journal;
mod session;
pub mod target;

pub use folder::folder;
pub use session::Session;
#[cfg(any(test, feature = "internals"))]
pub use session::LOCK_FILE;

use std::io;
use std::path::{Path, PathBuf};
use target::Target;

/// One planned change to the catalogue.
#[derive(Debug)]
pub enum Change {
    /// Replace (or create) a file with this text.
    Write(PathBuf, String),
    /// Create a file that must not exist yet (`O_EXCL`): never overwrites a file that appeared
    /// since the plan was made.
    Create(PathBuf, String),
    /// Remove a file (a symlink itself, not its target).
    Remove(PathBuf),
}

/// Write one file outside any catalogue change (`audit --out`), by the rules above.
pub fn file(path: &Path, contents: &str) -> io::Result<()> {
    match target::resolve(path)? {
        Target::Stream(p) => atomic::stream(&p, contents.as_bytes()),
        t => atomic::replace(&atomic::stage(
            &t,
            contents.as_bytes(),
            atomic::UNLOCKED_MARK,
        )?),
    }
}

/// Append `text` to the file at `path` (created when missing): a run file grows by one line
/// per server as each finishes, so a run that is stopped keeps what it did. A link or anything
/// but a regular file at the path is refused.
pub fn append(path: &Path, text: &str) -> io::Result<()> {
    use std::io::Write;
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if !m.file_type().is_file() {
            return Err(io::Error::other(format!(
                "`{}` is not a regular file",
                path.display()
            )));
        }
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(text.as_bytes())
}

/// The folder `dir`, and any parent missing, for files about to be written into it (`audit
/// --out`, `init`, a probe's results folder).
pub fn dir(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)
}

/// Remove a folder and everything below it, when it is there (a throwaway environment about to
/// be made again). A link at the path is removed itself, never followed.
pub fn remove_tree(dir: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(m) if m.file_type().is_dir() => std::fs::remove_dir_all(dir),
        Ok(_) => std::fs::remove_file(dir),
    }
}

/// The user's cache directory for auditbook: `AUDITBOOK_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/auditbook`, else `~/.cache/auditbook` (absolute paths only). Outlines and
/// installed packages are kept there, never in a catalogue or a server's tree.
pub fn cache_root() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    if let Some(d) = std::env::var_os("AUDITBOOK_CACHE_DIR").and_then(absolute) {
        return Some(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").and_then(absolute) {
        return Some(d.join("auditbook"));
    }
    std::env::var_os("HOME")
        .and_then(absolute)
        .map(|h| h.join(".cache").join("auditbook"))
}

/// A file of the user's cache (outlines kept between runs), written atomically (`0600`, not
/// flushed to disk: a torn file fails its own checksum) into a directory made private to the
/// user. A directory that already exists must be the user's and writable by no one else, or
/// nothing is written. Only a regular file or nothing is replaced: a symlink,
/// FIFO, device or directory at the path is left alone and the write refused.
pub fn cache_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = atomic::parent(path);
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    crate::load::text::private(&std::fs::metadata(dir)?)?;
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => {
            return Err(io::Error::other("it is not a regular file"))
        }
        Ok(_) => {}
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        Err(_) => {}
    }
    atomic::replace_unsynced(path, bytes)
}

/// What the write tests use to swap a file for a FIFO while it is being written, and to tell
/// a call that returns from one that blocks.
#[cfg(all(test, unix))]
mod swap {
    use std::path::Path;

    pub fn for_fifo(path: &Path) {
        std::fs::remove_file(path).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success());
    }

    /// Run `f` on another thread; `None` if it has not returned after a while (it blocked).
    pub fn returns<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(30)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_group_restores_earlier_writes() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "original").unwrap();
        let b = dir.path().join("b.txt");
        std::fs::write(&b, "b").unwrap();
        let session = Session::begin(dir.path(), || {}).unwrap();
        // The removal of a file that is gone fails while planning: nothing is written.
        let err = session.apply(
            "test",
            &[
                Change::Write(a.clone(), "changed".into()),
                Change::Remove(dir.path().join("missing.txt")),
            ],
        );
        assert!(err.is_err());
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "original");
        // A creation over an existing file fails while committing: the write before it is undone.
        let err = session.apply(
            "test",
            &[
                Change::Write(a.clone(), "changed".into()),
                Change::Remove(b.clone()),
                Change::Create(a.clone(), "x".into()),
            ],
        );
        assert!(err.is_err(), "{err:?}");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "original");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "b");
        assert!(!dir.path().join(journal::FILE_NAME).exists());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".auditbook-tmp-"))
            .collect();
        assert!(names.is_empty(), "{names:?}");
    }
}
