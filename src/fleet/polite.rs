//! Gentle by default with servers one does not operate: who asked not to be probed (the opt-out
//! list) and which host an endpoint lives on (the per-host cap counts servers per host, since
//! most endpoints sit behind a handful of hosting providers).

/// The host (and port) of an http(s) URL, in lower case; `None` for anything else.
pub fn host_of(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    // Credentials are no part of the host.
    let host = authority.rsplit('@').next().unwrap_or("");
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// The opt-out list: one entry a line — a host (`api.example.org`, which also covers its
/// subdomains), a URL prefix (`https://example.org/mcp`), or a server's name written
/// `name: NAME` (names and hosts share their characters); `#` starts a comment.
#[derive(Clone, Debug, Default)]
pub struct OptOut {
    hosts: Vec<String>,
    prefixes: Vec<String>,
    names: Vec<String>,
}

impl OptOut {
    pub fn parse(text: &str) -> OptOut {
        let mut o = OptOut::default();
        for line in text.lines() {
            let e = line.split('#').next().unwrap_or("").trim();
            if e.is_empty() {
                continue;
            }
            if let Some(n) = e.strip_prefix("name:") {
                o.names.push(n.trim().to_string());
            } else if e.starts_with("http://") || e.starts_with("https://") {
                o.prefixes.push(e.to_string());
            } else {
                o.hosts.push(e.to_ascii_lowercase());
            }
        }
        o
    }

    /// Whether the server `name` at `url` (when it has one) opted out.
    pub fn refuses(&self, name: &str, url: Option<&str>) -> bool {
        if self.names.iter().any(|n| n == name) {
            return true;
        }
        let Some(u) = url else { return false };
        if self.prefixes.iter().any(|p| u.starts_with(p.as_str())) {
            return true;
        }
        let Some(host) = host_of(u) else { return false };
        let bare = host.split(':').next().unwrap_or("");
        self.hosts
            .iter()
            .any(|h| bare == h || bare.ends_with(&format!(".{h}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_read_from_urls() {
        assert_eq!(
            host_of("https://User@API.example.org:8443/mcp?x"),
            Some("api.example.org:8443".into())
        );
        assert_eq!(host_of("ftp://x"), None);
    }

    #[test]
    fn the_opt_out_list_covers_hosts_subdomains_prefixes_and_names() {
        let o = OptOut::parse("# Betreiber, die nicht geprüft werden wollen\nexample.org\nhttps://mcp.other.net/private # nur dieser Pfad\nname: io.example--wetter\n");
        assert_eq!((o.hosts.len(), o.prefixes.len(), o.names.len()), (1, 1, 1));
        assert!(o.refuses("x", Some("https://api.example.org/mcp")));
        assert!(o.refuses("x", Some("https://example.org/mcp")));
        assert!(!o.refuses("x", Some("https://notexample.org/mcp")));
        assert!(o.refuses("x", Some("https://mcp.other.net/private/a")));
        assert!(!o.refuses("x", Some("https://mcp.other.net/public")));
        assert!(o.refuses("io.example--wetter", None));
        assert!(!o.refuses("io.example--sonne", Some("http://127.0.0.1:9/mcp")));
    }
}
