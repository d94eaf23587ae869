//! Where a claim reads, for every form alike: the line of its declaration in catalogue.yaml,
//! its document and section, and the text its pattern is matched against — the blocks it
//! skips (`skip: [tables, code, quotes]`) blanked and soft line breaks read as spaces, byte for
//! byte, so every offset a form reports is the document's own — and where a claim that
//! matches too seldom or too often is reported.
//!
//! Nothing here judges, and nothing here asks another part of `claims`: the forms (`forms`)
//! ask this module where to look and say what they found there.

use crate::diag::{codes, Code, Diagnostic};
use crate::text::line_index::LineIndex;
use crate::model::config::{ClaimDecl, SkipRegion};
use crate::model::{Catalogue, Document};
use pulldown_cmark::{Event, Options, Parser, Tag};
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
        .file(crate::model::config::FILE_NAME)
        .line(declared_line(cat, claim))
        .help(code.help)
}

/// The claim's pattern matched nowhere in the part read (`what` says what was looked for): at
/// the section's heading, or — a whole document has no heading to point at — at the claim's
/// `pattern` in catalogue.yaml.
pub fn unmatched(cat: &Catalogue, claim: &ClaimDecl, place: &Place<'_>, what: String) -> Diagnostic {
    let d = Diagnostic::new(
        &codes::CLAIM_UNMATCHED,
        format!("claim `{}`: {what}", claim.name),
    )
    .help(codes::CLAIM_UNMATCHED.help);
    if place.section.is_some() {
        return d.file(claim.doc.clone()).line(place.heading_line);
    }
    let (line, column) = cat
        .config
        .positions
        .position_of(&format!("claims[{}].pattern", claim.entry))
        .unwrap_or((declared_line(cat, claim), 1));
    d.file(crate::model::config::FILE_NAME).at(line, column)
}

/// The matches a claim with `matches: N` does not expect: each one after the N-th, at its
/// line; fewer than N (but some), at the claim's declaration. `starts` are the matches'
/// offsets in the document, in order.
pub fn match_count(
    cat: &Catalogue,
    claim: &ClaimDecl,
    place: &Place<'_>,
    starts: &[usize],
) -> Vec<Diagnostic> {
    let Some(want) = claim.matches else {
        return Vec::new();
    };
    if starts.is_empty() {
        return Vec::new();
    }
    let lines: Vec<usize> = starts.iter().map(|s| place.position(*s).0).collect();
    let times = |n: usize| if n == 1 { "once".to_string() } else { format!("{n} times") };
    if starts.len() < want {
        let shown: Vec<String> = lines.iter().map(usize::to_string).collect();
        return vec![declaration_error(
            cat,
            claim,
            &codes::CLAIM_MATCH_COUNT,
            format!(
                "the pattern matches {} in {} (line {}), the claim expects it {}",
                times(starts.len()),
                place.described(),
                shown.join(", "),
                times(want)
            ),
        )];
    }
    starts
        .iter()
        .zip(&lines)
        .skip(want)
        .map(|(start, line)| {
            let (_, col) = place.position(*start);
            Diagnostic::new(
                &codes::CLAIM_MATCH_COUNT,
                format!(
                    "claim `{}`: the pattern matches again at line {line} of {} (first at line {}); the claim expects it {}",
                    claim.name,
                    place.described(),
                    lines[0],
                    times(want)
                ),
            )
            .file(claim.doc.clone())
            .at(*line, col)
            .help(codes::CLAIM_MATCH_COUNT.help)
        })
        .collect()
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

    /// The text a pattern is matched against: the kinds in `skip` blanked and, in Markdown,
    /// soft line breaks read as spaces (never inside fenced code); offsets those of `text()`.
    /// A document in another language (YAML, Python) keeps every line break: its lines are
    /// not prose that an editor rewraps.
    pub fn hay(&self, skip: &[SkipRegion]) -> String {
        hay(&self.doc.path, self.text(), skip)
    }

    /// A finding about what group `group` of a match read, `written`, at byte `offset` of the
    /// document.
    pub fn at_group(
        &self,
        claim: &ClaimDecl,
        group: &str,
        (offset, written): (usize, &str),
        code: &'static Code,
        msg: String,
    ) -> Diagnostic {
        let (line, col) = self.position(offset);
        Diagnostic::new(
            code,
            format!("claim `{}`, group `{group}`: {msg}", claim.name),
        )
        .file(claim.doc.clone())
        .at(line, col)
        .width(written.chars().count())
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

/// `text` of the document at `path` as a pattern reads it (see `Place::hay`).
pub fn hay(path: &str, text: &str, skip: &[SkipRegion]) -> String {
    let blanked = blank(text, skip);
    if is_markdown(path) {
        unwrap_soft_breaks(&blanked)
    } else {
        blanked
    }
}

/// `text` with the blocks of the kinds in `skip` replaced by spaces: a pattern over running
/// prose is then not answered by a table cell, an example in fenced code or a quoted older
/// statement. Blocks are blanked byte for byte (line breaks kept), so every offset and line
/// number a finding reports is still the document's own.
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

/// Whether a document is Markdown, by its name: `.md`, `.markdown`, or no extension (a
/// `README`).
pub fn is_markdown(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        None => true,
        Some((_, ext)) => ["md", "markdown", "mdx"].contains(&ext.to_ascii_lowercase().as_str()),
    }
}

/// The opening of a fenced code block: its fence character and length.
fn fence(line: &str) -> Option<(char, usize)> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let c = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = t.chars().take_while(|x| *x == c).count();
    (n >= 3).then_some((c, n))
}

/// Soft line breaks become spaces, byte for byte, so offsets stay those of the document.
/// Inside a fenced code block every line stays a line (`Stand: 7` and the next line of an
/// example are not one sentence).
fn unwrap_soft_breaks(s: &str) -> String {
    let lines: Vec<&str> = s.split('\n').collect();
    // Whether each line is a fence or inside a fenced block.
    let mut code = Vec::with_capacity(lines.len());
    let mut open: Option<(char, usize)> = None;
    for l in &lines {
        match (open, fence(l)) {
            (None, Some(f)) => {
                open = Some(f);
                code.push(true);
            }
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && l.trim().chars().all(|x| x == c) => {
                open = None;
                code.push(true);
            }
            (o, _) => code.push(o.is_some()),
        }
    }
    let mut out = String::with_capacity(s.len());
    for (i, l) in lines.iter().enumerate() {
        out.push_str(l);
        let Some(next) = lines.get(i + 1) else { break };
        let n = next.trim_start();
        let block_start = code[i]
            || code.get(i + 1).copied().unwrap_or(false)
            || n.is_empty()
            || l.trim().is_empty()
            || n.starts_with(['|', '#', '>', '-', '*', '+'])
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

    #[test]
    fn lines_of_fenced_code_stay_lines() {
        let s = "Prosa\nweiter.\n\n```text\nStand: 7\nChecks im Archiv\n```\nDanach\nweiter.\n~~~~\na\n```\nb\n~~~~\n";
        let u = unwrap_soft_breaks(s);
        assert_eq!(u.len(), s.len());
        assert_eq!(
            u,
            "Prosa weiter.\n\n```text\nStand: 7\nChecks im Archiv\n```\nDanach weiter.\n~~~~\na\n```\nb\n~~~~\n"
        );
    }

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

    #[test]
    fn markdown_by_name() {
        for md in ["README", "README.md", "docs/a.markdown", "x.MD"] {
            assert!(is_markdown(md), "{md}");
        }
        for other in ["config.yaml", "gates/check.py", "a.md.txt"] {
            assert!(!is_markdown(other), "{other}");
        }
    }
}
