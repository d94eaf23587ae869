//! A document the catalogue makes claims in (`docs` and rule-table sources): its text and the
//! outline of its Markdown.

use super::outline::Outline;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Path as declared, relative to the catalogue root.
    pub path: String,
    pub text: String,
    pub outline: Outline,
}

impl Document {
    /// The heading whose text is `title` (exactly, after trimming), and its section range.
    pub fn section(&self, title: &str) -> Option<(usize, std::ops::Range<usize>)> {
        let want = title.trim();
        let idx = self
            .outline
            .headings
            .iter()
            .position(|h| h.text.trim() == want)?;
        Some((idx, self.outline.section_range(idx, self.text.len())?))
    }
}
