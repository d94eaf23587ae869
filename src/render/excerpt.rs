//! The source line shown under a human diagnostic, cut to a bounded window around the caret.
//!
//! Handing the renderer whole files cost time in proportion to findings × file size (each
//! finding searched its file from the start) and printed whole lines: one finding in a 1 MB
//! one-line results file printed the megabyte, and 30,000 findings took seconds. Here each
//! file's lines are indexed once, and each finding gets its own small "file" holding only a
//! window of its line — at most [`WINDOW`] characters, control characters made visible — so
//! the cost per finding is bounded and nothing from a line beyond the window reaches output.

use codespan_reporting::files::{Error, Files};
use std::ops::Range;

/// Characters of a source line shown at most.
pub const WINDOW: usize = 160;

/// One finding's window on its line.
pub struct Excerpt {
    pub name: String,
    /// 1-based line and character column of the finding in the real file.
    pub line: usize,
    pub column: usize,
    /// The shown text (one line, no newline).
    pub text: String,
    /// The caret's byte range within `text`.
    pub caret: Range<usize>,
}

impl Excerpt {
    /// The window of `line_text` around character column `column` (1-based), `width`
    /// characters wide.
    pub fn new(name: String, line: usize, line_text: &str, column: usize, width: usize) -> Excerpt {
        let chars: Vec<char> = line_text.chars().collect();
        let col = column.saturating_sub(1).min(chars.len());
        let width = width.clamp(1, WINDOW / 2);
        // A line that fits is shown whole; a longer one keeps a third of the window before
        // the caret and never more than WINDOW characters in all.
        let start = if chars.len() <= WINDOW {
            0
        } else {
            col.saturating_sub(WINDOW / 3).min(chars.len() - WINDOW)
        };
        let end = (start + WINDOW).min(chars.len());
        let mut text = String::new();
        let mut caret = 0..0;
        if start > 0 {
            text.push('…');
        }
        for (i, &c) in chars.iter().enumerate().take(end).skip(start) {
            if i == col {
                caret.start = text.len();
            }
            text.push_str(&visible(c));
            if i + 1 == (col + width).min(end) {
                caret.end = text.len();
            }
        }
        if col >= end {
            caret.start = text.len();
        }
        if end < chars.len() {
            text.push('…');
        }
        if caret.end <= caret.start {
            caret.end = (caret.start + 1).min(text.len().max(caret.start));
        }
        Excerpt {
            name,
            line,
            column,
            text,
            caret,
        }
    }
}

/// A character as it may appear on a terminal: control characters (escape sequences, carriage
/// returns, tabs that would shift the caret) are shown as their code instead.
fn visible(c: char) -> String {
    if c == '\t' {
        " ".into()
    } else if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
        format!("\\u{{{:x}}}", c as u32)
    } else {
        c.to_string()
    }
}

/// Text safe to print on a terminal: control characters (and bidirectional overrides) shown
/// as their code, so catalogue or profile text cannot move the cursor, recolour or forge lines.
/// Line breaks and tabs are kept only where `lines` says the text is a multi-line block.
pub fn terminal_safe(s: &str, lines: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && !(lines && matches!(c, '\n' | '\t')))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if s.chars().any(unsafe_char) {
        std::borrow::Cow::Owned(
            s.chars()
                .map(|c| {
                    if unsafe_char(c) {
                        visible(c)
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
        )
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// The excerpts of one rendering, addressed by index.
#[derive(Default)]
pub struct Excerpts(pub Vec<Excerpt>);

impl<'a> Files<'a> for Excerpts {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        self.0
            .get(id)
            .map(|e| e.name.as_str())
            .ok_or(Error::FileMissing)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        self.0
            .get(id)
            .map(|e| e.text.as_str())
            .ok_or(Error::FileMissing)
    }

    fn line_index(&'a self, id: usize, _byte_index: usize) -> Result<usize, Error> {
        self.0
            .get(id)
            .map(|e| e.line.saturating_sub(1))
            .ok_or(Error::FileMissing)
    }

    fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, Error> {
        self.0
            .get(id)
            .map(|_| line_index + 1)
            .ok_or(Error::FileMissing)
    }

    fn column_number(
        &'a self,
        id: usize,
        _line_index: usize,
        _byte_index: usize,
    ) -> Result<usize, Error> {
        self.0.get(id).map(|e| e.column).ok_or(Error::FileMissing)
    }

    fn line_range(&'a self, id: usize, _line_index: usize) -> Result<Range<usize>, Error> {
        self.0
            .get(id)
            .map(|e| 0..e.text.len())
            .ok_or(Error::FileMissing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let line = "x".repeat(1_000_000);
        let e = Excerpt::new("f".into(), 1, &line, 500_000, 3);
        assert!(e.text.chars().count() <= WINDOW + 2);
        assert!(e.text.starts_with('…') && e.text.ends_with('…'));
        assert_eq!(&e.text[e.caret.clone()], "xxx");
    }

    #[test]
    fn short_lines_are_whole_and_controls_visible() {
        let e = Excerpt::new("f".into(), 2, "a\u{1b}[31mb", 1, 1);
        assert_eq!(e.text, "a\\u{1b}[31mb");
        assert_eq!(e.caret, 0..1);
        assert_eq!(terminal_safe("ok", false), "ok");
        assert_eq!(terminal_safe("a\nb", false), "a\\u{a}b");
        assert_eq!(terminal_safe("a\nb\u{1b}", true), "a\nb\\u{1b}");
    }
}
