//! `auditbook applicability PROFILE [OTHER] [--diff OTHER] [--server NAME]`

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use crate::audit::applicability::{self, Applicability, Status};
use crate::audit::profile::Checked;
use crate::diag::Diagnostic;
use crate::model::Catalogue;
use crate::render::text_table;
use clap::Args;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct ApplicabilityArgs {
    /// The profile file, or a portfolio file together with --server
    #[arg(value_name = "PROFILE")]
    pub profile: PathBuf,
    /// A second profile: list the checks whose applicability changes (same as --diff)
    #[arg(value_name = "OTHER")]
    pub other: Option<PathBuf>,
    /// Compare with another profile: what does changing these fields cost?
    #[arg(long, value_name = "OTHER", conflicts_with = "other")]
    pub diff: Option<PathBuf>,
    /// The server to take from a portfolio file given as PROFILE
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// The server to take from a portfolio file given as OTHER
    #[arg(long = "other-server", value_name = "NAME")]
    pub other_server: Option<String>,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::TextFormat>,
}

struct Side {
    checked: Checked,
    app: Applicability,
}

/// Load and decide one profile; diagnostics about it are collected, not printed.
fn side(
    cat: &Catalogue,
    prepared: &applicability::Prepared<'_>,
    path: &std::path::Path,
    server: Option<&str>,
    problems: &mut Vec<Diagnostic>,
    sources: &mut crate::diag::SourceMap,
) -> Result<Option<Side>, Failure> {
    match inputs::profile(cat, path, server)? {
        Ok(checked) => {
            problems.extend(checked.diagnostics.iter().cloned());
            let source = &checked.profile.source;
            sources.insert(source.shown.clone(), Arc::from(source.text.as_str()));
            let app = applicability::compute_with(prepared, &checked.profile);
            Ok(Some(Side { checked, app }))
        }
        Err(r) => {
            problems.extend(r.diagnostics);
            sources.extend(r.sources);
            Ok(None)
        }
    }
}

pub fn run(cli: &Cli, args: &ApplicabilityArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::FRONTMATTER)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let mut problems = Vec::new();
    let mut sources = BTreeMap::new();
    let prepared = applicability::Prepared::new(cat);
    let a = side(
        cat,
        &prepared,
        &args.profile,
        args.server.as_deref(),
        &mut problems,
        &mut sources,
    )?;
    let other = args.other.as_ref().or(args.diff.as_ref());
    let b = match other {
        Some(p) => side(
            cat,
            &prepared,
            p,
            args.other_server.as_deref(),
            &mut problems,
            &mut sources,
        )?,
        None => None,
    };
    crate::diag::normalise(&mut problems);
    inputs::eprint_problems(cli, &problems, &sources);
    let (Some(a), true) = (a, other.is_none() || b.is_some()) else {
        return Ok(super::EXIT_FINDINGS);
    };
    let text = match &b {
        Some(b) => diff_text(cat, &a, b, fmt)?,
        None => single_text(cat, &a, fmt)?,
    };
    common::print(&text)?;
    let errors =
        a.app.count(Status::Error) + b.as_ref().map(|b| b.app.count(Status::Error)).unwrap_or(0);
    Ok(if errors > 0 || inputs::fails(cli, &problems) {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}

fn single_text(cat: &Catalogue, s: &Side, fmt: TextFormat) -> Result<String, Failure> {
    let summary = s.app.summary(cat);
    if fmt == TextFormat::Json {
        let checks: Vec<_> = s
            .app
            .entries
            .iter()
            .map(applicability::Entry::json)
            .collect();
        let doc = json!({
            "profile": s.checked.profile.source.shown,
            "server": s.checked.profile.server,
            "checks": checks,
            "summary": summary,
        });
        return common::json_text(&doc);
    }
    let rows: Vec<Vec<String>> = s
        .app
        .entries
        .iter()
        .map(|e| {
            vec![
                e.id.clone(),
                e.status.as_str().to_string(),
                e.reason.clone(),
            ]
        })
        .collect();
    let mut out = text_table::render(&["id", "status", "reason"], &rows);
    out.push('\n');
    let reasons: Vec<String> = summary
        .by_reason
        .iter()
        .map(|(r, n)| format!("{n} {r}"))
        .collect();
    out.push_str(&format!(
        "{} checks for `{}`: {}\n\n",
        summary.total,
        s.checked.profile.source.shown,
        reasons.join(", ")
    ));
    let rows: Vec<Vec<String>> = summary
        .by_category
        .iter()
        .map(|c| {
            vec![
                c.prefix.clone(),
                c.name.clone(),
                c.applies.to_string(),
                c.total.to_string(),
                format!("{}%", c.share),
                c.no_match.to_string(),
                c.baseline_mismatch.to_string(),
                c.baseline_unresolved.to_string(),
                c.error.to_string(),
            ]
        })
        .collect();
    out.push_str(&text_table::render(
        &[
            "category",
            "name",
            "applies",
            "total",
            "share",
            "no-match",
            "baseline-mismatch",
            "baseline-unresolved",
            "error",
        ],
        &rows,
    ));
    Ok(out)
}

fn diff_text(_cat: &Catalogue, a: &Side, b: &Side, fmt: TextFormat) -> Result<String, Failure> {
    let d = applicability::diff((&a.checked.profile, &a.app), (&b.checked.profile, &b.app));
    let (from, to) = (
        &a.checked.profile.source.shown,
        &b.checked.profile.source.shown,
    );
    if fmt == TextFormat::Json {
        let doc = json!({
            "from": from,
            "to": to,
            "fields": d.fields,
            "checks": d.checks,
            "summary": {
                "changed": d.checks.len(),
                "gained": d.gained,
                "lost": d.lost,
                "applies_before": a.app.count(Status::Applies),
                "applies_after": b.app.count(Status::Applies),
            },
        });
        return common::json_text(&doc);
    }
    let mut out = format!("Applicability from `{from}` to `{to}`\n\n");
    if d.fields.is_empty() {
        out.push_str("No profile field differs.\n");
    } else {
        out.push_str("Profile fields that differ:\n");
        for f in &d.fields {
            out.push_str(&format!(
                "  {}: {} → {}\n",
                f.field,
                f.old.as_deref().unwrap_or("absent"),
                f.new.as_deref().unwrap_or("absent")
            ));
        }
    }
    out.push('\n');
    if d.checks.is_empty() {
        out.push_str("No check changes its applicability.\n");
    } else {
        let rows: Vec<Vec<String>> = d
            .checks
            .iter()
            .map(|c| {
                vec![
                    c.id.clone(),
                    c.severity.clone(),
                    c.from.as_str().to_string(),
                    c.to.as_str().to_string(),
                    c.why.clone(),
                ]
            })
            .collect();
        out.push_str(&text_table::render(
            &["id", "severity", "from", "to", "why"],
            &rows,
        ));
        out.push('\n');
    }
    out.push_str(&format!(
        "{} check(s) change: {} newly apply, {} no longer apply ({} → {} applicable).\n",
        d.checks.len(),
        d.gained,
        d.lost,
        a.app.count(Status::Applies),
        b.app.count(Status::Applies)
    ));
    Ok(out)
}
