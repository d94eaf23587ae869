//! The sections of a check body without parsing its Markdown: commands that read only a
//! check's frontmatter and a few named sections (applicability, audit, list, stats) find the
//! `#`/`##` headings by a line scan that skips fenced and indented code. It sees ATX headings
//! only; the full outline (`markdown`) is what lint and show read.

use std::ops::Range;

/// One heading of level 1 or 2: its 0-based line in the body, level, title, and the byte
/// range of its line (the line break included).
#[derive(Debug, PartialEq, Eq)]
pub struct LightHeading<'a> {
    pub line: usize,
    pub level: u8,
    pub title: &'a str,
    pub range: Range<usize>,
}

/// An ATX heading of level 1 or 2 on this line (up to three spaces of indent), if any.
fn heading(line: &str) -> Option<(u8, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let hashes = rest.bytes().take_while(|b| *b == b'#').count();
    if hashes == 0 || hashes > 2 {
        return None;
    }
    let after = &rest[hashes..];
    if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t')) {
        return None;
    }
    // A closing run of `#` preceded by a space is not part of the title.
    let mut title = after.trim();
    let stripped = title.trim_end_matches('#');
    if stripped.len() < title.len() && (stripped.is_empty() || stripped.ends_with(' ')) {
        title = stripped.trim_end();
    }
    Some((hashes as u8, title))
}

/// The opening fence of a code block on this line: its character and length.
fn fence(line: &str) -> Option<(u8, usize)> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|b| *b == c).count();
    (n >= 3 && !(c == b'`' && t[n..].contains('`'))).then_some((c, n))
}

/// Every level-1 and level-2 ATX heading of `body` outside code, in order.
pub fn headings(body: &str) -> Vec<LightHeading<'_>> {
    let mut out = Vec::new();
    let mut open: Option<(u8, usize)> = None;
    let mut offset = 0;
    for (i, raw) in body.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        if let Some((c, n)) = open {
            let t = line.trim_start_matches(' ');
            let run = t.bytes().take_while(|b| *b == c).count();
            if run >= n && t[run..].trim().is_empty() {
                open = None;
            }
            continue;
        }
        if let Some(f) = fence(line) {
            open = Some(f);
            continue;
        }
        if let Some((level, title)) = heading(line) {
            out.push(LightHeading {
                line: i,
                level,
                title,
                range: start..offset,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_outside_code_only() {
        let body = "intro\n## Beschreibung\ntext\n```md\n## not a heading\n```\n    ## indented code\n## Remediation ##\n# Top\n### deeper\n##nospace\n";
        let found: Vec<_> = headings(body)
            .iter()
            .map(|h| (h.line, h.level, h.title))
            .collect();
        assert_eq!(
            found,
            vec![(1, 2, "Beschreibung"), (7, 2, "Remediation"), (8, 1, "Top")]
        );
    }

    #[test]
    fn an_unclosed_fence_hides_the_rest() {
        assert!(headings("~~~\n## x\n").is_empty());
        assert_eq!(headings("## a").len(), 1);
    }
}
