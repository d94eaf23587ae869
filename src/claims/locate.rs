//! Where a claim reads, for every form alike: the line of its declaration in catalogue.yaml,
//! its document and section, and the text its pattern is matched against — skip regions
//! blanked and soft line breaks read as spaces, byte for byte, so every offset a form reports
//! is the document's own.
//!
//! Nothing here judges; the forms (`forms`) ask this module where to look and say what they
//! found there.

use super::query::Scope;
use crate::diag::{codes, Code, Diagnostic};
use crate::load::text::LineIndex;
use crate::model::config::{ClaimDecl, SkipRegion};
use crate::model::{Catalogue, Document};
use std::ops::Range;

/// The line of `claim`'s declaration in catalogue.yaml: its `name`, asked of the position
/// table by the entry's key path (never by searching the text for the name, which finds an
/// earlier claim whose name starts the same, or a comment).
pub fn declared_line(cat: &Catalogue, claim: &ClaimDecl) -> usize {
    cat.config
        .positions
        .line_of(&format!("claims[{}].name", claim.entry))
        .unwrap_or(1)
}

/// A finding about a claim's declaration, at its line in catalogue.yaml.
pub fn declaration_error(
    cat: &Catalogue,
    claim: &ClaimDecl,
    code: &'static Code,
    msg: String,
) -> Diagnostic {
    Diagnostic::new(code, format!("claim `{}`: {msg}", claim.name))
        .file(crate::load::config::FILE_NAME)
        .line(declared_line(cat, claim))
        .help(code.help)
}

/// A document and the part of it a claim reads.
pub struct Place<'c> {
    pub doc: &'c Document,
    /// The byte range read: the section (up to the next heading of the same or a higher
    /// level), or the whole document.
    pub range: Range<usize>,
    /// The line of the section's heading (1 for a whole document).
    pub heading_line: usize,
    /// The section's title as declared.
    pub section: Option<String>,
    pub index: LineIndex,
}

impl<'c> Place<'c> {
    fn new(
        doc: &'c Document,
        range: Range<usize>,
        heading_line: usize,
        section: Option<&str>,
    ) -> Place<'c> {
        Place {
            doc,
            range,
            heading_line,
            section: section.map(str::to_string),
            index: LineIndex::new(&doc.text),
        }
    }

    /// The text read, as written.
    pub fn text(&self) -> &'c str {
        self.doc.text.get(self.range.clone()).unwrap_or("")
    }

    /// The 1-based (line, column) of a byte offset in the document.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        self.index.position(&self.doc.text, offset)
    }

    /// The lines read, the heading's included.
    pub fn lines(&self) -> std::ops::RangeInclusive<usize> {
        let first = self.position(self.range.start).0;
        let last = self
            .position(self.range.end.saturating_sub(1).max(self.range.start))
            .0;
        first.min(self.heading_line)..=last
    }

    /// The links and mentions of the part read (`linked`, `mentioned`).
    pub fn scope(&self) -> Scope {
        Scope::of(self.doc, self.lines())
    }

    /// The text a pattern is matched against: the kinds in `skip` blanked and soft line
    /// breaks read as spaces, offsets those of `text()`.
    pub fn hay(&self, skip: &[SkipRegion]) -> String {
        unwrap_soft_breaks(&super::skip::blank(self.text(), skip))
    }

    /// How a finding names the part read: "section \"Umfang\" of `README.md`".
    pub fn described(&self) -> String {
        described(&self.doc.path, self.section.as_deref())
    }
}

/// "section \"TITLE\" of `PATH`", or "`PATH`" for a whole document.
pub fn described(path: &str, section: Option<&str>) -> String {
    match section {
        Some(s) => format!("section \"{s}\" of `{path}`"),
        None => format!("`{path}`"),
    }
}

/// The claim's document and the part of it the claim reads; a claim without a document, one
/// whose document could not be read and one whose section is gone are findings at the claim.
pub fn locate<'c>(cat: &'c Catalogue, claim: &ClaimDecl) -> Result<Place<'c>, Vec<Diagnostic>> {
    if claim.doc.is_empty() {
        return Err(vec![declaration_error(
            cat,
            claim,
            &codes::CLAIM_INVALID,
            "names no `doc` to read (only a policy, `holds:`, reads none)".into(),
        )]);
    }
    let Some(doc) = cat.document(&claim.doc) else {
        return Err(vec![declaration_error(
            cat,
            claim,
            &codes::CLAIM_INVALID,
            format!(
                "document `{}` could not be read (see the error for that file), so the claim is not checked",
                claim.doc
            ),
        )]);
    };
    match &claim.section {
        None => Ok(Place::new(doc, 0..doc.text.len(), 1, None)),
        Some(title) => match doc.section(title) {
            Some((idx, range)) => Ok(Place::new(
                doc,
                range,
                doc.outline.headings.get(idx).map(|h| h.line).unwrap_or(1),
                Some(title),
            )),
            None => Err(vec![declaration_error(
                cat,
                claim,
                &codes::CLAIM_SECTION_MISSING,
                format!(
                    "`{}` has no heading \"{title}\", so the claim goes unchecked",
                    claim.doc
                ),
            )]),
        },
    }
}

/// A declared document `path` (not a claim's) and its section `title`, or all of it.
pub fn locate_in<'c>(
    cat: &'c Catalogue,
    path: &str,
    title: Option<&str>,
) -> Result<Place<'c>, String> {
    let Some(doc) = cat.document(path) else {
        return Err(format!(
            "document `{path}` could not be read (is it declared under `docs`?)"
        ));
    };
    match title {
        None => Ok(Place::new(doc, 0..doc.text.len(), 1, None)),
        Some(t) => doc
            .section(t)
            .map(|(idx, range)| {
                Place::new(
                    doc,
                    range,
                    doc.outline.headings.get(idx).map(|h| h.line).unwrap_or(1),
                    Some(t),
                )
            })
            .ok_or_else(|| format!("`{path}` has no heading \"{t}\"")),
    }
}

/// Soft line breaks become spaces, byte for byte, so offsets stay those of the document.
pub fn unwrap_soft_breaks(s: &str) -> String {
    let lines: Vec<&str> = s.split('\n').collect();
    let mut out = String::with_capacity(s.len());
    for (i, l) in lines.iter().enumerate() {
        out.push_str(l);
        let Some(next) = lines.get(i + 1) else { break };
        let n = next.trim_start();
        let block_start = n.is_empty()
            || l.trim().is_empty()
            || n.starts_with(['|', '#', '>', '-', '*', '+'])
            || n.starts_with("```")
            || n.starts_with("<!--")
            || n.split_once(". ")
                .is_some_and(|(d, _)| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        out.push(if block_start { '\n' } else { ' ' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_breaks_join_but_blocks_stay_apart() {
        let s = "a sentence\nwrapped here.\n\n- item\n| x |\n1. one\ntext";
        let u = unwrap_soft_breaks(s);
        assert_eq!(u.len(), s.len());
        assert_eq!(u, "a sentence wrapped here.\n\n- item\n| x |\n1. one text");
    }
}
