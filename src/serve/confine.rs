//! Where the writing tools may write: a relative path to a YAML file inside the folder the
//! server was started for (`--root`). The project's fence (`crate::confine::Fence`) refuses
//! absolute paths, `..` that leaves the folder and links whose target lies outside; a file that
//! does not exist yet is judged by its folder, which must exist and resolve inside too.

use super::tool::Refusal;
use std::path::{Path, PathBuf};

const FIX: &str = "give `file` as a path relative to the server's folder (e.g. `results.yaml` or `audits/server.results.yaml`), inside it, naming a .yaml or .yml file in a folder that exists";

/// The path to write for `written`, or why not.
pub fn target(fence: &crate::confine::Fence, written: &str) -> Result<PathBuf, Refusal> {
    let shown = crate::confine::shown_path(written);
    let refuse = |why: String| Refusal::new(format!("`{shown}` {why}"), FIX);
    if written.trim().is_empty() {
        return Err(refuse("is empty".into()));
    }
    let lower = written.to_ascii_lowercase();
    if !(lower.ends_with(".yaml") || lower.ends_with(".yml")) {
        return Err(refuse("is not a .yaml or .yml file".into()));
    }
    // Refused here rather than by the operating system, whose error text would reach the
    // caller; a backslash is a separator on Windows and a name character here, so neither
    // reading is guessed.
    if written.contains('\0') {
        return Err(refuse("holds a NUL character".into()));
    }
    if written.contains('\\') {
        return Err(refuse("holds a backslash; separate folders with `/`".into()));
    }
    let base = fence.base().to_path_buf();
    // The folder is named by role, never by its absolute path: a refusal must not tell the
    // caller where on the machine the server runs.
    let shown_fence = "the server's folder";
    let path = fence.resolve(&base, written).map_err(|e| {
        refuse(match e {
            crate::confine::Escape::Absolute => {
                format!("is an absolute path; paths here are relative to {shown_fence}")
            }
            crate::confine::Escape::Outside => format!("leaves {shown_fence}"),
        })
    })?;
    let Some(dir) = path.parent() else {
        return Err(refuse("names no file".into()));
    };
    match dir.canonicalize() {
        Ok(real) if fence.contains(&real) => {}
        Ok(_) => return Err(refuse(format!("leaves {shown_fence} through a link"))),
        Err(_) => return Err(refuse("is in a folder that does not exist".into())),
    }
    if path.is_dir() {
        return Err(refuse("is a folder".into()));
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    Ok(dir
        .canonicalize()
        .map(|d| d.join(name))
        .unwrap_or_else(|_| Path::new(dir).join(name)))
}
