//! The example inputs `catalogue.yaml` declares (`examples.profiles`, `examples.portfolios`):
//! read like declared documents, confined to the repository that holds the catalogue, so
//! `verify` can hold them to the profile schema and show their lines.

use super::docs::{read_declared, Declared};
use super::text;
use crate::confine::Fence;
use crate::diag::Diagnostic;
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
        match one(root, fence, path, overlay) {
            Ok((t, notes)) => {
                diags.extend(notes);
                read.push(Example {
                    path: path.to_string(),
                    text: t,
                });
            }
            // A refused or unreadable path is a defect of the line that declares it.
            Err(d) if d.file.as_deref() == Some(crate::model::config::FILE_NAME) => {
                diags.push(d.at(config.positions.line_of(&key).unwrap_or(1), 1))
            }
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
    let declared = Declared {
        what: "example",
        keys: "examples",
    };
    let t = read_declared(root, fence, path, declared, overlay)?;
    Ok((t.text, t.notes))
}
