//! Positions in a file's text as read: diagnostics count lines and characters in the loaded
//! text (BOM dropped, CRLF folded); edits need byte offsets into the bytes on disk.

/// The byte offset of 1-based `line` and `column` (in characters) in `raw`.
pub fn offset(raw: &str, line: usize, column: usize) -> Option<usize> {
    let bom = if raw.starts_with('\u{feff}') { 3 } else { 0 };
    let start = line_start(raw, line)?.max(bom);
    let rest = raw.get(start..)?;
    let mut chars = rest.char_indices();
    let mut at = 0;
    for _ in 1..column {
        let (_, c) = chars.next()?;
        if c == '\n' {
            return None;
        }
        at += c.len_utf8();
    }
    Some(start + at)
}

/// Byte offset where 1-based `line` starts.
pub fn line_start(raw: &str, line: usize) -> Option<usize> {
    if line == 0 {
        return None;
    }
    if line == 1 {
        return Some(0);
    }
    raw.match_indices('\n').nth(line - 2).map(|(i, _)| i + 1)
}

/// The byte range of 1-based `line`, its line break included.
pub fn line_range(raw: &str, line: usize) -> Option<std::ops::Range<usize>> {
    let start = line_start(raw, line)?;
    if start > raw.len() || (start == raw.len() && line > 1) {
        return None;
    }
    let end = raw
        .get(start..)?
        .find('\n')
        .map(|i| start + i + 1)
        .unwrap_or(raw.len());
    Some(start..end)
}

/// The file's line break: `\r\n` when its first line ends in one.
pub fn newline(raw: &str) -> &'static str {
    match raw.find('\n') {
        Some(i) if i > 0 && raw.as_bytes().get(i - 1) == Some(&b'\r') => "\r\n",
        _ => "\n",
    }
}

/// The id token at `at` stands alone (no letter, digit, `-` or `_` glued to either side).
pub fn token_at(raw: &str, at: usize, len: usize) -> bool {
    let glued = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let before = raw.get(..at).and_then(|s| s.chars().next_back());
    let after = raw.get(at + len..).and_then(|s| s.chars().next());
    !before.is_some_and(glued) && !after.is_some_and(glued)
}

/// Byte offsets of `id` in `text` where it stands as a token of its own (not part of a
/// longer id or word).
pub fn id_positions(text: &str, id: &str) -> Vec<usize> {
    text.match_indices(id)
        .map(|(i, _)| i)
        .filter(|&i| token_at(text, i, id.len()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_characters_and_skip_the_bom() {
        let t = "\u{feff}ab\r\nçd e\r\n";
        assert_eq!(offset(t, 1, 1), Some(3));
        assert_eq!(offset(t, 2, 1), Some(7));
        assert_eq!(offset(t, 2, 2), Some(9));
        assert_eq!(offset(t, 9, 1), None);
        assert_eq!(line_range(t, 2), Some(7..14));
        assert_eq!(newline(t), "\r\n");
        assert!(token_at("x FID-001.", 2, 7));
        assert!(!token_at("xFID-0012", 1, 7));
    }
}
