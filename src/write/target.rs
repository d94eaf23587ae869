//! What is at a path auditbook is asked to write, and so how it may be written. A temporary
//! file renamed over the path is right for a regular file and wrong for everything else: it
//! would turn a symlink, a FIFO or a device node (`/dev/null`) into a regular file.

use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// How far a chain of symlinks is followed before giving up (the kernel's own limit).
const MAX_LINKS: usize = 40;

#[derive(Debug)]
pub enum Target {
    /// Nothing there yet; a dangling symlink resolves to the path it names.
    New(PathBuf),
    /// A regular file (symlinks followed to it): replaced atomically, its permissions (and,
    /// where the user may, its owner) kept.
    Regular(PathBuf, Metadata),
    /// A FIFO or character device (`/dev/stdout`, `/dev/null`): written through, never replaced.
    Stream(PathBuf),
}

impl Target {
    /// The path that is actually written (a symlink's final target).
    pub fn path(&self) -> &Path {
        match self {
            Target::New(p) | Target::Regular(p, _) | Target::Stream(p) => p,
        }
    }
}

/// A refusal; the caller names the path ("cannot write `X`: it is a directory").
/// One of the process's own standard streams, named as a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standard {
    Out,
    Err,
}

/// `/dev/stdout` and its aliases name the stream the process already has open, which may be a
/// file opened for appending (`>> log`): opening the name again would write from its start, and
/// resolving it to the file would replace it. Such a path is written to the open stream.
pub fn standard_stream(path: &Path) -> Option<Standard> {
    let s = path.to_str()?;
    match s {
        "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1" => Some(Standard::Out),
        "/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2" => Some(Standard::Err),
        _ => None,
    }
}

fn refused(why: &str) -> io::Error {
    io::Error::other(format!("it {why}"))
}

/// Classify `path`, following symlinks; refuse what must never be written to.
pub fn resolve(path: &Path) -> io::Result<Target> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::New(path.into())),
        Err(e) => return Err(e),
    };
    if !meta.file_type().is_symlink() {
        return classify(path, &meta);
    }
    match fs::metadata(path) {
        // A stream is opened by the name given: `/dev/stdout` goes through a link in /proc
        // that has no path of its own to resolve to.
        Ok(m) if !m.is_file() => classify(path, &m),
        Ok(m) => {
            let real = fs::canonicalize(path)?;
            classify(&real, &m)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Target::New(dangling(path)?)),
        Err(e) => Err(e),
    }
}

/// The path a dangling chain of symlinks ends at.
fn dangling(path: &Path) -> io::Result<PathBuf> {
    let mut cur = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = fs::read_link(&cur)?;
                cur = match cur.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            _ => return Ok(cur),
        }
    }
    Err(refused("is a chain of too many symbolic links"))
}

fn classify(real: &Path, meta: &fs::Metadata) -> io::Result<Target> {
    let ft = meta.file_type();
    if ft.is_file() {
        writable(real, meta)?;
        return Ok(Target::Regular(real.into(), meta.clone()));
    }
    if ft.is_dir() {
        return Err(refused("is a directory; give a file name"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() || ft.is_char_device() {
            return Ok(Target::Stream(real.into()));
        }
        if ft.is_block_device() {
            return Err(refused(
                "is a block device; auditbook writes only files and streams",
            ));
        }
        if ft.is_socket() {
            return Err(refused("is a socket; auditbook cannot write to it"));
        }
    }
    Err(refused("is not a file auditbook can write"))
}

/// A rename in a writable directory would replace a file the user may not write; refuse that
/// the way writing into the file would be refused (root included: the mode says read-only).
/// The probe opens without blocking and without following a link, and the handle must still
/// be a regular file: a FIFO swapped in since the path was classified would otherwise hold
/// the open (and the catalogue lock) until some reader came.
fn writable(real: &Path, meta: &fs::Metadata) -> io::Result<()> {
    let denied = || {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            "it is read-only; auditbook does not replace a file it may not write",
        )
    };
    if meta.permissions().readonly() {
        return Err(denied());
    }
    let mut options = fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOFOLLOW,
    );
    match options.open(real) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Err(denied()),
        Ok(f) if !f.metadata()?.is_file() => Err(swapped()),
        // A FIFO without a reader refuses a non-blocking open for writing (ENXIO); a link put
        // in the file's place refuses `O_NOFOLLOW` (ELOOP).
        Err(e) if matches!(e.raw_os_error(), Some(libc::ENXIO | libc::ELOOP)) => Err(swapped()),
        _ => Ok(()),
    }
}

/// The refusal for a path whose regular file was replaced by something else while it was
/// being looked at.
fn swapped() -> io::Error {
    io::Error::other("it is no longer a regular file (it changed while auditbook wrote it)")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn symlink_resolves_to_its_target_and_dangling_to_the_named_path() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.md");
        fs::write(&real, "x").unwrap();
        std::os::unix::fs::symlink("real.md", dir.path().join("link.md")).unwrap();
        let t = resolve(&dir.path().join("link.md")).unwrap();
        assert!(matches!(&t, Target::Regular(p, _) if p == &fs::canonicalize(&real).unwrap()));
        std::os::unix::fs::symlink("sub/../gone.md", dir.path().join("dangling.md")).unwrap();
        let t = resolve(&dir.path().join("dangling.md")).unwrap();
        assert!(matches!(&t, Target::New(p) if p.ends_with("sub/../gone.md")));
    }

    /// The file was regular when it was looked at and a FIFO when it is opened to see whether
    /// it may be written: refused at once (a blocking open would wait for a reader forever).
    #[test]
    fn a_fifo_swapped_in_before_the_write_probe_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("FID-001.md");
        fs::write(&path, "x").unwrap();
        let meta = fs::symlink_metadata(&path).unwrap();
        super::super::swap::for_fifo(&path);
        let p = path.clone();
        let probed = super::super::swap::returns(move || classify(&p, &meta).map(|_| ()))
            .expect("the write probe blocked on the FIFO");
        let err = probed.unwrap_err();
        assert!(err.to_string().contains("no longer a regular file"), "{err}");
    }

    #[test]
    fn directories_and_devices_are_classified() {
        let dir = tempfile::tempdir().unwrap();
        assert!(resolve(dir.path()).is_err());
        assert!(matches!(
            resolve(Path::new("/dev/null")).unwrap(),
            Target::Stream(_)
        ));
    }
}
