//! `auditbook probe --portfolio FILE`: probe every server of a portfolio that names a `url` or
//! `stdio`, at most `--jobs` at a time, each within `--server-timeout-ms`; write one results
//! file per server (`DIR/NAME.results.yaml`, or the file name its `results:` gives, where
//! `portfolio --results-dir DIR` finds it) and print a summary that counts outcomes per probe
//! kind. The portfolio's paths are confined as `portfolio` confines them, and a server name
//! becomes a file name only when it is a plain one.

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use super::probe::{read_existing, ProbeArgs};
use crate::confine::{plain_file_name, shown_path};
use crate::diag::{codes, Diagnostic, SourceMap};
use crate::evidence::merge;
use crate::evidence::probe;
use crate::evidence::probe::client::Target;
use crate::evidence::probe::observe::{Observation, Reach};
use crate::evidence::probe::summary::Summary;
use crate::load::portfolio::{self, Portfolio, ServerEntry, ServerTarget};
use clap::Args;
use futures::stream::StreamExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug, Clone)]
pub struct PortfolioProbeArgs {
    /// Probe every server of a portfolio that names `url` or `stdio`
    #[arg(long, value_name = "FILE", conflicts_with_all = ["profile", "server", "stdio", "url", "lock_file", "results"])]
    pub portfolio: Option<PathBuf>,
    /// Where the per-server results (and lock) files go; created when missing
    #[arg(
        long = "results-dir",
        value_name = "DIR",
        default_value = "probe-results",
        requires = "portfolio"
    )]
    pub results_dir: PathBuf,
    /// How many servers are probed at the same time
    #[arg(long, value_name = "N", default_value_t = 8, requires = "portfolio")]
    pub jobs: usize,
    /// Time-out for the whole probe of one server, in milliseconds
    #[arg(
        long = "server-timeout-ms",
        value_name = "MS",
        default_value_t = 60_000,
        requires = "portfolio"
    )]
    pub server_timeout_ms: u64,
    /// Name each server in the summary (by default only counts are shown)
    #[arg(long = "name-servers", requires = "portfolio")]
    pub name_servers: bool,
}

/// What became of one server.
enum Done {
    Probed {
        name: String,
        run: Box<probe::Run>,
        results: String,
    },
    Skipped {
        name: String,
        why: String,
        diagnostics: Vec<Diagnostic>,
        sources: SourceMap,
    },
    /// The results file could not be written: the run cannot do its job.
    Failed(Failure),
}

struct Shared<'a> {
    cat: &'a crate::model::Catalogue,
    portfolio: &'a Portfolio,
    prepared: crate::audit::applicability::Prepared<'a>,
    opts: crate::evidence::probe::observe::Options,
    server_timeout: Duration,
    dir: PathBuf,
    dir_shown: String,
    overwrite: bool,
    lock: bool,
}

pub fn run(cli: &Cli, args: &ProbeArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let pa = &args.portfolio;
    let Some(file) = &pa.portfolio else {
        return Err(Failure::Message("--portfolio FILE is missing".into()));
    };
    let session = common::session(cli, crate::session::Needs::REPORT)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let shown = inputs::shown(file);
    let data = match inputs::data(file, &shown, &codes::PORTFOLIO_INVALID)? {
        Ok(f) => f,
        Err(r) => {
            inputs::eprint_problems(cli, &r.diagnostics, &r.sources);
            return Ok(super::EXIT_FINDINGS);
        }
    };
    if !portfolio::looks_like(&data.value) {
        return Err(Failure::Message(format!(
            "`{shown}` is not a portfolio (no `servers` list); for one server use `probe PROFILE --url|--stdio`"
        )));
    }
    let mut p = Portfolio::parse(data);
    let dir = pa.results_dir.clone();
    let dir_shown = inputs::shown(&dir);
    if !dir.exists() {
        crate::write::dir(&dir).map_err(Failure::io(format!("cannot create `{dir_shown}`")))?;
    } else if !dir.is_dir() {
        return Err(Failure::Message(format!(
            "--results-dir `{dir_shown}` is not a directory"
        )));
    }
    // The results each server already has, found as `portfolio --results-dir` finds them (a
    // name that is not a plain file name is refused there, with its finding).
    p.use_results_dir(&dir, &dir_shown);
    let mut diags = p.diagnostics.clone();
    diags.extend(p.file.notes.iter().cloned());
    let mut sources = SourceMap::new();
    sources.insert(p.file.shown.clone(), Arc::from(p.file.text.as_str()));

    let shared = Shared {
        cat,
        portfolio: &p,
        prepared: crate::audit::applicability::Prepared::new(cat),
        opts: args.target.options(),
        server_timeout: Duration::from_millis(pa.server_timeout_ms.max(1)),
        dir,
        dir_shown,
        overwrite: args.overwrite,
        lock: args.lock,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Failure::io("cannot start the probe's runtime"))?;
    let mut summary = Summary::new(&p.file.shown, pa.name_servers);
    let mut failure = None;
    rt.block_on(async {
        let mut done = futures::stream::iter(p.servers.iter())
            .map(|s| one(&shared, s))
            .buffer_unordered(pa.jobs.max(1));
        // Each server is counted as it finishes; nothing of its observation is kept.
        while let Some(d) = done.next().await {
            match d {
                Done::Probed { name, run, results } => summary.add(&name, &run, Some(results)),
                Done::Skipped {
                    name,
                    why,
                    diagnostics,
                    sources: read,
                } => {
                    summary.skip(&name, why);
                    diags.extend(diagnostics);
                    sources.extend(read);
                }
                Done::Failed(f) => {
                    if failure.is_none() {
                        failure = Some(f);
                    }
                }
            }
        }
    });
    // Children of stdio servers are ended by tasks on the runtime: give them a moment.
    rt.shutdown_timeout(Duration::from_millis(500));
    if let Some(f) = failure {
        return Err(f);
    }
    summary.finish();
    crate::diag::normalise(&mut diags);
    inputs::eprint_problems(cli, &diags, &sources);
    let text = match fmt {
        TextFormat::Json => common::json_text(&summary)?,
        _ if cli.quiet => String::new(),
        TextFormat::Human => summary.human(),
    };
    common::print(&text)?;
    Ok(if summary.clean() && !inputs::fails(cli, &diags) {
        super::EXIT_OK
    } else {
        super::EXIT_FINDINGS
    })
}

pub(super) fn target_of(t: &ServerTarget) -> Result<Target, String> {
    match t {
        ServerTarget::Stdio(c) => Ok(Target::Stdio(c.clone())),
        ServerTarget::Url(u) if u.starts_with("http://") || u.starts_with("https://") => {
            Ok(Target::Http(u.clone()))
        }
        ServerTarget::Url(u) => Err(format!(
            "`{}` is not an http:// or https:// URL",
            shown_path(u)
        )),
    }
}

fn skipped(s: &ServerEntry, why: String) -> Done {
    Done::Skipped {
        name: s.name.clone(),
        why,
        diagnostics: Vec::new(),
        sources: SourceMap::new(),
    }
}

/// Probe one server and write its results file.
async fn one(sh: &Shared<'_>, s: &ServerEntry) -> Done {
    // A name that is not a plain file name never becomes a path (its finding is already made).
    if !plain_file_name(&s.name) {
        return skipped(s, "the server name is not a plain file name".into());
    }
    let Some(t) = &s.target else {
        return skipped(s, "the portfolio names no `url` or `stdio` for it".into());
    };
    let target = match target_of(t) {
        Ok(t) => t,
        Err(why) => return skipped(s, why),
    };
    let profile = sh.portfolio.read_profile(s);
    let checked = match crate::audit::portfolio::profile_of(sh.cat, sh.portfolio, s, profile) {
        Ok(c) => c,
        Err(crate::load::data_file::DataError::Unreadable(m)) => return skipped(s, m),
        Err(crate::load::data_file::DataError::Invalid {
            diagnostics,
            sources,
        }) => {
            return Done::Skipped {
                name: s.name.clone(),
                why: format!("its profile has {} error(s)", diagnostics.len()),
                diagnostics,
                sources,
            }
        }
    };
    let app = crate::audit::applicability::compute_with(&sh.prepared, &checked.profile);
    let ids: Vec<String> = app
        .entries
        .iter()
        .filter(|e| e.status == crate::audit::applicability::Status::Applies)
        .map(|e| e.id.clone())
        .collect();
    let field = sh.cat.config.baselines().profile_field;
    let revision = match checked.profile.values.get(&field) {
        Some(crate::dsl::Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    let mut opts = sh.opts.clone();
    let (kinds, declared) = probe::plan(sh.cat, &ids);
    opts.wanted = Some(kinds);
    opts.declared = declared;
    let (results, results_shown) = s.results.clone().unwrap_or_else(|| {
        let n = format!("{}.results.yaml", s.name);
        (
            sh.dir.join(&n),
            format!("{}/{n}", sh.dir_shown.trim_end_matches('/')),
        )
    });
    let lock = sh
        .dir
        .join(format!("{}.{}", s.name, probe::lock::LOCK_FILE));
    let existing = match read_existing(&results) {
        Ok(v) => v,
        Err(f) => return skipped(s, f.one_line()),
    };
    let obs = match tokio::time::timeout(sh.server_timeout, probe::observe::observe(&target, &opts))
        .await
    {
        Ok(o) => o,
        Err(_) => Observation {
            target: target.shown(),
            http: target.is_http(),
            reach: Some(Reach::Hung(format!(
                "the probe of this server took longer than {} ms (--server-timeout-ms)",
                sh.server_timeout.as_millis()
            ))),
            ..Observation::default()
        },
    };
    let run = probe::assess(sh.cat, &ids, obs, &lock, revision.as_deref());
    let (merged, _) = merge::merge(
        existing,
        &[probe::contribution(&run)],
        Some(run.observation.server_name.as_str()),
        sh.cat.config.version.as_deref(),
        sh.overwrite,
    );
    if let Err(e) = write(&results, &merged) {
        return Done::Failed(Failure::Message(format!(
            "cannot write `{results_shown}`: {e}"
        )));
    }
    if sh.lock && run.observation.complete() {
        if let Err(e) = crate::write::file(&lock, &probe::lock::lock_text(&run.observation)) {
            return Done::Failed(Failure::Message(format!(
                "cannot write `{}`: {e}",
                inputs::shown(&lock)
            )));
        }
    }
    Done::Probed {
        name: s.name.clone(),
        run: Box::new(run),
        results: results_shown,
    }
}

/// The results file in the syntax its name says (a portfolio may name `NAME.results.json`).
pub(super) fn write(path: &Path, merged: &serde_json::Value) -> std::io::Result<()> {
    let text = if crate::load::data_file::is_json(path) {
        serde_json::to_string_pretty(merged).map_err(std::io::Error::other)? + "\n"
    } else {
        merge::to_yaml(merged)
    };
    // A results file that already says this is left as it is (a fleet re-run rewrites
    // thousands that did not change).
    if crate::load::text::read_limited(path).is_ok_and(|b| b == text.as_bytes()) {
        return Ok(());
    }
    crate::write::file(path, &text)
}
