//! A portfolio audited: every server's profile against one catalogue, summarised as one matrix
//! of servers × categories. The portfolio and the files its entries name are read by
//! `load::portfolio`; this module judges what was read.

use super::profile::{self, Checked, Source};
use super::results::Status;
use super::verdict::{Policy, Verdict};
use crate::diag::{codes, Diagnostic, SourceMap};
use crate::load::data_file::{DataError, DataFile};
use crate::load::portfolio::{
    looks_like, EntryFiles, Portfolio, ProfileRef, ServerEntry, ServerSource,
};
use crate::model::Catalogue;
use serde::Serialize;
use serde_json::Value as Json;
use std::sync::Arc;

/// The checked profile of server `s` of `p`: written inline, or `file`, the profile file the
/// loader read for the entry (`Portfolio::read_profile`).
pub fn profile_of(
    cat: &Catalogue,
    p: &Portfolio,
    s: &ServerEntry,
    file: Option<Result<DataFile, DataError>>,
) -> Result<Checked, DataError> {
    match &s.profile {
        ProfileRef::Inline(v) => {
            let text = serde_json::to_string(v).unwrap_or_default();
            let source = Source {
                shown: p.file.shown.clone(),
                value: v.clone(),
                digest: crate::text::digest::sha256(text.as_bytes()),
                lines: p.file.lines.clone(),
                prefix: format!("servers[{}].profile", s.index),
                text: p.file.text.clone(),
            };
            Ok(profile::check(cat, source, Some(s.name.clone())))
        }
        ProfileRef::File(_, shown) => {
            let file = file.ok_or_else(|| {
                DataError::Unreadable(format!("the profile `{shown}` was not read"))
            })??;
            if looks_like(&file.value) {
                return Err(DataError::invalid(vec![p.file.at(
                    &codes::PORTFOLIO_INVALID,
                    &format!("servers[{}].profile", s.index),
                    format!(
                        "the profile of `{}` is itself a portfolio (`{shown}`)",
                        s.name
                    ),
                )]));
            }
            let notes = file.notes.clone();
            let mut c = profile::check(cat, Source::from_file(file), Some(s.name.clone()));
            c.diagnostics.extend(notes);
            Ok(c)
        }
        ProfileRef::Refused(d) => Err(DataError::invalid(vec![(**d).clone()])),
        ProfileRef::Missing => Err(DataError::invalid(vec![p.file.at(
            &codes::PORTFOLIO_INVALID,
            &format!("servers[{}]", s.index),
            format!("server `{}` has no profile", s.name),
        )])),
    }
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
    /// Every applicable check with its status, by id; for the HTML pictures only (the JSON
    /// and Markdown forms of the matrix do not carry it).
    #[serde(skip)]
    pub statuses: std::collections::BTreeMap<String, Status>,
    /// The worst status of the applicable checks per category, in category order; `None` where
    /// none applies.
    #[serde(skip)]
    pub worst: Vec<Option<Status>>,
    /// The protocol versions the results file's `probe` block says the server served.
    #[serde(skip)]
    pub serves: Vec<String>,
}

/// How bad a status is in a summary cell, worst first: a cell shows the worst status of its
/// checks.
pub const WORST_FIRST: [Status; 9] = [
    Status::Fail,
    Status::Partial,
    Status::Rejected,
    Status::Missing,
    Status::NeedsTriage,
    Status::Todo,
    Status::NotVerified,
    Status::Pass,
    Status::NotApplicable,
];

/// The worst of `statuses` (`WORST_FIRST`), `None` for none.
pub fn worst(statuses: impl IntoIterator<Item = Status>) -> Option<Status> {
    let rank = |s: &Status| WORST_FIRST.iter().position(|w| w == s).unwrap_or(0);
    statuses.into_iter().min_by_key(rank)
}

/// The versions a results file's `probe.serves` lists (written by `probe`), empty when it
/// has none.
fn served(results: Option<&DataFile>) -> Vec<String> {
    let Some(list) = results
        .and_then(|f| f.value.get("probe"))
        .and_then(|p| p.get("serves"))
        .and_then(|s| s.as_array())
    else {
        return Vec::new();
    };
    let mut out: Vec<String> = list
        .iter()
        .filter_map(|v| v.as_str())
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
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

/// Audit every server of the portfolio from the files the loader read for each entry
/// (`files`, one per server, in order: `Portfolio::read_all`). Diagnostics of every input come
/// back with the matrix, and the text of every input file as it was read (for showing them).
pub fn matrix(
    cat: &Catalogue,
    p: &Portfolio,
    files: Vec<EntryFiles>,
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
    let mut files = files.into_iter();
    for s in &p.servers {
        let read = files.next().unwrap_or_default();
        let (checked, results, waivers) = match inputs(cat, p, s, read) {
            Ok(i) => i,
            Err((e, what)) => {
                let why = unusable(&p.file, s, e, what, &mut diags, &mut sources);
                servers.push(empty_row(cat, s, &severities, why));
                continue;
            }
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
        let statuses: std::collections::BTreeMap<String, Status> = run
            .audit
            .applicable()
            .map(|r| (r.check.id.to_string(), r.status.unwrap_or(Status::Missing)))
            .collect();
        let worst_by_category = cat
            .categories
            .iter()
            .map(|prefix| {
                worst(
                    run.audit
                        .applicable()
                        .filter(|r| r.check.category == prefix)
                        .map(|r| r.status.unwrap_or(Status::Missing)),
                )
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
            statuses,
            worst: worst_by_category,
            serves: served(results.as_ref()),
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

/// A server's checked profile, its results and its waivers.
type Inputs = (Checked, Option<DataFile>, Option<DataFile>);

/// A server's inputs from the files read for its entry, or the first that cannot be used and
/// what it is.
fn inputs(
    cat: &Catalogue,
    p: &Portfolio,
    s: &ServerEntry,
    read: EntryFiles,
) -> Result<Inputs, (DataError, &'static str)> {
    let checked = profile_of(cat, p, s, read.profile).map_err(|e| (e, "the profile"))?;
    let results = read
        .results
        .transpose()
        .map_err(|e| (e, "the results file"))?;
    let waivers = read
        .waivers
        .transpose()
        .map_err(|e| (e, "the waivers file"))?;
    Ok((checked, results, waivers))
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
        statuses: Default::default(),
        worst: vec![None; cat.categories.len()],
        serves: Vec::new(),
    }
}
