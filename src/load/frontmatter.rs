//! Splitting a Markdown file into its YAML frontmatter and body, and reading the frontmatter
//! into a YAML mapping with the line of every top-level key.
//!
//! gray_matter finds the block; this module adds what a linter needs on top of it: where the
//! block and the body start, which key sits on which line, and a diagnostic for every way the
//! block can be broken.

use crate::diag::{codes, Diagnostic};
use gray_matter::engine::Engine;
use gray_matter::{Matter, Pod};
use serde_yaml::{Mapping, Value};
use std::collections::BTreeMap;

/// gray_matter engine that hands the raw block back untouched: serde_yaml parses it, so that
/// errors carry serde_yaml's line numbers and values keep YAML 1.2 typing.
struct RawEngine;

impl Engine for RawEngine {
    fn parse(content: &str) -> gray_matter::Result<Pod> {
        Ok(Pod::String(content.to_string()))
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML text between the delimiters (trimmed).
    pub yaml: &'a str,
    /// 1-based line of the first YAML line.
    pub yaml_line: usize,
    pub body: &'a str,
    /// 1-based line on which the body starts.
    pub body_line: usize,
}

/// Split `text` (already LF-normalised). Errors are diagnostics without a file; the caller adds it.
pub fn split(text: &str) -> Result<Split<'_>, Diagnostic> {
    let first = text.split('\n').next().unwrap_or("");
    if first.trim_end() != "---" {
        return Err(Diagnostic::new(
            &codes::FRONTMATTER_MISSING,
            format!(
                "expected a `---` line opening the frontmatter, found `{}`",
                shorten(first)
            ),
        )
        .at(1, 1)
        .help(codes::FRONTMATTER_MISSING.help));
    }
    let parsed = Matter::<RawEngine>::new()
        .parse::<String>(text)
        .map_err(|e| Diagnostic::new(&codes::YAML_INVALID, e.to_string()).at(1, 1))?;
    let after_open = first.len() + 1;
    if parsed.data.is_none() {
        let closed = text
            .get(after_open..)
            .unwrap_or("")
            .split('\n')
            .any(|l| l.trim_end() == "---");
        return Err(if closed {
            Diagnostic::new(
                &codes::MISSING_FIELD,
                "the frontmatter block is empty; expected at least id, title, category, severity and applies_when",
            )
            .at(1, 1)
            .help(codes::MISSING_FIELD.help)
        } else {
            Diagnostic::new(
                &codes::FRONTMATTER_UNTERMINATED,
                "the frontmatter opened on line 1 is never closed: expected a `---` line",
            )
            .at(1, 1)
            .help(codes::FRONTMATTER_UNTERMINATED.help)
        });
    }
    let yaml_start = text
        .get(after_open..)
        .and_then(|rest| rest.find(parsed.matter.as_str()))
        .map(|i| i + after_open)
        .unwrap_or(after_open);
    let yaml = text
        .get(yaml_start..yaml_start + parsed.matter.len())
        .unwrap_or("");
    // gray_matter rebuilds the body from lines and drops the final newline; the body is the
    // matching suffix of the original text.
    let content = parsed.content.as_str();
    let trailing = usize::from(text.ends_with('\n') && !content.is_empty());
    let body_start = text
        .len()
        .saturating_sub(content.len() + trailing)
        .max(yaml_start + yaml.len());
    let body = text.get(body_start..).unwrap_or("");
    Ok(Split {
        yaml,
        yaml_line: line_of(text, yaml_start),
        body,
        body_line: line_of(text, body_start),
    })
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map(|s| s.matches('\n').count() + 1)
        .unwrap_or(1)
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A parsed frontmatter mapping and the 1-based line of each top-level key.
#[derive(Debug)]
pub struct Fields {
    pub map: Mapping,
    pub lines: BTreeMap<String, usize>,
}

/// Parse the YAML block. Duplicate top-level keys are reported with both lines.
pub fn parse_fields(split: &Split<'_>) -> Result<Fields, Vec<Diagnostic>> {
    let mut lines = BTreeMap::new();
    let mut errors = Vec::new();
    for (i, raw) in split.yaml.split('\n').enumerate() {
        let Some(key) = top_level_key(raw) else {
            continue;
        };
        let line = split.yaml_line + i;
        if let Some(first) = lines.get(key) {
            errors.push(
                Diagnostic::new(
                    &codes::DUPLICATE_KEY,
                    format!("key `{key}` appears twice: first on line {first}, again here"),
                )
                .at(line, 1)
                .width(key.chars().count())
                .help(codes::DUPLICATE_KEY.help),
            );
        } else {
            lines.insert(key.to_string(), line);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    match serde_yaml::from_str::<Value>(split.yaml) {
        Ok(Value::Mapping(map)) => Ok(Fields { map, lines }),
        Ok(other) => Err(vec![Diagnostic::new(
            &codes::YAML_INVALID,
            format!(
                "expected a mapping of fields (`key: value` lines), found {}",
                describe(&other)
            ),
        )
        .at(split.yaml_line, 1)
        .help(codes::YAML_INVALID.help)]),
        Err(e) => Err(vec![yaml_error(&e, split.yaml_line)]),
    }
}

/// A serde_yaml error as a diagnostic, its location shifted to file lines.
pub fn yaml_error(e: &serde_yaml::Error, first_line: usize) -> Diagnostic {
    let code = if e.to_string().contains("duplicate entry") {
        &codes::DUPLICATE_KEY
    } else {
        &codes::YAML_INVALID
    };
    let d = Diagnostic::new(code, format!("invalid YAML: {e}")).help(code.help);
    match e.location() {
        Some(loc) => d.at(
            first_line + loc.line().saturating_sub(1),
            loc.column().max(1),
        ),
        None => d.line(first_line),
    }
}

/// The key of a `key: value` line at column 0, if this line holds one.
pub(crate) fn top_level_key(line: &str) -> Option<&str> {
    let first = line.chars().next()?;
    if first.is_whitespace() || matches!(first, '#' | '-' | '{' | '[' | '"' | '\'' | '?') {
        return None;
    }
    let colon = line.find(':')?;
    let rest = line.get(colon + 1..)?;
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    let key = line.get(..colon)?.trim_end();
    (!key.is_empty()).then_some(key)
}

pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "nothing (null)".into(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{n}`"),
        Value::String(s) => format!("the string `{}`", shorten(s)),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("a value tagged `{}`", t.tag),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_locates_body() {
        let t = "---\nid: A-001\ntitle: x\n---\n\n# A-001\n\nbody\n";
        let s = split(t).unwrap();
        assert_eq!(s.yaml, "id: A-001\ntitle: x");
        assert_eq!(s.yaml_line, 2);
        // Leading blank lines are not part of the body; line numbers stay those of the file.
        assert_eq!(s.body, "# A-001\n\nbody\n");
        assert_eq!(s.body_line, 6);
    }

    #[test]
    fn body_with_horizontal_rule_and_no_final_newline() {
        let t = "---\nid: A-001\n---\ntext\n---\nmore";
        let s = split(t).unwrap();
        assert_eq!(s.body, "text\n---\nmore");
        assert_eq!(s.body_line, 4);
    }

    #[test]
    fn missing_unterminated_and_empty() {
        assert_eq!(split("# no fm\n").unwrap_err().code, "AB101");
        assert_eq!(split("---\nid: x\n").unwrap_err().code, "AB102");
        assert_eq!(split("---\n---\nbody\n").unwrap_err().code, "AB105");
        assert_eq!(split("").unwrap_err().code, "AB101");
    }

    #[test]
    fn key_lines_and_duplicates() {
        let t = "---\nid: A-001\ntitle: |\n  text: not a key\nid: A-002\n---\n";
        let s = split(t).unwrap();
        let errs = parse_fields(&s).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].code, "AB104");
        assert_eq!(errs[0].line, Some(5));
        assert!(errs[0].message.contains("line 2"));
    }

    #[test]
    fn yaml_error_line_is_file_line() {
        let t = "---\nid: A-001\ntitle: [unclosed\n---\n";
        let s = split(t).unwrap();
        let errs = parse_fields(&s).unwrap_err();
        assert_eq!(errs[0].code, "AB103");
        assert!(errs[0].line.unwrap() >= 3, "{:?}", errs[0]);
    }
}
