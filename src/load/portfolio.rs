//! Reading a portfolio: many servers (`servers: [{name, profile, results?, url?, stdio?}]`,
//! profile inline or a path relative to the portfolio file). `url` or `stdio` says where `probe
//! --portfolio` finds the server; `audit` and `portfolio` do not read them. `repo` and `path`
//! say where the server's source lives (its repository and the folder of its manifest in a
//! checkout) and `ignore` the folders of a checkout that are no server: facts a portfolio keeps
//! for its own tooling, carried into the report, never opened. Any other key of an entry is a
//! note, so a portfolio written for other tooling still audits. Every path an entry names is
//! confined to the portfolio's folder, and the files of an entry are read here
//! (`Portfolio::read_files`), so `audit` judges values only.

use super::data_file::{self, DataError, DataFile};
use crate::confine::{plain_file_name, shown_path, Fence};
use crate::diag::{codes, Diagnostic};
use crate::model::Config;
use crate::text::suggest::unknown_keys;
use serde::Serialize;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

pub const SERVER_KEYS: &[&str] = &[
    "name", "profile", "results", "waivers", "url", "stdio", "repo", "path", "ignore", "version",
];
pub const TOP_KEYS: &[&str] = &["servers", "name", "description", "ignore"];

/// Whether a data file has the shape of a portfolio (a `servers` key).
pub fn looks_like(v: &Json) -> bool {
    v.as_object().is_some_and(|m| m.contains_key("servers"))
}

/// Whether a data file given as a profile is a portfolio: a `servers` key that the profile
/// schema does not declare as a field.
pub fn is_portfolio(config: &Config, v: &Json) -> bool {
    looks_like(v)
        && !config
            .profile
            .as_ref()
            .is_some_and(|p| p.fields.contains_key("servers"))
}

#[derive(Clone, Debug)]
pub enum ProfileRef {
    Inline(Json),
    /// (path to open, path to show)
    File(PathBuf, String),
    Missing,
    /// The path was refused (the finding says why); nothing was opened.
    Refused(Box<Diagnostic>),
}

#[derive(Clone, Debug)]
pub struct ServerEntry {
    pub name: String,
    pub index: usize,
    pub profile: ProfileRef,
    pub results: Option<(PathBuf, String)>,
    /// A waivers file of this server (accepted risks kept apart from the results).
    pub waivers: Option<(PathBuf, String)>,
    /// Where `probe --portfolio` finds the server: a Streamable HTTP URL or a stdio command.
    pub target: Option<ServerTarget>,
    /// The server's source: its repository (`repo`) and the folder of its manifest in a
    /// checkout of it (`path`).
    pub source: ServerSource,
    /// The version of what the entry names (a registry entry's `version`): part of what a
    /// fleet run compares before it keeps earlier results.
    pub version: Option<String>,
}

/// Where a server's source lives, as its portfolio entry says; carried into the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ServerSource {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Folders of the checkout that are no server (glob patterns), the entry's and the
    /// portfolio's own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
}

impl ServerSource {
    pub fn is_empty(&self) -> bool {
        self.repo.is_none() && self.path.is_none() && self.ignore.is_empty()
    }
}

/// The `url` or `stdio` of a server entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerTarget {
    Url(String),
    Stdio(String),
}

pub struct Portfolio {
    pub file: DataFile,
    pub servers: Vec<ServerEntry>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The files one server entry names, as read: its profile (`None` when written inline),
/// results and waivers (`None` when the entry names none). Each is read or says why not.
#[derive(Default)]
pub struct EntryFiles {
    pub profile: Option<Result<DataFile, DataError>>,
    pub results: Option<Result<DataFile, DataError>>,
    pub waivers: Option<Result<DataFile, DataError>>,
}

/// `rel` as seen from the directory of `base` (both as opened and as shown). A portfolio names
/// files beside it: an absolute path, a `../` that leaves its folder, or a link out of it is
/// refused before anything is opened, so a crafted portfolio cannot make the report quote
/// `/etc/passwd` (an outside folder needs `--allow-path`).
fn beside(base: &DataFile, rel: &str, key: &str) -> Result<(PathBuf, String), Diagnostic> {
    let dir = base.path.parent().unwrap_or(Path::new(""));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let shown_dir = Path::new(&base.shown).parent().unwrap_or(Path::new(""));
    match Fence::new(dir).resolve(dir, rel) {
        Ok(_) => Ok((dir.join(rel), slashes(&shown_dir.join(rel)))),
        Err(e) => Err(base.at(
            &codes::PATH_REFUSED,
            key,
            format!(
                "`{}` {}",
                shown_path(rel),
                e.reason("the portfolio's folder")
            ),
        )),
    }
}

fn slashes(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

impl Portfolio {
    pub fn parse(file: DataFile) -> Portfolio {
        let mut diags = Vec::new();
        let mut servers = Vec::new();
        let mut ignore = Vec::new();
        let bad = |path: &str, msg: String| file.at(&codes::PORTFOLIO_INVALID, path, msg);
        match &file.value {
            Json::Object(top) => {
                for (k, hint) in unknown_keys(top.keys().map(String::as_str), TOP_KEYS) {
                    diags.push(bad(k, format!("unknown key `{k}` in the portfolio")).help_if(hint));
                }
                ignore = strings(&file, "ignore", top.get("ignore"), &mut diags);
                match top.get("servers") {
                    Some(Json::Array(items)) => {
                        for (i, item) in items.iter().enumerate() {
                            if let Some(s) = entry(&file, i, item, &servers, &mut diags) {
                                servers.push(s);
                            }
                        }
                        if items.is_empty() {
                            diags.push(bad("servers", "the portfolio lists no servers".into()));
                        }
                    }
                    _ => diags.push(bad("servers", "`servers` must be a list of servers".into())),
                }
            }
            _ => diags.push(bad("", "a portfolio is a mapping with `servers`".into())),
        }
        for s in &mut servers {
            s.source.ignore.extend(ignore.iter().cloned());
        }
        Portfolio {
            file,
            servers,
            diagnostics: diags,
        }
    }

    /// Read the profile file server `s` names; `None` when the profile is written inline, is
    /// missing or was refused (the entry says which).
    pub fn read_profile(&self, s: &ServerEntry) -> Option<Result<DataFile, DataError>> {
        match &s.profile {
            ProfileRef::File(path, shown) => {
                Some(data_file::read(path, shown, &codes::PROFILE_INVALID))
            }
            ProfileRef::Inline(_) | ProfileRef::Missing | ProfileRef::Refused(_) => None,
        }
    }

    /// Read every file server `s` names: its profile, results and waivers.
    pub fn read_files(&self, s: &ServerEntry) -> EntryFiles {
        let read = |named: &Option<(PathBuf, String)>, invalid| {
            named
                .as_ref()
                .map(|(path, shown)| data_file::read(path, shown, invalid))
        };
        EntryFiles {
            profile: self.read_profile(s),
            results: read(&s.results, &codes::RESULTS_INVALID),
            waivers: read(&s.waivers, &codes::WAIVER_INVALID),
        }
    }

    /// The files of every server, in the order of `servers`.
    pub fn read_all(&self) -> Vec<EntryFiles> {
        self.servers.iter().map(|s| self.read_files(s)).collect()
    }

    /// Resolve results against `dir` instead of the portfolio's directory; servers without a
    /// `results` entry use `DIR/<name>.results.yaml` (or `.yml`, `.json`) when it exists.
    pub fn use_results_dir(&mut self, dir: &Path, shown_dir: &str) {
        for s in &mut self.servers {
            // The server name becomes a file name under DIR: `../leak` must not leave it.
            if !plain_file_name(&s.name) {
                self.diagnostics.push(self.file.at(
                    &codes::PATH_REFUSED,
                    &format!("servers[{}].name", s.index),
                    format!(
                        "server name `{}` is not a plain file name, so no results are looked up for it under --results-dir",
                        shown_path(&s.name)
                    ),
                ));
                s.results = None;
                continue;
            }
            let rel = match &s.results {
                Some((_, shown)) => {
                    let name = Path::new(shown)
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    Some(name)
                }
                None => ["yaml", "yml", "json"]
                    .iter()
                    .map(|ext| format!("{}.results.{ext}", s.name))
                    .find(|n| dir.join(n).is_file()),
            };
            s.results = rel.map(|n| (dir.join(&n), slashes(&Path::new(shown_dir).join(&n))));
        }
    }
}

fn entry(
    file: &DataFile,
    i: usize,
    item: &Json,
    seen: &[ServerEntry],
    diags: &mut Vec<Diagnostic>,
) -> Option<ServerEntry> {
    let here = format!("servers[{i}]");
    let bad = |path: &str, msg: String| file.at(&codes::PORTFOLIO_INVALID, path, msg);
    let Json::Object(m) = item else {
        diags.push(bad(
            &here,
            format!("server {} must be a mapping with name and profile", i + 1),
        ));
        return None;
    };
    // A key for other tooling costs nothing: noted, never a reason to reject the entry.
    for (k, hint) in unknown_keys(m.keys().map(String::as_str), SERVER_KEYS) {
        diags.push(
            file.at(
                &codes::PORTFOLIO_UNKNOWN_KEY,
                &format!("{here}.{k}"),
                format!("unknown key `{k}` in server {} is not read", i + 1),
            )
            .help_if(hint),
        );
    }
    let name = match m.get("name") {
        Some(Json::String(n)) if !n.trim().is_empty() => n.clone(),
        _ => {
            diags.push(bad(
                &format!("{here}.name"),
                format!("server {} has no name", i + 1),
            ));
            return None;
        }
    };
    if seen.iter().any(|s| s.name == name) {
        diags.push(bad(
            &format!("{here}.name"),
            format!("server name `{name}` is used twice"),
        ));
        return None;
    }
    let profile = match m.get("profile") {
        Some(Json::String(p)) => match beside(file, p, &format!("{here}.profile")) {
            Ok((path, shown)) => ProfileRef::File(path, shown),
            Err(d) => ProfileRef::Refused(Box::new(d)),
        },
        Some(v @ Json::Object(_)) => ProfileRef::Inline(v.clone()),
        _ => {
            diags.push(bad(
                &format!("{here}.profile"),
                format!("server `{name}` needs a profile: a file path or an inline mapping"),
            ));
            ProfileRef::Missing
        }
    };
    let mut path_of = |key: &str, what: &str| match m.get(key) {
        None | Some(Json::Null) => None,
        Some(Json::String(p)) => match beside(file, p, &format!("{here}.{key}")) {
            Ok(r) => Some(r),
            Err(d) => {
                diags.push(d);
                None
            }
        },
        Some(_) => {
            diags.push(bad(
                &format!("{here}.{key}"),
                format!("the {what} of `{name}` must be a file path"),
            ));
            None
        }
    };
    let results = path_of("results", "results");
    let waivers = path_of("waivers", "waivers");
    let target = server_target(file, &here, &name, m, diags);
    let text = |key: &str, diags: &mut Vec<Diagnostic>| match m.get(key) {
        None | Some(Json::Null) => None,
        Some(Json::String(v)) if !v.trim().is_empty() => Some(v.clone()),
        Some(_) => {
            diags.push(bad(
                &format!("{here}.{key}"),
                format!("`{key}` of `{name}` must be a non-empty string"),
            ));
            None
        }
    };
    let version = text("version", diags);
    let source = ServerSource {
        repo: text("repo", diags),
        path: text("path", diags),
        ignore: strings(file, &format!("{here}.ignore"), m.get("ignore"), diags),
    };
    Some(ServerEntry {
        name,
        index: i,
        profile,
        results,
        waivers,
        target,
        source,
        version,
    })
}

/// An `ignore` value: a list of non-empty strings (one string is a list of one).
fn strings(
    file: &DataFile,
    key: &str,
    v: Option<&Json>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut out = Vec::new();
    match v {
        None | Some(Json::Null) => {}
        Some(Json::String(s)) if !s.trim().is_empty() => out.push(s.clone()),
        Some(Json::Array(items))
            if items
                .iter()
                .all(|i| i.as_str().is_some_and(|s| !s.trim().is_empty())) =>
        {
            out.extend(items.iter().filter_map(Json::as_str).map(str::to_string));
        }
        Some(_) => diags.push(file.at(
            &codes::PORTFOLIO_INVALID,
            key,
            format!("`{key}` must be a list of folder patterns (strings)"),
        )),
    }
    out
}

/// `url` or `stdio`, each a non-empty string, never both.
fn server_target(
    file: &DataFile,
    here: &str,
    name: &str,
    m: &serde_json::Map<String, Json>,
    diags: &mut Vec<Diagnostic>,
) -> Option<ServerTarget> {
    let mut found = Vec::new();
    for key in ["url", "stdio"] {
        match m.get(key) {
            None | Some(Json::Null) => {}
            Some(Json::String(v)) if !v.trim().is_empty() => found.push(match key {
                "url" => ServerTarget::Url(v.clone()),
                _ => ServerTarget::Stdio(v.clone()),
            }),
            Some(_) => diags.push(file.at(
                &codes::PORTFOLIO_INVALID,
                &format!("{here}.{key}"),
                format!("`{key}` of `{name}` must be a non-empty string"),
            )),
        }
    }
    if found.len() > 1 {
        diags.push(file.at(
            &codes::PORTFOLIO_INVALID,
            &format!("{here}.stdio"),
            format!("server `{name}` names both `url` and `stdio`; a server is reached one way"),
        ));
        return None;
    }
    found.pop()
}
