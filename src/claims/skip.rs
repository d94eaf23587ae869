//! Skip regions of a claim (`skip: [tables, code, quotes]`): the blocks a pattern must not
//! read, so a pattern over running prose is not answered by a table cell, an example in fenced
//! code or a quoted older statement.
//!
//! Skipped blocks are blanked byte for byte (line breaks kept), so every offset and line
//! number a finding reports is still the document's own.

use crate::model::config::SkipRegion;
use pulldown_cmark::{Event, Options, Parser, Tag};

/// `text` with the blocks of the kinds in `skip` replaced by spaces.
pub fn blank(text: &str, skip: &[SkipRegion]) -> String {
    if skip.is_empty() {
        return text.to_string();
    }
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        let kind = match event {
            Event::Start(Tag::Table(_)) => SkipRegion::Tables,
            Event::Start(Tag::CodeBlock(_)) => SkipRegion::Code,
            Event::Start(Tag::BlockQuote(_)) => SkipRegion::Quotes,
            _ => continue,
        };
        if skip.contains(&kind) {
            ranges.push(range);
        }
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c != '\n' && ranges.iter().any(|r| r.contains(&i)) {
            // One space per byte: offsets after the block stay those of the document.
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "Prosa: 13 Checks.\n\n| Kategorie | Checks |\n|---|---|\n| FID | 6 Checks |\n\n```text\n99 Checks\n```\n\n> Früher: 12 Checks\n\nWieder Prosa, 13 Checks — Grüße.\n";

    #[test]
    fn blanks_only_the_kinds_asked_for_and_keeps_offsets() {
        let all = blank(
            TEXT,
            &[SkipRegion::Tables, SkipRegion::Code, SkipRegion::Quotes],
        );
        assert_eq!(all.len(), TEXT.len());
        assert_eq!(all.lines().count(), TEXT.lines().count());
        assert!(all.contains("Prosa: 13 Checks."));
        assert!(all.contains("Wieder Prosa, 13 Checks — Grüße."));
        for gone in ["6 Checks", "99 Checks", "12 Checks", "Kategorie"] {
            assert!(!all.contains(gone), "{gone}");
        }
        let tables = blank(TEXT, &[SkipRegion::Tables]);
        assert!(!tables.contains("6 Checks"));
        assert!(tables.contains("99 Checks") && tables.contains("12 Checks"));
        assert_eq!(blank(TEXT, &[]), TEXT);
    }
}
