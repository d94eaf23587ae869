//! `verify --claims` and `sync --claims`: the documents of a repository other than the
//! catalogue's, held to a catalogue root or snapshot (`--catalogue`) and to an audit report
//! (`--report`). Findings are shown under the folder of the claims file.

use super::args::Cli;
use super::common::{self, Failure};
use crate::claims::{elsewhere, report};
use crate::diag::{codes, Diagnostic};
use crate::load::claims_file::{self, Elsewhere, SourceKind};
use std::path::{Component, Path, PathBuf};

fn load(cli: &Cli, claims: &Path) -> Result<Elsewhere, Failure> {
    Ok(claims_file::load(
        claims,
        cli.catalogue.as_deref(),
        &report::is_report_claim,
    )?)
}

/// The folder of the claims file as the user named it: the prefix of every finding's file.
fn folder(claims: &Path) -> PathBuf {
    match claims.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `path` relative to `dir`, so a finding about the report reads right under the prefix.
fn relative_to(dir: &Path, path: &Path) -> String {
    let (Ok(d), Ok(p)) = (dir.canonicalize(), path.canonicalize()) else {
        return path.display().to_string();
    };
    let dc: Vec<Component> = d.components().collect();
    let pc: Vec<Component> = p.components().collect();
    let common = dc.iter().zip(&pc).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = dc[common..].iter().map(|_| "..".to_string()).collect();
    parts.extend(
        pc[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Findings about documents, claims and regions: the shared checks on the combined model,
/// then what only another repository can get wrong.
fn findings(cli: &Cli, e: &Elsewhere) -> Result<Vec<Diagnostic>, Failure> {
    let cat = &e.loaded.catalogue;
    let mut diags = e.loaded.diagnostics.clone();
    let own = elsewhere::check(e);
    if e.source != SourceKind::None && e.too_old.is_none() {
        let graph = crate::graph::Graph::build(cat);
        let templates = common::templates(cli)?;
        let mut shared = crate::claims::verify(cat, &graph, &templates);
        elsewhere::drop_base_link_findings(cat, &mut shared);
        // A region a snapshot cannot render is reported once, as such, not as stale.
        let unanswered: Vec<(Option<String>, Option<usize>)> = own
            .iter()
            .filter(|d| d.code == codes::SNAPSHOT_CANNOT_ANSWER.code)
            .map(|d| (d.file.clone(), d.line))
            .collect();
        shared.retain(|d| {
            !(d.code.starts_with("AB60") && unanswered.contains(&(d.file.clone(), d.line)))
        });
        diags.extend(shared);
    }
    diags.extend(own);
    let sync = format!("run `auditbook sync --claims {}`", e.file);
    Ok(diags
        .into_iter()
        .map(|mut d| {
            d.help = d.help.map(|h| h.replacen("run `auditbook sync`", &sync, 1));
            claims_file::in_claims_file(d, &e.file)
        })
        .collect())
}

pub fn verify(
    cli: &Cli,
    claims: &Path,
    report_path: Option<&Path>,
    format: Option<super::formats::DiagnosticsFormat>,
) -> Result<u8, Failure> {
    let fmt = common::format(cli, format);
    let e = load(cli, claims)?;
    let dir = folder(claims);
    let mut diags = findings(cli, &e)?;
    match report_path {
        Some(path) => match crate::load::audit_report::read(path) {
            Ok(mut facts) => {
                facts.file = path.display().to_string();
                diags.extend(report::check(
                    &e.loaded.catalogue,
                    &e.report_claims,
                    &facts,
                    &e.file,
                ));
            }
            Err(mut d) => {
                d.file = Some(relative_to(&dir, path));
                diags.push(d);
            }
        },
        None if !e.report_claims.is_empty() => diags.push(
            Diagnostic::new(
                &codes::CLAIMS_SOURCE_MISSING,
                format!(
                    "`{}` declares {} claim(s) over an audit report, but no --report was given; they are not checked",
                    e.file,
                    e.report_claims.len()
                ),
            )
            .file(e.file.clone())
            .line(claims_file::key_line(&e, "claims"))
            .help(codes::CLAIMS_SOURCE_MISSING.help),
        ),
        None => {}
    }
    crate::diag::normalise(&mut diags);
    let mut extra = serde_json::Map::new();
    extra.insert(
        "documents".into(),
        e.loaded.catalogue.documents.len().into(),
    );
    extra.insert(
        "claims".into(),
        (e.loaded.catalogue.config.claims.len() + e.report_claims.len()).into(),
    );
    let prefix = dir.to_string_lossy().replace('\\', "/");
    let findings = crate::session::Findings {
        shown: diags,
        suppressed: Vec::new(),
    };
    let shown = common::Shown {
        findings: &findings,
        catalogue: &e.loaded.catalogue,
        graph: None,
    };
    common::report_at(cli, "verify", shown, fmt, extra, &prefix)
}

pub fn sync(
    cli: &Cli,
    claims: &Path,
    format: Option<super::formats::TextFormat>,
) -> Result<u8, Failure> {
    let fmt = common::format(cli, format);
    let dir = folder(claims);
    let session = crate::write::Session::begin(&dir, || {
        super::output::eprint(
            "auditbook: waiting for another auditbook run that is changing these documents\n",
        )
    })
    .map_err(Failure::io("cannot lock the documents for writing"))?;
    let e = load(cli, claims)?;
    let prefix = dir.to_string_lossy().replace('\\', "/");
    let refuse = |diags: Vec<Diagnostic>| {
        let mut diags: Vec<Diagnostic> = diags
            .into_iter()
            .map(|d| claims_file::in_claims_file(d, &e.file))
            .collect();
        crate::diag::normalise(&mut diags);
        let mut extra = serde_json::Map::new();
        extra.insert("written".into(), 0.into());
        let findings = crate::session::Findings {
            shown: diags,
            suppressed: Vec::new(),
        };
        let shown = common::Shown {
            findings: &findings,
            catalogue: &e.loaded.catalogue,
            graph: None,
        };
        common::report_at(cli, "sync", shown, fmt.into(), extra, &prefix)
    };
    // Nothing is written from a source that cannot render every region.
    let blocking: Vec<Diagnostic> = elsewhere::check(&e)
        .into_iter()
        .filter(|d| {
            d.code == codes::CLAIMS_SOURCE_MISSING.code
                || (d.code == codes::SNAPSHOT_CANNOT_ANSWER.code
                    && d.level == crate::diag::Level::Error)
        })
        .collect();
    if !blocking.is_empty() {
        return refuse(blocking);
    }
    let templates = common::templates(cli)?;
    let plan = match crate::claims::plan_sync(&e.loaded.catalogue, &templates) {
        Ok(p) => p,
        Err(diags) => return refuse(diags),
    };
    session
        .apply("sync", &plan.changes)
        .map_err(Failure::io("cannot write"))?;
    common::print(&super::sync::outcome(cli, &plan, &prefix, fmt)?)?;
    Ok(super::EXIT_OK)
}
