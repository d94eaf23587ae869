//! `auditbook collect PROFILE [--package SPEC] [--source DIR] [--stdio CMD | --url URL]
//! [--results FILE] [--overwrite] [--conformance PATH]`: every machine's evidence about one
//! server in one results file. The package is installed and read (artifact facts), its files
//! (or `--source`) scanned, the installed console script (or `--stdio`) started in the sandbox
//! with its upstream requests caught, and probed (or `--url` probed); the results of every
//! source are merged with what a person recorded (`evidence::merge`).
//!
//! `auditbook catch-proxy` (hidden) is the catching proxy the started server's upstream
//! requests go to (`evidence::catch`).

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use super::probe::TargetArgs;
use crate::evidence::package::{self, Installed, Spec};
use crate::evidence::probe::client::Target;
use crate::evidence::scan::{self, facts::Artifact, tree, triage};
use crate::evidence::{catch, merge, probe};
use clap::Args;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct CollectArgs {
    /// The profile that decides which checks apply (or a portfolio with --server)
    #[arg(value_name = "PROFILE", required_unless_present = "portfolio")]
    pub profile: Option<PathBuf>,
    /// The published package: pypi:NAME[==VERSION], npm:NAME[@VERSION], a .whl or .tar.gz
    /// file, or a source folder
    #[arg(long, value_name = "SPEC")]
    pub package: Option<String>,
    /// The server's source tree, scanned instead of the installed package's files
    #[arg(long, value_name = "DIR")]
    pub source: Option<PathBuf>,
    /// With --source: leave out the files whose path below it matches GLOB (repeatable; e.g.
    /// test fixtures that are not the server); the results name the globs
    #[arg(long, value_name = "GLOB", requires = "source")]
    pub exclude: Vec<String>,
    #[command(flatten)]
    pub target: TargetArgs,
    /// The console script of the package to start (default: the one named like the package,
    /// else the first)
    #[arg(long, value_name = "NAME")]
    pub script: Option<String>,
    /// Do not start the installed server (no probe unless --stdio or --url)
    #[arg(long = "no-start")]
    pub no_start: bool,
    /// Import the official conformance suite's results (a checks.json, or a folder of them)
    #[arg(long, value_name = "PATH")]
    pub conformance: Option<PathBuf>,
    /// The results file to write (merged with what it already holds)
    #[arg(long, value_name = "FILE", default_value = "collect.results.yaml")]
    pub results: PathBuf,
    /// Replace results recorded by a person too
    #[arg(long)]
    pub overwrite: bool,
    /// The server to take from a portfolio file given as PROFILE
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// The day triage decisions with `until` are held to (default: today)
    #[arg(long = "as-of", value_name = "YYYY-MM-DD")]
    pub as_of: Option<String>,
    #[command(flatten)]
    pub fleet: super::collect_fleet::FleetArgs,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug)]
pub struct CatchProxyArgs {
    /// The loopback port to listen on
    #[arg(long, value_name = "PORT")]
    pub port: u16,
    /// Where the caught requests are written, one JSON object a line
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

pub fn run_catch_proxy(args: &CatchProxyArgs) -> Result<u8, Failure> {
    catch::serve(args.port, &args.out).map_err(Failure::Message)?;
    Ok(super::EXIT_OK)
}

/// The console script to start: the one asked for, the one named like the package, or the
/// first.
fn script_of<'a>(i: &'a Installed, wanted: Option<&str>) -> Result<Option<&'a Path>, Failure> {
    if let Some(w) = wanted {
        return match i.scripts.iter().find(|(n, _)| n == w) {
            Some((_, p)) => Ok(Some(p.as_path())),
            None => Err(Failure::Message(format!(
                "the package installs no console script `{}`; it installs: {}",
                crate::evidence::untrusted::value(w),
                if i.scripts.is_empty() {
                    "none".to_string()
                } else {
                    i.scripts
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ))),
        };
    }
    let short = i.name.rsplit('/').next().unwrap_or(&i.name);
    Ok(i.scripts
        .iter()
        .find(|(n, _)| n == short)
        .or_else(|| i.scripts.first())
        .map(|(_, p)| p.as_path()))
}

/// Where the started server is, and how its upstream requests are caught.
struct Start {
    target: Target,
    /// The installed script, when that is what is started (its start is a package fact).
    script: Option<String>,
    catch: Option<catch::Prepared>,
}

fn start_of(args: &CollectArgs, installed: Option<&Installed>) -> Result<Option<Start>, Failure> {
    let (target, script) = match (&args.target.stdio, &args.target.url, installed) {
        (Some(_), _, _) | (_, Some(_), _) => (args.target.target()?, None),
        (None, None, Some(i)) if !args.no_start && i.not_installed.is_none() => {
            match script_of(i, args.script.as_deref())? {
                Some(p) => {
                    let cmd = format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
                    (
                        Target::Stdio(cmd),
                        Some(
                            p.file_name()
                                .map(|n| n.to_string_lossy().into_owned())
                                .unwrap_or_default(),
                        ),
                    )
                }
                None => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    let catch = match &target {
        Target::Stdio(_) => Some(catch::prepare().map_err(Failure::Message)?),
        Target::Http(_) => None,
    };
    Ok(Some(Start {
        target,
        script,
        catch,
    }))
}

/// The User-Agents of the caught requests: `None` when nothing was caught.
fn user_agents(caught: Option<Vec<catch::Caught>>) -> Option<Vec<String>> {
    let caught = caught.filter(|c| !c.is_empty())?;
    let mut uas: Vec<String> = caught.into_iter().filter_map(|c| c.user_agent).collect();
    uas.sort();
    uas.dedup();
    Some(uas)
}

/// The `package:` block of the results file.
fn package_block(i: &Installed, a: &Artifact, sandboxed: &str) -> Json {
    json!({
        "target": crate::evidence::untrusted::quote(&i.spec, 300),
        "reached": true,
        "name": crate::evidence::untrusted::value(&i.name),
        "version": crate::evidence::untrusted::value(&i.version),
        "digest": i.digest,
        "installed": i.not_installed.is_none(),
        "requires": i.requires.iter().map(|r| crate::evidence::untrusted::value(r)).collect::<Vec<_>>(),
        "scripts": i.scripts.iter().map(|(n, _)| crate::evidence::untrusted::value(n)).collect::<Vec<_>>(),
        "user_agents": a.user_agents.as_ref().map(|u| u.iter().map(|x| crate::evidence::untrusted::value(x)).collect::<Vec<_>>()),
        "sandbox": sandboxed,
        "log": i.log,
    })
}

/// What one collection gathered.
pub struct Collected {
    pub contributions: Vec<merge::Contribution>,
    pub scan: Option<scan::Scan>,
    pub run: Option<probe::Run>,
    pub installed: Option<Installed>,
    pub conformance: usize,
}

/// Gather every source's evidence for the profile's applicable checks.
pub fn gather(
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    args: &CollectArgs,
    existing: &Json,
    today: &str,
) -> Result<Collected, Failure> {
    let (ids, revision) = super::probe::applicable(cat, &checked.profile);
    let mut opts = args.target.options();
    let installed = match &args.package {
        None => None,
        Some(s) => {
            let spec = Spec::parse(s).map_err(Failure::Message)?;
            Some(package::install(&spec).map_err(Failure::Message)?)
        }
    };
    if let Some(i) = &installed {
        opts.sandbox.visible.push(i.env.clone());
    }
    let mut artifact = installed
        .as_ref()
        .map(|i| package::artifact(i, &opts.sandbox));
    let start = start_of(args, installed.as_ref())?;
    let mut contributions = Vec::new();
    let mut run = None;
    if let Some(st) = &start {
        let (kinds, declared) = probe::plan(cat, &ids);
        opts.wanted = Some(kinds);
        opts.declared = declared;
        opts.upstream_call = st.catch.is_some();
        opts.sandbox.catch = st.catch.as_ref().map(|p| p.catch.clone());
        let obs = probe::observe::observe_blocking(&st.target, &opts)
            .map_err(Failure::io("cannot start the probe's runtime"))?;
        let r = probe::assess(cat, &ids, obs, &args.target.lock_file, revision.as_deref());
        if let Some(a) = artifact.as_mut() {
            if let Some(script) = &st.script {
                let reach = r.observation.reach.as_ref();
                a.starts = Some(match reach {
                    Some(x) if x.reached() => Ok(format!(
                        "the installed console script `{}` started, answered as MCP ({}) and was still running when the probe ended",
                        crate::evidence::untrusted::value(script),
                        crate::evidence::untrusted::value(&r.observation.server_name)
                    )),
                    Some(x) => Err(format!(
                        "the installed console script `{}`: {}",
                        crate::evidence::untrusted::value(script),
                        x.describe()
                    )),
                    None => Err(format!(
                        "the installed console script `{}` was not started",
                        crate::evidence::untrusted::value(script)
                    )),
                });
            }
            if let Some(c) = &st.catch {
                a.user_agents = user_agents(catch::read(&c.catch.file));
            }
        }
        let mut c = probe::contribution(&r);
        // The server probed is the installed artifact's own script: its results were taken
        // from that artifact, and say so as the scan's and the package facts' do.
        if let (Some(_), Some(i)) = (&st.script, &installed) {
            for (_, v) in c.results.iter_mut() {
                if let Some(o) = v.as_object_mut() {
                    o.insert("digest".into(), Json::String(i.digest.clone()));
                }
            }
        }
        contributions.push(c);
        run = Some(r);
    }
    let decisions = triage::Decisions::of_results(existing);
    let tree = match (&args.source, &installed) {
        (Some(dir), _) => Some(tree::read_except(dir, &args.exclude).map_err(Failure::io(
            format!("cannot read the source tree `{}`", inputs::shown(dir)),
        ))?),
        (None, Some(i)) => {
            // Only a source folder holds the repository's own files.
            let shipped = !Path::new(&i.spec).is_dir();
            let mut t = tree::read_roots(Path::new(&i.spec), &i.roots, shipped).map_err(
                Failure::io(format!("cannot read the installed files of `{}`", i.spec)),
            )?;
            // The installed files are the artifact's: results name the artifact's digest.
            t.digest = i.digest.clone();
            Some(t)
        }
        (None, None) => None,
    };
    let scanned = tree
        .as_ref()
        .map(|t| scan::scan(cat, &ids, t, &decisions, today, artifact.as_ref()));
    if let Some(s) = &scanned {
        contributions.push(scan::contribution(s));
    }
    if let (Some(i), Some(a)) = (&installed, &artifact) {
        let how = run
            .as_ref()
            .and_then(|r| r.observation.sandbox.as_ref())
            .map(|u| u.how.clone())
            .unwrap_or_else(|| "not started".into());
        contributions.push(merge::Contribution {
            source: "package",
            block: package_block(i, a, &how),
            results: Vec::new(),
            stamp: None,
        });
    }
    let mut conformance = 0;
    if let Some(path) = &args.conformance {
        let imported = crate::evidence::conformance::read(path).map_err(Failure::Message)?;
        conformance = imported.checks.len();
        contributions.push(crate::evidence::conformance::contribution(
            cat, &ids, &imported,
        ));
    }
    Ok(Collected {
        contributions,
        scan: scanned,
        run,
        installed,
        conformance,
    })
}

/// Per check of the merged results: which machine recorded it and whether a person still has
/// to look.
fn lines(merged: &Json, ids: &[String]) -> (Vec<Json>, Counts) {
    let mut out = Vec::new();
    let mut n = Counts::default();
    for id in ids {
        let r = &merged["results"][id.as_str()];
        let status = r["status"].as_str().unwrap_or("missing");
        let source = r["source"].as_str();
        let by_machine = merge::is_machine(source);
        let decided = matches!(status, "pass" | "fail" | "partial" | "n_a");
        if by_machine && decided {
            n.decided += 1;
        } else if !decided {
            n.waiting += 1;
        }
        if by_machine && r["evidence"].as_array().is_some_and(|e| !e.is_empty()) {
            n.evidenced += 1;
        }
        out.push(json!({
            "id": id,
            "status": status,
            "source": source.unwrap_or(if r.is_null() { "" } else { "person" }),
            "by": if by_machine { "machine" } else if r.is_null() { "nobody" } else { "person" },
            "evidence": r["evidence"].get(0).cloned().unwrap_or(Json::Null),
        }));
    }
    (out, n)
}

/// How far the machines got, over the applicable checks.
#[derive(Default)]
struct Counts {
    /// A machine's result that is a verdict (pass, fail, partial, n_a).
    decided: usize,
    /// A machine's result with evidence, decided or left for a person to complete.
    evidenced: usize,
    /// Not decided by anyone yet.
    waiting: usize,
}

pub fn run(cli: &Cli, args: &CollectArgs) -> Result<u8, Failure> {
    if args.fleet.portfolio.is_some() {
        return super::collect_fleet::run(cli, args);
    }
    let Some(profile) = &args.profile else {
        return Err(Failure::Message(
            "name the profile, or --portfolio FILE".into(),
        ));
    };
    if args.package.is_none()
        && args.source.is_none()
        && args.target.stdio.is_none()
        && args.target.url.is_none()
        && args.conformance.is_none()
    {
        return Err(Failure::Message(
            "name what to collect from: --package SPEC, --source DIR, --stdio CMD, --url URL or --conformance PATH".into(),
        ));
    }
    let fmt = common::format(cli, args.format);
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
    let today = inputs::as_of(args.as_of.as_deref())?;
    let existing = super::probe::read_existing(&args.results)?;
    let got = gather(cat, &checked, args, &existing, &today)?;
    let server_name = got
        .run
        .as_ref()
        .map(|r| r.observation.server_name.clone())
        .filter(|n| !n.is_empty())
        .or_else(|| got.installed.as_ref().map(|i| i.name.clone()));
    let (merged, what) = merge::merge(
        existing,
        &got.contributions,
        server_name.as_deref(),
        cat.config.version.as_deref(),
        args.overwrite,
    );
    let shown = inputs::shown(&args.results);
    crate::write::file(&args.results, &merge::to_yaml(&merged))
        .map_err(Failure::io(format!("cannot write `{shown}`")))?;
    super::scan::print_kept(&what);
    for id in &what.contradicted {
        super::output::eprint(&format!(
            "error[{}]: {id}: a person recorded `pass`, but a machine proved `fail`; the audit reports it until one of them is corrected\n",
            crate::diag::codes::RESULTS_CONTRADICT_MACHINE.code
        ));
    }
    if let Some(r) = &got.run {
        if let Some(x) = r.observation.reach.as_ref().filter(|x| !x.reached()) {
            super::output::eprint(&crate::render::excerpt::terminal_safe(
                &format!(
                    "warning[{}]: {}: {}; every probed check is not_verified, and an audit of these results is incomplete\n",
                    crate::diag::codes::PROBE_UNREACHABLE.code,
                    r.observation.target,
                    x.describe()
                ),
                true,
            ));
        }
        if let Some(s) = r.observation.sandbox.as_ref().filter(|s| !s.sandboxed) {
            super::output::eprint(&format!("note: the server ran {}\n", s.how));
        }
    }
    let (ids, _) = super::probe::applicable(cat, &checked.profile);
    let (per_check, counts) = lines(&merged, &ids);
    let Counts {
        decided: machine,
        evidenced,
        waiting,
    } = counts;
    let findings = per_check
        .iter()
        .any(|l| matches!(l["status"].as_str(), Some("fail" | "partial")));
    if fmt == TextFormat::Json {
        let v = json!({
            "results_file": shown,
            "applicable": ids.len(),
            "machine_decided": machine,
            "machine_evidence": evidenced,
            "waiting": waiting,
            "package": merged.get("package"),
            "scan": merged.get("scan"),
            "probe": merged.get("probe"),
            "conformance_checks": got.conformance,
            "written": what.written,
            "kept": what.kept,
            "contradicted": what.contradicted,
            "checks": per_check,
        });
        common::print(&common::json_text(&v)?)?;
    } else {
        let mut out = String::new();
        if !cli.quiet {
            if let Some(i) = &got.installed {
                out.push_str(&format!(
                    "package {} {} ({}){}\n",
                    i.name,
                    i.version,
                    i.digest,
                    match &i.not_installed {
                        Some(_) => ", read, not installed",
                        None => ", installed",
                    }
                ));
            }
            if let Some(s) = &got.scan {
                out.push_str(&format!("scanned {} files of {}\n", s.files, s.root));
            }
            if let Some(r) = &got.run {
                out.push_str(&format!(
                    "probed {}: {}\n",
                    r.observation.target,
                    r.observation
                        .reach
                        .as_ref()
                        .map(|x| x.describe())
                        .unwrap_or_default()
                ));
            }
        }
        for l in &per_check {
            let status = l["status"].as_str().unwrap_or("");
            if cli.quiet && !matches!(status, "fail" | "partial") {
                continue;
            }
            out.push_str(&format!(
                "{:<12} {:<8} {:<14} {}\n",
                status,
                l["id"].as_str().unwrap_or(""),
                l["source"].as_str().unwrap_or(""),
                l["evidence"].as_str().unwrap_or("")
            ));
        }
        out.push_str(&format!(
            "{evidenced} of {} applicable checks carry machine evidence, {machine} decided by it; {waiting} wait for a person; results in {shown}\n",
            ids.len()
        ));
        common::print(&crate::render::excerpt::terminal_safe(&out, true))?;
    }
    Ok(if findings || !what.contradicted.is_empty() {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}
