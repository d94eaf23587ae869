//! Catalogue Markdown as HTML for the static site. Catalogue text is untrusted: raw HTML is
//! shown as text, never passed through; links keep only safe schemes; images become links
//! (a page never loads remote content by itself). Where a link or an id points is decided by
//! the caller's `Links`, not here.

use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};
use regex::Regex;
use std::sync::LazyLock;

/// What the caller decides about references.
pub trait Links {
    /// The href for a link target as written; `None` drops the link and keeps its text.
    fn href(&self, dest: &str) -> Option<String>;
    /// The href for an id-like token (`FID-003`), if it names a page.
    fn id_href(&self, id: &str) -> Option<String>;
}

static ID_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b").unwrap_or_else(|_| unreachable!())
});

/// URLs with a scheme are kept only for these; anything else (`javascript:`, `data:`) is dropped.
pub fn safe_scheme(dest: &str) -> bool {
    let lower = dest.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        Some((scheme, _)) if !scheme.contains(['/', '?', '#']) => {
            matches!(scheme, "http" | "https" | "mailto")
        }
        _ => true,
    }
}

fn link_start(href: String) -> Event<'static> {
    Event::Start(Tag::Link {
        link_type: LinkType::Inline,
        dest_url: CowStr::from(href),
        title: CowStr::from(""),
        id: CowStr::from(""),
    })
}

/// Text with id tokens turned into links.
fn link_ids(text: &str, links: &dyn Links, out: &mut Vec<Event<'static>>) {
    let mut last = 0;
    for m in ID_TOKEN.find_iter(text) {
        let Some(href) = links.id_href(m.as_str()) else {
            continue;
        };
        if m.start() > last {
            out.push(Event::Text(CowStr::from(text[last..m.start()].to_string())));
        }
        out.push(link_start(href));
        out.push(Event::Text(CowStr::from(m.as_str().to_string())));
        out.push(Event::End(TagEnd::Link));
        last = m.end();
    }
    if last < text.len() {
        out.push(Event::Text(CowStr::from(text[last..].to_string())));
    }
}

/// Markdown to HTML under the rules above.
pub fn to_html(markdown: &str, links: &dyn Links) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS | Options::ENABLE_STRIKETHROUGH;
    let mut events: Vec<Event<'static>> = Vec::new();
    // For each open link or image: whether its end tag is emitted (and as what).
    let mut open: Vec<Option<TagEnd>> = Vec::new();
    let mut in_code_block = false;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Html(s) | Event::InlineHtml(s) => {
                events.push(Event::Text(CowStr::from(s.to_string())))
            }
            // A raw HTML block reads as a paragraph of its literal text.
            Event::Start(Tag::HtmlBlock) => events.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => events.push(Event::End(TagEnd::Paragraph)),
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) => match links.href(&dest_url).filter(|h| safe_scheme(h)) {
                Some(href) => {
                    events.push(Event::Start(Tag::Link {
                        link_type: LinkType::Inline,
                        dest_url: CowStr::from(href),
                        title: CowStr::from(title.to_string()),
                        id: CowStr::from(""),
                    }));
                    open.push(Some(TagEnd::Link));
                }
                None => open.push(None),
            },
            Event::Start(Tag::Image { dest_url, .. }) => {
                let external = dest_url.starts_with("http://") || dest_url.starts_with("https://");
                if external && !open.iter().any(Option::is_some) {
                    events.push(link_start(dest_url.to_string()));
                    open.push(Some(TagEnd::Link));
                } else {
                    open.push(None);
                }
            }
            Event::End(TagEnd::Link) | Event::End(TagEnd::Image) => {
                if let Some(Some(end)) = open.pop() {
                    events.push(Event::End(end));
                }
            }
            Event::Start(Tag::CodeBlock(k)) => {
                in_code_block = true;
                events.push(Event::Start(Tag::CodeBlock(k.into_static())));
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                events.push(Event::End(TagEnd::CodeBlock));
            }
            Event::Text(t) if !in_code_block && !open.iter().any(Option::is_some) => {
                link_ids(&t, links, &mut events)
            }
            Event::Code(c) if !open.iter().any(Option::is_some) => match links.id_href(c.trim()) {
                Some(href)
                    if ID_TOKEN
                        .find(c.trim())
                        .is_some_and(|m| m.as_str() == c.trim()) =>
                {
                    events.push(link_start(href));
                    events.push(Event::Code(CowStr::from(c.to_string())));
                    events.push(Event::End(TagEnd::Link));
                }
                _ => events.push(Event::Code(CowStr::from(c.to_string()))),
            },
            other => events.push(other.into_static()),
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// The words of some Markdown without its markup (for search): text and code spans, blocks
/// separated by a space, raw HTML dropped.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak | Event::End(_) if !out.ends_with(' ') => {
                out.push(' ')
            }
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain;
    impl Links for Plain {
        fn href(&self, dest: &str) -> Option<String> {
            dest.strip_suffix(".md")
                .map(|s| format!("{s}.html"))
                .or(Some(dest.to_string()))
        }
        fn id_href(&self, id: &str) -> Option<String> {
            (id == "FID-001").then(|| "FID-001.html".to_string())
        }
    }

    #[test]
    fn raw_html_is_escaped() {
        let h = to_html(
            "a <script>alert(1)</script> b\n\n<div onclick=x>hi</div>\n",
            &Plain,
        );
        assert!(!h.contains("<script"), "{h}");
        assert!(!h.contains("<div"), "{h}");
        assert!(h.contains("&lt;script&gt;"), "{h}");
    }

    #[test]
    fn unsafe_links_keep_their_text_only() {
        let h = to_html("[x](javascript:alert(1)) [y](data:text/html,hi)", &Plain);
        assert!(!h.contains("href"), "{h}");
        assert!(h.contains('x') && h.contains('y'));
    }

    #[test]
    fn ids_become_links_outside_code_blocks() {
        let h = to_html(
            "See FID-001 and `FID-001`, not SHA-256.\n\n```\nFID-001\n```\n",
            &Plain,
        );
        assert_eq!(h.matches("href=\"FID-001.html\"").count(), 2, "{h}");
    }

    #[test]
    fn plain_text_keeps_words_only() {
        assert_eq!(
            plain_text("Die **Quelle** liefert `10` Zeilen.\n\n- <b>eins</b>\n- zwei"),
            "Die Quelle liefert 10 Zeilen. eins zwei"
        );
    }

    #[test]
    fn images_become_links() {
        let h = to_html("![badge](https://img.example/x.svg)", &Plain);
        assert!(!h.contains("<img"), "{h}");
        assert!(h.contains("href=\"https://img.example/x.svg\""), "{h}");
    }
}
