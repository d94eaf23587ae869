//! The intent journal: before the first rename of a change that touches several files, the
//! whole plan is written to `.auditbook-journal` in the catalogue root (every new content
//! already on disk in a temporary file). A crash between two renames leaves the journal behind,
//! and the next writing command rolls the change forward: it finishes every step that was not
//! done. Steps are idempotent, so a crash during recovery is repaired the same way.

use super::atomic::{self, LOCKED_MARK};
use super::target::Target;
use crate::confine::normalise;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = ".auditbook-journal";
const FORMAT: u32 = 1;

/// One step of a change. `tmp` is a file name in the directory of `path`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Step {
    Replace { tmp: String, path: String },
    Create { tmp: String, path: String },
    Remove { path: String },
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Journal {
    auditbook_journal: u32,
    command: String,
    steps: Vec<Step>,
}

/// `path` as the journal records it: relative to the root when it lies under it (so a moved
/// checkout still recovers), else absolute.
pub fn recorded(root: &Path, path: &Path) -> String {
    let abs = normalise(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
    match abs.strip_prefix(root) {
        Ok(rel) => rel.to_string_lossy().into_owned(),
        Err(_) => abs.to_string_lossy().into_owned(),
    }
}

/// Write the journal (atomically: a torn journal would be worse than none).
pub fn write(root: &Path, command: &str, steps: &[Step]) -> io::Result<()> {
    let journal = Journal {
        auditbook_journal: FORMAT,
        command: command.to_string(),
        steps: steps.to_vec(),
    };
    let text = serde_json::to_string_pretty(&journal).map_err(io::Error::other)? + "\n";
    let path = root.join(FILE_NAME);
    let staged = atomic::stage(&Target::New(path), text.as_bytes(), LOCKED_MARK)?;
    atomic::replace(&staged)
}

/// Whether a change to the catalogue at `root` was interrupted and waits to be finished.
pub fn pending(root: &Path) -> bool {
    fs::symlink_metadata(root.join(FILE_NAME)).is_ok()
}

pub fn remove(root: &Path) -> io::Result<()> {
    atomic::remove(&root.join(FILE_NAME))
}

/// What recovery did, for the message the command prints.
#[derive(Debug, Default)]
pub struct Recovered {
    pub command: String,
    pub redone: usize,
    pub notes: Vec<String>,
    /// Directories the change touched: where a crash may have left temporary files.
    pub dirs: Vec<PathBuf>,
}

/// Finish an interrupted change, if the journal says there is one. `boundary` is the folder
/// no step may leave (the repository that holds the catalogue): the journal is a file in the
/// catalogue and could have been planted by anyone who can change the catalogue.
pub fn recover(root: &Path, boundary: &Path) -> io::Result<Option<Recovered>> {
    let path = root.join(FILE_NAME);
    // Regular files only, size-bounded: a planted FIFO journal must not hang a writing command.
    let text = match crate::load::text::read_limited(&path)
        .and_then(|b| String::from_utf8(b).map_err(io::Error::other))
    {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let journal: Journal = serde_json::from_str(&text).map_err(|e| {
        io::Error::other(format!(
            "`{}` is not an auditbook journal ({e}); look at it, then remove it",
            path.display()
        ))
    })?;
    if journal.auditbook_journal != FORMAT {
        return Err(io::Error::other(format!(
            "`{}` has journal format {}, this auditbook reads {FORMAT}",
            path.display(),
            journal.auditbook_journal
        )));
    }
    let mut done = Recovered {
        command: journal.command.clone(),
        ..Default::default()
    };
    // Check every step before doing any: a journal with one bad step is not trusted at all.
    let mut planned = Vec::new();
    for step in &journal.steps {
        planned.push(confine(root, boundary, step)?);
    }
    for (step, target, tmp) in planned {
        if let Some(dir) = target.parent() {
            if !done.dirs.iter().any(|d| d == dir) {
                done.dirs.push(dir.to_path_buf());
            }
        }
        let tmp_there = tmp.as_ref().is_some_and(|t| t.is_file());
        match (&step, tmp) {
            (Step::Replace { .. }, Some(tmp)) if tmp_there => {
                fs::rename(&tmp, &target)?;
                super::fault::step();
                done.redone += 1;
            }
            (Step::Create { .. }, Some(tmp)) if tmp_there => {
                if fs::symlink_metadata(&target).is_err() {
                    fs::rename(&tmp, &target)?;
                    super::fault::step();
                    done.redone += 1;
                } else if fs::read(&tmp)? == fs::read(&target)? {
                    // Linked before the crash; only the temporary name was left.
                    fs::remove_file(&tmp)?;
                    super::fault::step();
                } else {
                    done.notes.push(format!(
                        "`{}` already exists with other contents; kept it",
                        target.display()
                    ));
                }
            }
            (Step::Remove { .. }, _) if fs::symlink_metadata(&target).is_ok() => {
                fs::remove_file(&target)?;
                super::fault::step();
                done.redone += 1;
            }
            _ => {}
        }
        atomic::sync_dir(atomic::parent(&target));
    }
    remove(root)?;
    Ok(Some(done))
}

type Planned = (Step, PathBuf, Option<PathBuf>);

/// The step's paths, refused unless they stay inside `boundary` (symlinks in the directories
/// resolved) and the temporary file is one of auditbook's, beside its target.
fn confine(root: &Path, boundary: &Path, step: &Step) -> io::Result<Planned> {
    let (path, tmp) = match step {
        Step::Replace { tmp, path } | Step::Create { tmp, path } => (path, Some(tmp)),
        Step::Remove { path } => (path, None),
    };
    let bad = |why: &str| {
        io::Error::other(format!(
            "journal step on `{path}` refused: {why}; look at `{}`, then remove it",
            root.join(FILE_NAME).display()
        ))
    };
    let joined = normalise(&root.join(path));
    let name = joined.file_name().ok_or_else(|| bad("no file name"))?;
    let dir =
        fs::canonicalize(atomic::parent(&joined)).map_err(|_| bad("its folder does not exist"))?;
    if !dir.starts_with(boundary) {
        return Err(bad(
            "it lies outside the repository that holds the catalogue",
        ));
    }
    let target = dir.join(name);
    let tmp = match tmp {
        None => None,
        Some(t) => {
            let plain = Path::new(t).components().count() == 1
                && !t.contains('/')
                && !t.contains('\\')
                && t.contains(LOCKED_MARK);
            if !plain {
                return Err(bad("its temporary file is not one of auditbook's"));
            }
            Some(dir.join(t))
        }
    };
    Ok((step.clone(), target, tmp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_the_root_are_recorded_relative_and_others_absolute() {
        let root = normalise(&std::path::absolute("cat").unwrap());
        assert_eq!(
            recorded(&root, Path::new("cat/checks/X-001.md")),
            "checks/X-001.md"
        );
        assert_eq!(
            recorded(&root, Path::new("./cat/a/../MANIFEST.txt")),
            "MANIFEST.txt"
        );
        let outside = recorded(&root, Path::new("cat/../README.md"));
        assert!(Path::new(&outside).is_absolute() && outside.ends_with("README.md"));
    }
}
