//! A writing command's hold on the catalogue: an exclusive lock on `.auditbook.lock` in the
//! root (so two `new` runs cannot both take the next number), recovery of an interrupted
//! change, the sweep of temporary files left by a crash, and the journaled application of a
//! group of changes.

use super::atomic::{self, Staged, LOCKED_MARK};
use super::journal::{self, Recovered, Step};
use super::target::{self, Target};
use super::Change;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

pub const LOCK_FILE: &str = ".auditbook.lock";

/// How deep below the root the sweep looks for leftover temporary files (`checks/`,
/// `rules/`, a documents folder).
const SWEEP_DEPTH: usize = 3;

pub struct Session {
    root: PathBuf,
    // Held for the session's lifetime; the lock goes with the handle (also on a crash).
    _lock: File,
    /// What was repaired when the session began, one line each, for the command to print.
    pub repairs: Vec<String>,
}

impl Session {
    /// Lock the catalogue at `root` (waiting for another writer, after calling `on_wait`),
    /// finish an interrupted change and sweep leftover temporary files.
    pub fn begin(root: &Path, on_wait: impl FnOnce()) -> io::Result<Session> {
        if !root.is_dir() {
            return Err(io::Error::other(format!(
                "catalogue root `{}` is not a readable directory",
                root.display()
            )));
        }
        // Lexical like the paths the journal records, so they are found under it.
        let root = crate::confine::normalise(&std::path::absolute(root)?);
        let lock_path = root.join(LOCK_FILE);
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
        let lock = options.open(&lock_path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot lock the catalogue (`{}`): {e}", lock_path.display()),
            )
        })?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                on_wait();
                lock.lock()?;
            }
            Err(TryLockError::Error(e)) => return Err(e),
        }
        let mut session = Session {
            root,
            _lock: lock,
            repairs: Vec::new(),
        };
        session.repair()?;
        Ok(session)
    }

    fn repair(&mut self) -> io::Result<()> {
        let boundary = crate::confine::Fence::repository_of(&self.root)
            .base()
            .to_path_buf();
        let mut dirs = vec![self.root.clone()];
        if let Some(Recovered {
            command,
            redone,
            notes,
            dirs: touched,
        }) = journal::recover(&self.root, &boundary)?
        {
            self.repairs.push(format!(
                "finished an interrupted `{command}` ({redone} step(s) redone)"
            ));
            self.repairs.extend(notes);
            dirs.extend(touched);
        }
        let mut swept = 0;
        for dir in &dirs {
            // The root is walked to SWEEP_DEPTH; the folders a journal named, on their own.
            let depth = if dir == &self.root { SWEEP_DEPTH } else { 0 };
            swept += sweep(dir, depth);
        }
        if swept > 0 {
            self.repairs.push(format!(
                "removed {swept} temporary file(s) left by an interrupted run"
            ));
        }
        Ok(())
    }

    /// Apply a group of changes, all or nothing: every new content is written to a temporary
    /// file first, the plan is journaled, then the renames run. A failure undoes what was done;
    /// a crash is finished by the next session. `command` names the change in the journal.
    pub fn apply(&self, command: &str, changes: &[Change]) -> io::Result<()> {
        if changes.is_empty() {
            return Ok(());
        }
        // Every target is held to the repository before anything is staged: a planned path
        // whose folder, or whose symlink's target, lies outside would write outside it.
        let boundary = crate::confine::Fence::repository_of(&self.root)
            .base()
            .to_path_buf();
        for change in changes {
            inside(&boundary, change)?;
        }
        let mut planned: Vec<Planned> = Vec::new();
        for change in changes {
            match stage(change) {
                Ok(p) => planned.push(p),
                Err(e) => {
                    discard(&planned);
                    return Err(e);
                }
            }
        }
        let steps: Vec<Step> = planned.iter().map(|p| p.step(&self.root)).collect();
        if let Err(e) = journal::write(&self.root, command, &steps) {
            discard(&planned);
            return Err(e);
        }
        for (i, p) in planned.iter().enumerate() {
            if let Err(e) = p.commit() {
                let undone = undo(planned.get(..i).unwrap_or_default());
                discard(planned.get(i..).unwrap_or_default());
                let _ = journal::remove(&self.root);
                return Err(match undone {
                    Ok(()) => e,
                    Err(u) => io::Error::new(
                        e.kind(),
                        format!("{e}; undoing the steps before it failed too: {u}"),
                    ),
                });
            }
        }
        journal::remove(&self.root)?;
        Ok(())
    }
}

/// One change, ready to commit, with what undoing it needs.
enum Planned {
    Replace(Staged, Option<Vec<u8>>),
    Create(Staged),
    Remove(PathBuf, Vec<u8>),
}

impl Planned {
    fn step(&self, root: &Path) -> Step {
        let tmp_name = |s: &Staged| {
            s.tmp
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        match self {
            Planned::Replace(s, _) => Step::Replace {
                tmp: tmp_name(s),
                path: journal::recorded(root, &s.target),
            },
            Planned::Create(s) => Step::Create {
                tmp: tmp_name(s),
                path: journal::recorded(root, &s.target),
            },
            Planned::Remove(p, _) => Step::Remove {
                path: journal::recorded(root, p),
            },
        }
    }

    fn commit(&self) -> io::Result<()> {
        match self {
            Planned::Replace(s, _) => atomic::replace(s),
            Planned::Create(s) => atomic::create(s),
            Planned::Remove(p, _) => atomic::remove(p),
        }
    }
}

/// Refuse a change whose file would land outside `boundary`: its folder resolved, and for a
/// replacement through a symbolic link, the link's target too (a removal removes the link).
fn inside(boundary: &Path, change: &Change) -> io::Result<()> {
    let (path, follows) = match change {
        Change::Write(p, _) => (p, true),
        Change::Create(p, _) => (p, false),
        Change::Remove(p) => (p, false),
    };
    let mut at = crate::confine::normalise(&std::path::absolute(path)?);
    if follows {
        if let Ok(link) = fs::read_link(&at) {
            at = crate::confine::normalise(&atomic::parent(&at).join(link));
        }
    }
    if lands_within(boundary, &at).map_err(|e| named(path, e))? {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "`{}` lies outside the repository that holds the catalogue (`{}`); nothing was written",
            path.display(),
            boundary.display()
        )))
    }
}

/// Whether the file at `path` lands inside `boundary` (a canonical folder): its folder with
/// every link resolved lies below it.
pub(super) fn lands_within(boundary: &Path, path: &Path) -> io::Result<bool> {
    Ok(fs::canonicalize(atomic::parent(path))?.starts_with(boundary))
}

fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("`{}`: {e}", path.display()))
}

fn stage(change: &Change) -> io::Result<Planned> {
    match change {
        Change::Write(path, text) => {
            let target = target::resolve(path).map_err(|e| named(path, e))?;
            stage_replace(path, target, text)
        }
        Change::Create(path, text) => {
            if fs::symlink_metadata(path).is_ok() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("`{}` already exists", path.display()),
                ));
            }
            let staged = atomic::stage(&Target::New(path.clone()), text.as_bytes(), LOCKED_MARK)
                .map_err(|e| named(path, e))?;
            Ok(Planned::Create(staged))
        }
        Change::Remove(path) => {
            let before = held_bytes(path, true).map_err(|e| named(path, e))?;
            Ok(Planned::Remove(path.clone(), before))
        }
    }
}

/// A replacement of `path`, whose target was classified as `target`.
fn stage_replace(path: &Path, target: Target, text: &str) -> io::Result<Planned> {
    if let Target::Stream(_) = target {
        return Err(io::Error::other(format!(
            "`{}` is not a regular file; a catalogue file is replaced as a whole",
            path.display()
        )));
    }
    let before = match &target {
        Target::Regular(p, _) => Some(held_bytes(p, false).map_err(|e| named(p, e))?),
        _ => None,
    };
    let staged =
        atomic::stage(&target, text.as_bytes(), LOCKED_MARK).map_err(|e| named(path, e))?;
    Ok(Planned::Replace(staged, before))
}

/// The bytes of a regular file about to be replaced or removed (what undoing restores), read
/// through a handle opened without blocking (and, for a file already resolved, without
/// following a link) and checked again on the handle: a FIFO swapped in after the file was
/// classified must not hold the catalogue lock forever.
fn held_bytes(path: &Path, follow_link: bool) -> io::Result<Vec<u8>> {
    let bytes = if follow_link {
        crate::load::text::read_limited(path)?
    } else {
        crate::load::text::read_unlinked(path)?
    };
    if bytes.len() as u64 > crate::load::text::MAX_FILE_BYTES {
        return Err(io::Error::other("it is over the size limit of a catalogue file"));
    }
    Ok(bytes)
}

/// Remove the temporary files of steps that will not run.
fn discard(planned: &[Planned]) {
    for p in planned {
        if let Planned::Replace(s, _) | Planned::Create(s) = p {
            let _ = fs::remove_file(&s.tmp);
        }
    }
}

/// Put back what the committed steps changed, latest first.
fn undo(done: &[Planned]) -> io::Result<()> {
    for p in done.iter().rev() {
        match p {
            Planned::Replace(s, Some(before)) => restore(&s.target, before)?,
            Planned::Replace(s, None) | Planned::Create(s) => fs::remove_file(&s.target)?,
            Planned::Remove(path, before) => restore(path, before)?,
        }
    }
    Ok(())
}

fn restore(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let staged = atomic::stage(&target::resolve(path)?, bytes, LOCKED_MARK)?;
    atomic::replace(&staged)
}

/// A writing command's temporary file whose process is gone. The process id in the name is
/// checked where `/proc` can tell: a catalogue nested in another one's folder may be written by
/// a run that holds the other catalogue's lock.
fn leftover(name: &str) -> bool {
    let Some((_, rest)) = name.split_once(LOCKED_MARK) else {
        return false;
    };
    let pid = rest.split('-').next().unwrap_or("");
    let proc_fs = Path::new("/proc/self").exists();
    !(proc_fs && !pid.is_empty() && Path::new("/proc").join(pid).exists())
}

/// Remove auditbook's temporary files under `dir`: under the lock, none belongs to a live run.
/// Symlinked folders and hidden folders (`.git`) are not entered.
fn sweep(dir: &Path, depth: usize) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(ft) = entry.file_type() else {
            continue;
        };
        if ft.is_file() && name.starts_with('.') && leftover(&name) {
            if fs::remove_file(entry.path()).is_ok() {
                n += 1;
            }
        } else if ft.is_dir() && depth > 0 && !name.starts_with('.') {
            n += sweep(&entry.path(), depth - 1);
        }
    }
    n
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::swap;
    use super::*;

    /// `lint --fix` classifies the file to fix, then reads what undoing would restore: a FIFO
    /// swapped in between is refused, not waited on with the catalogue locked.
    #[test]
    fn a_file_swapped_for_a_fifo_after_it_was_classified_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("FID-001.md");
        fs::write(&path, "vorher\n").unwrap();
        let classified = target::resolve(&path).unwrap();
        assert!(matches!(classified, Target::Regular(..)));
        swap::for_fifo(&path);
        let p = path.clone();
        let staged = swap::returns(move || stage_replace(&p, classified, "nachher\n").err());
        let err = staged.expect("staging blocked on the FIFO").expect("refused");
        assert!(err.to_string().contains("FIFO"), "{err}");
        assert!(fs::symlink_metadata(&path).unwrap().file_type().is_fifo());
    }

    /// The twin: the file still regular is staged and its bytes kept for undoing.
    #[test]
    fn a_regular_file_is_staged_with_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("FID-001.md");
        fs::write(&path, "vorher\n").unwrap();
        let classified = target::resolve(&path).unwrap();
        let planned = stage_replace(&path, classified, "nachher\n").unwrap();
        let Planned::Replace(staged, Some(before)) = &planned else {
            panic!("not a replacement");
        };
        assert_eq!(before, b"vorher\n");
        discard(std::slice::from_ref(&planned));
        assert!(!staged.tmp.exists());
    }

    use std::os::unix::fs::FileTypeExt;
}
