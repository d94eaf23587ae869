//! Text as XML 1.0 character data or attribute values. Characters XML 1.0 cannot carry at all
//! (most C0 controls, unpaired surrogates cannot occur in a `str`) are replaced by U+FFFD, so
//! hostile catalogue or results text never makes a document unreadable.

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Attribute values normalise raw newlines and tabs away; keep them as references.
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_controls_are_neutralised() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\u{1b}[31m"), "x\u{FFFD}[31m");
        assert_eq!(escape("l1\nl2"), "l1&#10;l2");
    }
}
