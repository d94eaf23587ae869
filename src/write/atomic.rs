//! The primitives: a temporary file beside the target, flushed to disk, then renamed over it
//! (or linked into place when the target must be new); a stream written through; the
//! directory flushed so the rename itself survives a power cut.

use super::fault;
use super::target::Target;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Marks the temporary files of writing commands (which hold the catalogue lock): any such
/// file found later is left over from a crash and is swept.
pub const LOCKED_MARK: &str = ".auditbook-tmp-";
/// Marks the temporary files of `--out` and `site` writes, which take no lock and whose
/// temporary files are therefore never swept by another process.
pub const UNLOCKED_MARK: &str = ".auditbook-out-";

/// A temporary file holding the new contents, ready to be put in place.
#[derive(Debug)]
pub struct Staged {
    pub tmp: PathBuf,
    pub target: PathBuf,
}

pub fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Whether a file put in place is flushed to disk first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flush {
    /// The file, then its folder's entry: a catalogue file or a report survives a power cut
    /// as the old or the new text.
    Disk,
    /// Renamed into place only, so a reader never sees half of it, and left to the kernel to
    /// write out: output that is rebuilt rather than recovered (the site's pages, where a
    /// flush per page was most of a run's CPU time).
    Rename,
}

/// Write `bytes` to a new temporary file beside `target` and flush it to disk. A new file gets
/// 0666 less the umask (the kernel applies it); a replaced file keeps its permissions.
pub fn stage(target: &Target, bytes: &[u8], mark: &str) -> io::Result<Staged> {
    stage_with(target, bytes, mark, Flush::Disk)
}

/// [`stage`], flushed to disk or not as `flush` says.
pub fn stage_with(target: &Target, bytes: &[u8], mark: &str, flush: Flush) -> io::Result<Staged> {
    let path = target.path();
    let (tmp, mut file) = new_temp(path, mark, 0o666)?;
    let written = (|| {
        file.write_all(bytes)?;
        if let Target::Regular(_, meta) = target {
            file.set_permissions(meta.permissions())?;
            // Root rewriting a user's file must not leave it root's; anyone else cannot give
            // a file away and need not (the file was theirs to write).
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
            }
        }
        match flush {
            Flush::Disk => file.sync_all(),
            Flush::Rename => Ok(()),
        }
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(Staged {
        tmp,
        target: path.to_path_buf(),
    })
}

/// A temporary file beside `path` renamed over it, neither flushed to disk nor counted as a
/// step of a catalogue change: for files whose loss costs nothing (the outline cache checks
/// its own contents and is rebuilt when torn).
pub fn replace_unsynced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (tmp, mut file) = new_temp(path, UNLOCKED_MARK, 0o600)?;
    let written = file.write_all(bytes).and_then(|()| fs::rename(&tmp, path));
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A new temporary file beside `path` (`.NAME` + `mark` + process and sequence number),
/// created exclusively — never an existing file or a link planted at that name — with `mode`
/// less the umask.
fn new_temp(path: &Path, mark: &str, mode: u32) -> io::Result<(PathBuf, File)> {
    static SEQ: AtomicUsize = AtomicUsize::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let seq = SEQ.fetch_add(1, Ordering::Relaxed);
    let tmp = parent(path).join(format!(".{name}{mark}{}-{seq}", std::process::id()));
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    let file = options.open(&tmp)?;
    Ok((tmp, file))
}

/// Rename the temporary file over its target.
pub fn replace(staged: &Staged) -> io::Result<()> {
    replace_with(staged, Flush::Disk)
}

/// [`replace`], the folder flushed to disk or not as `flush` says.
pub fn replace_with(staged: &Staged, flush: Flush) -> io::Result<()> {
    fs::rename(&staged.tmp, &staged.target)?;
    fault::step();
    if flush == Flush::Disk {
        sync_dir(parent(&staged.target));
    }
    Ok(())
}

/// Put the temporary file in place only if the target does not exist (`O_EXCL` semantics with
/// the contents already complete): a hard link fails when the name is taken.
pub fn create(staged: &Staged) -> io::Result<()> {
    match fs::hard_link(&staged.tmp, &staged.target) {
        Ok(()) => {
            fault::step();
            fs::remove_file(&staged.tmp)?;
            fault::step();
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            return Err(io::Error::new(
                e.kind(),
                format!("`{}` already exists", staged.target.display()),
            ))
        }
        // A file system without hard links: check, then rename (the catalogue lock keeps
        // other auditbook processes out of the gap).
        Err(_) => {
            if fs::symlink_metadata(&staged.target).is_ok() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("`{}` already exists", staged.target.display()),
                ));
            }
            fs::rename(&staged.tmp, &staged.target)?;
            fault::step();
        }
    }
    sync_dir(parent(&staged.target));
    Ok(())
}

/// Remove a file (a symlink itself, not what it points to).
pub fn remove(path: &Path) -> io::Result<()> {
    fs::remove_file(path)?;
    fault::step();
    sync_dir(parent(path));
    Ok(())
}

/// Write through an existing stream (FIFO, character device): no temporary file, no rename.
pub fn stream(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = OpenOptions::new().write(true).open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// Flush a directory so that a rename or removal in it is durable. Not every platform can
/// open a directory for this; the rename is still atomic there.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
