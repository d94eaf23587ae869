//! Example inputs under `verify`: the profiles and portfolios `catalogue.yaml` declares under
//! `examples` are held to the profile schema with the same checks `audit` and `portfolio`
//! apply, so an example a reader copies cannot drift from the schema unnoticed.

use super::profile::{self, Source};
use crate::diag::{codes, Code, Diagnostic};
use crate::load::data_file::{self, DataError, DataFile};
use crate::load::portfolio::{self, Portfolio};
use crate::model::Catalogue;
use std::path::Path;

/// Findings about every declared example whose text loading read (a path that could not be
/// read is already a loading finding).
pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let Some(decl) = &cat.config.examples else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in &decl.profiles {
        if let Some(file) = parsed(cat, path, &codes::PROFILE_INVALID, &mut out) {
            out.extend(example_profile(cat, file));
        }
    }
    for path in &decl.portfolios {
        if let Some(file) = parsed(cat, path, &codes::PORTFOLIO_INVALID, &mut out) {
            out.extend(example_portfolio(cat, file));
        }
    }
    out
}

/// The example's text as loading read it, parsed like a data file given on the command line.
fn parsed(
    cat: &Catalogue,
    path: &str,
    invalid: &'static Code,
    out: &mut Vec<Diagnostic>,
) -> Option<DataFile> {
    let text = cat.sources.get(path)?;
    let full = cat.root.join(path);
    match data_file::parse(text, data_file::is_json(Path::new(path)), path, invalid) {
        Ok(value) => Some(DataFile {
            shown: path.to_string(),
            path: full,
            text: text.to_string(),
            digest: crate::text::digest::sha256(text.as_bytes()),
            value,
            lines: crate::model::config::KeyLines::of_text(std::sync::Arc::clone(text)),
            notes: Vec::new(),
        }),
        Err(d) => {
            out.push(d);
            None
        }
    }
}

fn example_profile(cat: &Catalogue, file: DataFile) -> Vec<Diagnostic> {
    if portfolio::is_portfolio(&cat.config, &file.value) {
        return vec![file
            .at(
                &codes::PROFILE_INVALID,
                "servers",
                format!("example profile `{}` is a portfolio", file.shown),
            )
            .help("declare it under examples.portfolios in catalogue.yaml")];
    }
    profile::check(cat, Source::from_file(file), None).diagnostics
}

fn example_portfolio(cat: &Catalogue, file: DataFile) -> Vec<Diagnostic> {
    if !portfolio::looks_like(&file.value) {
        return vec![file
            .at(
                &codes::PORTFOLIO_INVALID,
                "",
                format!("example portfolio `{}` has no `servers` list", file.shown),
            )
            .help("declare a single profile under examples.profiles in catalogue.yaml")];
    }
    let p = Portfolio::parse(file);
    let mut out = p.diagnostics.clone();
    for s in &p.servers {
        match super::portfolio::profile_of(cat, &p, s, p.read_profile(s)) {
            Ok(c) => out.extend(c.diagnostics),
            Err(DataError::Invalid { diagnostics, .. }) => out.extend(diagnostics),
            Err(DataError::Unreadable(m)) => out.push(p.file.at(
                &codes::PORTFOLIO_INVALID,
                &format!("servers[{}].profile", s.index),
                m,
            )),
        }
    }
    out
}
