//! A file's own line endings and byte-order mark, kept across an edit: the edits work on LF
//! text, and a catalogue written on Windows must not come back with every line changed.

use std::path::Path;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineEndings {
    bom: bool,
    crlf: bool,
}

impl LineEndings {
    /// The convention of `raw`: CRLF when its first line break is one.
    pub fn of(raw: &str) -> LineEndings {
        let bom = raw.starts_with('\u{feff}');
        let crlf = raw
            .find('\n')
            .is_some_and(|i| i > 0 && raw.as_bytes().get(i - 1) == Some(&b'\r'));
        LineEndings { bom, crlf }
    }

    /// `lf` (LF line breaks, no BOM) written in this convention.
    pub fn apply(&self, lf: &str) -> String {
        let body = if self.crlf {
            lf.replace("\r\n", "\n").replace('\n', "\r\n")
        } else {
            lf.to_string()
        };
        if self.bom {
            format!("\u{feff}{body}")
        } else {
            body
        }
    }
}

/// A file's text as LF without a BOM, and its convention to write it back in.
pub fn read(path: &Path) -> std::io::Result<(String, LineEndings)> {
    // Regular files only, size-bounded: a FIFO planted as MANIFEST.txt must not hang `new`.
    let raw =
        String::from_utf8(crate::load::text::read_limited(path)?).map_err(std::io::Error::other)?;
    let endings = LineEndings::of(&raw);
    let lf = raw
        .strip_prefix('\u{feff}')
        .unwrap_or(&raw)
        .replace("\r\n", "\n");
    Ok((lf, endings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_bom_survive_an_lf_edit() {
        let e = LineEndings::of("\u{feff}a\r\nb\r\n");
        assert_eq!(e.apply("a\nb\nc\n"), "\u{feff}a\r\nb\r\nc\r\n");
        let e = LineEndings::of("a\nb\r\n");
        assert_eq!(e.apply("a\nb\n"), "a\nb\n");
    }
}
