//! `auditbook collect --portfolio FILE [--shard I/N] [--run RUN] [--since RUN…]`: many
//! servers' evidence (the fleet). This run's share of the portfolio (`fleet::shard`) is probed
//! at most `--jobs` at a time and at most `--per-host` per host, under a global request rate;
//! each server's results go to `--results-dir` and one JSON line per server is appended to the
//! run file as it finishes, so a run that stops resumes where it was. A server whose
//! definitions, artifact and catalogue are unchanged since an earlier run (`--since`) keeps its
//! results after a light look (its listings, nothing more) unless `--force`. Remote servers get
//! no tool call unless `--call-tools` asks. The report counts every server in one bucket
//! (`fleet::report`); `auditbook merge` makes the same report from the shards' run files.

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use super::probe::read_existing;
use crate::confine::plain_file_name;
use crate::diag::{codes, SourceMap};
use crate::evidence::merge;
use crate::evidence::probe;
use crate::evidence::probe::calls::CallPolicy;
use crate::evidence::probe::client::Target;
use crate::evidence::probe::observe::{Observation, Options, Reach};
use crate::fleet::bucket::Bucket;
use crate::fleet::polite::{host_of, OptOut};
use crate::fleet::report::{Report, SKIPPED};
use crate::fleet::run::{self, Header, Line, Runs};
use crate::fleet::shard::Shard;
use crate::load::portfolio::{self, Portfolio, ServerEntry};
use clap::Args;
use futures::stream::StreamExt;
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args, Debug, Clone, Default)]
pub struct FleetArgs {
    /// Collect every server of a portfolio file instead of one profile
    #[arg(long, value_name = "FILE")]
    pub portfolio: Option<PathBuf>,
    /// This run's share of the portfolio: the servers whose stable hash of the name falls in
    /// shard I of N
    #[arg(long, value_name = "I/N", requires = "portfolio")]
    pub shard: Option<String>,
    /// The run file: one JSON line per server is appended as it finishes (a stopped run resumes
    /// from it)
    #[arg(
        long = "run",
        value_name = "FILE",
        default_value = "fleet-run.jsonl",
        requires = "portfolio"
    )]
    pub run_file: PathBuf,
    /// Where the per-server results files go (NAME.results.yaml); created when missing
    #[arg(
        long = "results-dir",
        value_name = "DIR",
        default_value = "fleet-results",
        requires = "portfolio"
    )]
    pub results_dir: PathBuf,
    /// Run files of an earlier run: a server whose definitions, artifact and catalogue are
    /// unchanged keeps its results without a full probe
    #[arg(long, value_name = "RUN", requires = "portfolio")]
    pub since: Vec<PathBuf>,
    /// Probe every server of the share again: reuse nothing, resume nothing
    #[arg(long, requires = "portfolio")]
    pub force: bool,
    /// With --since: a server contacted less than this long ago (e.g. 90m, 24h, 7d) whose entry and
    /// catalogue are unchanged keeps its earlier line without being contacted at all — an
    /// unreachable or hung one is not retried either; the report counts them
    #[arg(long = "fresh-for", value_name = "DURATION", value_parser = parse_duration, requires = "since")]
    pub fresh_for: Option<Duration>,
    /// How many servers are probed at the same time
    #[arg(long, value_name = "N", default_value_t = 16, requires = "portfolio")]
    pub jobs: usize,
    /// How many servers of one host are probed at the same time
    #[arg(
        long = "per-host",
        value_name = "N",
        default_value_t = 2,
        requires = "portfolio"
    )]
    pub per_host: usize,
    /// At most this many HTTP requests a second over the whole run (0: no limit)
    #[arg(long, value_name = "N", default_value_t = 20, requires = "portfolio")]
    pub rate: u32,
    /// Time-out for the whole probe of one server, in milliseconds
    #[arg(
        long = "server-timeout-ms",
        value_name = "MS",
        default_value_t = 60_000,
        requires = "portfolio"
    )]
    pub server_timeout_ms: u64,
    /// Servers that asked not to be probed: one host, URL prefix or server name a line
    #[arg(long = "opt-out", value_name = "FILE", requires = "portfolio")]
    pub opt_out: Option<PathBuf>,
    /// Give a verdict even when some declared servers have no evidence (the report says so)
    #[arg(long, requires = "portfolio")]
    pub partial: bool,
    /// Also write the "state of" summary (counts only, no server named) to FILE: HTML with
    /// pictures when FILE ends in `.html`, else Markdown
    #[arg(long = "state-of", value_name = "FILE", requires = "portfolio")]
    pub state_of: Option<PathBuf>,
}

/// What the run knows before the first server: shared by every server's task.
struct Shared<'a> {
    cat: &'a crate::model::Catalogue,
    portfolio: &'a Portfolio,
    prepared: crate::audit::applicability::Prepared<'a>,
    opts: Options,
    /// `--call-tools` was given: remote servers get the same call policy as local ones.
    calls_asked: bool,
    server_timeout: Duration,
    dir: PathBuf,
    catalogue: String,
    overwrite: bool,
    opt_out: OptOut,
    /// Servers of earlier runs (`--since`), by name.
    before: BTreeMap<String, Line>,
    force: bool,
    /// `--fresh-for`, and the run's start in Unix seconds it is measured from.
    fresh_for: Option<Duration>,
    now: u64,
    hosts: HashMap<String, Arc<tokio::sync::Semaphore>>,
}

/// The digest of what an entry says the server is: its version and its target.
fn artifact_of(s: &ServerEntry) -> String {
    let target = match &s.target {
        Some(portfolio::ServerTarget::Url(u)) => format!("url {u}"),
        Some(portfolio::ServerTarget::Stdio(c)) => format!("stdio {c}"),
        None => "none".into(),
    };
    let text = format!(
        "version {}\ntarget {target}",
        s.version.as_deref().unwrap_or("")
    );
    format!("sha256:{}", crate::text::digest::sha256(text.as_bytes()))
}

/// `90s`, `30m`, `24h`, `7d`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{text}` is no duration: write a number and s, m, h or d (24h)"))?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "`{text}` is no duration: the unit is s, m, h or d (24h)"
            ))
        }
    };
    Ok(Duration::from_secs(n.saturating_mul(secs)))
}

fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The longest line of a run file that is read (one server's line with its results).
const RUN_LINE_BYTES: usize = 64 << 20;
/// A run file up to this size is also kept whole, for the excerpts of its findings.
const RUN_EXCERPT_BYTES: u64 = 4 << 20;

/// Read run files into one `Runs`, a line at a time, so a fleet's run file of any size is read
/// whole and never held whole; an unreadable file is the engine's failure.
pub fn read_runs(paths: &[PathBuf]) -> Result<Runs, Failure> {
    use std::io::{BufRead, Read};
    let mut runs = Runs::default();
    for p in paths {
        let shown = inputs::shown(p);
        let cannot = || format!("cannot read the run file `{shown}`");
        let meta = std::fs::metadata(p).map_err(Failure::io(cannot()))?;
        if !meta.is_file() {
            return Err(Failure::Message(format!(
                "{}: not a regular file",
                cannot()
            )));
        }
        if meta.len() <= RUN_EXCERPT_BYTES {
            let bytes = crate::load::text::read_limited(p).map_err(Failure::io(cannot()))?;
            run::read_text(&shown, &String::from_utf8_lossy(&bytes), &mut runs);
            continue;
        }
        let file = crate::load::text::open_regular(p).map_err(Failure::io(cannot()))?;
        let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
        let mut reading = run::Reading::new(&shown, &mut runs);
        let mut buf = Vec::new();
        let mut n = 0;
        loop {
            buf.clear();
            let got = (&mut reader)
                .take(RUN_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(Failure::io(cannot()))?;
            if got == 0 {
                break;
            }
            n += 1;
            if buf.len() > RUN_LINE_BYTES && buf.last() != Some(&b'\n') {
                reading.too_long(n, RUN_LINE_BYTES);
                // The rest of the long line is passed over.
                loop {
                    let rest = reader.fill_buf().map_err(Failure::io(cannot()))?;
                    if rest.is_empty() {
                        break;
                    }
                    match rest.iter().position(|b| *b == b'\n') {
                        Some(i) => {
                            reader.consume(i + 1);
                            break;
                        }
                        None => {
                            let len = rest.len();
                            reader.consume(len);
                        }
                    }
                }
                continue;
            }
            reading.line(n, &String::from_utf8_lossy(&buf));
        }
        reading.finish();
    }
    Ok(runs)
}

pub fn run(cli: &Cli, args: &super::collect::CollectArgs) -> Result<u8, Failure> {
    let fa = &args.fleet;
    let Some(file) = &fa.portfolio else {
        return Err(Failure::Message("--portfolio FILE is missing".into()));
    };
    let fmt = common::format(cli, args.format);
    let shard = match &fa.shard {
        Some(s) => Shard::parse(s).map_err(Failure::Message)?,
        None => Shard::WHOLE,
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
            "`{shown}` is not a portfolio (no `servers` list); `auditbook registry EXPORT --profile FILE` makes one from registry entries"
        )));
    }
    let digest = data.digest.clone();
    let p = Portfolio::parse(data);
    let mut diags = p.diagnostics.clone();
    diags.extend(p.file.notes.iter().cloned());
    let mut sources = SourceMap::new();
    sources.insert(p.file.shown.clone(), Arc::from(p.file.text.as_str()));

    let dir = fa.results_dir.clone();
    let dir_shown = inputs::shown(&dir);
    if !dir.exists() {
        crate::write::dir(&dir).map_err(Failure::io(format!("cannot create `{dir_shown}`")))?;
    } else if !dir.is_dir() {
        return Err(Failure::Message(format!(
            "--results-dir `{dir_shown}` is not a directory"
        )));
    }
    let opt_out = match &fa.opt_out {
        Some(f) => {
            let bytes = crate::load::text::read_limited(f).map_err(Failure::io(format!(
                "cannot read the opt-out list `{}`",
                inputs::shown(f)
            )))?;
            OptOut::parse(&String::from_utf8_lossy(&bytes))
        }
        None => OptOut::default(),
    };
    let catalogue = crate::snapshot::fingerprints(cat).semantic;
    let mine: Vec<&ServerEntry> = p.servers.iter().filter(|s| shard.holds(&s.name)).collect();
    let mut declared: Vec<String> = mine.iter().map(|s| s.name.clone()).collect();
    declared.sort();
    let header = Header {
        auditbook_run: run::VERSION,
        portfolio: p.file.shown.clone(),
        portfolio_digest: digest,
        catalogue: catalogue.clone(),
        shard,
        declared,
        started: now_unix(),
    };

    // Resume: the servers this run file already holds for the same portfolio, catalogue and
    // shard are done. Anything else (or --force) starts the file anew.
    let run_shown = inputs::shown(&fa.run_file);
    let mut done: Runs = Runs::default();
    if fa.run_file.exists() && !fa.force {
        done = read_runs(std::slice::from_ref(&fa.run_file))?;
        for l in done.lines.values_mut() {
            l.results = None;
        }
    }
    let resumes = done.headers.last().is_some_and(|h| {
        h.portfolio_digest == header.portfolio_digest
            && h.catalogue == header.catalogue
            && h.shard == header.shard
    });
    if resumes {
        crate::write::append(&fa.run_file, &run::line_text(&header))
    } else {
        done = Runs::default();
        crate::write::file(&fa.run_file, &run::line_text(&header))
    }
    .map_err(Failure::io(format!(
        "cannot write the run file `{run_shown}`"
    )))?;

    let before = if fa.force {
        BTreeMap::new()
    } else {
        read_runs(&fa.since)?.lines
    };
    let mut hosts = HashMap::new();
    for s in &mine {
        if let Some(portfolio::ServerTarget::Url(u)) = &s.target {
            if let Some(h) = host_of(u) {
                hosts
                    .entry(h)
                    .or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(fa.per_host.max(1))));
            }
        }
    }
    probe::transport::http::set_rate(fa.rate);
    let shared = Shared {
        cat,
        portfolio: &p,
        prepared: crate::audit::applicability::Prepared::new(cat),
        opts: args.target.options(),
        calls_asked: args.target.call_tools.is_some(),
        server_timeout: Duration::from_millis(fa.server_timeout_ms.max(1)),
        dir,
        catalogue,
        overwrite: args.overwrite,
        opt_out,
        before,
        force: fa.force,
        fresh_for: fa.fresh_for,
        now: now_unix(),
        hosts,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Failure::io("cannot start the probe's runtime"))?;
    let todo: Vec<&ServerEntry> = mine
        .iter()
        .copied()
        .filter(|s| !done.lines.contains_key(&s.name))
        .collect();
    let mut failure = None;
    rt.block_on(async {
        let mut stream = futures::stream::iter(todo.iter())
            .map(|s| one(&shared, s))
            .buffer_unordered(fa.jobs.max(1));
        while let Some(r) = stream.next().await {
            match r {
                Ok(mut line) => {
                    if let Err(e) = crate::write::append(&fa.run_file, &run::line_text(&line)) {
                        failure.get_or_insert(Failure::Message(format!(
                            "cannot write the run file `{run_shown}`: {e}"
                        )));
                    }
                    // The results are in the run file and the results folder; the report
                    // needs none of them, and a fleet's would not fit in memory.
                    line.results = None;
                    done.lines.insert(line.server.clone(), line);
                }
                Err(f) => {
                    failure.get_or_insert(f);
                }
            }
        }
    });
    rt.shutdown_timeout(Duration::from_millis(500));
    if let Some(f) = failure {
        return Err(f);
    }
    done.headers = vec![header];
    crate::diag::normalise(&mut diags);
    inputs::eprint_problems(cli, &diags, &sources);
    let report = Report::of(&done, fa.partial);
    finish(cli, fmt, &report, fa.state_of.as_deref(), &diags)
}

/// Print the report, write the state-of summary, choose the exit code.
pub fn finish(
    cli: &Cli,
    fmt: TextFormat,
    report: &Report,
    state_of: Option<&Path>,
    diags: &[crate::diag::Diagnostic],
) -> Result<u8, Failure> {
    if let Some(f) = state_of {
        let text = if f
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("html"))
        {
            let ctx = crate::render::pictures::state_of(&report.state_of())
                .map_err(Failure::template("cannot hand the summary to the template"))?;
            common::templates(cli)?
                .render("state-of.html.tera", &ctx)
                .map_err(Failure::Message)?
        } else {
            report.state_of_markdown()
        };
        crate::write::file(f, &text)
            .map_err(Failure::io(format!("cannot write `{}`", inputs::shown(f))))?;
    }
    let text = match fmt {
        TextFormat::Json => common::json_text(report)?,
        _ if cli.quiet => String::new(),
        TextFormat::Human => report.human(),
    };
    common::print(&text)?;
    Ok(if report.clean() && !inputs::fails(cli, diags) {
        super::EXIT_OK
    } else {
        super::EXIT_FINDINGS
    })
}

/// The file a server's results go to in the results folder.
pub fn results_name(server: &str) -> String {
    format!("{server}.results.yaml")
}

fn skipped(s: &ServerEntry, artifact: String, catalogue: &str, why: String) -> Line {
    Line {
        server: s.name.clone(),
        bucket: SKIPPED.into(),
        detail: Some(why),
        serves: Vec::new(),
        definitions: None,
        artifact,
        catalogue: catalogue.to_string(),
        results_file: None,
        results: None,
        checks: BTreeMap::new(),
        reused: false,
        uncontacted: false,
        observed: 0,
        ms: 0,
    }
}

/// Probe one server (or look lightly and keep its earlier results) and write its results file.
async fn one(sh: &Shared<'_>, s: &ServerEntry) -> Result<Line, Failure> {
    let started = Instant::now();
    let artifact = artifact_of(s);
    if !plain_file_name(&s.name) {
        return Ok(skipped(
            s,
            artifact,
            &sh.catalogue,
            "the server name is not a plain file name".into(),
        ));
    }
    let url = match &s.target {
        Some(portfolio::ServerTarget::Url(u)) => Some(u.as_str()),
        _ => None,
    };
    if sh.opt_out.refuses(&s.name, url) {
        let mut l = skipped(s, artifact, &sh.catalogue, "on the opt-out list".into());
        l.bucket = Bucket::OptedOut.name().into();
        return Ok(l);
    }
    let Some(t) = &s.target else {
        return Ok(skipped(
            s,
            artifact,
            &sh.catalogue,
            "the portfolio names no `url` or `stdio` for it".into(),
        ));
    };
    let target = match super::probe_portfolio::target_of(t) {
        Ok(t) => t,
        Err(why) => return Ok(skipped(s, artifact, &sh.catalogue, why)),
    };
    // Fresh enough to trust without contact: the entry and the catalogue are unchanged and the
    // server was contacted within --fresh-for. The line keeps its age (`observed`).
    if let (Some(prev), Some(fresh)) = (sh.before.get(&s.name), sh.fresh_for) {
        let age = sh.now.saturating_sub(prev.observed);
        if !sh.force
            && prev.observed > 0
            && age < fresh.as_secs()
            && prev.artifact == artifact
            && prev.catalogue == sh.catalogue
            && prev.bucket != SKIPPED
        {
            if let (Some(r), Some(f)) = (&prev.results, &prev.results_file) {
                write_raw(&sh.dir.join(f), r)?;
            }
            let mut l = prev.clone();
            l.reused = true;
            l.uncontacted = true;
            l.ms = started.elapsed().as_millis() as u64;
            return Ok(l);
        }
    }
    let profile = sh.portfolio.read_profile(s);
    let checked = match crate::audit::portfolio::profile_of(sh.cat, sh.portfolio, s, profile) {
        Ok(c) => c,
        Err(crate::load::data_file::DataError::Unreadable(m)) => {
            return Ok(skipped(s, artifact, &sh.catalogue, m))
        }
        Err(crate::load::data_file::DataError::Invalid { diagnostics, .. }) => {
            return Ok(skipped(
                s,
                artifact,
                &sh.catalogue,
                format!("its profile has {} error(s)", diagnostics.len()),
            ))
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
    // A remote server is someone else's: no tool is called unless --call-tools asked.
    if target.is_http() && !sh.calls_asked {
        opts.calls = CallPolicy::None;
    }
    let (kinds, declared) = probe::plan(sh.cat, &ids);
    opts.wanted = Some(kinds);
    opts.declared = declared;
    let results_file = results_name(&s.name);
    let results_path = match &s.results {
        Some((p, _)) => p.clone(),
        None => sh.dir.join(&results_file),
    };
    let existing = match read_existing(&results_path) {
        Ok(v) => v,
        Err(f) => return Ok(skipped(s, artifact, &sh.catalogue, f.one_line())),
    };
    let _permit = match host_of(url.unwrap_or("")).and_then(|h| sh.hosts.get(&h)) {
        Some(sem) => sem.clone().acquire_owned().await.ok(),
        None => None,
    };
    // Incremental: nothing the results depend on changed since an earlier run.
    if let Some(prev) = sh.before.get(&s.name).filter(|p| {
        !sh.force
            && p.artifact == artifact
            && p.catalogue == sh.catalogue
            && p.definitions.is_some()
            && p.results.is_some()
    }) {
        let mut light = sh.opts.clone();
        light.calls = CallPolicy::None;
        light.wanted = Some(Default::default());
        light.declared = Vec::new();
        light.max_calls = 0;
        let obs = observe_within(sh, &target, &light).await;
        let now = probe::lock::Fingerprint::of(&obs).map(|f| f.definitions);
        if now.is_some() && now == prev.definitions && Bucket::of(&obs).name() == prev.bucket {
            if let Some(r) = &prev.results {
                write_raw(&sh.dir.join(&results_file), r)?;
            }
            let mut l = prev.clone();
            l.reused = true;
            l.uncontacted = false;
            l.observed = now_unix();
            l.ms = started.elapsed().as_millis() as u64;
            return Ok(l);
        }
    }
    let obs = observe_within(sh, &target, &opts).await;
    let lock = sh
        .dir
        .join(format!("{}.{}", s.name, probe::lock::LOCK_FILE));
    let run = probe::assess(sh.cat, &ids, obs, &lock, revision.as_deref());
    let (merged, _) = merge::merge(
        existing,
        &[probe::contribution(&run)],
        Some(run.observation.server_name.as_str()),
        sh.cat.config.version.as_deref(),
        sh.overwrite,
    );
    write_results(&sh.dir.join(&results_file), &merged)?;
    let bucket = Bucket::of(&run.observation);
    let obs = &run.observation;
    Ok(Line {
        server: s.name.clone(),
        bucket: bucket.name().into(),
        detail: obs
            .reach
            .as_ref()
            .filter(|r| !r.reached())
            .map(Reach::describe),
        serves: obs
            .openings
            .iter()
            .filter_map(|o| o.answered.as_ref().ok().cloned())
            .collect(),
        definitions: run.fingerprint.as_ref().map(|f| f.definitions.clone()),
        artifact,
        catalogue: sh.catalogue.clone(),
        results_file: Some(results_file),
        results: serde_json::value::to_raw_value(&merged).ok(),
        checks: run
            .probed
            .iter()
            .map(|p| (p.id.clone(), p.status.to_string()))
            .collect(),
        reused: false,
        uncontacted: false,
        observed: now_unix(),
        ms: started.elapsed().as_millis() as u64,
    })
}

/// Observe within the per-server time-out.
async fn observe_within(sh: &Shared<'_>, target: &Target, opts: &Options) -> Observation {
    match tokio::time::timeout(sh.server_timeout, probe::observe::observe(target, opts)).await {
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
    }
}

/// A results file from the JSON text a run line keeps.
pub fn write_raw(path: &Path, raw: &serde_json::value::RawValue) -> Result<(), Failure> {
    let value: Json = serde_json::from_str(raw.get()).map_err(|e| {
        Failure::Message(format!(
            "the results kept for `{}` are not JSON: {e}",
            inputs::shown(path)
        ))
    })?;
    write_results(path, &value)
}

/// A server's results file, as `probe --portfolio` writes one.
pub fn write_results(path: &Path, value: &Json) -> Result<(), Failure> {
    super::probe_portfolio::write(path, value)
        .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", inputs::shown(path))))
}
