//! Byte offsets to 1-based lines and character columns, for every finding that points into a
//! text: the loader, document claims and the human emitter share one index.

/// Offsets of line starts, to turn byte offsets into 1-based line and character column.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line<'t>(&self, text: &'t str, line: usize) -> Option<&'t str> {
        let start = *self.starts.get(line.checked_sub(1)?)?;
        let end = self
            .starts
            .get(line)
            .map(|s| s.saturating_sub(1))
            .unwrap_or(text.len());
        text.get(start..end.max(start))
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
    }

    /// 1-based (line, column); the column counts characters, not bytes.
    pub fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column = text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(0);
        (line + 1, column + 1)
    }
}
