//! The example inputs `catalogue.yaml` declares (`examples.profiles`, `examples.portfolios`):
//! read like declared documents, confined to the repository that holds the catalogue, so
//! `verify` can hold them to the profile schema and show their lines.

use super::confine::Fence;
use super::text;
use crate::diag::{codes, Diagnostic};
use crate::model::Config;
use std::path::Path;

/// One example file as read: the path as declared (its name in findings) and its text.
pub struct Example {
    pub path: String,
    pub text: String,
}

/// Read every declared example. A path that is refused or cannot be read is a finding at its
/// line of `catalogue.yaml`; nothing else is lost.
pub fn load(
    root: &Path,
    fence: &Fence,
    config: &Config,
    overlay: Option<&text::Overlay>,
) -> (Vec<Example>, Vec<Diagnostic>) {
    let mut read = Vec::new();
    let mut diags = Vec::new();
    let Some(decl) = &config.examples else {
        return (read, diags);
    };
    for (key, path) in decl.paths() {
        let line = config.positions.line_of(&key).unwrap_or(1);
        match one(root, fence, path, overlay) {
            Ok((t, notes)) => {
                diags.extend(notes);
                read.push(Example {
                    path: path.to_string(),
                    text: t,
                });
            }
            // A refused or unreadable path is a defect of the line that declares it.
            Err(d) if d.file.is_none() => diags.push(d.file(super::config::FILE_NAME).at(line, 1)),
            Err(d) => diags.push(d),
        }
    }
    (read, diags)
}

fn one(
    root: &Path,
    fence: &Fence,
    path: &str,
    overlay: Option<&text::Overlay>,
) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let full = fence.resolve(root, path).map_err(|e| {
        Diagnostic::new(
            &codes::PATH_REFUSED,
            format!(
                "example path `{}` (examples) {}",
                super::confine::shown_path(path),
                e.reason("the repository that holds the catalogue")
            ),
        )
        .help(codes::PATH_REFUSED.help)
    })?;
    let bytes = match overlay.and_then(|o| o.get(&full)) {
        Some(t) => Ok(t.as_bytes().to_vec()),
        None => text::read_limited(&full),
    }
    .map_err(|e| {
        Diagnostic::new(
            &codes::UNREADABLE,
            format!("cannot read example `{path}`: {e}"),
        )
        .help("correct the path in catalogue.yaml (examples)")
    })?;
    if bytes.len() as u64 > text::MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            &codes::FILE_TOO_LARGE,
            format!(
                "example `{path}` is over the limit of {} bytes",
                text::MAX_FILE_BYTES
            ),
        )
        .help(codes::FILE_TOO_LARGE.help));
    }
    let t = text::decode(path, bytes)?;
    Ok((t.text, t.notes))
}
