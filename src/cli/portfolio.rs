//! `auditbook portfolio FILE [--results-dir DIR] [--policy P]`

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::PortfolioFormat;
use super::inputs;
use crate::audit::portfolio::{self, Matrix};
use crate::audit::verdict::Verdict;
use crate::diag::codes;
use crate::load::portfolio::Portfolio;
use crate::render::text_table;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PortfolioArgs {
    /// The portfolio file: `servers: [{name, profile, results?, waivers?, repo?, path?, ignore?}]`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Resolve results files against DIR; a server without `results` uses DIR/NAME.results.yaml
    #[arg(long = "results-dir", value_name = "DIR")]
    pub results_dir: Option<PathBuf>,
    /// Which statuses are findings
    #[arg(long, value_enum, default_value_t = inputs::PolicyArg::FailOrPartial)]
    pub policy: inputs::PolicyArg,
    /// The day waivers are judged on, YYYY-MM-DD (default: today, UTC)
    #[arg(long = "as-of", value_name = "DATE")]
    pub as_of: Option<String>,
    /// Output format (default: human); `html` is a page with pictures (no script)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::PortfolioFormat>,
    /// A fleet run's files (`collect --portfolio --run`), for the HTML page's revision support
    /// and trend; repeat once per run, commas join the run files of one run's shards
    #[arg(long = "run", value_name = "FILE[,FILE…]")]
    pub runs: Vec<String>,
}

pub fn run(cli: &Cli, args: &PortfolioArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    if !args.runs.is_empty() && fmt != PortfolioFormat::Html {
        return Err(Failure::Message(
            "--run is read by `--format html` only (the revision support and the trend)".into(),
        ));
    }
    let runs = fleet_runs(cli, &args.runs)?;
    let as_of = inputs::as_of(args.as_of.as_deref())?;
    let session = common::session(cli, crate::session::Needs::REPORT)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let shown = inputs::shown(&args.file);
    let file = match inputs::data(&args.file, &shown, &codes::PORTFOLIO_INVALID)? {
        Ok(f) => f,
        Err(r) => {
            inputs::eprint_problems(cli, &r.diagnostics, &r.sources);
            return Ok(super::EXIT_FINDINGS);
        }
    };
    if !crate::load::portfolio::looks_like(&file.value) {
        return Err(Failure::Message(format!(
            "`{shown}` is not a portfolio (no `servers` list); for one profile use `auditbook audit`"
        )));
    }
    let mut p = Portfolio::parse(file);
    if !cli.quiet {
        super::output::eprint(&other_portfolio(&args.runs, &runs, &p.file.digest));
    }
    if let Some(dir) = &args.results_dir {
        if !dir.is_dir() {
            return Err(Failure::Message(format!(
                "--results-dir `{}` is not a directory",
                inputs::shown(dir)
            )));
        }
        p.use_results_dir(dir, &inputs::shown(dir));
    }
    let (m, diags, sources) = portfolio::matrix(cat, &p, p.read_all(), args.policy.into(), &as_of);
    inputs::eprint_problems(cli, &diags, &sources);
    let text = match fmt {
        PortfolioFormat::Json => common::json_text(&m)?,
        PortfolioFormat::Md => {
            let ctx = tera::Context::from_serialize(&m)
                .map_err(Failure::template("cannot hand the matrix to the template"))?;
            common::templates(cli)?
                .render("portfolio.md.tera", &ctx)
                .map_err(Failure::Message)?
        }
        PortfolioFormat::Html => {
            let figures = crate::fleet::pictures::Figures::of(&m, runs);
            let ctx = crate::render::pictures::portfolio(&m, &figures)
                .map_err(Failure::template("cannot hand the matrix to the template"))?;
            common::templates(cli)?
                .render("portfolio.html.tera", &ctx)
                .map_err(Failure::Message)?
        }
        PortfolioFormat::Human => human(&m),
    };
    common::print(&text)?;
    let all_ready = m
        .servers
        .iter()
        .all(|s| s.verdict == Verdict::ProductionReady);
    Ok(if all_ready && !inputs::fails(cli, &diags) {
        super::EXIT_OK
    } else {
        super::EXIT_FINDINGS
    })
}

/// The fleet runs `--run` names, each read as `merge` reads its run files; their findings
/// (`AB513`) are printed.
fn fleet_runs(cli: &Cli, given: &[String]) -> Result<Vec<crate::fleet::pictures::Run>, Failure> {
    let mut out = Vec::new();
    for g in given {
        let paths: Vec<PathBuf> = g
            .split(',')
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .collect();
        let mut runs = super::collect_fleet::read_runs(&paths)?;
        crate::diag::normalise(&mut runs.diagnostics);
        inputs::eprint_problems(cli, &runs.diagnostics, &runs.sources);
        let Some(started) = runs.headers.iter().map(|h| h.started).min() else {
            return Err(Failure::Message(format!(
                "--run `{g}` holds no run header; it is not a fleet run"
            )));
        };
        out.push(crate::fleet::pictures::Run { started, runs });
    }
    Ok(out)
}

/// A note for every run given whose run files were written for another version of the
/// portfolio (its digest differs): its servers are still matched by name.
fn other_portfolio(given: &[String], runs: &[crate::fleet::pictures::Run], digest: &str) -> String {
    given
        .iter()
        .zip(runs)
        .filter(|(_, r)| r.runs.headers.iter().any(|h| h.portfolio_digest != digest))
        .map(|(g, _)| {
            format!(
                "note: --run `{g}` was collected from another version of the portfolio; its servers are matched by name\n"
            )
        })
        .collect()
}

fn human(m: &Matrix) -> String {
    let mut header: Vec<String> = vec![
        "server".into(),
        "verdict".into(),
        "score".into(),
        "scored".into(),
        "applicable".into(),
    ];
    header.extend(m.severities.iter().cloned());
    header.extend([
        "advisory".into(),
        "missing/todo".into(),
        "not_verified".into(),
    ]);
    let rows: Vec<Vec<String>> = m
        .servers
        .iter()
        .map(|s| {
            let mut r = vec![
                s.name.clone(),
                s.verdict.as_str().to_string(),
                s.score.map(|x| x.to_string()).unwrap_or_else(|| "—".into()),
                format!("{}%", s.scored_share),
                format!("{}/{}", s.applicable, s.total),
            ];
            r.extend(s.findings.values().map(|n| n.to_string()));
            r.extend([
                s.advisory_findings.to_string(),
                s.missing.to_string(),
                s.not_verified.to_string(),
            ]);
            r
        })
        .collect();
    let h: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
    let mut out = format!("Portfolio `{}` (policy {})\n\n", m.portfolio, m.policy);
    out.push_str(&text_table::render(&h, &rows));
    out.push_str("\nApplicable checks by category:\n\n");
    let mut header: Vec<&str> = vec!["server"];
    header.extend(m.categories.iter().map(|c| c.prefix.as_str()));
    let rows: Vec<Vec<String>> = m
        .servers
        .iter()
        .map(|s| {
            let mut r = vec![s.name.clone()];
            r.extend(s.by_category.iter().map(|n| n.to_string()));
            r
        })
        .collect();
    out.push_str(&text_table::render(&header, &rows));
    let verdicts: Vec<String> = m.verdicts.iter().map(|(v, n)| format!("{n} {v}")).collect();
    out.push_str(&format!(
        "\n{} server(s): {}\n",
        m.servers.len(),
        verdicts.join(", ")
    ));
    for s in &m.servers {
        if !s.blocking.is_empty() {
            out.push_str(&format!(
                "  {}: blocking {}\n",
                s.name,
                s.blocking.join(", ")
            ));
        }
        for r in &s.incomplete {
            out.push_str(&format!("  {}: {r}\n", s.name));
        }
    }
    if m.any_source {
        out.push_str("\nSources:\n");
        for s in m.servers.iter().filter(|s| !s.source.is_empty()) {
            out.push_str(&format!("  {}: {}\n", s.name, source_line(&s.source)));
        }
    }
    out
}

/// `https://…/repo, path sub, ignoring examples, tests/fixtures/*`
pub fn source_line(s: &crate::load::portfolio::ServerSource) -> String {
    let mut parts = Vec::new();
    if let Some(r) = &s.repo {
        parts.push(r.clone());
    }
    if let Some(p) = &s.path {
        parts.push(format!("path {p}"));
    }
    if !s.ignore.is_empty() {
        parts.push(format!("ignoring {}", s.ignore.join(", ")));
    }
    parts.join(", ")
}
