//! Reading a user's data file (a profile, a results file, a portfolio) given on the command
//! line: YAML or JSON by extension, decoded like catalogue text, parsed into one JSON value
//! tree, with the line of every key. Duplicate keys are errors in both syntaxes (serde_json
//! would silently keep the last one).

use super::frontmatter::yaml_error;
use super::text::{decode, MAX_FILE_BYTES};
use crate::model::config::KeyLines;
use crate::text::yaml_lines::key_lines;
use crate::diag::{Code, Diagnostic};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct DataFile {
    /// The path as the user named it, for diagnostics.
    pub shown: String,
    pub path: PathBuf,
    pub text: String,
    /// sha256 of the file's bytes as read.
    pub digest: String,
    pub value: Value,
    /// Found when a finding first asks for one.
    pub lines: KeyLines,
    /// BOM and CRLF warnings.
    pub notes: Vec<Diagnostic>,
}

impl DataFile {
    /// The line of a key path (or of its nearest written ancestor); 1 when none is written.
    pub fn line(&self, path: &str) -> usize {
        self.lines.line_of(path).unwrap_or(1)
    }

    /// A diagnostic located at a key path of this file.
    pub fn at(&self, code: &'static Code, path: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, message)
            .file(self.shown.clone())
            .line(self.line(path))
    }
}

pub enum DataError {
    /// The file could not be read at all: the engine cannot do its job (exit 2).
    Unreadable(String),
    /// The file was read but is not usable data; the diagnostics say where, and `sources`
    /// holds what was read (by shown path), so they are shown against that text rather than a
    /// second reading of the file.
    Invalid {
        diagnostics: Vec<Diagnostic>,
        sources: crate::diag::SourceMap,
    },
}

impl DataError {
    /// Findings about text the caller already holds (no file of their own).
    pub fn invalid(diagnostics: Vec<Diagnostic>) -> DataError {
        DataError::Invalid {
            diagnostics,
            sources: BTreeMap::new(),
        }
    }

    fn invalid_in(d: Diagnostic, shown: &str, text: &str) -> DataError {
        DataError::Invalid {
            diagnostics: vec![d],
            sources: BTreeMap::from([(shown.to_string(), Arc::from(text))]),
        }
    }
}

pub fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// Read and parse `path`; `invalid` is the code for syntax errors in this kind of file.
pub fn read(path: &Path, shown: &str, invalid: &'static Code) -> Result<DataFile, DataError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| DataError::Unreadable(format!("cannot read `{shown}`: {e}")))?;
    if meta.is_dir() {
        return Err(DataError::Unreadable(format!(
            "`{shown}` is a directory, not a file"
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(DataError::Unreadable(format!(
            "`{shown}` is {} bytes; the limit is {MAX_FILE_BYTES} bytes",
            meta.len()
        )));
    }
    let bytes = super::text::read_limited(path)
        .map_err(|e| DataError::Unreadable(format!("cannot read `{shown}`: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(DataError::Unreadable(format!(
            "`{shown}` is over the limit of {MAX_FILE_BYTES} bytes"
        )));
    }
    from_bytes(path, shown, bytes, invalid)
}

/// A data file from bytes already read (an editor's unsaved buffer), judged as [`read`]
/// judges the file's bytes: BOM and CRLF notes, encoding, syntax.
pub fn from_bytes(
    path: &Path,
    shown: &str,
    bytes: Vec<u8>,
    invalid: &'static Code,
) -> Result<DataFile, DataError> {
    let digest = crate::text::digest::sha256(&bytes);
    // Not UTF-8: the finding points at the first bad line; show it against a lossy reading.
    let lossy = std::str::from_utf8(&bytes)
        .is_err()
        .then(|| String::from_utf8_lossy(&bytes).into_owned());
    let t = decode(shown, bytes)
        .map_err(|d| DataError::invalid_in(d, shown, lossy.as_deref().unwrap_or("")))?;
    let value = parse(&t.text, is_json(path), shown, invalid)
        .map_err(|d| DataError::invalid_in(d, shown, &t.text))?;
    Ok(DataFile {
        shown: shown.to_string(),
        path: path.to_path_buf(),
        lines: KeyLines::of_text(Arc::from(t.text.as_str())),
        text: t.text,
        digest,
        value,
        notes: t.notes,
    })
}

/// A data file made in memory (the results `audit --probe` merged), shown as `shown`.
pub fn from_text(
    text: String,
    json: bool,
    shown: &str,
    invalid: &'static Code,
) -> Result<DataFile, DataError> {
    let value =
        parse(&text, json, shown, invalid).map_err(|d| DataError::invalid_in(d, shown, &text))?;
    Ok(DataFile {
        shown: shown.to_string(),
        path: PathBuf::from(shown),
        lines: KeyLines::of_text(Arc::from(text.as_str())),
        digest: crate::text::digest::sha256(text.as_bytes()),
        text,
        value,
        notes: Vec::new(),
    })
}

/// Parse text already in memory (YAML unless `json`).
pub fn parse(
    text: &str,
    json: bool,
    shown: &str,
    invalid: &'static Code,
) -> Result<Value, Diagnostic> {
    if let Some((line, column)) = super::yaml_depth::too_deep(text, super::yaml_depth::MAX_DEPTH) {
        return Err(Diagnostic::new(
            invalid,
            format!(
                "nested more than {} levels deep; the file is not parsed",
                super::yaml_depth::MAX_DEPTH
            ),
        )
        .file(shown)
        .at(line, column));
    }
    if json {
        let mut de = serde_json::Deserializer::from_str(text);
        return match Strict::deserialize(&mut de).and_then(|v| de.end().map(|_| v)) {
            Ok(Strict(v)) => Ok(v),
            Err(e) => Err(Diagnostic::new(invalid, format!("invalid JSON: {e}"))
                .file(shown)
                .at(e.line().max(1), e.column().max(1))),
        };
    }
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    let yaml: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| {
        let mut d = yaml_error(&e, 1);
        if let Some(line) = duplicate_line(text, &e) {
            d.line = Some(line);
            d.column = None;
        }
        d.under(invalid).help(invalid.help).file(shown)
    })?;
    to_json(&yaml, "").map_err(|(path, msg)| {
        let line = crate::text::yaml_lines::line_of(&key_lines(text), &path).unwrap_or(1);
        Diagnostic::new(invalid, msg)
            .file(shown)
            .line(line)
    })
}

/// serde_yaml places a duplicate-key error at the start of the mapping; the line a reader
/// wants is the second occurrence of the key in that mapping.
fn duplicate_line(text: &str, e: &serde_yaml::Error) -> Option<usize> {
    let msg = e.to_string();
    let rest = msg.split("duplicate entry with key ").nth(1)?;
    let key = rest.split(" at line").next()?.trim().trim_matches('"');
    let loc = e.location()?;
    let indent = loc.column().saturating_sub(1);
    let mut seen = 0;
    for (i, raw) in text
        .split('\n')
        .enumerate()
        .skip(loc.line().saturating_sub(1))
    {
        let lead = raw.chars().take_while(|c| *c == ' ').count();
        let body = raw.get(lead..).unwrap_or("");
        let body = if seen == 0 && i + 1 == loc.line() {
            body.strip_prefix("- ").unwrap_or(body)
        } else {
            body
        };
        let hit = [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
            .iter()
            .any(|k| {
                body.strip_prefix(k.as_str())
                    .is_some_and(|r| r.trim_start().starts_with(':'))
            });
        if hit && (lead == indent || i + 1 == loc.line()) {
            seen += 1;
            if seen == 2 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// A YAML value as JSON. Scalar keys become strings; what JSON cannot hold is an error with
/// the key path where it was found.
fn to_json(v: &serde_yaml::Value, path: &str) -> Result<Value, (String, String)> {
    use serde_yaml::Value as Y;
    Ok(match v {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(*b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                serde_json::Number::from_f64(f)
                    .map(Value::Number)
                    .ok_or_else(|| {
                        (
                            path.to_string(),
                            format!("the number `{n}` cannot be used here"),
                        )
                    })?
            }
        }
        Y::String(s) => Value::String(s.clone()),
        Y::Sequence(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, x)| to_json(x, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        Y::Mapping(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                let key = match k {
                    Y::String(s) => s.clone(),
                    Y::Bool(b) => b.to_string(),
                    Y::Number(n) => n.to_string(),
                    other => {
                        return Err((
                            path.to_string(),
                            format!(
                                "a key must be text; found {}",
                                crate::text::yaml_value::describe(other)
                            ),
                        ))
                    }
                };
                let sub = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                let x = to_json(x, &sub)?;
                out.insert(key, x);
            }
            Value::Object(out)
        }
        Y::Tagged(t) => {
            return Err((
                path.to_string(),
                format!("tagged value `{}` is not supported in data files", t.tag),
            ))
        }
    })
}

/// A JSON value that rejects duplicate object keys.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if out.contains_key(&k) {
                return Err(de::Error::custom(format!("duplicate key `{k}`")));
            }
            let Strict(v) = map.next_value()?;
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// The code for a data file's syntax errors when the caller has no more specific one.
#[cfg(any(test, feature = "internals"))]
pub const GENERIC_INVALID: &Code = &crate::diag::codes::YAML_INVALID;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_and_json_agree() {
        let y = parse(
            "a: 1\nb: [x]\nc: {d: true}\n",
            false,
            "p.yaml",
            GENERIC_INVALID,
        )
        .unwrap();
        let j = parse(
            r#"{"a": 1, "b": ["x"], "c": {"d": true}}"#,
            true,
            "p.json",
            GENERIC_INVALID,
        )
        .unwrap();
        assert_eq!(y, j);
    }

    #[test]
    fn duplicate_keys_are_errors_with_lines() {
        let e = parse("a: 1\nb: 2\na: 3\n", false, "p.yaml", GENERIC_INVALID).unwrap_err();
        assert!(e.message.contains("duplicate"), "{}", e.message);
        assert_eq!(e.line, Some(3));
        let e = parse("{\n\"a\": 1,\n\"a\": 2\n}", true, "p.json", GENERIC_INVALID).unwrap_err();
        assert!(e.message.contains("duplicate key `a`"), "{}", e.message);
        assert_eq!(e.line, Some(3));
    }

    #[test]
    fn tagged_values_are_located() {
        let e = parse("a:\n  b: !x 1\n", false, "p.yaml", GENERIC_INVALID).unwrap_err();
        assert_eq!(e.line, Some(2));
    }
}
