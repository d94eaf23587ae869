//! Where each key of a YAML or JSON data file sits, so findings in user input (profiles,
//! results, portfolios, `catalogue.yaml`) carry a line. serde_yaml keeps no positions on
//! values, and a finding without a line in a 500-line results file is one nobody can act on.
//!
//! The positions come from a YAML parser that reports them (yaml-rust2's event parser and its
//! markers), not from a scanner of our own: block and flow style, JSON, quoted keys, block
//! scalars and comments are the library's to tell apart. Paths are dotted
//! (`data_source.is_swiss_open_data`), sequence items are `[i]` (`servers[1].name`). The file
//! has been parsed for its values already; on input the parser rejects, the keys before the
//! error keep their lines.

use std::collections::BTreeMap;
use yaml_rust2::parser::{Event, Parser};

/// An open mapping or sequence, with the path of the node it is.
struct Open {
    /// `None` inside a node that has no path (a mapping used as a key).
    path: Option<String>,
    kind: Kind,
}

enum Kind {
    /// A mapping, waiting for a key (`None`) or for the value of the key read (`Some`; a
    /// complex key, a mapping or sequence used as a key, has no name).
    Map { value_of: Option<Option<String>> },
    /// A sequence and the index of its next item.
    Seq { next: usize },
}

/// Every key path in `text`, mapped to the 1-based line where it is written (the first time,
/// if a path repeats).
pub fn key_lines(text: &str) -> BTreeMap<String, usize> {
    key_positions(text)
        .into_iter()
        .map(|(path, (line, _))| (path, line))
        .collect()
}

/// Every key path in `text`, mapped to the 1-based line and column where it is written (the
/// first time, if a path repeats); a sequence item is where its node starts.
pub fn key_positions(text: &str) -> BTreeMap<String, (usize, usize)> {
    let mut out = BTreeMap::new();
    walk(text, |path, at, _| {
        out.entry(path).or_insert(at);
        true
    });
    out
}

/// The first key written twice in one mapping, however each is quoted (`id` and `"id"` are one
/// key): its path, the line of its first occurrence and the line of the repeat.
pub fn repeated_key(text: &str) -> Option<(String, usize, usize)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut found = None;
    walk(text, |path, (line, _), key| {
        if !key {
            return true;
        }
        match seen.get(&path) {
            Some(first) => {
                found = Some((path, *first, line));
                false
            }
            None => {
                seen.insert(path, line);
                true
            }
        }
    });
    found
}

/// Call `at(path, (line, column), is_key)` for every key and sequence item of `text` in
/// document order, until it returns `false`.
fn walk(text: &str, mut at: impl FnMut(String, (usize, usize), bool) -> bool) {
    let mut stack: Vec<Open> = Vec::new();
    let mut parser = Parser::new_from_str(text);
    while let Ok((event, mark)) = parser.next_token() {
        let line = (mark.line(), mark.col() + 1);
        let go_on = match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                stack.clear();
                true
            }
            Event::Scalar(value, ..) => {
                if let Some(Open {
                    path,
                    kind: Kind::Map { value_of: pending @ None },
                }) = stack.last_mut()
                {
                    // A key: its value follows.
                    let go_on = match path {
                        Some(base) => at(join(base, &value), line, true),
                        None => true,
                    };
                    *pending = Some(Some(value));
                    go_on
                } else {
                    node(&mut stack, line, &mut at).1
                }
            }
            Event::Alias(_) => node(&mut stack, line, &mut at).1,
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let (path, go_on) = node(&mut stack, line, &mut at);
                let kind = match event {
                    Event::MappingStart(..) => Kind::Map { value_of: None },
                    _ => Kind::Seq { next: 0 },
                };
                stack.push(Open { path, kind });
                go_on
            }
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
                true
            }
            _ => true,
        };
        if !go_on {
            break;
        }
    }
}

/// A value node starts at `line` (a scalar, an alias, a mapping or a sequence): the path it
/// has in its parent, which it consumes — a mapping's pending key, a sequence's next index (the
/// item's line reported). A node where a mapping expects a key is a complex key and has none.
/// The second value is what `at` answered for a sequence item (`true` otherwise).
fn node(
    stack: &mut [Open],
    line: (usize, usize),
    at: &mut impl FnMut(String, (usize, usize), bool) -> bool,
) -> (Option<String>, bool) {
    let Some(parent) = stack.last_mut() else {
        return (Some(String::new()), true);
    };
    let base = parent.path.as_deref();
    match &mut parent.kind {
        Kind::Map { value_of } => match value_of.take() {
            Some(key) => (base.zip(key).map(|(b, k)| join(b, &k)), true),
            None => {
                // A complex key: its value comes next, and neither has a path.
                *value_of = Some(None);
                (None, true)
            }
        },
        Kind::Seq { next } => {
            let Some(base) = base else {
                return (None, true);
            };
            let path = format!("{base}[{next}]");
            *next += 1;
            let go_on = at(path.clone(), line, false);
            (Some(path), go_on)
        }
    }
}

fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        format!("{base}.{key}")
    }
}

/// The line (or position) of `path` in `lines`, or of its nearest ancestor that has one.
pub fn line_of<V: Copy>(lines: &BTreeMap<String, V>, path: &str) -> Option<V> {
    let mut p = path;
    loop {
        if let Some(l) = lines.get(p) {
            return Some(*l);
        }
        let cut = p.rfind(['.', '['])?;
        p = p.get(..cut)?;
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
    fn a_repeated_key_is_found_however_it_is_quoted() {
        let t = "id: A-001\ntitle: x\n\"id\": A-002\n";
        assert_eq!(repeated_key(t), Some(("id".into(), 1, 3)));
        let t = "probe:\n  tool: a\n  'tool': b\n";
        assert_eq!(repeated_key(t), Some(("probe.tool".into(), 2, 3)));
        // The same key in two items of a list is no repeat.
        assert_eq!(repeated_key("s:\n  - name: a\n  - name: b\n"), None);
    }

    #[test]
    fn missing_paths_fall_back_to_the_parent() {
        let l = key_lines("results:\n  FID-001:\n    status: pass\n");
        assert_eq!(line_of(&l, "results.FID-001.evidence"), Some(2));
        assert_eq!(line_of(&l, "servers[3].name"), None);
        assert_eq!(line_of(&l, "results.X.y"), Some(1));
    }

    /// Every path of the value serde_yaml reads, as `key_lines` names them.
    fn value_paths(v: &serde_yaml::Value, base: &str, out: &mut Vec<String>) {
        match v {
            serde_yaml::Value::Mapping(m) => {
                for (k, v) in m {
                    let key = match k {
                        serde_yaml::Value::String(s) => s.clone(),
                        serde_yaml::Value::Number(n) => n.to_string(),
                        serde_yaml::Value::Bool(b) => b.to_string(),
                        _ => continue,
                    };
                    let path = join(base, &key);
                    out.push(path.clone());
                    value_paths(v, &path, out);
                }
            }
            serde_yaml::Value::Sequence(items) => {
                for (i, v) in items.iter().enumerate() {
                    let path = format!("{base}[{i}]");
                    out.push(path.clone());
                    value_paths(v, &path, out);
                }
            }
            serde_yaml::Value::Tagged(t) => value_paths(&t.value, base, out),
            _ => {}
        }
    }

    /// The positions agree with the values: on every YAML and JSON data file the project
    /// ships or tests with, the paths with a line are exactly the paths serde_yaml reads, and
    /// each line holds its key.
    #[test]
    fn every_path_serde_yaml_reads_has_its_line() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut dirs = vec![
            root.join("catalogue"),
            root.join("examples"),
            root.join("tests/fixtures"),
        ];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p
                    .extension()
                    .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
                {
                    files.push(p);
                }
            }
        }
        let mut compared = 0;
        for f in files {
            let Ok(text) = std::fs::read_to_string(&f) else {
                continue;
            };
            let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
                continue;
            };
            let mut expected = Vec::new();
            value_paths(&value, "", &mut expected);
            expected.sort();
            expected.dedup();
            let lines = key_lines(&text);
            let found: Vec<String> = lines.keys().cloned().collect();
            assert_eq!(found, expected, "{}", f.display());
            let rows: Vec<&str> = text.split('\n').collect();
            for (path, line) in &lines {
                let last = path.rsplit(['.', '[']).next().unwrap_or("");
                if !path.ends_with(']') && !last.is_empty() {
                    assert!(
                        rows[line - 1].contains(last),
                        "{}: `{path}` is not on line {line}",
                        f.display()
                    );
                }
            }
            compared += 1;
        }
        assert!(compared >= 20, "only {compared} data files compared");
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
