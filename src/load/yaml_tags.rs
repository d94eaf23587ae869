//! YAML tags are refused everywhere auditbook reads YAML written by people (frontmatter,
//! `catalogue.yaml`). A tag such as `!!python/object:os.system` means nothing to auditbook,
//! and serde_yaml resolves `!!`-tags it does not know by dropping them: the value would be
//! accepted with the tag silently gone, so a file could say one thing to auditbook and
//! another to the next tool that loads it. A tag is an error at its line.
//!
//! serde_yaml keeps no trace of a dropped tag, so this is a scan of the text, run only after
//! the text parsed: it has to agree with a YAML parser on well-formed input only. A tag is a
//! `!` that starts a node: at the start of a line's content, or after `: `, `- `, `? `, `[`,
//! `{` or `,` — never inside quotes, a comment or a block scalar.

use crate::diag::{codes, Diagnostic};

/// A finding for every tag in `yaml`, whose first line is `first_line` of its file.
pub fn reject(yaml: &str, first_line: usize) -> Vec<Diagnostic> {
    if memchr::memchr(b'!', yaml.as_bytes()).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // Lines deeper than this indent belong to a block scalar (`key: |`) and hold no tags.
    let mut block: Option<usize> = None;
    for (i, line) in yaml.split('\n').enumerate() {
        let indent = line.chars().take_while(|c| *c == ' ').count();
        if line.trim().is_empty() {
            continue;
        }
        if let Some(b) = block {
            if indent > b {
                continue;
            }
            block = None;
        }
        let (tags, opens_block) = scan_line(line);
        if opens_block {
            block = Some(indent);
        }
        for (column, tag) in tags {
            out.push(finding(&tag, first_line + i, column));
        }
    }
    out
}

/// The tags on one line (1-based character column, tag text) and whether the line opens a
/// block scalar.
fn scan_line(line: &str) -> (Vec<(usize, String)>, bool) {
    let chars: Vec<char> = line.chars().collect();
    let mut tags = Vec::new();
    let mut quote: Option<char> = None;
    // The last significant character outside quotes: where a node may begin.
    let mut node_start = true;
    let mut last_value_start = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = quote {
            if c == q {
                // `''` inside single quotes is an escaped quote.
                if q == '\'' && chars.get(i + 1) == Some(&'\'') {
                    i += 2;
                    continue;
                }
                quote = None;
            } else if c == '\\' && q == '"' {
                i += 1;
            }
            i += 1;
            continue;
        }
        match c {
            ' ' | '\t' => {}
            '#' if i == 0 || chars[i - 1] == ' ' || chars[i - 1] == '\t' => break,
            '\'' | '"' if node_start => {
                quote = Some(c);
                node_start = false;
            }
            '!' if node_start => {
                let tag: String = chars[i..]
                    .iter()
                    .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ']' | '}'))
                    .collect();
                tags.push((i + 1, tag.clone()));
                i += tag.chars().count();
                continue;
            }
            '[' | '{' | ',' => node_start = true,
            ':' | '-' | '?' if chars.get(i + 1).is_none_or(|n| *n == ' ' || *n == '\t') => {
                node_start = true;
                last_value_start = c == ':' || c == '-';
            }
            '|' | '>' if node_start && last_value_start => {
                return (tags, true);
            }
            _ => {
                node_start = false;
                last_value_start = false;
            }
        }
        i += 1;
    }
    (tags, false)
}

fn finding(tag: &str, line: usize, column: usize) -> Diagnostic {
    let shown: String = tag.chars().take(80).filter(|c| !c.is_control()).collect();
    Diagnostic::new(
        &codes::YAML_TAG,
        format!("the YAML tag `{shown}` is not accepted: auditbook reads plain values only"),
    )
    .at(line, column)
    .width(tag.chars().count().clamp(1, 80))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(yaml: &str) -> Vec<(usize, usize)> {
        reject(yaml, 1)
            .iter()
            .map(|d| (d.line.unwrap_or(0), d.column.unwrap_or(0)))
            .collect()
    }

    #[test]
    fn tags_anywhere_are_found() {
        assert_eq!(
            found("title: !!python/object:os.system \"x\""),
            vec![(1, 8)]
        );
        assert_eq!(
            found("list: [a, !custom b]\n- !!str 5"),
            vec![(1, 11), (2, 3)]
        );
        assert_eq!(found("a:\n  b: !t\n"), vec![(2, 6)]);
        assert_eq!(found("!top\n"), vec![(1, 1)]);
    }

    #[test]
    fn exclamation_marks_that_are_not_tags() {
        for yaml in [
            "title: \"a ! b\"",
            "title: 'it''s !x'",
            "title: Hello! World",
            "title: plain # a comment !x",
            "text: |\n  !not a tag\n  - !neither\nnext: 1",
            "a: b!c",
        ] {
            assert!(found(yaml).is_empty(), "{yaml:?}: {:?}", found(yaml));
        }
    }
}
