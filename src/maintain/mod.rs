//! Maintainer operations that change the catalogue: `new` and `retire`. Each validates its
//! input fully, plans every file change, and applies them in the command's `write::Session`
//! (locked, journaled, all or nothing). Files they edit keep their line endings.

pub mod line_endings;
pub mod new;
pub mod rename;
pub mod retire;
pub mod rewrite;

/// Why an operation refused to act (nothing was written).
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The manifest text with `id` inserted in id order (comments and blank lines kept).
pub fn manifest_with(text: &str, id: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let pos = lines
        .iter()
        .position(|l| {
            let t = l.split('#').next().unwrap_or("").trim();
            !t.is_empty() && t > id
        })
        .unwrap_or(lines.len());
    lines.insert(pos, id);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The manifest text without the line listing `id`.
pub fn manifest_without(text: &str, id: &str) -> String {
    let mut out: String = text
        .lines()
        .filter(|l| l.split('#').next().unwrap_or("").trim() != id)
        .collect::<Vec<_>>()
        .join("\n");
    out.push('\n');
    out
}
