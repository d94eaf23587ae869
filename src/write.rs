//! Writing files without ever leaving a half-written one: write a temporary file beside the
//! target, flush it to disk, then rename it over the target (atomic on one file system).
//! A group of writes is prepared in full before the first rename, and undone if one fails.

use std::io::Write;
use std::path::{Path, PathBuf};

pub fn atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(contents.as_bytes())?;
    tmp.as_file().sync_all()?;
    // Keep the original's permissions where there is one.
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// One planned change to the catalogue.
pub enum Change {
    Write(PathBuf, String),
    Remove(PathBuf),
}

/// Apply changes in order; if one fails, restore every file already changed, then report.
pub fn apply(changes: &[Change]) -> std::io::Result<()> {
    let mut done: Vec<(PathBuf, Option<Vec<u8>>)> = Vec::new();
    for change in changes {
        let (path, result) = match change {
            Change::Write(p, text) => {
                let before = std::fs::read(p).ok();
                let r = atomic(p, text);
                if r.is_ok() {
                    done.push((p.clone(), before));
                }
                (p, r)
            }
            Change::Remove(p) => {
                let before = std::fs::read(p).ok();
                let r = std::fs::remove_file(p);
                if r.is_ok() {
                    done.push((p.clone(), before));
                }
                (p, r)
            }
        };
        if let Err(e) = result {
            for (p, before) in done.into_iter().rev() {
                match before {
                    Some(bytes) => {
                        let _ = atomic(&p, &String::from_utf8_lossy(&bytes));
                    }
                    None => {
                        let _ = std::fs::remove_file(&p);
                    }
                }
            }
            return Err(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", path.display()),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_group_restores_earlier_writes() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "original").unwrap();
        let missing = dir.path().join("no/such/dir/b.txt");
        let err = apply(&[
            Change::Write(a.clone(), "changed".into()),
            Change::Write(missing, "x".into()),
        ]);
        assert!(err.is_err());
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "original");
    }
}
