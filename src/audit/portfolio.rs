//! A portfolio: many servers (`servers: [{name, profile, results?, url?, stdio?}]`, profile
//! inline or a path relative to the portfolio file) audited against one catalogue, summarised as
//! one matrix of servers × categories. `url` or `stdio` says where `probe --portfolio` finds the
//! server; `audit` and `portfolio` do not read them. `repo` and `path` say where the server's
//! source lives (its repository and the folder of its manifest in a checkout) and `ignore`
//! the folders of a checkout that are no server: facts a portfolio keeps for its own tooling,
//! carried into the report, never opened. Any other key of an entry is a note, so a portfolio
//! written for other tooling still audits.

use super::profile::{self, Checked, Source};
use super::verdict::{Policy, Verdict};
use crate::confine::{plain_file_name, shown_path, Fence};
use crate::diag::{codes, Diagnostic, SourceMap};
use crate::load::data_file::{self, DataError, DataFile};
use crate::model::Catalogue;
use crate::text::suggest::unknown_keys;
use serde::Serialize;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const SERVER_KEYS: &[&str] = &[
    "name", "profile", "results", "waivers", "url", "stdio", "repo", "path", "ignore",
];
pub const TOP_KEYS: &[&str] = &["servers", "name", "description", "ignore"];

/// Whether a data file is a portfolio rather than a profile.
pub fn looks_like(v: &Json) -> bool {
    v.as_object().is_some_and(|m| m.contains_key("servers"))
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

    /// The checked profile of one server.
    pub fn profile_of(&self, cat: &Catalogue, s: &ServerEntry) -> Result<Checked, DataError> {
        let mut checked = self.profile_without_waivers(cat, s)?;
        checked.profile.waivers = s.waivers.clone();
        Ok(checked)
    }

    fn profile_without_waivers(
        &self,
        cat: &Catalogue,
        s: &ServerEntry,
    ) -> Result<Checked, DataError> {
        match &s.profile {
            ProfileRef::Inline(v) => {
                let text = serde_json::to_string(v).unwrap_or_default();
                let source = Source {
                    shown: self.file.shown.clone(),
                    value: v.clone(),
                    digest: crate::text::digest::sha256(text.as_bytes()),
                    lines: self.file.lines.clone(),
                    prefix: format!("servers[{}].profile", s.index),
                    text: self.file.text.clone(),
                };
                Ok(profile::check(
                    cat,
                    source,
                    Some(s.name.clone()),
                    s.results.clone(),
                ))
            }
            ProfileRef::File(path, shown) => {
                let file = data_file::read(path, shown, &codes::PROFILE_INVALID)?;
                if looks_like(&file.value) {
                    return Err(DataError::invalid(vec![self.file.at(
                        &codes::PORTFOLIO_INVALID,
                        &format!("servers[{}].profile", s.index),
                        format!(
                            "the profile of `{}` is itself a portfolio (`{shown}`)",
                            s.name
                        ),
                    )]));
                }
                let notes = file.notes.clone();
                let mut c = profile::check(
                    cat,
                    Source::from_file(file),
                    Some(s.name.clone()),
                    s.results.clone(),
                );
                c.diagnostics.extend(notes);
                Ok(c)
            }
            ProfileRef::Refused(d) => Err(DataError::invalid(vec![(**d).clone()])),
            ProfileRef::Missing => Err(DataError::invalid(vec![self.file.at(
                &codes::PORTFOLIO_INVALID,
                &format!("servers[{}]", s.index),
                format!("server `{}` has no profile", s.name),
            )])),
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

#[derive(Clone, Debug, Serialize)]
pub struct CategoryHead {
    pub prefix: String,
    pub name: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ServerRow {
    pub name: String,
    pub profile: String,
    pub results: Option<String>,
    /// Where the server's source lives (`repo`, `path`, `ignore` of its entry); absent when
    /// the entry names none.
    #[serde(skip_serializing_if = "ServerSource::is_empty")]
    pub source: ServerSource,
    pub verdict: Verdict,
    /// `None` while the score is provisional (too few checks scored) or nothing was audited.
    pub score: Option<super::score::Points>,
    /// The score computed so far, while it is provisional.
    pub provisional_score: Option<super::score::Points>,
    pub scored_share: u32,
    pub applicable: usize,
    pub total: usize,
    /// Applicable checks per category, in category order.
    pub by_category: Vec<usize>,
    /// Findings (enforced, by the policy) per severity, in severity order.
    pub findings: serde_json::Map<String, Json>,
    pub advisory_findings: usize,
    pub blocking: Vec<String>,
    pub missing: usize,
    pub not_verified: usize,
    pub errors: usize,
    /// Why the server is incomplete, when it is.
    pub incomplete: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Matrix {
    pub portfolio: String,
    pub policy: &'static str,
    pub categories: Vec<CategoryHead>,
    pub severities: Vec<String>,
    pub servers: Vec<ServerRow>,
    /// Servers per verdict, every verdict listed.
    pub verdicts: serde_json::Map<String, Json>,
    /// Whether any server's entry names its source (`repo`, `path`, `ignore`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub any_source: bool,
}

/// Audit every server of the portfolio. Diagnostics of every input come back with the matrix,
/// and the text of every input file as it was read (for showing them).
pub fn matrix(
    cat: &Catalogue,
    p: &Portfolio,
    policy: Policy,
    as_of: &str,
) -> (Matrix, Vec<Diagnostic>, SourceMap) {
    let mut diags = p.diagnostics.clone();
    diags.extend(p.file.notes.iter().cloned());
    let mut sources = SourceMap::new();
    sources.insert(p.file.shown.clone(), Arc::from(p.file.text.as_str()));
    let severities = cat.config.severities();
    let prepared = super::applicability::Prepared::new(cat);
    let mut servers = Vec::new();
    for s in &p.servers {
        let checked = match p.profile_of(cat, s) {
            Ok(c) => c,
            Err(e) => {
                let why = unusable(&p.file, s, e, "the profile", &mut diags, &mut sources);
                servers.push(empty_row(cat, s, &severities, why));
                continue;
            }
        };
        let results = match &s.results {
            None => None,
            Some((path, shown)) => match data_file::read(path, shown, &codes::RESULTS_INVALID) {
                Ok(f) => Some(f),
                Err(e) => {
                    let why = unusable(&p.file, s, e, "the results file", &mut diags, &mut sources);
                    servers.push(empty_row(cat, s, &severities, why));
                    continue;
                }
            },
        };
        let waivers = match &s.waivers {
            None => None,
            Some((path, shown)) => match data_file::read(path, shown, &codes::WAIVER_INVALID) {
                Ok(f) => Some(f),
                Err(e) => {
                    let why = unusable(&p.file, s, e, "the waivers file", &mut diags, &mut sources);
                    servers.push(empty_row(cat, s, &severities, why));
                    continue;
                }
            },
        };
        if let Some(f) = &waivers {
            sources.insert(f.shown.clone(), Arc::from(f.text.as_str()));
        }
        let profile = &checked.profile.source;
        sources.insert(profile.shown.clone(), Arc::from(profile.text.as_str()));
        if let Some(f) = &results {
            sources.insert(f.shown.clone(), Arc::from(f.text.as_str()));
        }
        let waiving = super::Waiving {
            file: waivers.as_ref(),
            as_of,
        };
        let run = super::run_with(cat, &prepared, &checked, results.as_ref(), waiving, policy);
        diags.extend(run.audit.problems.iter().cloned());
        let score = super::score::score(cat, &run.audit);
        let by_category = cat
            .categories
            .iter()
            .map(|prefix| {
                run.audit
                    .applicable()
                    .filter(|r| r.check.category == prefix)
                    .count()
            })
            .collect();
        let findings = severities
            .iter()
            .map(|sev| {
                let n = run
                    .audit
                    .findings
                    .iter()
                    .filter(|id| cat.check(id).is_some_and(|c| c.severity == sev))
                    .count();
                (sev.clone(), Json::from(n))
            })
            .collect();
        servers.push(ServerRow {
            name: s.name.clone(),
            profile: checked.profile.source.shown.clone(),
            results: results.as_ref().map(|f| f.shown.clone()),
            source: s.source.clone(),
            verdict: run.audit.verdict,
            score: score.value,
            provisional_score: score.provisional_score,
            scored_share: score.scored_share,
            applicable: score.applicable,
            total: cat.checks.len(),
            by_category,
            findings,
            advisory_findings: run.audit.advisory.len(),
            blocking: run.audit.blocking.clone(),
            missing: run.audit.missing.len() + run.audit.todo.len(),
            not_verified: run.audit.not_verified.len(),
            errors: run
                .audit
                .problems
                .iter()
                .filter(|d| d.level == crate::diag::Level::Error)
                .count(),
            incomplete: run.audit.incomplete.clone(),
        });
    }
    let verdicts = [
        Verdict::ProductionReady,
        Verdict::NotProductionReady,
        Verdict::Incomplete,
    ]
    .iter()
    .map(|v| {
        let n = servers.iter().filter(|s| s.verdict == *v).count();
        (v.as_str().to_string(), Json::from(n))
    })
    .collect();
    crate::diag::normalise(&mut diags);
    (
        Matrix {
            portfolio: p.file.shown.clone(),
            policy: policy.as_str(),
            categories: cat
                .categories
                .iter()
                .map(|c| CategoryHead {
                    prefix: c.clone(),
                    name: cat.config.category_name(c).unwrap_or(c).to_string(),
                })
                .collect(),
            severities,
            any_source: servers.iter().any(|s| !s.source.is_empty()),
            servers,
            verdicts,
        },
        diags,
        sources,
    )
}

/// Why a server's input (`what`) cannot be audited, as the server row's reason; the
/// diagnostics go to `diags`.
fn unusable(
    portfolio: &DataFile,
    s: &ServerEntry,
    e: DataError,
    what: &str,
    diags: &mut Vec<Diagnostic>,
    sources: &mut SourceMap,
) -> Vec<String> {
    match e {
        DataError::Unreadable(m) => {
            diags.push(portfolio.at(
                &codes::PORTFOLIO_INVALID,
                &format!("servers[{}]", s.index),
                m.clone(),
            ));
            vec![m]
        }
        DataError::Invalid {
            diagnostics,
            sources: read,
        } => {
            let n = diagnostics.len();
            diags.extend(diagnostics);
            sources.extend(read);
            vec![format!("{what} has {n} error(s)")]
        }
    }
}

fn empty_row(
    cat: &Catalogue,
    s: &ServerEntry,
    severities: &[String],
    why: Vec<String>,
) -> ServerRow {
    ServerRow {
        name: s.name.clone(),
        profile: match &s.profile {
            ProfileRef::File(_, shown) => shown.clone(),
            ProfileRef::Inline(_) => "(inline)".into(),
            ProfileRef::Missing => "(none)".into(),
            ProfileRef::Refused(_) => "(refused)".into(),
        },
        results: s.results.as_ref().map(|(_, shown)| shown.clone()),
        source: s.source.clone(),
        verdict: Verdict::Incomplete,
        score: None,
        provisional_score: None,
        scored_share: 0,
        applicable: 0,
        total: cat.checks.len(),
        by_category: vec![0; cat.categories.len()],
        findings: severities
            .iter()
            .map(|s| (s.clone(), Json::from(0)))
            .collect(),
        advisory_findings: 0,
        blocking: Vec::new(),
        missing: 0,
        not_verified: 0,
        errors: 1,
        incomplete: why,
    }
}
