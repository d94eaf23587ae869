//! `verify --claims` and `sync --claims`: the documents of a repository other than the
//! catalogue's, held to a catalogue root or snapshot (`--catalogue`) and to an audit report
//! (`--report`), through the same session as the catalogue's own documents. Findings are
//! shown under the folder of the claims file.

use super::args::Cli;
use super::common::{self, Failure};
use crate::session::{Session, Stages};
use std::path::{Path, PathBuf};

fn session(cli: &Cli, claims: &Path, report: Option<&Path>) -> Result<Session, Failure> {
    Ok(Session::of_claims_file(claims, cli.catalogue.as_deref())?
        .with_templates(cli.templates.clone())
        .with_report(report.map(Path::to_path_buf)))
}

/// The folder of the claims file as the user named it: the prefix of every finding's file.
fn folder(claims: &Path) -> PathBuf {
    match claims.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn prefix(claims: &Path) -> String {
    folder(claims).to_string_lossy().replace('\\', "/")
}

pub fn verify(
    cli: &Cli,
    claims: &Path,
    report_path: Option<&Path>,
    format: Option<super::formats::DiagnosticsFormat>,
) -> Result<u8, Failure> {
    let fmt = common::format(cli, format);
    let session = session(cli, claims, report_path)?;
    let findings = session.findings(Stages::VERIFY).map_err(Failure::Message)?;
    let cat = session.catalogue();
    let report_claims = session.claims_file().map_or(0, |f| f.report_claims.len());
    let mut extra = serde_json::Map::new();
    extra.insert("documents".into(), cat.documents.len().into());
    extra.insert(
        "claims".into(),
        (cat.config.claims.len() + report_claims).into(),
    );
    let shown = common::Shown {
        findings: &findings,
        catalogue: cat,
        graph: Some(session.graph()),
    };
    common::report_at(cli, "verify", shown, fmt, extra, &prefix(claims))
}

pub fn sync(
    cli: &Cli,
    claims: &Path,
    format: Option<super::formats::TextFormat>,
) -> Result<u8, Failure> {
    let fmt = common::format(cli, format);
    let writing = crate::write::Session::begin(&folder(claims), || {
        super::output::eprint(
            "auditbook: waiting for another auditbook run that is changing these documents\n",
        )
    })
    .map_err(Failure::io("cannot lock the documents for writing"))?;
    let session = session(cli, claims, None)?;
    let prefix = prefix(claims);
    let plan = match session.sync_plan().map_err(Failure::Message)? {
        Ok(p) => p,
        Err(findings) => {
            let mut extra = serde_json::Map::new();
            extra.insert("written".into(), 0.into());
            let shown = common::Shown {
                findings: &findings,
                catalogue: session.catalogue(),
                graph: None,
            };
            return common::report_at(cli, "sync", shown, fmt.into(), extra, &prefix);
        }
    };
    writing
        .apply("sync", &plan.changes)
        .map_err(Failure::io("cannot write"))?;
    common::print(&super::sync::outcome(cli, &plan, &prefix, fmt)?)?;
    Ok(super::EXIT_OK)
}
