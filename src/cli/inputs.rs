//! What the audit commands share: reading the user's profile, results and portfolio files,
//! and printing the findings about them (to stderr, so stdout stays the data).

use super::args::Cli;
use super::common::{self, Failure};
use crate::audit::profile::{self, Checked};
use crate::diag::{Code, Diagnostic, SourceMap};
use crate::load::data_file::{self, DataError, DataFile};
use crate::model::Catalogue;
use crate::render::diagnostics;
use std::path::Path;
use std::sync::Arc;

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

/// `Ok(Err(_))`: the file was read but is not usable; `Err`: it could not be read (exit 2).
pub fn profile(
    cat: &Catalogue,
    path: &Path,
    server: Option<&str>,
) -> Result<Result<Checked, Rejected>, Failure> {
    match profile::load(cat, path, &shown(path), server) {
        Ok(c) => Ok(Ok(c)),
        Err(e) => Ok(Err(rejected(e)?)),
    }
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
