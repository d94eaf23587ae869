//! A bound on nesting, checked on the text before any YAML or JSON parser sees it. serde_yaml
//! does stop at its own recursion limit, but deeply nested flow collections (`[[[[…`) cost
//! time quadratic in the depth before it gets there: a 200 KB profile took 40 s. Nothing
//! auditbook reads is legitimately nested more than a few levels, so a file nested deeper than
//! [`MAX_DEPTH`] is refused in one linear pass.

/// Deepest nesting accepted, counting flow brackets and block indentation levels together.
pub const MAX_DEPTH: usize = 64;

/// The 1-based (line, column) where nesting first exceeds `max`, if it does.
pub fn too_deep(text: &str, max: usize) -> Option<(usize, usize)> {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    let mut quote: Option<char> = None;
    for (i, line) in text.split('\n').enumerate() {
        let indent = line.len() - line.trim_start_matches([' ', '-']).len();
        let content = line.trim();
        if quote.is_none() && flow == 0 && !content.is_empty() && !content.starts_with('#') {
            while indents.last().is_some_and(|&top| top >= indent) {
                indents.pop();
            }
            indents.push(indent);
            if indents.len() > max {
                return Some((i + 1, indent + 1));
            }
        }
        let mut prev = ' ';
        for (col, c) in line.chars().enumerate() {
            match quote {
                Some(q) => {
                    if c == q && prev != '\\' {
                        quote = None;
                    }
                }
                None => match c {
                    '#' if prev == ' ' || prev == '\t' || col == 0 => break,
                    '"' | '\''
                        if matches!(prev, ' ' | '[' | '{' | ',' | ':' | '\t') || col == 0 =>
                    {
                        quote = Some(c)
                    }
                    '[' | '{' => {
                        flow += 1;
                        if flow + indents.len() > max {
                            return Some((i + 1, col + 1));
                        }
                    }
                    ']' | '}' => flow = flow.saturating_sub(1),
                    _ => {}
                },
            }
            prev = c;
        }
        // A single-quoted YAML scalar may span lines; a double-quoted one too. Neither can
        // hide a bracket from this count for long: the quote closes or the file ends.
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_flow_nesting_is_found_early() {
        let deep = "a: ".to_string() + &"[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(too_deep(&deep, MAX_DEPTH), Some((1, 3 + MAX_DEPTH)));
        let json = "{\"a\": ".repeat(200) + "1" + &"}".repeat(200);
        assert!(too_deep(&json, MAX_DEPTH).is_some());
    }

    #[test]
    fn deep_block_nesting_is_found() {
        let mut y = String::new();
        for d in 0..100 {
            y.push_str(&" ".repeat(d * 2));
            y.push_str(&format!("k{d}:\n"));
        }
        assert_eq!(too_deep(&y, MAX_DEPTH).map(|(l, _)| l), Some(MAX_DEPTH + 1));
    }

    #[test]
    fn ordinary_files_pass() {
        let y = "servers:\n  - name: a\n    profile: {transport: stdio, tools: [a, b]}\n  - name: '[not'\n# [[[[\n";
        assert_eq!(too_deep(y, MAX_DEPTH), None);
        assert_eq!(too_deep("text: \"[[[[[[\"", 2), None);
    }
}
