//! Targets from the official MCP registry: `server.json` entries (a file holding one, the
//! registry's list answer `{servers: [{server, _meta}]}`, a JSON list of entries, or a folder of
//! such files) read into portfolio entries. No network: an export is read as it was saved.
//!
//! A server is reached through its first `streamable-http` remote; an `sse` remote is the older
//! transport, which the probe does not speak, and a server with only packages (npm, PyPI, OCI,
//! …) has to be installed to be started, which a fleet run does not do by itself. Such servers
//! still become entries (without a target), so a run's coverage names them as not evidenced
//! instead of forgetting them.

use crate::diag::{codes, Diagnostic, SourceMap};
use crate::load::data_file::{self, DataError, DataFile};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The registry's name pattern: a reverse-DNS namespace, a slash, a name.
fn valid_name(n: &str) -> bool {
    let Some((ns, name)) = n.split_once('/') else {
        return false;
    };
    let ok = |s: &str, extra: &[char]| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(&c))
    };
    (3..=200).contains(&n.len()) && ok(ns, &[]) && ok(name, &['_'])
}

/// The package registries the format names.
pub const REGISTRY_TYPES: &[&str] = &["npm", "pypi", "oci", "nuget", "mcpb"];
/// The transports of a remote.
pub const REMOTE_TYPES: &[&str] = &["streamable-http", "sse"];

/// One package of an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    pub registry_type: String,
    pub identifier: String,
    pub version: Option<String>,
}

impl Package {
    /// The package as one string (`npm:@scope/name@1.2.0`).
    pub fn spec(&self) -> String {
        match &self.version {
            Some(v) => format!("{}:{}@{v}", self.registry_type, self.identifier),
            None => format!("{}:{}", self.registry_type, self.identifier),
        }
    }
}

/// One remote of an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remote {
    pub transport: String,
    pub url: String,
}

/// One registry entry, as far as a fleet run needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The registry's name (`io.github.owner/server`).
    pub name: String,
    pub version: String,
    pub packages: Vec<Package>,
    pub remotes: Vec<Remote>,
    pub repository: Option<String>,
    pub subfolder: Option<String>,
    /// Where it was read: file and line, for findings about it.
    pub file: String,
    pub line: usize,
}

impl Entry {
    /// The Streamable HTTP endpoint the probe uses, when the entry has one.
    pub fn endpoint(&self) -> Option<&str> {
        self.remotes
            .iter()
            .find(|r| r.transport == "streamable-http")
            .map(|r| r.url.as_str())
    }

    /// The entry's name as a plain file name: the namespace's slash becomes `--`. The
    /// registry's name characters hold no other separator.
    pub fn file_name(&self) -> String {
        self.name.replace('/', "--")
    }
}

/// What reading an export gave: the entries, the findings, and the texts they are about.
#[derive(Default)]
pub struct Read {
    pub entries: Vec<Entry>,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

/// Read an export: a file, or every `*.json` file of a folder in name order. `Err` when the
/// path itself cannot be read.
pub fn read(path: &Path, shown: &str) -> Result<Read, String> {
    let mut out = Read::default();
    let files: Vec<(std::path::PathBuf, String)> = if path.is_dir() {
        let mut names: Vec<String> = std::fs::read_dir(path)
            .map_err(|e| format!("cannot read the folder `{shown}`: {e}"))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|n| {
                let s = format!("{}/{n}", shown.trim_end_matches('/'));
                (path.join(&n), s)
            })
            .collect()
    } else {
        vec![(path.to_path_buf(), shown.to_string())]
    };
    if files.is_empty() {
        return Err(format!("the folder `{shown}` holds no .json file"));
    }
    for (p, s) in files {
        match data_file::read(&p, &s, &codes::REGISTRY_ENTRY_INVALID) {
            Ok(f) => {
                out.sources
                    .insert(f.shown.clone(), Arc::from(f.text.as_str()));
                of_file(&f, &mut out);
                out.diagnostics.extend(f.notes.iter().cloned());
            }
            Err(DataError::Unreadable(m)) => return Err(m),
            Err(DataError::Invalid {
                diagnostics,
                sources,
            }) => {
                out.diagnostics.extend(diagnostics);
                out.sources.extend(sources);
            }
        }
    }
    // One entry per registry name: the registry keeps one latest version of a server.
    let mut seen: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut kept = Vec::new();
    for e in std::mem::take(&mut out.entries) {
        match seen.get(&e.file_name()) {
            Some((f, l)) => out.diagnostics.push(
                Diagnostic::new(
                    &codes::REGISTRY_ENTRY_INVALID,
                    format!(
                        "the server `{}` is listed twice (first at {f}:{l}); the later entry is not read",
                        e.name
                    ),
                )
                .file(e.file.clone())
                .line(e.line),
            ),
            None => {
                seen.insert(e.file_name(), (e.file.clone(), e.line));
                kept.push(e);
            }
        }
    }
    out.entries = kept;
    crate::diag::normalise(&mut out.diagnostics);
    Ok(out)
}

/// The entries of one file, in the shapes an export takes.
fn of_file(f: &DataFile, out: &mut Read) {
    match &f.value {
        Json::Object(m) if m.get("servers").is_some_and(Json::is_array) => {
            for (i, item) in m["servers"].as_array().into_iter().flatten().enumerate() {
                // The list answer wraps each entry with the registry's own `_meta`.
                match item.get("server") {
                    Some(s) => entry(f, &format!("servers[{i}].server"), s, out),
                    None => entry(f, &format!("servers[{i}]"), item, out),
                }
            }
        }
        Json::Object(_) => entry(f, "", &f.value, out),
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                entry(f, &format!("[{i}]"), item, out);
            }
        }
        _ => out.diagnostics.push(f.at(
            &codes::REGISTRY_ENTRY_INVALID,
            "",
            "a registry export is a server.json object, a list of them, or `{servers: [...]}`",
        )),
    }
}

fn key(at: &str, k: &str) -> String {
    if at.is_empty() {
        k.to_string()
    } else {
        format!("{at}.{k}")
    }
}

fn text<'a>(v: &'a Json, k: &str) -> Option<&'a str> {
    v.get(k)
        .and_then(Json::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// One `server.json` object at key path `at`; a bad one is a finding and no entry.
fn entry(f: &DataFile, at: &str, v: &Json, out: &mut Read) {
    let bad = |path: &str, msg: String| f.at(&codes::REGISTRY_ENTRY_INVALID, path, msg);
    let mut problems = Vec::new();
    if !v.is_object() {
        out.diagnostics.push(bad(
            at,
            "a registry entry must be a server.json object".into(),
        ));
        return;
    }
    let name = text(v, "name").unwrap_or("");
    if name.is_empty() {
        problems.push(bad(&key(at, "name"), "the entry has no `name`".into()));
    } else if !valid_name(name) {
        problems.push(bad(
            &key(at, "name"),
            format!(
                "`{}` is not a registry name (`namespace/name`: letters, digits, `.` and `-`, `_` after the slash; 3 to 200 characters)",
                crate::evidence::untrusted::value(name)
            ),
        ));
    }
    let version = text(v, "version").unwrap_or("");
    if version.is_empty() {
        problems.push(bad(
            &key(at, "version"),
            format!("`{name}` has no `version`"),
        ));
    }
    if text(v, "description").is_none() {
        problems.push(bad(
            &key(at, "description"),
            format!("`{name}` has no `description`"),
        ));
    }
    let mut packages = Vec::new();
    match v.get("packages") {
        None | Some(Json::Null) => {}
        Some(Json::Array(items)) => {
            for (i, p) in items.iter().enumerate() {
                let here = key(at, &format!("packages[{i}]"));
                let rt = text(p, "registryType").unwrap_or("");
                let id = text(p, "identifier").unwrap_or("");
                if !REGISTRY_TYPES.contains(&rt) {
                    problems.push(bad(
                        &key(&here, "registryType"),
                        format!(
                            "package {} of `{name}`: `registryType` must be one of {}",
                            i + 1,
                            REGISTRY_TYPES.join(", ")
                        ),
                    ));
                } else if id.is_empty() {
                    problems.push(bad(
                        &key(&here, "identifier"),
                        format!("package {} of `{name}` has no `identifier`", i + 1),
                    ));
                } else if p.get("transport").and_then(|t| t.get("type")).is_none() {
                    problems.push(bad(
                        &key(&here, "transport"),
                        format!(
                            "package {} of `{name}` has no `transport` with a `type`",
                            i + 1
                        ),
                    ));
                } else {
                    packages.push(Package {
                        registry_type: rt.to_string(),
                        identifier: id.to_string(),
                        version: text(p, "version").map(str::to_string),
                    });
                }
            }
        }
        Some(_) => problems.push(bad(
            &key(at, "packages"),
            format!("`packages` of `{name}` must be a list"),
        )),
    }
    let mut remotes = Vec::new();
    match v.get("remotes") {
        None | Some(Json::Null) => {}
        Some(Json::Array(items)) => {
            for (i, r) in items.iter().enumerate() {
                let here = key(at, &format!("remotes[{i}]"));
                let t = text(r, "type").unwrap_or("");
                let url = text(r, "url").unwrap_or("");
                if !REMOTE_TYPES.contains(&t) {
                    problems.push(bad(
                        &key(&here, "type"),
                        format!(
                            "remote {} of `{name}`: `type` must be one of {}",
                            i + 1,
                            REMOTE_TYPES.join(", ")
                        ),
                    ));
                } else if !(url.starts_with("https://") || url.starts_with("http://")) {
                    problems.push(bad(
                        &key(&here, "url"),
                        format!("remote {} of `{name}` needs an http(s) `url`", i + 1),
                    ));
                } else {
                    remotes.push(Remote {
                        transport: t.to_string(),
                        url: url.to_string(),
                    });
                }
            }
        }
        Some(_) => problems.push(bad(
            &key(at, "remotes"),
            format!("`remotes` of `{name}` must be a list"),
        )),
    }
    if !problems.is_empty() {
        out.diagnostics.extend(problems);
        return;
    }
    let repo = v.get("repository");
    out.entries.push(Entry {
        name: name.to_string(),
        version: version.to_string(),
        packages,
        remotes,
        repository: repo.and_then(|r| text(r, "url")).map(str::to_string),
        subfolder: repo.and_then(|r| text(r, "subfolder")).map(str::to_string),
        file: f.shown.clone(),
        line: f.line(at),
    });
}

/// A YAML string, quoted so no value can break the file.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The entries as a portfolio file, every server audited against `profile` (a path relative
/// to where the portfolio is written). A server without a Streamable HTTP remote gets no `url`.
pub fn to_portfolio(entries: &[Entry], profile: &str) -> String {
    let mut out = String::from(
        "# Servers read from MCP registry entries; a server without a Streamable HTTP remote has no url.\nservers:\n",
    );
    for e in entries {
        out.push_str(&format!("  # {} {}\n", quoted(&e.name), quoted(&e.version)));
        out.push_str(&format!("  - name: {}\n", quoted(&e.file_name())));
        out.push_str(&format!("    profile: {}\n", quoted(profile)));
        out.push_str(&format!("    version: {}\n", quoted(&e.version)));
        match e.endpoint() {
            Some(u) => out.push_str(&format!("    url: {}\n", quoted(u))),
            None => {
                let specs: Vec<String> = e.packages.iter().map(Package::spec).collect();
                out.push_str(&format!(
                    "    # no Streamable HTTP remote; packages: {}\n",
                    if specs.is_empty() {
                        "none".to_string()
                    } else {
                        specs.join(", ")
                    }
                ));
            }
        }
        if let Some(r) = &e.repository {
            out.push_str(&format!("    repo: {}\n", quoted(r)));
        }
        if let Some(p) = &e.subfolder {
            out.push_str(&format!("    path: {}\n", quoted(p)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_registry_pattern() {
        assert!(valid_name("io.github.someone/weather-mcp"));
        assert!(valid_name("com.example/a_b"));
        assert!(!valid_name("no-slash"));
        assert!(!valid_name("a/b/c"));
        assert!(!valid_name("bad space/x"));
    }
}
