//! Reading a text file the way every loader wants it: bounded in size, inside the root, UTF-8,
//! with a BOM stripped and CRLF folded to LF (each reported, never fatal).

use crate::diag::{codes, Diagnostic};
use crate::text::line_index::LineIndex;
use std::path::{Path, PathBuf};

/// Larger files are refused: nothing in a catalogue is legitimately this big, and reading it
/// whole would make memory use depend on hostile input.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Root-relative display path with `/` separators.
pub fn display_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The repository a catalogue lives in: the nearest directory at or above the (resolved)
/// catalogue root that holds `.git`, else the catalogue root itself. Declared documents and
/// followed links may reach above the catalogue root (`../README.md`), never above this.
pub fn repository_root(root: &Path) -> PathBuf {
    crate::confine::Fence::repository_of(root)
        .base()
        .to_path_buf()
}

/// Whether the root-relative lexical path `rel` (as `link_dest::lexical` writes it, perhaps
/// starting with `..`) stays inside `repository`, for a catalogue whose root resolves to
/// `canonical_root`.
pub fn within_repository(canonical_root: &Path, repository: &Path, rel: &str) -> bool {
    let mut full = canonical_root.to_path_buf();
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if !full.pop() {
                    return false;
                }
            }
            s => full.push(s),
        }
    }
    full.starts_with(repository)
}

/// The catalogue root with links resolved (as `repository_root` compares it), or as given.
pub fn canonical(root: &Path) -> PathBuf {
    root.canonicalize().unwrap_or_else(|_| root.to_path_buf())
}

/// Whether `path` (after resolving links) stays inside `root`. Files are found by listing a
/// directory of the root, so only a link (the file itself, or the directory it was listed
/// from) can lead outside; resolving every path costs a system call per path component, so
/// it is done only when a link is there.
pub fn inside_root(root: &Path, path: &Path) -> bool {
    let linked = std::fs::symlink_metadata(path)
        .map(|m| m.file_type().is_symlink())
        .unwrap_or(false)
        || parent_is_link(path);
    if !linked {
        return true;
    }
    match (root.canonicalize(), path.canonicalize()) {
        (Ok(r), Ok(p)) => p.starts_with(r),
        // A path that cannot be resolved is reported by the read that follows.
        _ => true,
    }
}

pub struct Text {
    pub text: String,
    pub notes: Vec<Diagnostic>,
}

/// Texts held by an editor and not saved yet, by the path loading reads them from.
pub type Overlay = std::collections::BTreeMap<PathBuf, String>;

/// Read `path` as catalogue text, from `overlay` when it holds that path.
pub fn read_over(root: &Path, path: &Path, overlay: Option<&Overlay>) -> Result<Text, Diagnostic> {
    let Some(held) = overlay.and_then(|o| o.get(path)) else {
        return read(root, path);
    };
    let shown = display_path(root, path);
    if held.len() as u64 > MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            &codes::FILE_TOO_LARGE,
            format!("`{shown}` is over the limit of {MAX_FILE_BYTES} bytes"),
        )
        .file(shown));
    }
    decode(&shown, held.as_bytes().to_vec())
}

/// Read `path` as catalogue text. `Err` carries the diagnostic that explains why not.
///
/// A catalogue is read file by file, so the system calls per file count (they were about a
/// sixth of a short command's CPU time): one `lstat` says both whether the path is a link and,
/// for the usual plain file, what it is and how long; the open handle is checked again and the
/// file read in one go into a buffer of its size.
pub fn read(root: &Path, path: &Path) -> Result<Text, Diagnostic> {
    let shown = display_path(root, path);
    let plain = std::fs::symlink_metadata(path)
        .ok()
        .filter(|m| !m.file_type().is_symlink() && !parent_is_link(path));
    // A path `lstat` found to be no link is opened without following one, so a link put in
    // its place between the two calls cannot lead the read outside the root.
    let no_link = plain.is_some();
    let meta = match plain {
        Some(m) => m,
        None => {
            if !inside_root(root, path) {
                return Err(Diagnostic::new(
                    &codes::OUTSIDE_ROOT,
                    format!("`{shown}` resolves to a file outside the catalogue root"),
                )
                .file(shown));
            }
            std::fs::metadata(path).map_err(|e| unreadable(&shown, &e))?
        }
    };
    if !meta.is_file() {
        return Err(not_regular(&shown, &meta));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            &codes::FILE_TOO_LARGE,
            format!(
                "`{shown}` is {} bytes; the limit is {MAX_FILE_BYTES} bytes",
                meta.len()
            ),
        )
        .file(shown));
    }
    let bytes = open_checked(path, no_link)
        .and_then(read_all)
        .map_err(|e| unreadable(&shown, &e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            &codes::FILE_TOO_LARGE,
            format!("`{shown}` is over the limit of {MAX_FILE_BYTES} bytes"),
        )
        .file(shown));
    }
    decode(&shown, bytes)
}

fn parent_is_link(path: &Path) -> bool {
    path.parent().is_some_and(|p| {
        std::fs::symlink_metadata(p)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false)
    })
}

/// At most one byte more than [`MAX_FILE_BYTES`]: a file that grows after its size was read,
/// or a device that never ends (`/dev/zero` named as a document), cannot make memory use
/// unbounded. A result longer than the limit means "too large".
pub fn read_limited(path: &Path) -> std::io::Result<Vec<u8>> {
    regular(&std::fs::metadata(path)?)?;
    open_checked(path, false).and_then(read_all)
}

/// A regular file opened for reading without blocking on a FIFO or device swapped in (see
/// `open_checked`), for readers that stream a file too large to hold.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    regular(&std::fs::metadata(path)?)?;
    open_checked(path, false).map(|(f, _)| f)
}

/// A file that must be a regular file itself, not reached through a symlink (the outline
/// cache): `lstat`, then an open that follows no link and does not block, its type checked
/// again on the handle; at most one byte over [`MAX_FILE_BYTES`].
pub fn read_unlinked(path: &Path) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Err(std::io::Error::other("a symbolic link"));
    }
    regular(&meta)?;
    open_checked(path, true).and_then(read_all)
}

/// [`read_unlinked`] for a file no one but this process's user may have written (the outline
/// cache, which could otherwise be handed forged outlines): the open handle must also belong
/// to the user and be writable by no one else.
pub fn read_private(path: &Path) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Err(std::io::Error::other("a symbolic link"));
    }
    regular(&meta)?;
    let (file, len) = open_checked(path, true)?;
    private(&file.metadata()?)?;
    read_all((file, len))
}

/// Whether a file or folder is this process's user's alone to change: owned by the effective
/// user and writable by neither its group nor others.
pub fn private(meta: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(std::io::Error::other(format!(
                "it belongs to user {}, not to this user ({me})",
                meta.uid()
            )));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(std::io::Error::other(format!(
                "others may write it (mode {:o})",
                meta.mode() & 0o7777
            )));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    Ok(())
}

/// The whole file into a buffer sized by its length as the open handle reported it (so the
/// read takes one call, and a second to see the end), never past the limit.
fn read_all((file, len): (std::fs::File, u64)) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let hint = usize::try_from(len.min(MAX_FILE_BYTES)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(hint.saturating_add(1));
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Open `path`, whose type the caller checked, for reading only if it is a regular file. A
/// FIFO, socket or device named as a catalogue file would block the read forever (a FIFO with
/// no writer) or never end, so the type is checked before opening (by the caller); the open
/// itself does not block (`O_NONBLOCK`, which has no effect on a regular file), and the type
/// is checked again on the open handle, so a file swapped for a FIFO in between is caught too.
/// With `no_link`, a symbolic link at `path` is refused instead of followed. Returns the handle
/// and the file's length.
fn open_checked(path: &Path, no_link: bool) -> std::io::Result<(std::fs::File, u64)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = if no_link { libc::O_NOFOLLOW } else { 0 };
        options.custom_flags(libc::O_NONBLOCK | nofollow);
    }
    #[cfg(not(unix))]
    let _ = no_link;
    let file = options.open(path)?;
    let meta = file.metadata()?;
    regular(&meta)?;
    Ok((file, meta.len()))
}

fn regular(m: &std::fs::Metadata) -> std::io::Result<()> {
    if m.is_file() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "not a regular file ({})",
            file_kind(m)
        )))
    }
}

/// What a non-regular file is, in words.
pub fn file_kind(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// The finding for a catalogue path that names a FIFO, socket, device or directory.
pub fn not_regular(shown: &str, meta: &std::fs::Metadata) -> Diagnostic {
    Diagnostic::new(
        &codes::NOT_REGULAR_FILE,
        format!(
            "`{shown}` is {}, not a regular file; it is not read",
            file_kind(meta)
        ),
    )
    .file(shown)
}

fn unreadable(shown: &str, e: &std::io::Error) -> Diagnostic {
    Diagnostic::new(&codes::UNREADABLE, format!("cannot read `{shown}`: {e}")).file(shown)
}

/// Decode bytes already in memory (also used for profiles and documents given on the command line).
pub fn decode(shown: &str, bytes: Vec<u8>) -> Result<Text, Diagnostic> {
    let mut text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let idx = LineIndex::new(&prefix);
            let (line, column) = idx.position(&prefix, valid);
            return Err(Diagnostic::new(
                &codes::NOT_UTF8,
                format!("`{shown}` is not UTF-8: invalid byte sequence at byte {valid}"),
            )
            .file(shown)
            .at(line, column));
        }
    };
    let mut notes = Vec::new();
    if let Some(stripped) = text.strip_prefix('\u{feff}') {
        text = stripped.to_string();
        notes.push(
            Diagnostic::new(&codes::BOM, "file starts with a UTF-8 byte-order mark")
                .file(shown)
                .at(1, 1),
        );
    }
    // A vectorised byte search: a plain substring search over every file was a measurable
    // share of load time.
    let crlf = memchr::memmem::find(text.as_bytes(), b"\r\n");
    if let Some(pos) = crlf {
        let idx = LineIndex::new(&text);
        let (line, column) = idx.position(&text, pos);
        text = text.replace("\r\n", "\n");
        notes.push(
            Diagnostic::new(
                &codes::CRLF,
                "file uses CRLF line endings (first at this line); read as LF",
            )
            .file(shown)
            .at(line, column),
        );
    }
    Ok(Text { text, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters() {
        let t = "ab\nçd e\n";
        let idx = LineIndex::new(t);
        assert_eq!(idx.position(t, 0), (1, 1));
        assert_eq!(idx.position(t, 3), (2, 1));
        // 'd' follows a two-byte character: byte 5, column 2.
        assert_eq!(idx.position(t, 5), (2, 2));
        assert_eq!(idx.position(t, 999), (3, 1));
    }

    #[test]
    fn bom_and_crlf_are_reported_and_normalised() {
        let t = decode("x.md", b"\xef\xbb\xbfa\r\nb\r\n".to_vec()).unwrap();
        assert_eq!(t.text, "a\nb\n");
        let codes: Vec<_> = t.notes.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["AB003", "AB004"]);
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let err = decode("x.md", b"ok\nbad \xff".to_vec()).err().unwrap();
        assert_eq!(err.code, "AB002");
        assert_eq!((err.line, err.column), (Some(2), Some(5)));
    }
}
