//! `auditbook probe PROFILE (--stdio CMD | --url URL) [--results FILE] [--overwrite] [--lock]
//! [--lock-file FILE] [--timeout-ms N] [--call-tools read-only|all]`, and
//! `auditbook probe --portfolio FILE [--results-dir DIR] [--jobs N] [--server-timeout-ms MS]
//! [--name-servers]` (src/cli/probe_portfolio.rs).

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use crate::probe::observe::{CallPolicy, Options, Target};
use crate::probe::{self, record};
use clap::{Args, ValueEnum};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CallTools {
    /// Only tools that declare `readOnlyHint: true`
    ReadOnly,
    /// Every tool (calls can change data on the server's side)
    All,
}

/// Where the server is and how to look at it; shared by `probe` and `audit --probe`.
#[derive(Args, Debug, Clone)]
pub struct TargetArgs {
    /// A command that starts a stdio server (run with `sh -c`)
    #[arg(long, value_name = "CMD", conflicts_with = "url")]
    pub stdio: Option<String>,
    /// A Streamable HTTP endpoint
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Time-out for starting the server and for each request, in milliseconds
    #[arg(long = "timeout-ms", value_name = "MS", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Which tools the probe may call to sample their results
    #[arg(long = "call-tools", value_enum, default_value_t = CallTools::ReadOnly)]
    pub call_tools: CallTools,
    /// The lock file compared with (and written by --lock)
    #[arg(long = "lock-file", value_name = "FILE", default_value = probe::lock::LOCK_FILE)]
    pub lock_file: PathBuf,
}

impl TargetArgs {
    pub fn target(&self) -> Result<Target, Failure> {
        match (&self.stdio, &self.url) {
            (Some(c), None) if !c.trim().is_empty() => Ok(Target::Stdio(c.clone())),
            (None, Some(u)) if u.starts_with("http://") || u.starts_with("https://") => {
                Ok(Target::Http(u.clone()))
            }
            (None, Some(u)) => Err(Failure::Message(format!(
                "`{u}` is not an http:// or https:// URL"
            ))),
            _ => Err(Failure::Message(
                "name the server: --stdio 'COMMAND' or --url URL".to_string(),
            )),
        }
    }

    pub fn options(&self) -> Options {
        Options {
            timeout: std::time::Duration::from_millis(self.timeout_ms.max(1)),
            calls: match self.call_tools {
                CallTools::ReadOnly => CallPolicy::ReadOnly,
                CallTools::All => CallPolicy::All,
            },
            ..Options::default()
        }
    }
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The profile that decides which checks apply (or a portfolio with --server)
    #[arg(value_name = "PROFILE", required_unless_present = "portfolio")]
    pub profile: Option<PathBuf>,
    #[command(flatten)]
    pub target: TargetArgs,
    /// The results file to write (merged with what it already holds)
    #[arg(long, value_name = "FILE", default_value = "probe.results.yaml")]
    pub results: PathBuf,
    /// Replace results recorded by a person too
    #[arg(long)]
    pub overwrite: bool,
    /// Write the lock file (the definitions, canonicalised) after comparing with it
    #[arg(long)]
    pub lock: bool,
    /// The server to take from a portfolio file given as PROFILE
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    #[command(flatten)]
    pub portfolio: super::probe_portfolio::PortfolioProbeArgs,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::TextFormat>,
}

/// Probe a target for the profile's applicable checks (shared with `audit --probe`).
pub fn probe_run(
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    target: &TargetArgs,
) -> Result<probe::Run, Failure> {
    let t = target.target()?;
    let app = crate::audit::applicability::compute(cat, &checked.profile);
    let obs = probe::observe::observe_blocking(&t, &target.options())
        .map_err(Failure::io("cannot start the probe's runtime"))?;
    let run = probe::assess(cat, &app, obs, &target.lock_file);
    report_reach(&run);
    Ok(run)
}

fn report_reach(run: &probe::Run) {
    let obs = &run.observation;
    if let Some(r) = obs.reach.as_ref().filter(|r| !r.reached()) {
        super::output::eprint(&format!(
            "warning[{}]: {}: {}; every probed check is not_verified\n",
            crate::diag::codes::PROBE_UNREACHABLE.code,
            obs.target,
            r.describe()
        ));
    }
    if let Some(p) = &run.lock_problem {
        super::output::eprint(&format!(
            "warning[{}]: {p}\n",
            crate::diag::codes::PROBE_DRIFT.code
        ));
    }
    if let Some(d) = run.drift.as_ref().filter(|d| !d.changes.is_empty()) {
        for c in &d.changes {
            super::output::eprint(&format!(
                "warning[{}]: {c} since `{}`\n",
                crate::diag::codes::PROBE_DRIFT.code,
                d.lock_file
            ));
        }
    }
}

/// The value of an existing results file (`Json::Null` when there is none). A file that is not
/// a results file is never overwritten.
pub fn read_existing(path: &Path) -> Result<Json, Failure> {
    if !path.exists() {
        return Ok(Json::Null);
    }
    let shown = inputs::shown(path);
    match inputs::data(path, &shown, &crate::diag::codes::RESULTS_INVALID)? {
        Ok(f) => Ok(f.value),
        Err(_) => Err(Failure::Message(format!(
            "`{shown}` exists but is not a results file; the probe does not overwrite it"
        ))),
    }
}

/// A probe merged into the results already recorded.
pub struct Probed {
    pub run: probe::Run,
    pub merged: Json,
    pub what: record::Merged,
}

/// Probe, then merge into `existing` (shared with `audit --probe`); notes on stderr for each
/// person-recorded result that was kept.
pub fn probe_merged(
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    target: &TargetArgs,
    existing: Json,
    overwrite: bool,
) -> Result<Probed, Failure> {
    let run = probe_run(cat, checked, target)?;
    let (merged, what) = record::merge(
        existing,
        &run.probed,
        &run.observation,
        cat.config.version.as_deref(),
        overwrite,
    );
    for id in &what.kept {
        super::output::eprint(&format!(
            "note[{}]: {id}: the result recorded by a person was kept (--overwrite replaces it)\n",
            crate::diag::codes::PROBE_KEPT.code
        ));
    }
    Ok(Probed { run, merged, what })
}

pub fn run(cli: &Cli, args: &ProbeArgs) -> Result<u8, Failure> {
    if args.portfolio.portfolio.is_some() {
        return super::probe_portfolio::run(cli, args);
    }
    let fmt = common::format(cli, args.format);
    let Some(profile) = &args.profile else {
        return Err(Failure::Message(
            "name the profile, or --portfolio FILE".into(),
        ));
    };
    let session = common::session(cli, crate::session::Needs::REPORT)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let checked = match inputs::profile(cat, profile, args.server.as_deref())? {
        Ok(c) => c,
        Err(r) => {
            inputs::eprint_problems(cli, &r.diagnostics, &r.sources);
            return Ok(super::EXIT_FINDINGS);
        }
    };
    let existing = read_existing(&args.results)?;
    let Probed { run, merged, what } =
        probe_merged(cat, &checked, &args.target, existing, args.overwrite)?;
    let results_shown = inputs::shown(&args.results);
    crate::write::file(&args.results, &record::to_yaml(&merged))
        .map_err(Failure::io(format!("cannot write `{results_shown}`")))?;
    if args.lock && run.observation.reached() {
        let text = probe::lock::lock_text(&run.observation);
        crate::write::file(&args.target.lock_file, &text).map_err(|e| {
            Failure::Message(format!(
                "cannot write `{}`: {e}",
                inputs::shown(&args.target.lock_file)
            ))
        })?;
    }
    let failed = run.probed.iter().any(|p| p.status == "fail");
    if fmt == TextFormat::Json {
        let v = serde_json::json!({
            "target": run.observation.target,
            "reach": run.observation.reach,
            "fingerprint": run.fingerprint,
            "drift": run.drift,
            "results_file": results_shown,
            "written": what.written,
            "kept": what.kept,
            "checks": run.probed,
        });
        common::print(&common::json_text(&v)?)?;
    } else if !cli.quiet {
        let mut out = format!(
            "probed {} ({} {}, protocol {}): {} checks, results in {results_shown}\n",
            run.observation.target,
            run.fingerprint.server_name,
            run.fingerprint.server_version,
            run.fingerprint.protocol_version,
            run.probed.len()
        );
        for p in &run.probed {
            let first = p.evidence.first().map(String::as_str).unwrap_or("");
            out.push_str(&format!("{:<12} {:<8} {first}\n", p.status, p.id));
        }
        common::print(&out)?;
    }
    Ok(if failed || !run.observation.reached() {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}
