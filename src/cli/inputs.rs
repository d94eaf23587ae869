//! What the audit commands share: reading the user's profile, results and portfolio files,
//! and printing the findings about them (to stderr, so stdout stays the data).

use super::args::Cli;
use super::common::{self, Failure};
use crate::audit::profile::{self, Checked};
use crate::diag::{Code, Diagnostic};
use crate::load::data_file::{self, DataError, DataFile};
use crate::model::Catalogue;
use crate::render::diagnostics;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// A path as the user named it, with `/` separators.
pub fn shown(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// `Ok(Err(diags))`: the file was read but is not usable; `Err`: it could not be read (exit 2).
pub fn profile(
    cat: &Catalogue,
    path: &Path,
    server: Option<&str>,
) -> Result<Result<Checked, Vec<Diagnostic>>, Failure> {
    match profile::load(cat, path, &shown(path), server) {
        Ok(c) => Ok(Ok(c)),
        Err(DataError::Invalid(d)) => Ok(Err(d)),
        Err(DataError::Unreadable(m)) => Err(Failure(m)),
    }
}

pub fn data(
    path: &Path,
    shown_as: &str,
    invalid: &'static Code,
) -> Result<Result<DataFile, Vec<Diagnostic>>, Failure> {
    match data_file::read(path, shown_as, invalid) {
        Ok(f) => Ok(Ok(f)),
        Err(DataError::Invalid(d)) => Ok(Err(d)),
        Err(DataError::Unreadable(m)) => Err(Failure(m)),
    }
}

/// Source texts by shown path, for diagnostics with source lines.
pub fn sources(files: &[(&str, &str)]) -> BTreeMap<String, Arc<str>> {
    files
        .iter()
        .map(|(k, v)| (k.to_string(), Arc::from(*v)))
        .collect()
}

/// The text of a file the diagnostics may point into (best effort: it was read before).
pub fn text_of(path: &Path) -> String {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).replace("\r\n", "\n"))
        .unwrap_or_default()
}

/// Human diagnostics about input files on stderr (notes dropped under `-q`).
pub fn eprint_problems(cli: &Cli, diags: &[Diagnostic], sources: &BTreeMap<String, Arc<str>>) {
    let shown = common::visible(cli, diags);
    if shown.is_empty() {
        return;
    }
    eprint!(
        "{}",
        diagnostics::human(&shown, sources, "", common::color(cli))
    );
}

/// Whether these diagnostics fail the run (errors, or warnings under `--deny warnings`).
pub fn fails(cli: &Cli, diags: &[Diagnostic]) -> bool {
    crate::diag::Summary::of(diags).fails(common::deny_warnings(cli))
}
