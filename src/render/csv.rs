//! CSV (RFC 4180): quote a field when it holds a comma, quote or line break.

pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn render(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    let line = |cells: Vec<String>| cells.join(",") + "\r\n";
    out.push_str(&line(header.iter().map(|h| field(h)).collect()));
    for r in rows {
        out.push_str(&line(r.iter().map(|c| field(c)).collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(super::field("a b"), "a b");
        assert_eq!(super::field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }
}
