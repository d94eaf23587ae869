//! A check's external sources: the links to an http(s) address in its sources section
//! (`References` unless `require_sources.section` says otherwise), where its criteria come
//! from — a specification page, an SEP, an RFC, a law. Links to other checks are references,
//! not sources, even when written as absolute URLs.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The link's text as a reader sees it (emphasis and code marks removed, whitespace
    /// folded); empty when the link has none.
    pub label: Box<str>,
    /// The destination as written.
    pub url: Box<str>,
    pub line: u32,
}

impl Source {
    /// What to show for the link: its label, or the address when it has none.
    pub fn shown(&self) -> &str {
        if self.label.is_empty() {
            &self.url
        } else {
            &self.label
        }
    }

    /// What is wrong with the link as a citation, if anything: no host, no label, or a
    /// revision that moves (`latest`), which cannot be verified later.
    pub fn defect(&self) -> Option<&'static str> {
        let rest = strip_scheme(&self.url)?;
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        if host.is_empty() || host.contains(char::is_whitespace) {
            return Some("has no host");
        }
        if self.label.trim().is_empty() {
            return Some("has no text to cite it by");
        }
        let path = rest.get(host.len()..).unwrap_or("");
        let path = path.split(['?', '#']).next().unwrap_or("");
        if path
            .split('/')
            .any(|seg| seg.eq_ignore_ascii_case("latest"))
        {
            return Some("points at `latest`, a revision that moves");
        }
        None
    }
}

/// The address after `http://` or `https://` (scheme case-insensitive); `None` for any other
/// destination.
pub fn strip_scheme(url: &str) -> Option<&str> {
    let url = url.trim();
    for scheme in ["https://", "http://"] {
        if url
            .get(..scheme.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
        {
            return url.get(scheme.len()..);
        }
    }
    None
}

/// Whether a link destination is an external address a check can cite.
pub fn is_external(url: &str) -> bool {
    strip_scheme(url).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(label: &str, url: &str) -> Source {
        Source {
            label: label.into(),
            url: url.into(),
            line: 1,
        }
    }

    #[test]
    fn external_means_http_or_https() {
        assert!(is_external(
            "https://modelcontextprotocol.io/specification/2025-11-25"
        ));
        assert!(is_external("HTTP://example.org"));
        for not in [
            "mailto:a@b.ch",
            "../checks/FID-001.md",
            "ftp://x",
            "javascript:alert(1)",
            "#anchor",
            "https:/x",
        ] {
            assert!(!is_external(not), "{not}");
        }
    }

    #[test]
    fn defects_of_a_citation() {
        let spec = "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning";
        assert_eq!(src("MCP 2025-11-25, Transports", spec).defect(), None);
        assert_eq!(
            src(
                "RFC 9728 §3",
                "https://www.rfc-editor.org/rfc/rfc9728#section-3"
            )
            .defect(),
            None
        );
        assert!(src("x", "https:///path").defect().is_some());
        assert!(src("", spec).defect().is_some());
        let latest = src(
            "MCP",
            "https://modelcontextprotocol.io/specification/latest/basic",
        );
        assert!(latest.defect().unwrap().contains("latest"));
        // `latest` in a fragment or query is not a revision.
        assert_eq!(
            src("x", "https://example.org/a?v=latest#latest").defect(),
            None
        );
        assert_eq!(src("", spec).shown(), spec);
    }
}
