//! What the audit commands share: reading the user's profile, results and portfolio files,
//! choosing between a profile and one server of a portfolio (`--server`), and printing the
//! findings about them (to stderr, so stdout stays the data). `audit` judges the values read
//! here; it opens no file.

use super::args::Cli;
use super::common::{self, Failure};
use crate::audit::portfolio as audit_portfolio;
use crate::audit::profile::{self, Checked};
use crate::audit::verdict::Policy;
use crate::diag::{codes, Code, Diagnostic, SourceMap};
use crate::load::data_file::{self, DataError, DataFile};
use crate::load::portfolio::{self, Portfolio};
use crate::model::Catalogue;
use crate::render::diagnostics;
use crate::text::suggest::did_you_mean;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `--policy`: which statuses are findings, in the words of the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyArg {
    /// fail and partial are findings (the default).
    FailOrPartial,
    /// Only fail is a finding.
    FailOnly,
    /// fail, partial, todo and not_verified are findings.
    NeedsAttention,
}

impl From<PolicyArg> for Policy {
    fn from(p: PolicyArg) -> Policy {
        match p {
            PolicyArg::FailOrPartial => Policy::FailOrPartial,
            PolicyArg::FailOnly => Policy::FailOnly,
            PolicyArg::NeedsAttention => Policy::NeedsAttention,
        }
    }
}

/// A path as the user named it, with `/` separators.
pub fn shown(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// Findings about an input file that was read but is not usable, with the text they are about.
pub struct Rejected {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

fn rejected(e: DataError) -> Result<Rejected, Failure> {
    match e {
        DataError::Invalid {
            diagnostics,
            sources,
        } => Ok(Rejected {
            diagnostics,
            sources,
        }),
        DataError::Unreadable(m) => Err(Failure::Message(m)),
    }
}

/// The profile an audit judges, with the results and waivers files its portfolio entry names
/// (resolved against the portfolio's folder; none for a profile file).
pub struct Chosen {
    pub checked: Checked,
    pub results: Option<(PathBuf, String)>,
    pub waivers: Option<(PathBuf, String)>,
}

/// `path` as a profile, or, when it is a portfolio, as the profile of `--server NAME`. A
/// portfolio without `--server` is refused with the list of its servers: never silently its
/// first one. `Ok(Err(_))`: the file was read but is not usable; `Err`: it could not be read
/// or the choice cannot be made (exit 2).
pub fn chosen(
    cat: &Catalogue,
    path: &Path,
    server: Option<&str>,
) -> Result<Result<Chosen, Rejected>, Failure> {
    let shown = shown(path);
    let file = match data_file::read(path, &shown, &codes::PROFILE_INVALID) {
        Ok(f) => f,
        Err(e) => return Ok(Err(rejected(e)?)),
    };
    let is_portfolio = portfolio::is_portfolio(&cat.config, &file.value);
    let read = match (is_portfolio, server) {
        (false, None) => profile::of_file(cat, file).map(|checked| Chosen {
            checked,
            results: None,
            waivers: None,
        }),
        (false, Some(name)) => {
            return Err(Failure::Message(format!(
                "--server {name} was given, but `{shown}` is a profile, not a portfolio"
            )))
        }
        (true, None) => {
            let p = Portfolio::parse(file);
            let names: Vec<&str> = p.servers.iter().map(|s| s.name.as_str()).collect();
            return Err(Failure::Message(format!(
                "`{shown}` is a portfolio of {} server(s); choose one with --server NAME: {}",
                names.len(),
                if names.is_empty() {
                    "(none declared)".to_string()
                } else {
                    names.join(", ")
                }
            )));
        }
        (true, Some(name)) => server_of(cat, Portfolio::parse(file), &shown, name)?,
    };
    match read {
        Ok(c) => Ok(Ok(c)),
        Err(e) => Ok(Err(rejected(e)?)),
    }
}

/// The profile of server `name` of portfolio `p`, its entry's files read by the loader.
fn server_of(
    cat: &Catalogue,
    p: Portfolio,
    shown: &str,
    name: &str,
) -> Result<Result<Chosen, DataError>, Failure> {
    let Some(entry) = p.servers.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = p.servers.iter().map(|s| s.name.as_str()).collect();
        let hint = did_you_mean(name, names.iter().copied())
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        return Err(Failure::Message(format!(
            "`{shown}` has no server `{name}`{hint}; its servers: {}",
            names.join(", ")
        )));
    };
    let read = audit_portfolio::profile_of(cat, &p, entry, p.read_profile(entry));
    Ok(read.map(|mut checked| {
        checked.diagnostics.extend(p.diagnostics.iter().cloned());
        checked.diagnostics.extend(p.file.notes.iter().cloned());
        crate::diag::normalise(&mut checked.diagnostics);
        Chosen {
            checked,
            results: entry.results.clone(),
            waivers: entry.waivers.clone(),
        }
    }))
}

/// [`chosen`] for the commands that read the profile alone.
pub fn profile(
    cat: &Catalogue,
    path: &Path,
    server: Option<&str>,
) -> Result<Result<Checked, Rejected>, Failure> {
    Ok(chosen(cat, path, server)?.map(|c| c.checked))
}

pub fn data(
    path: &Path,
    shown_as: &str,
    invalid: &'static Code,
) -> Result<Result<DataFile, Rejected>, Failure> {
    match data_file::read(path, shown_as, invalid) {
        Ok(f) => Ok(Ok(f)),
        Err(e) => Ok(Err(rejected(e)?)),
    }
}

/// Source texts by shown path, for diagnostics with source lines.
pub fn sources(files: &[(&str, &str)]) -> SourceMap {
    files
        .iter()
        .map(|(k, v)| (k.to_string(), Arc::from(*v)))
        .collect()
}

/// Human diagnostics about input files on stderr (notes dropped under `-q`).
pub fn eprint_problems(cli: &Cli, diags: &[Diagnostic], sources: &SourceMap) {
    let shown = common::visible(cli, diags);
    if shown.is_empty() {
        return;
    }
    super::output::eprint(&diagnostics::human(&shown, sources, "", common::color(cli)));
}

/// Whether these diagnostics fail the run (errors, or warnings under `--deny warnings`).
pub fn fails(cli: &Cli, diags: &[Diagnostic]) -> bool {
    crate::diag::Summary::of(diags).fails(common::deny_warnings(cli))
}

/// `--as-of DATE`: the day waivers are judged on (default: today, UTC).
pub fn as_of(given: Option<&str>) -> Result<String, Failure> {
    match given {
        None => Ok(crate::model::date::today()),
        Some(d) if crate::model::date::is_calendar_date(d) => Ok(d.to_string()),
        Some(d) => Err(Failure::Message(format!(
            "--as-of `{d}` is not a day written YYYY-MM-DD"
        ))),
    }
}
