//! `auditbook probe PROFILE (--stdio CMD | --url URL) [--results FILE] [--overwrite] [--lock]
//! [--lock-file FILE] [--timeout-ms N] [--call-tools none|read-only|all] [--sandbox MODE]`, and
//! `auditbook probe --portfolio FILE [--results-dir DIR] [--jobs N] [--server-timeout-ms MS]
//! [--name-servers]` (src/cli/probe_portfolio.rs).

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use crate::evidence::merge;
use crate::evidence::probe;
use crate::evidence::probe::calls::CallPolicy;
use crate::evidence::probe::client::Target;
use crate::evidence::probe::observe::Options;
use crate::evidence::sandbox;
use clap::{Args, ValueEnum};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CallTools {
    /// No tool is called
    None,
    /// Only tools that declare `readOnlyHint: true` and are not suspected of writing
    ReadOnly,
    /// Every tool (calls can change data on the server's side)
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SandboxMode {
    /// Sandbox a started server with bubblewrap when it is installed; say when it is not
    Auto,
    /// Refuse to start a server without the sandbox
    Require,
    /// Start servers without a sandbox (still bounded in memory and time)
    Off,
}

/// Where the server is and how to look at it; shared by `probe` and `audit --probe`.
#[derive(Args, Debug, Clone)]
pub struct TargetArgs {
    /// A command that starts a stdio server (run with `sh -c`, sandboxed where possible)
    #[arg(long, value_name = "CMD", conflicts_with = "url")]
    pub stdio: Option<String>,
    /// A Streamable HTTP endpoint
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Time-out for starting the server and for each request, in milliseconds
    #[arg(long = "timeout-ms", value_name = "MS", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Which tools the probe may call to sample their results (default: read-only; for the
    /// remote servers of a fleet, none)
    #[arg(long = "call-tools", value_enum, value_name = "WHICH")]
    pub call_tools: Option<CallTools>,
    /// The lock file compared with (and written by --lock)
    #[arg(long = "lock-file", value_name = "FILE", default_value = probe::lock::LOCK_FILE)]
    pub lock_file: PathBuf,
    /// How a started (stdio) server is sandboxed
    #[arg(long, value_enum, default_value_t = SandboxMode::Auto)]
    pub sandbox: SandboxMode,
    /// The address space a started server may use, in MiB
    #[arg(long = "server-memory-mb", value_name = "MIB", default_value_t = sandbox::MEMORY_BYTES >> 20)]
    pub server_memory_mb: u64,
    /// The largest message kept from the server, in KiB; a larger one is reported, not read
    #[arg(long = "max-message-kb", value_name = "KIB", default_value_t = 4096)]
    pub max_message_kb: usize,
    /// A contact added to the User-Agent of every request (an e-mail or URL)
    #[arg(long, value_name = "TEXT")]
    pub contact: Option<String>,
}

impl TargetArgs {
    pub fn target(&self) -> Result<Target, Failure> {
        match (&self.stdio, &self.url) {
            (Some(c), None) if !c.trim().is_empty() => Ok(Target::Stdio(c.clone())),
            (None, Some(u)) if u.starts_with("http://") || u.starts_with("https://") => {
                Ok(Target::Http(u.clone()))
            }
            (None, Some(u)) => Err(Failure::Message(format!(
                "`{}` is not an http:// or https:// URL",
                crate::evidence::untrusted::value(u)
            ))),
            _ => Err(Failure::Message(
                "name the server: --stdio 'COMMAND' or --url URL".to_string(),
            )),
        }
    }

    pub fn options(&self) -> Options {
        let mut o = Options::default();
        o.limits.timeout = std::time::Duration::from_millis(self.timeout_ms.max(1));
        o.limits.message_bytes = self.max_message_kb.max(1) << 10;
        o.calls = match self.call_tools.unwrap_or(CallTools::ReadOnly) {
            CallTools::None => CallPolicy::None,
            CallTools::ReadOnly => CallPolicy::ReadOnly,
            CallTools::All => CallPolicy::All,
        };
        o.sandbox.mode = match self.sandbox {
            SandboxMode::Auto => sandbox::Mode::Auto,
            SandboxMode::Require => sandbox::Mode::Require,
            SandboxMode::Off => sandbox::Mode::Off,
        };
        o.sandbox.memory_bytes = self.server_memory_mb.max(16) << 20;
        o.user_agent = crate::evidence::probe::transport::http::user_agent(self.contact.as_deref());
        o
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
    /// Write the lock file (the definitions, canonicalised) after comparing with it; never
    /// written when the server was not reached or its listing broke off
    #[arg(long)]
    pub lock: bool,
    /// The server to take from a portfolio file given as PROFILE
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// Import the official conformance suite's results (a checks.json, or a folder of them)
    /// instead of probing: the checks that list suite ids under `conformance:` get results
    #[arg(long, value_name = "PATH", conflicts_with_all = ["stdio", "url", "lock"])]
    pub conformance: Option<PathBuf>,
    #[command(flatten)]
    pub portfolio: super::probe_portfolio::PortfolioProbeArgs,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::TextFormat>,
}

/// The ids of the applicable checks, and the revision the profile says the server targets.
pub fn applicable(
    cat: &crate::model::Catalogue,
    profile: &crate::audit::profile::Profile,
) -> (Vec<String>, Option<String>) {
    let app = crate::audit::applicability::compute(cat, profile);
    let ids = app
        .entries
        .iter()
        .filter(|e| e.status == crate::audit::applicability::Status::Applies)
        .map(|e| e.id.clone())
        .collect();
    let field = cat.config.baselines().profile_field;
    let revision = match profile.values.get(&field) {
        Some(crate::dsl::Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    (ids, revision)
}

/// Probe a target for the profile's applicable checks (shared with `audit --probe`).
pub fn probe_run(
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    target: &TargetArgs,
) -> Result<probe::Run, Failure> {
    let t = target.target()?;
    let (ids, revision) = applicable(cat, &checked.profile);
    let mut opts = target.options();
    let (kinds, declared) = probe::plan(cat, &ids);
    opts.wanted = Some(kinds);
    opts.declared = declared;
    let obs = probe::observe::observe_blocking(&t, &opts)
        .map_err(Failure::io("cannot start the probe's runtime"))?;
    let run = probe::assess(cat, &ids, obs, &target.lock_file, revision.as_deref());
    report_reach(&run);
    Ok(run)
}

fn report_reach(run: &probe::Run) {
    let obs = &run.observation;
    if let Some(r) = obs.reach.as_ref().filter(|r| !r.reached()) {
        super::output::eprint(&crate::render::excerpt::terminal_safe(
            &format!(
                "warning[{}]: {}: {}; every probed check is not_verified, and an audit of these results is incomplete\n",
                crate::diag::codes::PROBE_UNREACHABLE.code,
                obs.target,
                r.describe()
            ),
            true,
        ));
    }
    if let Some(s) = obs.sandbox.as_ref().filter(|s| !s.sandboxed) {
        super::output::eprint(&format!("note: the server ran {}\n", s.how));
    }
    if let Some(p) = &run.lock_problem {
        super::output::eprint(&format!(
            "warning[{}]: {p}\n",
            crate::diag::codes::PROBE_DRIFT.code
        ));
    }
    if let Some(d) = run.drift.as_ref().filter(|d| !d.changes.is_empty()) {
        for c in &d.changes {
            super::output::eprint(&crate::render::excerpt::terminal_safe(
                &format!(
                    "warning[{}]: {c} since `{}`\n",
                    crate::diag::codes::PROBE_DRIFT.code,
                    d.lock_file
                ),
                true,
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
    pub what: merge::Merged,
}

/// Merge a run into `existing`; notes on stderr for each person-recorded result kept.
pub fn merged(
    cat: &crate::model::Catalogue,
    run: probe::Run,
    existing: Json,
    overwrite: bool,
) -> Probed {
    let (merged, what) = merge::merge(
        existing,
        &[probe::contribution(&run)],
        Some(run.observation.server_name.as_str()),
        cat.config.version.as_deref(),
        overwrite,
    );
    for id in &what.kept {
        super::output::eprint(&format!(
            "note[{}]: {id}: the result recorded by a person was kept (--overwrite replaces it)\n",
            crate::diag::codes::PROBE_KEPT.code
        ));
    }
    Probed { run, merged, what }
}

/// Probe, then merge into `existing` (shared with `audit --probe`).
pub fn probe_merged(
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    target: &TargetArgs,
    existing: Json,
    overwrite: bool,
) -> Result<Probed, Failure> {
    let run = probe_run(cat, checked, target)?;
    Ok(merged(cat, run, existing, overwrite))
}

/// `--conformance`: the suite's results merged into the results file.
fn import_conformance(
    cli: &Cli,
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    path: &Path,
    existing: Json,
    args: &ProbeArgs,
) -> Result<u8, Failure> {
    let imported = crate::evidence::conformance::read(path).map_err(Failure::Message)?;
    let (ids, _) = applicable(cat, &checked.profile);
    let c = crate::evidence::conformance::contribution(cat, &ids, &imported);
    let (merged, what) = merge::merge(
        existing,
        std::slice::from_ref(&c),
        None,
        cat.config.version.as_deref(),
        args.overwrite,
    );
    let results_shown = inputs::shown(&args.results);
    crate::write::file(&args.results, &merge::to_yaml(&merged))
        .map_err(Failure::io(format!("cannot write `{results_shown}`")))?;
    for id in &what.kept {
        super::output::eprint(&format!(
            "note[{}]: {id}: the result recorded by a person was kept (--overwrite replaces it)\n",
            crate::diag::codes::PROBE_KEPT.code
        ));
    }
    let findings = c
        .results
        .iter()
        .filter(|(_, v)| matches!(v["status"].as_str(), Some("fail" | "partial" | "todo")))
        .count();
    if common::format(cli, args.format) == TextFormat::Json {
        let v = serde_json::json!({
            "files": imported.files,
            "suite_checks": imported.checks.len(),
            "results_file": results_shown,
            "written": what.written,
            "kept": what.kept,
            "checks": c.results.iter().map(|(id, v)| serde_json::json!({"id": id, "status": v["status"], "evidence": v["evidence"]})).collect::<Vec<_>>(),
        });
        common::print(&common::json_text(&v)?)?;
    } else if !cli.quiet {
        let mut out = format!(
            "imported {} conformance check(s) from {} file(s): {} results, results in {results_shown}\n",
            imported.checks.len(),
            imported.files.len(),
            c.results.len()
        );
        for (id, v) in &c.results {
            let first = v["evidence"][0].as_str().unwrap_or("");
            out.push_str(&format!(
                "{:<12} {:<8} {first}\n",
                v["status"].as_str().unwrap_or(""),
                id
            ));
        }
        common::print(&crate::render::excerpt::terminal_safe(&out, true))?;
    }
    Ok(if findings > 0 {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}

/// The human summary: one line for the server, one per probed check (a failing or partial one
/// with its first observation), every server value already quoted.
fn human(run: &probe::Run, results_shown: &str, quiet: bool) -> String {
    let obs = &run.observation;
    let mut out = String::new();
    if !quiet {
        let fp = run.fingerprint.as_ref();
        out.push_str(&format!(
            "probed {} ({}): {} {}, protocol {}, {} checks, results in {results_shown}\n",
            obs.target,
            obs.reach.as_ref().map(|r| r.describe()).unwrap_or_default(),
            fp.map(|f| f.server_name.as_str()).unwrap_or("(not stated)"),
            fp.map(|f| f.server_version.as_str()).unwrap_or(""),
            if obs.protocol_version.is_empty() {
                "-"
            } else {
                obs.protocol_version.as_str()
            },
            run.probed.len()
        ));
    }
    for p in &run.probed {
        if quiet && !matches!(p.status, "fail" | "partial") {
            continue;
        }
        let first = p.evidence.first().map(String::as_str).unwrap_or("");
        out.push_str(&format!("{:<12} {:<8} {first}\n", p.status, p.id));
    }
    if quiet && !obs.reached() {
        out.push_str(&format!(
            "{}: {}\n",
            obs.target,
            obs.reach.as_ref().map(|r| r.describe()).unwrap_or_default()
        ));
    }
    crate::render::excerpt::terminal_safe(&out, true).into_owned()
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
    if let Some(path) = &args.conformance {
        return import_conformance(cli, cat, &checked, path, existing, args);
    }
    let Probed { run, merged, what } =
        probe_merged(cat, &checked, &args.target, existing, args.overwrite)?;
    let results_shown = inputs::shown(&args.results);
    crate::write::file(&args.results, &merge::to_yaml(&merged))
        .map_err(Failure::io(format!("cannot write `{results_shown}`")))?;
    // The lock holds what the server showed whole, never a partial or empty listing.
    if args.lock && run.observation.complete() {
        let text = probe::lock::lock_text(&run.observation);
        crate::write::file(&args.target.lock_file, &text).map_err(|e| {
            Failure::Message(format!(
                "cannot write `{}`: {e}",
                inputs::shown(&args.target.lock_file)
            ))
        })?;
    } else if args.lock {
        super::output::eprint(&format!(
            "note: `{}` was not written: the server's definitions were not seen whole\n",
            inputs::shown(&args.target.lock_file)
        ));
    }
    let failed = run
        .probed
        .iter()
        .any(|p| matches!(p.status, "fail" | "partial"));
    if fmt == TextFormat::Json {
        let v = serde_json::json!({
            "target": run.observation.target,
            "reach": run.observation.reach,
            "sandbox": run.observation.sandbox,
            "serves": run.observation.openings,
            "fingerprint": run.fingerprint,
            "drift": run.drift,
            "results_file": results_shown,
            "written": what.written,
            "kept": what.kept,
            "not_called": run.observation.not_called,
            "listings": {
                "tools": run.observation.tools.notes,
                "resources": run.observation.resources.notes,
                "prompts": run.observation.prompts.notes,
                "templates": run.observation.templates.notes,
            },
            "checks": run.probed,
        });
        common::print(&common::json_text(&v)?)?;
    } else {
        common::print(&human(&run, &results_shown, cli.quiet))?;
    }
    Ok(if failed || !run.observation.reached() {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}
