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
        .at(1, 1));
    }
    let after_open = first.len() + 1;
    // The closing delimiter: the first later line holding only `---`.
    let mut offset = after_open;
    let mut close = None;
    for line in text.get(after_open..).unwrap_or("").split_inclusive('\n') {
        if line.trim_end() == "---" {
            close = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    let Some((close_start, close_end)) = close else {
        return Err(Diagnostic::new(
            &codes::FRONTMATTER_UNTERMINATED,
            "the frontmatter opened on line 1 is never closed: expected a `---` line",
        )
        .at(1, 1));
    };
    // gray_matter reads the block from the head of the file only: the body is not its
    // business, and handing it the whole file cost as much as parsing the YAML.
    let head = text.get(..close_end).unwrap_or(text);
    let parsed = Matter::<RawEngine>::new()
        .parse::<String>(head)
        .map_err(|e| Diagnostic::new(&codes::YAML_INVALID, e.to_string()).at(1, 1))?;
    if parsed.data.is_none() {
        return Err(Diagnostic::new(
            &codes::MISSING_FIELD,
            "the frontmatter block is empty; expected at least id, title, category, severity and applies_when",
        )
        .at(1, 1));
    }
    // gray_matter trims the block, so the YAML starts at the block's first non-blank byte.
    let block = text.get(after_open..close_start).unwrap_or("");
    let yaml_start = after_open + (block.len() - block.trim_start().len());
    if !text
        .get(yaml_start..)
        .is_some_and(|t| t.starts_with(parsed.matter.as_str()))
    {
        return Err(Diagnostic::new(
            &codes::YAML_INVALID,
            "the frontmatter block could not be located in the file",
        )
        .at(1, 1));
    }
    let yaml = text
        .get(yaml_start..yaml_start + parsed.matter.len())
        .unwrap_or("");
    // Blank lines between the block and the body are not part of the body.
    let rest = text.get(close_end..).unwrap_or("");
    let body_start = close_end + (rest.len() - rest.trim_start_matches('\n').len());
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
        .map(|s| memchr::memchr_iter(b'\n', s.as_bytes()).count() + 1)
        .unwrap_or(1)
}

use crate::text::yaml_value::{describe, shorten};

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
            errors.push(duplicate(key, *first, line, key.chars().count()));
        } else {
            lines.insert(key.to_string(), line);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some((at, c)) = unprintable(split.yaml) {
        let before = split.yaml.get(..at).unwrap_or("");
        let line = split.yaml_line + memchr::memchr_iter(b'\n', before.as_bytes()).count();
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        return Err(vec![Diagnostic::new(
            &codes::YAML_INVALID,
            format!(
                "the frontmatter holds the control character U+{:04X}; YAML allows no control \
                 character but tab and line breaks",
                u32::from(c)
            ),
        )
        .at(line, column)]);
    }
    // The fast path reads only `key: scalar` lines at column 0, which nest nothing; the depth
    // bound guards the general parser.
    let parsed = match printable_mapping(split.yaml) {
        Some(map) => Ok(Value::Mapping(map)),
        None => {
            if let Some((line, column)) =
                super::yaml_depth::too_deep(split.yaml, super::yaml_depth::MAX_DEPTH)
            {
                return Err(vec![Diagnostic::new(
                    &codes::YAML_INVALID,
                    format!(
                        "the frontmatter is nested more than {} levels deep; it is not parsed",
                        super::yaml_depth::MAX_DEPTH
                    ),
                )
                .at(split.yaml_line + line - 1, column)]);
            }
            serde_yaml::from_str::<Value>(split.yaml)
        }
    };
    match parsed {
        Ok(Value::Mapping(map)) => {
            let tagged = super::yaml_tags::reject(split.yaml, split.yaml_line);
            if tagged.is_empty() {
                Ok(Fields { map, lines })
            } else {
                Err(tagged)
            }
        }
        Ok(other) => Err(vec![Diagnostic::new(
            &codes::YAML_INVALID,
            format!(
                "expected a mapping of fields (`key: value` lines), found {}",
                describe(&other)
            ),
        )
        .at(split.yaml_line, 1)]),
        Err(e) => {
            let d = yaml_error(&e, split.yaml_line);
            // The line scan above skips quoted keys; the YAML parser places a repeat at the
            // mapping's start. The event parser knows where the repeat is written.
            let repeat = (d.code == codes::DUPLICATE_KEY.code)
                .then(|| crate::text::yaml_lines::repeated_key(split.yaml))
                .flatten();
            Err(vec![match repeat {
                Some((key, first, again)) => {
                    let width = split
                        .yaml
                        .split('\n')
                        .nth(again.saturating_sub(1))
                        .and_then(|l| l.find(':').map(|i| l[..i].chars().count()))
                        .unwrap_or(0);
                    duplicate(
                        &key,
                        split.yaml_line + first - 1,
                        split.yaml_line + again - 1,
                        width,
                    )
                }
                None => d,
            }])
        }
    }
}

/// Key `key` written again on `line` after `first` (file lines); the finding marks `width`
/// characters of the repeat's line.
fn duplicate(key: &str, first: usize, line: usize, width: usize) -> Diagnostic {
    Diagnostic::new(
        &codes::DUPLICATE_KEY,
        format!("key `{key}` appears twice: first on line {first}, again here"),
    )
    .at(line, 1)
    .width(width)
}

/// The common frontmatter shape — one `key: value` per line with simple scalars — read
/// without the general YAML parser, which was the largest single cost of loading. Anything
/// else (nesting, flow collections, anchors, block scalars, numbers other than small
/// integers, dates, `null`, escapes) returns `None` and goes to serde_yaml. Unit tests and a
/// differential fuzz target (`fuzz/fuzz_targets/yaml_fast_path.rs`) hold the two to the same
/// result wherever this answers; reading every frontmatter through serde_yaml alone cost
/// `applicability` 36 % more instructions (BENCHMARKS.md).
#[cfg(any(test, feature = "internals"))]
pub fn fast_mapping(yaml: &str) -> Option<Mapping> {
    match unprintable(yaml) {
        Some(_) => None,
        None => printable_mapping(yaml),
    }
}

/// The first character YAML does not allow anywhere in a stream (its byte offset): the C0
/// controls but tab and line breaks, DEL, the C1 controls but NEL, U+FFFE and U+FFFF. The YAML
/// parser refuses such a text as a whole, so every path that reads frontmatter refuses it
/// too, by this one rule, before either parser sees it.
pub fn unprintable(yaml: &str) -> Option<(usize, char)> {
    // Most blocks are printable: one pass over the bytes rules out every candidate (a C1
    // control starts with 0xC2 in UTF-8, U+FFFE and U+FFFF with 0xEF). Each chunk is tested
    // without branching on a byte, which the compiler turns into vector code; the pass was
    // 1.5 % of an `applicability` when it stopped at the first byte.
    let suspect = |b: u8| {
        (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r') | (b == 0x7f) | (b == 0xc2) | (b == 0xef)
    };
    let clean = yaml
        .as_bytes()
        .chunks(64)
        .all(|chunk| !chunk.iter().fold(false, |hit, b| hit | suspect(*b)));
    if clean {
        return None;
    }
    yaml.char_indices().find(|(_, c)| {
        let n = u32::from(*c);
        (n < 0x20 && !matches!(c, '\t' | '\n' | '\r'))
            || n == 0x7f
            || ((0x80..=0x9f).contains(&n) && n != 0x85)
            || n == 0xfffe
            || n == 0xffff
    })
}

/// [`fast_mapping`] for a block [`unprintable`] found clean.
fn printable_mapping(yaml: &str) -> Option<Mapping> {
    let mut map = Mapping::with_capacity(memchr::memchr_iter(b'\n', yaml.as_bytes()).count() + 1);
    for line in yaml.split('\n') {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(':')?;
        if key.is_empty()
            || !key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            || !rest.starts_with(' ')
        {
            return None;
        }
        let value = simple_scalar(rest.trim())?;
        if map.insert(Value::String(key.to_string()), value).is_some() {
            return None;
        }
    }
    Some(map)
}

fn simple_scalar(v: &str) -> Option<Value> {
    if v.is_empty() || v.contains('\t') {
        return None;
    }
    if let Some(inner) = v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')) {
        if v.len() < 2 || inner.replace("''", "").contains('\'') {
            return None;
        }
        return Some(Value::String(inner.replace("''", "'")));
    }
    if let Some(inner) = v.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
        if v.len() < 2 || inner.contains(['"', '\\']) {
            return None;
        }
        return Some(Value::String(inner.to_string()));
    }
    let first = v.chars().next()?;
    if "[]{}&*!|>'\"%@`#,?:-+.~".contains(first)
        || v.contains(": ")
        || v.contains(" #")
        || v.ends_with(':')
    {
        return None;
    }
    if first.is_ascii_digit() {
        // Small decimal integers only; everything else that starts with a digit (floats,
        // dates, octal, `1_000`) is YAML's business.
        let plain = v.len() <= 18
            && v.chars().all(|c| c.is_ascii_digit())
            && (v == "0" || !v.starts_with('0'));
        return plain
            .then(|| v.parse::<u64>().ok().map(|n| Value::Number(n.into())))
            .flatten();
    }
    match v {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ if v.eq_ignore_ascii_case("true")
            || v.eq_ignore_ascii_case("false")
            || v.eq_ignore_ascii_case("null") =>
        {
            None
        }
        _ => Some(Value::String(v.to_string())),
    }
}

/// A serde_yaml error as a diagnostic, its location shifted to file lines.
pub fn yaml_error(e: &serde_yaml::Error, first_line: usize) -> Diagnostic {
    let code = if e.to_string().contains("duplicate entry") {
        &codes::DUPLICATE_KEY
    } else {
        &codes::YAML_INVALID
    };
    let d = Diagnostic::new(
        code,
        format!("invalid YAML: {}", from_line(&e.to_string(), first_line)),
    );
    match e.location() {
        Some(loc) => d.at(
            first_line + loc.line().saturating_sub(1),
            loc.column().max(1),
        ),
        None => d.line(first_line),
    }
}

/// serde_yaml's message with the places it names (`at line 2 column 14`) counted in the file,
/// as the finding's own line is: line 2 of YAML that starts on line 2 of its file is line 3.
fn from_line(message: &str, first_line: usize) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(i) = rest.find("at line ") {
        let (head, tail) = rest.split_at(i + "at line ".len());
        out.push_str(head);
        let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match tail[..digits].parse::<usize>() {
            Ok(n) => out.push_str(&(n + first_line.max(1) - 1).to_string()),
            Err(_) => out.push_str(&tail[..digits]),
        }
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path must agree with serde_yaml wherever it answers.
    #[test]
    fn fast_mapping_agrees_with_serde_yaml() {
        let values = [
            "FID-006",
            "\"Confirm structure\"",
            "'it''s'",
            "'always'",
            "tools_make_external_requests == true",
            "'transport != \"stdio-only\"'",
            "high",
            "2",
            "0",
            "10",
            "007",
            "1.10",
            "2026-07-28",
            "\"2026-07-28\"",
            "both",
            "beide",
            "yes",
            "no",
            "on",
            "off",
            "y",
            "n",
            "true",
            "false",
            "True",
            "FALSE",
            "null",
            "Null",
            "~",
            "advisory",
            "\"a: b\"",
            "a: b",
            "a #b",
            "a#b",
            "[x]",
            "{a: 1}",
            "-1",
            "+1",
            ".5",
            ".inf",
            "&a",
            "*a",
            "!tag x",
            "|",
            ">",
            "\"esc \\n\"",
            "\"\"",
            "''",
            "x:",
            "Portfolio-Befund, MCP Registry 2026-07",
            "12345678901234567890",
            "1e3",
            "0x1A",
            "0o17",
            "1_000",
            "Leere Treffer liefern einen nächsten Schritt",
        ];
        for v in values {
            let yaml = format!("key: {v}\nother: x");
            if let Some(fast) = fast_mapping(&yaml) {
                let slow: Value = serde_yaml::from_str(&yaml).unwrap();
                assert_eq!(Value::Mapping(fast), slow, "value {v:?}");
            }
        }
        // The shapes every shipped check uses take the fast path.
        assert!(fast_mapping("id: A-001\ntitle: \"T\"\napplies_when: 'always'\nspec_baseline: \"2026-07-28\"\nevidence_required: 2").is_some());
        assert!(fast_mapping("checks: [A-001]").is_none());
        assert!(fast_mapping("title: |\n  text").is_none());
    }

    #[test]
    fn fast_mapping_agrees_on_every_shipped_and_fixture_check() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dirs = [
            "catalogue/checks",
            "catalogue/rules",
            "tests/fixtures/clean/checks",
            "tests/fixtures/compat-de/checks",
            "tests/fixtures/graph/checks",
        ];
        let mut fast = 0;
        for dir in dirs {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "md") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let s = split(&text).unwrap();
                let slow: Value = serde_yaml::from_str(s.yaml).unwrap();
                // Evidence declarations (`probe:`, `scan:`) are nested YAML, which only the
                // full parser reads; every other check takes the fast path.
                let nested = s.yaml.contains("\nprobe:") || s.yaml.contains("\nscan:");
                match fast_mapping(s.yaml) {
                    Some(m) => {
                        fast += 1;
                        assert_eq!(Value::Mapping(m), slow, "{}", path.display());
                    }
                    None if dir == "catalogue/checks" && !nested => {
                        panic!("{} misses the fast path", path.display())
                    }
                    None => {}
                }
            }
        }
        // Every shipped file without nested evidence took it (checked above); the fixtures'
        // plain files add theirs.
        assert!(fast >= 30, "the fast path is taken ({fast})");
    }

    /// The control-character rule is the YAML parser's own: a character is refused by it
    /// exactly when serde_yaml refuses the block for it.
    #[test]
    fn the_control_character_rule_is_the_yaml_parsers() {
        let chars = (0u32..0x100)
            .chain([0x2028, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0xfffe, 0xffff, 0x1_0000]);
        for n in chars {
            let Some(c) = char::from_u32(n) else {
                continue;
            };
            if matches!(c, '\n' | '\r' | '"' | '\\') {
                continue;
            }
            let yaml = format!("key: \"a{c}b\"\n# note {c}\n");
            let refused = serde_yaml::from_str::<Value>(&yaml).is_err();
            assert_eq!(unprintable(&yaml).is_some(), refused, "U+{n:04X}");
            if refused {
                assert!(fast_mapping(&yaml).is_none(), "U+{n:04X}");
            }
        }
    }

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

    /// Generated YAML-ish blocks, built from the pieces the fast path decides on (quotes,
    /// colons, hashes, leading indicators, digits, case of keywords), agree with serde_yaml
    /// wherever the fast path answers. The fuzz target does the same on arbitrary bytes.
    #[test]
    fn fast_mapping_agrees_on_generated_blocks() {
        const PIECES: [&str; 24] = [
            "a", "Ä", "1", "0", "-", ":", " ", "'", "\"", "#", "\\", "true", "NULL", "~", "[", "{",
            "&", "*", "!", "|", ".", "e", "_", "\t",
        ];
        // A fixed linear congruential sequence: the same blocks on every run.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n
        };
        let mut answered = 0;
        for _ in 0..20_000 {
            let mut yaml = String::new();
            for line in 0..1 + next(3) {
                let key = ["id", "title", "x_1", "a-b", "_k", "K9"][next(6)];
                yaml.push_str(&format!("{key}{line}: "));
                for _ in 0..1 + next(5) {
                    yaml.push_str(PIECES[next(PIECES.len())]);
                }
                yaml.push('\n');
            }
            if let Some(fast) = fast_mapping(&yaml) {
                answered += 1;
                let slow: Result<Value, _> = serde_yaml::from_str(&yaml);
                assert_eq!(slow.ok(), Some(Value::Mapping(fast)), "block {yaml:?}");
            }
        }
        assert!(
            answered > 1_000,
            "only {answered} blocks took the fast path"
        );
    }
}
