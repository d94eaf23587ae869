//! The `#fragment`s a Markdown file answers to, as GitHub renders it: one per heading (its
//! slug) and one per explicit HTML anchor (`<a id="…">`, `<a name="…">`).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

static HTML_ANCHOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<a\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']"#)
        .unwrap_or_else(|_| unreachable!("the anchor pattern is valid"))
});

/// GitHub's heading slug: lowercase; letters, digits, `-`, `_` and spaces kept, every other
/// character dropped; each space becomes `-`.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of headings with these texts, in document order: a repeated slug gets `-1`,
/// `-2`, … as GitHub numbers them.
pub fn heading_anchors<'a>(headings: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for h in headings {
        let base = slug(h);
        let n = seen.entry(base.clone()).or_insert(0);
        let anchor = if *n == 0 { base } else { format!("{base}-{n}") };
        *n += 1;
        out.insert(anchor);
    }
    out
}

/// Every anchor of a Markdown text (a check body, a document): its headings' slugs and its
/// explicit HTML anchors.
pub fn of_markdown(text: &str) -> BTreeSet<String> {
    let mut texts: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    for event in Parser::new_ext(text, pulldown_cmark::Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { .. }) => current = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => texts.extend(current.take()),
            Event::Text(s) | Event::Code(s) => {
                if let Some(c) = current.as_mut() {
                    c.push_str(&s);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(c) = current.as_mut() {
                    c.push(' ');
                }
            }
            _ => {}
        }
    }
    let mut out = heading_anchors(texts.iter().map(String::as_str));
    out.extend(html_anchors(text));
    out
}

/// Explicit anchors written as HTML.
pub fn html_anchors(text: &str) -> impl Iterator<Item = String> + '_ {
    HTML_ANCHOR
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
}

/// Whether `fragment` names one of `anchors`. GitHub prefixes rendered ids with
/// `user-content-` and matches fragments without regard to case, so both are accepted.
pub fn answers(anchors: &BTreeSet<String>, fragment: &str) -> bool {
    let f = fragment.strip_prefix("user-content-").unwrap_or(fragment);
    anchors.contains(f) || anchors.contains(&f.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_slugs() {
        assert_eq!(slug("Pass Criteria"), "pass-criteria");
        assert_eq!(slug("Prüfung & Abnahme"), "prüfung--abnahme");
        assert_eq!(
            slug("FID-006 — Struktur prüfen"),
            "fid-006--struktur-prüfen"
        );
        assert_eq!(slug("`evidence_required` (v2.3)"), "evidence_required-v23");
        assert_eq!(slug("Was ist 1:1?"), "was-ist-11");
    }

    #[test]
    fn duplicates_are_numbered_and_html_anchors_count() {
        let a = of_markdown(
            "# Notes\n\n## Notes\n\n## Notes\n\n```\n## Not a heading\n```\n\n<a id=\"regel-3\"></a>\n",
        );
        let want: BTreeSet<String> = ["notes", "notes-1", "notes-2", "regel-3"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(a, want);
        assert!(answers(&a, "Notes-1"));
        assert!(answers(&a, "user-content-regel-3"));
        assert!(!answers(&a, "not-a-heading"));
    }
}
