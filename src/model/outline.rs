//! What one pass over a Markdown text yields (see `load::markdown`): headings, task items,
//! tables and references. Shared by checks, rules and documents.

use super::Reference;
use serde::{Deserialize, Serialize};
use std::ops::Range;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    pub line: usize,
    /// Byte range of the whole heading in the text.
    pub range: Range<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskItem {
    pub text: String,
    pub checked: bool,
    pub line: usize,
    pub offset: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub text: String,
    /// References inside this cell (indices into `Outline::references`).
    pub references: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub line: usize,
    pub cells: Vec<Cell>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub line: usize,
    pub offset: usize,
    pub header: Vec<Cell>,
    pub rows: Vec<Row>,
}

/// A link to an http(s) address that is not a link to a check: a candidate source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalLink {
    /// The link's text, whitespace folded, code and emphasis marks removed.
    pub label: String,
    pub url: String,
    pub line: usize,
    /// Byte offset of the link in the text.
    pub offset: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outline {
    pub headings: Vec<Heading>,
    pub task_items: Vec<TaskItem>,
    pub tables: Vec<Table>,
    pub references: Vec<Reference>,
    pub external_links: Vec<ExternalLink>,
    /// Byte ranges of code blocks (fenced or indented): their lines are examples, not text.
    pub code_blocks: Vec<Range<usize>>,
    /// Links and images the path and fragment checks follow (see `LocalLink`).
    pub links: Vec<super::LocalLink>,
}

impl Outline {
    /// Byte range of the content under the heading at `index`: up to the next heading of the
    /// same or a higher level (a smaller number), or the end of the text.
    pub fn section_range(&self, index: usize, text_len: usize) -> Option<Range<usize>> {
        let h = self.headings.get(index)?;
        let end = self
            .headings
            .iter()
            .skip(index + 1)
            .find(|n| n.level <= h.level)
            .map(|n| n.range.start)
            .unwrap_or(text_len);
        Some(h.range.end..end.max(h.range.end))
    }
}
