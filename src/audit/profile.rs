//! A server profile (catalogue format, section 5), as read from YAML or JSON or taken from a
//! portfolio entry, checked against the declared profile schema. Values are never coerced:
//! `"true"` is not a boolean and `3` is not a string.

use crate::diag::{codes, Code, Diagnostic};
use crate::dsl::{FieldType, Value};
use crate::load::data_file::{DataError, DataFile};
use crate::model::config::ProfileFieldDecl;
use crate::model::Catalogue;
use crate::text::suggest::did_you_mean;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Where a profile's text came from: its own file, or a mapping inside a portfolio file.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file to name in diagnostics.
    pub shown: String,
    pub value: Json,
    /// sha256 of the profile file's bytes (of the inline mapping's JSON text when inline).
    pub digest: String,
    pub lines: crate::model::config::KeyLines,
    /// Key path of the profile inside `shown` (`servers[0].profile`), empty for a profile file.
    pub prefix: String,
    pub text: String,
}

impl Source {
    pub fn from_file(file: DataFile) -> Source {
        Source {
            shown: file.shown,
            value: file.value,
            digest: file.digest,
            lines: file.lines,
            prefix: String::new(),
            text: file.text,
        }
    }

    /// The line of a field path (or of its nearest written ancestor).
    pub fn line(&self, path: &str) -> usize {
        let full = match (self.prefix.is_empty(), path.is_empty()) {
            (true, _) => path.to_string(),
            (false, true) => self.prefix.clone(),
            (false, false) => format!("{}.{path}", self.prefix),
        };
        self.lines
            .line_of(&full)
            .or_else(|| self.lines.line_of(&self.prefix))
            .unwrap_or(1)
    }

    fn at(&self, code: &'static Code, path: &str, message: String) -> Diagnostic {
        Diagnostic::new(code, message)
            .file(self.shown.clone())
            .line(self.line(path))
    }
}

/// A profile as the audit uses it.
#[derive(Clone, Debug)]
pub struct Profile {
    pub source: Source,
    /// The server's name when the profile was picked from a portfolio.
    pub server: Option<String>,
    /// Every leaf, by dotted path, as written (after nesting is flattened).
    pub fields: BTreeMap<String, Json>,
    /// The leaves the expression language can read.
    pub values: BTreeMap<String, Value>,
}

impl Profile {
    /// A value for display: `"stdio-only"`, `true`, `["local-stdio"]`.
    pub fn display(&self, path: &str) -> Option<String> {
        self.fields.get(path).map(display_json)
    }
}

pub fn display_json(v: &Json) -> String {
    match to_value(v) {
        Some(x) => x.to_string(),
        None => v.to_string(),
    }
}

/// The expression-language value of a JSON leaf, if it has one.
pub fn to_value(v: &Json) -> Option<Value> {
    match v {
        Json::String(s) => Some(Value::Str(s.clone())),
        Json::Bool(b) => Some(Value::Bool(*b)),
        Json::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(Value::List),
        _ => None,
    }
}

/// A profile and what its check found.
pub struct Checked {
    pub profile: Profile,
    pub diagnostics: Vec<Diagnostic>,
}

/// A profile file as read: notes of its reading kept, checked against the profile schema. A
/// portfolio given as a profile is refused with its servers (picking one is the caller's
/// business: `--server` on the command line).
pub fn of_file(cat: &Catalogue, file: DataFile) -> Result<Checked, DataError> {
    if crate::load::portfolio::is_portfolio(&cat.config, &file.value) {
        let p = crate::load::portfolio::Portfolio::parse(file);
        let names: Vec<&str> = p.servers.iter().map(|s| s.name.as_str()).collect();
        return Err(DataError::Unreadable(format!(
            "`{}` is a portfolio of {} server(s), not a profile: {}",
            p.file.shown,
            names.len(),
            if names.is_empty() {
                "(none declared)".to_string()
            } else {
                names.join(", ")
            }
        )));
    }
    let notes = file.notes.clone();
    let mut checked = check(cat, Source::from_file(file), None);
    checked.diagnostics.extend(notes);
    crate::diag::normalise(&mut checked.diagnostics);
    Ok(checked)
}

/// Check a profile's source against the catalogue's profile schema.
pub fn check(cat: &Catalogue, source: Source, server: Option<String>) -> Checked {
    let mut diags = Vec::new();
    let decls = cat.config.profile.as_ref().map(|p| &p.fields);
    let mut fields = BTreeMap::new();
    match &source.value {
        Json::Object(map) => flatten(map, "", decls, &source, &mut fields, &mut diags),
        other => diags.push(source.at(
            &codes::PROFILE_INVALID,
            "",
            format!(
                "a profile is a mapping of fields; `{}` holds {}",
                source.shown,
                kind(other)
            ),
        )),
    }
    match decls {
        None => diags.push(
            Diagnostic::new(
                &codes::PROFILE_NOT_CHECKED,
                "the catalogue declares no profile schema (profile.fields), so the profile's fields are not checked",
            )
            .file(source.shown.clone()),
        ),
        Some(decls) if source.value.is_object() => {
            for (path, decl) in decls {
                check_field(path, decl, &fields, &source, &mut diags);
            }
            for (path, decl) in decls {
                check_derived(path, decl, &fields, &source, &mut diags);
            }
        }
        Some(_) => {}
    }
    let values = fields
        .iter()
        .filter_map(|(k, v)| to_value(v).map(|x| (k.clone(), x)))
        .collect();
    crate::diag::normalise(&mut diags);
    Checked {
        profile: Profile {
            source,
            server,
            fields,
            values,
        },
        diagnostics: diags,
    }
}

fn kind(v: &Json) -> String {
    match v {
        Json::Null => "nothing (null)".into(),
        Json::Bool(b) => format!("the boolean `{b}`"),
        Json::Number(n) => format!("the number `{n}`"),
        Json::String(s) => format!("the string `{s}`"),
        Json::Array(_) => "a list".into(),
        Json::Object(_) => "a mapping".into(),
    }
}

/// Nested maps become dotted paths, but only where the schema declares fields below; an
/// undeclared key is reported once, not once per leaf beneath it.
fn flatten(
    map: &serde_json::Map<String, Json>,
    base: &str,
    decls: Option<&BTreeMap<String, ProfileFieldDecl>>,
    source: &Source,
    out: &mut BTreeMap<String, Json>,
    diags: &mut Vec<Diagnostic>,
) {
    for (k, v) in map {
        let path = if base.is_empty() {
            k.clone()
        } else {
            format!("{base}.{k}")
        };
        let nested = |d: &BTreeMap<String, ProfileFieldDecl>| {
            d.keys().any(|f| f.starts_with(&format!("{path}.")))
        };
        match (v, decls) {
            (Json::Object(inner), None) => flatten(inner, &path, None, source, out, diags),
            (Json::Object(inner), Some(d)) if !d.contains_key(&path) && nested(d) => {
                flatten(inner, &path, decls, source, out, diags)
            }
            (_, Some(d)) if !d.contains_key(&path) => {
                let candidates: Vec<&str> = d.keys().map(|s| s.as_str()).collect();
                let help = did_you_mean(&path, candidates.iter().copied())
                    .unwrap_or_else(|| format!("declared fields: {}", candidates.join(", ")));
                diags.push(
                    source
                        .at(
                            &codes::PROFILE_UNKNOWN_FIELD,
                            &path,
                            format!("`{path}` is not a field of the profile schema"),
                        )
                        .help(help),
                );
            }
            _ => {
                out.insert(path, v.clone());
            }
        }
    }
}

/// A placeholder instead of an answer: `...`, `…`, `<…>`, `TODO`, `FIXME`, `TBD`, empty.
pub fn is_placeholder(s: &str) -> bool {
    let t = s.trim();
    let bracketed = t.len() > 2
        && t.starts_with('<')
        && t.ends_with('>')
        && !t[1..t.len() - 1].contains(['<', '>']);
    if t.is_empty() || t == "..." || t == "…" || bracketed {
        return true;
    }
    let upper = t.to_uppercase();
    ["TODO", "FIXME", "TBD"].iter().any(|w| {
        upper == *w
            || upper
                .strip_prefix(w)
                .is_some_and(|r| r.starts_with([':', ' ', '(', '-']))
    })
}

fn placeholder_in(v: &Json) -> Option<String> {
    match v {
        Json::Null => Some("an empty value".into()),
        Json::String(s) if is_placeholder(s) => Some(format!("the placeholder `{s}`")),
        Json::Array(items) if items.is_empty() => Some("an empty list".into()),
        Json::Array(items) => items.iter().find_map(|i| match i {
            Json::String(s) if is_placeholder(s) => {
                Some(format!("the placeholder `{s}` in the list"))
            }
            Json::Null => Some("an empty entry in the list".into()),
            _ => None,
        }),
        _ => None,
    }
}

fn describe_decl(decl: &ProfileFieldDecl) -> String {
    match (&decl.values, decl.open) {
        (Some(v), false) => format!("{} (one of: {})", decl.ty.name(), v.join(", ")),
        (Some(v), true) => format!("{} (e.g. {})", decl.ty.name(), v.join(", ")),
        (None, _) => decl.ty.name().to_string(),
    }
}

fn check_field(
    path: &str,
    decl: &ProfileFieldDecl,
    fields: &BTreeMap<String, Json>,
    source: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(v) = fields.get(path) else {
        if decl.required {
            diags.push(source.at(
                &codes::PROFILE_MISSING_FIELD,
                path,
                format!(
                    "required field `{path}` is missing; expected {}",
                    describe_decl(decl)
                ),
            ));
        }
        return;
    };
    if let Some(what) = placeholder_in(v) {
        diags.push(source.at(
            &codes::PROFILE_PLACEHOLDER,
            path,
            format!(
                "`{path}` holds {what}, not an answer; expected {}",
                describe_decl(decl)
            ),
        ));
        return;
    }
    if !typed(path, decl, v, source, diags) {
        return;
    }
    let (Some(vocab), false) = (&decl.values, decl.open) else {
        return;
    };
    let written: Vec<&str> = match v {
        Json::String(s) => vec![s.as_str()],
        Json::Array(items) => items.iter().filter_map(Json::as_str).collect(),
        _ => Vec::new(),
    };
    for w in written {
        if !vocab.iter().any(|x| x == w) {
            let help = did_you_mean(w, vocab.iter().map(|s| s.as_str()))
                .unwrap_or_else(|| codes::PROFILE_VOCABULARY.help.to_string());
            diags.push(
                source
                    .at(
                        &codes::PROFILE_VOCABULARY,
                        path,
                        format!(
                            "`{path}` is `{w}`, which is not in its vocabulary ({})",
                            vocab.join(", ")
                        ),
                    )
                    .help(help),
            );
        }
    }
}

/// The value has the declared type; a wrong one is reported with how to write it.
fn typed(
    path: &str,
    decl: &ProfileFieldDecl,
    v: &Json,
    source: &Source,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let typed = match (decl.ty, v) {
        (FieldType::String, Json::String(_)) | (FieldType::Bool, Json::Bool(_)) => true,
        (FieldType::List, Json::Array(items)) => items.iter().all(Json::is_string),
        _ => false,
    };
    if typed {
        return true;
    }
    let hint = match (decl.ty, v) {
        (FieldType::Bool, Json::String(s)) if s == "true" || s == "false" => {
            format!("write {s} without quotes")
        }
        (FieldType::List, Json::String(s)) => format!("write a list: [{s}]"),
        (FieldType::String, Json::Number(n)) => format!("quote it: \"{n}\""),
        _ => codes::PROFILE_WRONG_TYPE.help.to_string(),
    };
    let expected = match decl.ty {
        FieldType::List => "list of strings",
        t => t.name(),
    };
    diags.push(
        source
            .at(
                &codes::PROFILE_WRONG_TYPE,
                path,
                format!("`{path}` must be a {expected}; found {}", kind(v)),
            )
            .help(hint),
    );
    false
}

fn check_derived(
    path: &str,
    decl: &ProfileFieldDecl,
    fields: &BTreeMap<String, Json>,
    source: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(rule) = decl
        .derived
        .as_ref()
        .and_then(|d| d.any_other_than.as_ref())
    else {
        return;
    };
    let (Some(Json::Bool(stated)), Some(Json::Array(from))) =
        (fields.get(path), fields.get(&rule.field))
    else {
        return;
    };
    let others: Vec<&str> = from
        .iter()
        .filter_map(Json::as_str)
        .filter(|x| !rule.values.iter().any(|v| v == x))
        .collect();
    let expected = !others.is_empty();
    if *stated != expected {
        let because = if expected {
            format!("`{}` has {}", rule.field, others.join(", "))
        } else {
            format!(
                "`{}` has no entry other than {}",
                rule.field,
                rule.values.join(", ")
            )
        };
        diags.push(
            source
                .at(
                    &codes::PROFILE_DERIVED,
                    path,
                    format!(
                        "`{path}` is {stated}, but {because}, so it must be {expected}"
                    ),
                )
                .help(format!(
                    "`{path}` is true exactly when `{}` has an entry other than {}; set it to {expected} or correct `{}`",
                    rule.field,
                    rule.values.join(", "),
                    rule.field
                )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        for p in [
            "",
            "  ",
            "...",
            "…",
            "<server name>",
            "TODO",
            "todo: ask",
            "FIXME",
            "TBD",
        ] {
            assert!(is_placeholder(p), "{p:?}");
        }
        for v in [
            "Python", "none", "Todoist", "a<b>", "HTTP/SSE", "<b>x</b>", "<>",
        ] {
            assert!(!is_placeholder(v), "{v:?}");
        }
    }
}
