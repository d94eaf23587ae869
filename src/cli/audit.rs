//! `auditbook audit PROFILE [--results FILE] [--policy P] [--out FILE] [--previous SUMMARY]
//! [--server NAME] [--check-url-base URL] [--explain-score] [--probe (--stdio CMD | --url URL)]`

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::AuditFormat;
use super::inputs;
use crate::audit::report::{self, Options};
use crate::audit::verdict::Verdict;
use crate::audit::{self as audit_lib, gate, score};
use crate::diag::codes;
use crate::load::data_file::{self, DataFile};
use clap::Args;
use std::path::{Component, Path, PathBuf};

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// The profile file, or a portfolio file together with --server
    #[arg(value_name = "PROFILE")]
    pub profile: PathBuf,
    /// The results file (YAML or JSON); without it the report is the audit plan
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Which statuses are findings
    #[arg(long, value_enum, default_value_t = inputs::PolicyArg::FailOrPartial)]
    pub policy: inputs::PolicyArg,
    /// Write the report to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// An earlier `audit --format json` report of the same server, to compare with
    #[arg(long, value_name = "SUMMARY")]
    pub previous: Option<PathBuf>,
    /// The server to take from a portfolio file given as PROFILE
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// Link checks as URL/checks/ID.md instead of a relative path
    #[arg(long = "check-url-base", value_name = "URL")]
    pub check_url_base: Option<String>,
    /// Print how the score was computed, line by line (the report then goes only to --out)
    #[arg(long = "explain-score")]
    pub explain_score: bool,
    /// A waivers file (`waivers:` list) in addition to the results file's waivers
    #[arg(long, value_name = "FILE")]
    pub waivers: Option<PathBuf>,
    /// The day waivers are judged on, YYYY-MM-DD (default: today, UTC)
    #[arg(long = "as-of", value_name = "DATE")]
    pub as_of: Option<String>,
    /// Exit 1 unless the score is final and at least N
    #[arg(long = "min-score", value_name = "N")]
    pub min_score: Option<f64>,
    /// Exit 1 when a finding (enforced or advisory, not waived) of this severity or worse remains
    #[arg(long = "fail-on", value_name = "SEVERITY")]
    pub fail_on: Option<String>,
    /// Probe the server (--stdio or --url) first and merge what it observed with the recorded
    /// results; the results file is not changed (`probe` writes it)
    #[arg(long)]
    pub probe: bool,
    #[command(flatten)]
    pub target: super::probe::TargetArgs,
    /// Output format (default: md)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::AuditFormat>,
}

/// `to` as a relative path from the directory `from` (both relative to the working directory
/// or absolute), computed lexically.
fn relative(from: &Path, to: &Path) -> String {
    let abs = |p: &Path| -> Vec<String> {
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        let full = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let mut parts: Vec<String> = Vec::new();
        for c in full.components() {
            match c {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::CurDir => {}
                Component::RootDir => parts.push(String::new()),
                other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
            }
        }
        parts
    };
    let (f, t) = (abs(from), abs(to));
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out: Vec<String> = vec!["..".to_string(); f.len() - common];
    out.extend(t[common..].iter().cloned());
    if out.is_empty() {
        ".".into()
    } else {
        out.join("/")
    }
}

pub fn run(cli: &Cli, args: &AuditArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let as_of = inputs::as_of(args.as_of.as_deref())?;
    let session = common::session(cli, crate::session::Needs::REPORT)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let gates =
        gate::Gates::new(cat, args.min_score, args.fail_on.as_deref()).map_err(Failure::Message)?;
    let Some(input) = accepted(
        cli,
        inputs::chosen(cat, &args.profile, args.server.as_deref())?,
    ) else {
        return Ok(super::EXIT_FINDINGS);
    };
    let checked = input.checked;
    let results_path = chosen(&args.results, &input.results);
    if !args.probe && (args.target.stdio.is_some() || args.target.url.is_some()) {
        return Err(Failure::Message(
            "--stdio and --url name the server for --probe; add --probe to probe it".into(),
        ));
    }
    let read = match (&results_path, args.probe) {
        (None, false) => Ok(None),
        (Some((p, shown)), false) => inputs::data(p, shown, &codes::RESULTS_INVALID)?.map(Some),
        (_, true) => probed_results(cli, cat, &checked, args, results_path.as_ref())?.map(Some),
    };
    let Some(results_file) = accepted(cli, read) else {
        return Ok(super::EXIT_FINDINGS);
    };
    let read = match chosen(&args.waivers, &input.waivers) {
        None => Ok(None),
        Some((p, shown)) => inputs::data(&p, &shown, &codes::WAIVER_INVALID)?.map(Some),
    };
    let Some(waivers_file) = accepted(cli, read) else {
        return Ok(super::EXIT_FINDINGS);
    };
    let previous = args.previous.as_deref().map(read_previous).transpose()?;
    let run = audit_lib::run_with(
        cat,
        &crate::audit::applicability::Prepared::new(cat),
        &checked,
        results_file.as_ref(),
        audit_lib::Waiving {
            file: waivers_file.as_ref(),
            as_of: &as_of,
        },
        args.policy.into(),
    );
    let score = score::score(cat, &run.audit);

    let source = &checked.profile.source;
    let mut refs = vec![(source.shown.as_str(), source.text.as_str())];
    for f in results_file.iter().chain(waivers_file.iter()) {
        refs.push((f.shown.as_str(), f.text.as_str()));
    }
    inputs::eprint_problems(cli, &run.audit.problems, &inputs::sources(&refs));

    let options = options(cli, args, fmt, previous, &as_of);
    let explanation = args.explain_score.then(|| score.explain());
    let rep = report::build(cat, &checked, &run, score, &options);
    let refused = refused_comparison(&rep);
    inputs::eprint_problems(cli, &refused, &Default::default());
    let rendered = rendered(cli, fmt, &rep)?;
    deliver(args, &rendered, explanation)?;
    let deny = (inputs::fails(cli, &run.audit.problems) || inputs::fails(cli, &refused))
        && common::deny_warnings(cli);
    let breached = gates.breaches(cat, &rep);
    for b in &breached {
        super::output::eprint(&format!("auditbook: gate breached: {b}\n"));
    }
    Ok(
        if rep.verdict != Verdict::ProductionReady || deny || !breached.is_empty() {
            super::EXIT_FINDINGS
        } else {
            super::EXIT_OK
        },
    )
}

/// How the report is laid out: where its links point from (the folder of `--out`, else the
/// working directory), the report it is compared with, the day it is as of.
fn options(
    cli: &Cli,
    args: &AuditArgs,
    fmt: AuditFormat,
    previous: Option<(String, Result<serde_json::Value, String>)>,
    as_of: &str,
) -> Options {
    let link_prefix = match &args.out {
        Some(out) => relative(out.parent().unwrap_or(Path::new("")), &common::root(cli)),
        None => common::prefix(cli),
    };
    Options {
        catalogue_root: common::prefix(cli),
        check_url_base: args.check_url_base.clone(),
        link_prefix,
        previous,
        as_of: as_of.to_string(),
        html: fmt == AuditFormat::Html,
    }
}

/// The report to `--out` or standard output; the score's explanation, when asked for, to
/// standard output (in place of the report when there is no `--out`).
fn deliver(args: &AuditArgs, rendered: &str, explanation: Option<String>) -> Result<(), Failure> {
    match (&args.out, explanation) {
        (Some(out), expl) => {
            write_report(out, rendered)?;
            if let Some(e) = expl {
                common::print(&e)?;
            }
        }
        (None, Some(e)) => common::print(&e)?,
        (None, None) => common::print(rendered)?,
    }
    Ok(())
}

/// What a command-line option names, else what the profile declares: the path and how it is
/// shown.
fn chosen(
    option: &Option<PathBuf>,
    declared: &Option<(PathBuf, String)>,
) -> Option<(PathBuf, String)> {
    match (option, declared) {
        (Some(p), _) => Some((p.clone(), inputs::shown(p))),
        (None, Some((p, shown))) => Some((p.clone(), shown.clone())),
        (None, None) => None,
    }
}

/// An input that was read, or `None` once its problems are printed (the audit stops with the
/// findings exit code: a report on inputs that do not validate would mislead).
fn accepted<T>(cli: &Cli, read: Result<T, inputs::Rejected>) -> Option<T> {
    match read {
        Ok(t) => Some(t),
        Err(r) => {
            inputs::eprint_problems(cli, &r.diagnostics, &r.sources);
            None
        }
    }
}

/// The report `--previous` names, parsed as JSON; whether it is a report this audit can be
/// compared with is the report's to say.
fn read_previous(p: &Path) -> Result<(String, Result<serde_json::Value, String>), Failure> {
    let bytes = crate::load::text::read_limited(p)
        .map_err(Failure::io(format!("cannot read `{}`", inputs::shown(p))))?;
    let parsed = serde_json::from_slice::<serde_json::Value>(&bytes)
        .map_err(|e| format!("it is not an auditbook json audit report (not JSON: {e})"));
    Ok((inputs::shown(p), parsed))
}

/// The report in the format asked for.
fn rendered(cli: &Cli, fmt: AuditFormat, rep: &report::Report) -> Result<String, Failure> {
    Ok(match fmt {
        AuditFormat::Json => common::json_text(rep)?,
        AuditFormat::Sarif => {
            crate::render::audit_sarif::sarif(rep).map_err(|source| Failure::Json {
                what: "cannot write the report as SARIF".into(),
                source,
            })?
        }
        AuditFormat::Junit => crate::render::junit::audit(rep),
        other @ (AuditFormat::Md | AuditFormat::Html) => {
            let name = if other == AuditFormat::Html {
                "report.html.tera"
            } else {
                "report.md.tera"
            };
            let ctx = tera::Context::from_serialize(rep)
                .map_err(Failure::template("cannot hand the report to the template"))?;
            common::templates(cli)?
                .render(name, &ctx)
                .map_err(Failure::Message)?
        }
    })
}

/// `--previous` named a report this audit cannot be compared with: the report says why, and
/// so does a finding, since a silent refusal reads like "nothing changed".
fn refused_comparison(rep: &report::Report) -> Vec<crate::diag::Diagnostic> {
    rep.comparison
        .iter()
        .filter_map(|c| {
            let why = c.refused.as_deref()?;
            Some(
                crate::diag::Diagnostic::new(
                    &codes::PREVIOUS_NOT_COMPARABLE,
                    format!("`{}` is not compared with this audit: {why}", c.previous),
                )
                .file(c.previous.clone()),
            )
        })
        .collect()
}

/// `--probe`: the recorded results (when there are any) with the probe's merged in, as a data
/// file in memory. Results a person recorded are kept; the file on disk is not changed.
fn probed_results(
    cli: &Cli,
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    args: &AuditArgs,
    results: Option<&(PathBuf, String)>,
) -> Result<Result<DataFile, inputs::Rejected>, Failure> {
    let (existing, shown) = match results {
        Some((p, shown)) if p.exists() => match inputs::data(p, shown, &codes::RESULTS_INVALID)? {
            Ok(f) => (f.value, format!("{shown} + probe")),
            Err(r) => return Ok(Err(r)),
        },
        _ => (serde_json::Value::Null, "probe".to_string()),
    };
    let probed = super::probe::probe_merged(cat, checked, &args.target, existing, false)?;
    if !cli.quiet {
        super::output::eprint(&format!(
            "probed {}: {} checks from the probe, {} recorded by a person kept\n",
            probed.run.observation.target,
            probed.what.written.len(),
            probed.what.kept.len()
        ));
    }
    let text = crate::evidence::merge::to_yaml(&probed.merged);
    Ok(
        data_file::from_text(text, false, &shown, &codes::RESULTS_INVALID).map_err(|e| match e {
            data_file::DataError::Invalid {
                diagnostics,
                sources,
            } => inputs::Rejected {
                diagnostics,
                sources,
            },
            data_file::DataError::Unreadable(m) => inputs::Rejected {
                diagnostics: vec![crate::diag::Diagnostic::new(&codes::RESULTS_INVALID, m)],
                sources: Default::default(),
            },
        }),
    )
}

/// The report file: `/dev/stdout` (and the like) is the open stream; any other path has its
/// folder created if missing and is written by the rules of `write` (atomically over a file,
/// through a FIFO or character device, never over a device node).
fn write_report(path: &Path, text: &str) -> Result<(), Failure> {
    use crate::write::target::{standard_stream, Standard};
    match standard_stream(path) {
        Some(Standard::Out) => return common::print(text),
        Some(Standard::Err) => {
            super::output::eprint(text);
            return Ok(());
        }
        None => {}
    }
    let fail = |e| Failure::io(format!("cannot write `{}`", path.display()))(e);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.exists() {
            crate::write::dir(dir).map_err(fail)?;
        }
    }
    crate::write::file(path, text).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_between_directories() {
        assert_eq!(
            relative(Path::new("reports"), Path::new("catalogue")),
            "../catalogue"
        );
        assert_eq!(relative(Path::new(""), Path::new("catalogue")), "catalogue");
        assert_eq!(relative(Path::new("a/b"), Path::new("a/c/d")), "../c/d");
        assert_eq!(relative(Path::new("x"), Path::new("x")), ".");
    }
}
