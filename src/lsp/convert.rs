//! Between the engine's places (byte offsets; 1-based line and character column) and the
//! protocol's (0-based line and a column in UTF-16 code units, or in bytes when the client
//! accepts UTF-8), and from findings to protocol diagnostics.

use crate::diag::{Diagnostic, Level};
use lsp_types as lsp;

/// How the client counts columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// Where the lint codes are explained.
pub const CODES_URL: &str = "https://github.com/auditbook/auditbook/blob/main/docs/lint-codes.md";

fn line_bounds(text: &str, line0: usize) -> Option<(usize, usize)> {
    let start = super::world::line_start(text, line0 + 1)?;
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    Some((start, end))
}

/// The protocol position of byte `offset` (clamped to the text and to a character boundary).
pub fn position(text: &str, offset: usize, enc: Encoding) -> lsp::Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = memchr::memchr_iter(b'\n', before.as_bytes()).count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = &text[start..offset];
    let character = match enc {
        Encoding::Utf8 => col.len(),
        Encoding::Utf16 => col.encode_utf16().count(),
    };
    lsp::Position::new(line as u32, character as u32)
}

/// The byte offset of a protocol position (clamped to its line; past the end: the end).
pub fn offset(text: &str, pos: lsp::Position, enc: Encoding) -> usize {
    let Some((start, end)) = line_bounds(text, pos.line as usize) else {
        return text.len();
    };
    let line = &text[start..end];
    let want = pos.character as usize;
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= want {
            return start + i;
        }
        units += match enc {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        };
    }
    end
}

pub fn range(text: &str, start: usize, end: usize, enc: Encoding) -> lsp::Range {
    lsp::Range::new(position(text, start, enc), position(text, end, enc))
}

/// The byte range a finding points at: its column for `width` characters on its line (the
/// whole line when it has no column, the first line when it has no line).
fn finding_span(text: &str, d: &Diagnostic) -> (usize, usize) {
    let line0 = d.line.unwrap_or(1).saturating_sub(1);
    let Some((start, end)) = line_bounds(text, line0) else {
        return (text.len(), text.len());
    };
    let line = &text[start..end];
    let Some(column) = d.column else {
        let indent = line.len() - line.trim_start().len();
        return (start + indent, end);
    };
    let mut chars = line.char_indices().skip(column.saturating_sub(1));
    let from = chars.next().map_or(line.len(), |(i, _)| i);
    let to = line[from..]
        .char_indices()
        .nth(d.width.max(1))
        .map_or(line.len(), |(i, _)| from + i);
    (start + from, start + to)
}

pub fn diagnostic(text: &str, d: &Diagnostic, enc: Encoding) -> lsp::Diagnostic {
    let (start, end) = finding_span(text, d);
    let severity = match d.level {
        Level::Error => lsp::DiagnosticSeverity::ERROR,
        Level::Warning => lsp::DiagnosticSeverity::WARNING,
        Level::Note => lsp::DiagnosticSeverity::INFORMATION,
    };
    let href = format!("{CODES_URL}#{}", d.code.to_ascii_lowercase())
        .parse::<lsp::Uri>()
        .ok();
    let mut message = d.message.clone();
    if let Some(h) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    lsp::Diagnostic {
        range: range(text, start, end, enc),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        code_description: href.map(|href| lsp::CodeDescription { href }),
        source: Some("auditbook".into()),
        message,
        related_information: None,
        tags: None,
        data: d.id.as_ref().map(|id| serde_json::json!({ "id": id })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_count_code_units() {
        let t = "ä😀x\nzwei";
        let p = position(t, "ä😀".len(), Encoding::Utf16);
        assert_eq!((p.line, p.character), (0, 3));
        assert_eq!(offset(t, p, Encoding::Utf16), "ä😀".len());
        let q = position(t, t.len(), Encoding::Utf8);
        assert_eq!((q.line, q.character), (1, 4));
        assert_eq!(offset(t, lsp::Position::new(9, 0), Encoding::Utf8), t.len());
    }
}
