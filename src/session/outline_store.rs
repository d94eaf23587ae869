//! Where the outlines of earlier runs are kept (`load::outline_cache` holds them): one file per
//! catalogue and kind of reading, in the user's cache directory — `AUDITBOOK_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/auditbook`, else `~/.cache/auditbook`. Never inside the catalogue: a
//! repository must not be able to ship outlines that disagree with its own files and so make
//! `lint` pass. `AUDITBOOK_NO_CACHE=1` turns it off. The cache is an optimisation only: a file
//! that cannot be read is treated as empty and one that cannot be written is skipped, and the
//! output is the same bytes either way. Only what is the user's alone is trusted: a cache
//! folder others may write is not used, and a cache file another user owns or others may write
//! is not read.

use crate::load::outline_cache::OutlineCache;
use crate::load::Bodies;
use std::path::{Path, PathBuf};

pub struct OutlineStore {
    file: PathBuf,
    pub cache: OutlineCache,
}

impl OutlineStore {
    /// The store for the catalogue at `root` read as `bodies` says; `None` when the cache is
    /// off, no cache directory is known, or nothing of the bodies is outlined.
    pub fn open(root: &Path, bodies: Bodies) -> Option<OutlineStore> {
        let kind = match bodies {
            Bodies::Outline => "outline",
            Bodies::Sections => "sections",
            Bodies::None => return None,
        };
        if std::env::var_os("AUDITBOOK_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0") {
            return None;
        }
        let dir = cache_dir()?;
        // A folder someone else may write could hold outlines that disagree with the files,
        // planted to make `lint` pass: such a folder is not used at all.
        if std::fs::metadata(&dir).is_ok_and(|m| !m.is_dir() || private(&m).is_err()) {
            return None;
        }
        let canonical = std::fs::canonicalize(root).ok()?;
        let digest = crate::text::digest::sha256(canonical.as_os_str().as_encoded_bytes());
        let name = digest.get(..32).unwrap_or(&digest);
        let file = dir.join(format!("{name}.{kind}"));
        let bytes = read(&file).unwrap_or_default();
        Some(OutlineStore {
            file,
            cache: OutlineCache::from_bytes(bytes),
        })
    }

    /// Write what the next run should find, if it changed. A failure costs the next run its
    /// head start, nothing else.
    pub fn save(&self) {
        if let Some(bytes) = self.cache.changed_file() {
            let _ = crate::write::cache_file(&self.file, &bytes);
        }
    }
}

fn cache_dir() -> Option<PathBuf> {
    crate::write::cache_root()
}

/// The file if it is a regular file itself (not a link, FIFO or device; checked again on the
/// open handle, so a FIFO swapped in cannot block the run), this user's and writable by no one
/// else. A file over the cache's size bound is ignored by `OutlineCache`; one that is not read
/// is replaced by the run's own.
fn read(file: &Path) -> Option<Vec<u8>> {
    crate::load::text::read_private(file).ok()
}

use crate::load::text::private;
