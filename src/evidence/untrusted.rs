//! Everything a server sends is someone else's text: names, versions, descriptions, error
//! messages, whole answers. Before any of it enters evidence, a message or a report it is
//! quoted here: control characters, escape sequences, bidi overrides and invisible separators
//! become visible `\u{…}` escapes (so a server cannot forge a `pass` line or a CI command in a
//! log, or reorder what a reader sees), newlines become `\n`, and the text is cut to a bound
//! with the cut said. Links cannot be written through it either: `](` and `<` are escaped, so a Markdown report shows a server's `[text](javascript:…)` or
//! `<javascript:…>` as text.

/// At most this many characters of one value a server sent, in any one line of evidence.
pub const VALUE_CHARS: usize = 200;

/// Characters that change how the surrounding text is shown or read: C0 and C1 controls,
/// DEL, bidi embeddings, overrides and isolates, zero-width and line/paragraph separators,
/// the byte-order mark.
pub fn is_hostile(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
        )
}

/// `s` made safe to show, cut to `max` characters (the cut says how many were left out).
pub fn quote(s: &str, max: usize) -> String {
    let mut out = String::new();
    let total = s.chars().count();
    let mut prev = ' ';
    for (shown, c) in s.chars().enumerate() {
        if shown == max {
            out.push_str(&format!("… ({} more characters cut)", total - shown));
            return out;
        }
        let after_bracket = prev == ']';
        prev = c;
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '(' if after_bracket => out.push_str("\\("),
            '<' => out.push_str("\\<"),
            c if is_hostile(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Text already quoted, cut to `max` characters (nothing is escaped twice).
pub fn cut(s: &str, max: usize) -> String {
    let total = s.chars().count();
    if total <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push_str(&format!("… ({} more characters cut)", total - max));
    out
}

/// A value a server sent, quoted with the usual bound.
pub fn value(s: &str) -> String {
    quote(s, VALUE_CHARS)
}

/// A JSON value a server sent, as compact JSON, quoted.
pub fn json(v: &serde_json::Value, max: usize) -> String {
    quote(&v.to_string(), max)
}

/// At most `max` lines of evidence, the rest counted in a last line.
pub fn bounded(mut lines: Vec<String>, max: usize) -> Vec<String> {
    if lines.len() > max {
        let more = lines.len() - max + 1;
        lines.truncate(max - 1);
        lines.push(format!("… and {more} more observations not quoted"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_is_made_visible_and_bounded() {
        assert_eq!(quote("a\x1b[31mb\x07", 50), "a\\u{1b}[31mb\\u{7}");
        assert_eq!(quote("ok\npass SEC-024", 50), "ok\\npass SEC-024");
        assert_eq!(quote("x\u{202e}y", 50), "x\\u{202e}y");
        assert_eq!(quote("[a](javascript:x)", 50), "[a]\\(javascript:x)");
        assert_eq!(quote("<javascript:x>", 50), "\\<javascript:x>");
        assert_eq!(quote("abcdef", 3), "abc… (3 more characters cut)");
        assert_eq!(quote("Zürich", 10), "Zürich");
        let lines = bounded((0..10).map(|i| i.to_string()).collect(), 4);
        assert_eq!(
            lines,
            vec!["0", "1", "2", "… and 7 more observations not quoted"]
        );
    }
}
