//! Where each key of a YAML or JSON data file sits, so findings in user input (profiles,
//! results, portfolios) carry a line. serde_yaml keeps no positions on values, and a finding
//! without a line in a 500-line results file is one nobody can act on.
//!
//! This is a line scanner, not a parser: the file has already been parsed, so it only has to
//! agree with the parser on well-formed input. Paths are dotted (`data_source.is_swiss_open_data`),
//! sequence items are `[i]` (`servers[1].name`).

use std::collections::BTreeMap;

#[derive(Debug)]
struct Frame {
    indent: usize,
    path: String,
    /// A `- ` item (its children sit deeper than the dash).
    item: bool,
    /// Items seen so far directly under this frame.
    items: usize,
    /// The key's value opened a JSON array (`"servers": [`): `{` lines below are items.
    array: bool,
}

/// Every key path in `text`, mapped to the 1-based line where it is written.
pub fn key_lines(text: &str) -> BTreeMap<String, usize> {
    let mut scan = KeyScan::default();
    for (i, raw) in text.split('\n').enumerate() {
        scan.line(i + 1, raw);
    }
    scan.out
}

/// The scanner's state between lines: the open mappings and items, and whether a block
/// scalar is running.
#[derive(Default)]
struct KeyScan {
    out: BTreeMap<String, usize>,
    stack: Vec<Frame>,
    /// Lines deeper than this indent belong to a block scalar (`key: |`) and hold no keys.
    block_scalar: Option<usize>,
}

impl KeyScan {
    fn line(&mut self, line: usize, raw: &str) {
        let indent = raw.chars().take_while(|c| *c == ' ').count();
        let content = raw.get(indent..).unwrap_or("").trim_end();
        if content.is_empty() || content.starts_with('#') {
            return;
        }
        if let Some(bi) = self.block_scalar {
            if indent > bi {
                return;
            }
            self.block_scalar = None;
        }
        if content == "---" || content == "..." {
            self.stack.clear();
            return;
        }
        let mut col = indent;
        let mut rest = content;
        // A sequence item: `- value` or `- key: value`, or a `{` line inside a JSON array.
        let dash = rest == "-" || rest.starts_with("- ");
        let json_item = rest.starts_with('{')
            && self
                .stack
                .iter()
                .rev()
                .find(|f| f.indent < col)
                .is_some_and(|f| f.array);
        if dash || json_item {
            let path = self.item(col, line);
            if json_item {
                scan_flow(rest, &path, line, &mut self.out);
                return;
            }
            let after = rest.get(1..).unwrap_or("");
            let skip = after.chars().take_while(|c| *c == ' ').count();
            col += 1 + skip;
            rest = after.get(skip..).unwrap_or("");
            if rest.starts_with('{') {
                scan_flow(rest, &path, line, &mut self.out);
                return;
            }
        }
        self.key(rest, col, line);
    }

    /// Open a sequence item at `col`; its path is the parent's with the item's index.
    fn item(&mut self, col: usize, line: usize) -> String {
        while self
            .stack
            .last()
            .is_some_and(|f| f.indent > col || (f.indent == col && f.item))
        {
            self.stack.pop();
        }
        let (base, index) = match self.stack.last_mut() {
            Some(p) => {
                p.items += 1;
                (p.path.clone(), p.items - 1)
            }
            None => (String::new(), 0),
        };
        let path = format!("{base}[{index}]");
        self.out.entry(path.clone()).or_insert(line);
        self.stack.push(Frame {
            indent: col,
            path: path.clone(),
            item: true,
            items: 0,
            array: false,
        });
        path
    }

    /// A `key: value` at `col`, if `rest` holds one.
    fn key(&mut self, rest: &str, col: usize, line: usize) {
        let Some((key, value)) = split_key(rest) else {
            return;
        };
        while self.stack.last().is_some_and(|f| f.indent >= col) {
            self.stack.pop();
        }
        let path = match self.stack.last() {
            Some(p) => join(&p.path, &key),
            None => key,
        };
        self.out.entry(path.clone()).or_insert(line);
        let value = value.trim();
        if value.starts_with('{') {
            scan_flow(value, &path, line, &mut self.out);
        }
        if value.starts_with('|') || value.starts_with('>') {
            self.block_scalar = Some(col);
        }
        self.stack.push(Frame {
            indent: col,
            path,
            item: false,
            items: 0,
            array: value.starts_with('['),
        });
    }
}

pub use crate::model::config::line_of;

fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        format!("{base}.{key}")
    }
}

/// `key: value` (plain, single- or double-quoted key) into the key and the rest of the line.
fn split_key(s: &str) -> Option<(String, &str)> {
    let first = s.chars().next()?;
    if first == '"' || first == '\'' {
        let (key, end) = quoted(s, first)?;
        let rest = s.get(end..)?.trim_start();
        let value = rest.strip_prefix(':')?;
        return Some((key, value));
    }
    if matches!(
        first,
        '-' | '[' | '{' | '}' | ']' | '#' | '&' | '*' | '!' | '|' | '>' | '?'
    ) {
        return None;
    }
    let mut search = 0;
    loop {
        let at = search + s.get(search..)?.find(':')?;
        let after = s.get(at + 1..)?;
        if after.is_empty() || after.starts_with(' ') || after.starts_with('\t') {
            let key = s.get(..at)?.trim_end();
            if key.is_empty() || key.contains(" #") {
                return None;
            }
            return Some((key.to_string(), after));
        }
        search = at + 1;
    }
}

/// A quoted string at the start of `s`: its text (escapes for the quote resolved) and the byte
/// offset after the closing quote.
fn quoted(s: &str, q: char) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == '\\' && q == '"' {
            if let Some((_, n)) = chars.next() {
                out.push(n);
            }
        } else if c == q {
            if q == '\'' && s.get(i + 1..).is_some_and(|r| r.starts_with('\'')) {
                chars.next();
                out.push('\'');
                continue;
            }
            return Some((out, i + c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    None
}

/// Keys of a one-line flow mapping (`{name: a, profile: {x: 1}}`), nested ones included.
fn scan_flow(s: &str, base: &str, line: usize, out: &mut BTreeMap<String, usize>) {
    // Stack of (path, expecting a key next, index for sequences, is sequence).
    let mut stack: Vec<(String, bool, usize, bool)> = Vec::new();
    let mut last_key: Option<String> = None;
    let mut i = 0;
    let bytes = s.as_bytes();
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' | b'[' => {
                let path = match (stack.last_mut(), last_key.take()) {
                    (None, _) => base.to_string(),
                    (Some(top), Some(k)) if !top.3 => join(&top.0, &k),
                    (Some(top), _) if top.3 => {
                        top.2 += 1;
                        format!("{}[{}]", top.0, top.2 - 1)
                    }
                    (Some(top), _) => top.0.clone(),
                };
                stack.push((path, b == b'{', 0, b == b'['));
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                if stack.is_empty() {
                    return;
                }
                i += 1;
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.1 = !top.3;
                }
                last_key = None;
                i += 1;
            }
            b' ' | b'\t' => i += 1,
            b'"' | b'\'' => {
                let rest = s.get(i..).unwrap_or("");
                let Some((text, end)) = quoted(rest, b as char) else {
                    return;
                };
                i += end;
                take_key(text, s, &mut i, &mut stack, &mut last_key, line, out);
            }
            _ => {
                let start = i;
                while let Some(&c) = bytes.get(i) {
                    if matches!(c, b',' | b'}' | b']' | b'{' | b'[') {
                        break;
                    }
                    if c == b':'
                        && bytes
                            .get(i + 1)
                            .is_none_or(|n| matches!(n, b' ' | b',' | b'}' | b']'))
                    {
                        break;
                    }
                    i += 1;
                }
                if i == start {
                    // A `:` with no key before it (`{: x}`): step over it, or the scan would
                    // stand still on it forever.
                    i += 1;
                    continue;
                }
                let text = s.get(start..i).unwrap_or("").trim().to_string();
                take_key(text, s, &mut i, &mut stack, &mut last_key, line, out);
            }
        }
    }
}

#[allow(clippy::type_complexity)]
fn take_key(
    text: String,
    s: &str,
    i: &mut usize,
    stack: &mut [(String, bool, usize, bool)],
    last_key: &mut Option<String>,
    line: usize,
    out: &mut BTreeMap<String, usize>,
) {
    let Some(top) = stack.last_mut() else {
        return;
    };
    let rest = s.get(*i..).unwrap_or("");
    let ws = rest.len() - rest.trim_start().len();
    if top.1 && rest.trim_start().starts_with(':') {
        *i += ws + 1;
        out.entry(join(&top.0, &text)).or_insert(line);
        *last_key = Some(text);
        top.1 = false;
    } else if top.3 {
        top.2 += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(String, usize)> {
        key_lines(text).into_iter().collect()
    }

    #[test]
    fn a_colon_without_a_key_in_a_flow_mapping_ends() {
        // Once an endless loop: the scanner never stepped over the lone `:`.
        let _ = key_lines("a: {: x, b: [: y]}\nc: {k: {: }}\n");
    }

    #[test]
    fn block_mappings_nest_by_indent() {
        let t = "# c\ntransport: stdio-only\ndata_source:\n  is_swiss_open_data: true\nwrite_capable: false\n";
        let l = key_lines(t);
        assert_eq!(l.get("transport"), Some(&2));
        assert_eq!(l.get("data_source"), Some(&3));
        assert_eq!(l.get("data_source.is_swiss_open_data"), Some(&4));
        assert_eq!(l.get("write_capable"), Some(&5));
    }

    #[test]
    fn sequences_of_mappings_are_indexed() {
        let t = "servers:\n  - name: a\n    profile: a.yaml\n  - {name: b, profile: {transport: dual}}\n  -\n    name: c\n";
        let l = key_lines(t);
        assert_eq!(l.get("servers[0]"), Some(&2));
        assert_eq!(l.get("servers[0].name"), Some(&2));
        assert_eq!(l.get("servers[0].profile"), Some(&3));
        assert_eq!(l.get("servers[1].name"), Some(&4));
        assert_eq!(l.get("servers[1].profile.transport"), Some(&4));
        assert_eq!(l.get("servers[2].name"), Some(&6));
    }

    #[test]
    fn sequence_at_the_parents_indent() {
        let t = "servers:\n- name: a\n- name: b\nother: 1\n";
        assert_eq!(
            lines(t),
            vec![
                ("other".into(), 4),
                ("servers".into(), 1),
                ("servers[0]".into(), 2),
                ("servers[0].name".into(), 2),
                ("servers[1]".into(), 3),
                ("servers[1].name".into(), 3),
            ]
        );
    }

    #[test]
    fn json_style_keys() {
        let t = "{\n  \"transport\": \"dual\",\n  \"data_source\": {\n    \"is_swiss_open_data\": true\n  },\n  \"servers\": [\n    {\n      \"name\": \"a\"\n    },\n    {\"name\": \"b\"}\n  ]\n}\n";
        let l = key_lines(t);
        assert_eq!(l.get("transport"), Some(&2));
        assert_eq!(l.get("data_source.is_swiss_open_data"), Some(&4));
        assert_eq!(l.get("servers[0].name"), Some(&8));
        assert_eq!(l.get("servers[1].name"), Some(&10));
    }

    #[test]
    fn ids_quotes_and_block_scalars() {
        let t = "results:\n  FID-001:\n    status: pass\n    note: |\n      looks: like a key\n    evidence:\n      - \"src/a.py:88 — x: y\"\n  'SEC-004': {status: fail}\n";
        let l = key_lines(t);
        assert_eq!(l.get("results.FID-001.status"), Some(&3));
        assert_eq!(l.get("results.FID-001.evidence"), Some(&6));
        assert!(!l.contains_key("results.FID-001.looks"));
        assert!(!l.keys().any(|k| k.contains("src/a.py")));
        assert_eq!(l.get("results.SEC-004.status"), Some(&8));
    }

    #[test]
    fn missing_paths_fall_back_to_the_parent() {
        let l = key_lines("results:\n  FID-001:\n    status: pass\n");
        assert_eq!(line_of(&l, "results.FID-001.evidence"), Some(2));
        assert_eq!(line_of(&l, "servers[3].name"), None);
        assert_eq!(line_of(&l, "results.X.y"), Some(1));
    }

    #[test]
    fn never_panics_on_odd_input() {
        for t in [
            "- - -",
            "{",
            "}",
            "\"unterminated: x",
            "a: {b: [1, {c: ",
            ":",
            "- {",
            "'a''b': 1",
        ] {
            let _ = key_lines(t);
        }
        assert_eq!(key_lines("'a''b': 1").get("a'b"), Some(&1));
    }
}
