//! `auditbook scan PROFILE --source DIR [--results FILE] [--overwrite]`: the `scan:` rules of
//! the profile's applicable checks over a source tree, merged into a results file
//! (`source: scan`), and `auditbook triage CHECK FINDING --real|--false-positive --reason …`:
//! a person's decision on a signal, kept in the results file.

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use crate::evidence::merge;
use crate::evidence::scan::{self, tree, triage};
use clap::Args;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ScanArgs {
    /// The profile that decides which checks apply
    #[arg(value_name = "PROFILE")]
    pub profile: PathBuf,
    /// The server's source tree
    #[arg(long, value_name = "DIR")]
    pub source: PathBuf,
    /// Leave out the files whose path below the source matches GLOB (repeatable; e.g. test
    /// fixtures or vendored code that is not the server); the results name the globs
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// The results file to write (merged with what it already holds)
    #[arg(long, value_name = "FILE", default_value = "scan.results.yaml")]
    pub results: PathBuf,
    /// Replace results recorded by a person too
    #[arg(long)]
    pub overwrite: bool,
    /// The day triage decisions with `until` are held to (default: today)
    #[arg(long = "as-of", value_name = "YYYY-MM-DD")]
    pub as_of: Option<String>,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::TextFormat>,
}

#[derive(Args, Debug)]
pub struct TriageArgs {
    /// The check whose signal is decided
    #[arg(value_name = "CHECK")]
    pub check: String,
    /// The finding's fingerprint, as the evidence shows it (`#a1b2c3d4e5f6`)
    #[arg(value_name = "FINDING")]
    pub finding: String,
    /// The signal is a real defect: the check records the rule's status
    #[arg(
        long,
        conflicts_with = "false_positive",
        required_unless_present = "false_positive"
    )]
    pub real: bool,
    /// The signal is not a defect
    #[arg(long = "false-positive")]
    pub false_positive: bool,
    /// Why (kept with the decision)
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    /// The last day the decision holds
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub until: Option<String>,
    /// The results file holding the scan's results
    #[arg(long, value_name = "FILE", default_value = "scan.results.yaml")]
    pub results: PathBuf,
}

/// Scan `dir` for the applicable checks of `checked`; the decisions already recorded in
/// `existing` apply.
pub fn scan_tree(
    cat: &crate::model::Catalogue,
    checked: &crate::audit::profile::Checked,
    dir: &Path,
    exclude: &[String],
    existing: &Json,
    today: &str,
) -> Result<scan::Scan, Failure> {
    let t = tree::read_except(dir, exclude).map_err(Failure::io(format!(
        "cannot read the source tree `{}`",
        inputs::shown(dir)
    )))?;
    let (ids, _) = super::probe::applicable(cat, &checked.profile);
    let decisions = triage::Decisions::of_results(existing);
    Ok(scan::scan(cat, &ids, &t, &decisions, today, None))
}

pub fn run(cli: &Cli, args: &ScanArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::REPORT)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let checked = match inputs::profile(cat, &args.profile, None)? {
        Ok(c) => c,
        Err(r) => {
            inputs::eprint_problems(cli, &r.diagnostics, &r.sources);
            return Ok(super::EXIT_FINDINGS);
        }
    };
    let today = inputs::as_of(args.as_of.as_deref())?;
    let existing = super::probe::read_existing(&args.results)?;
    let s = scan_tree(
        cat,
        &checked,
        &args.source,
        &args.exclude,
        &existing,
        &today,
    )?;
    let (merged, what) = merge::merge(
        existing,
        &[scan::contribution(&s)],
        None,
        cat.config.version.as_deref(),
        args.overwrite,
    );
    let shown = inputs::shown(&args.results);
    crate::write::file(&args.results, &merge::to_yaml(&merged))
        .map_err(Failure::io(format!("cannot write `{shown}`")))?;
    print_kept(&what);
    print(cli, fmt, &s, &shown)?;
    Ok(exit_of(&s))
}

pub fn print_kept(what: &merge::Merged) {
    for id in &what.kept {
        super::output::eprint(&format!(
            "note[{}]: {id}: the result recorded by a person was kept (--overwrite replaces it)\n",
            crate::diag::codes::PROBE_KEPT.code
        ));
    }
}

/// Exit 1 when a check has a finding or a signal waits for triage.
pub fn exit_of(s: &scan::Scan) -> u8 {
    if s.checks
        .iter()
        .any(|c| matches!(c.status, "fail" | "partial" | "todo" | "needs_triage"))
    {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    }
}

fn print(cli: &Cli, fmt: TextFormat, s: &scan::Scan, shown: &str) -> Result<(), Failure> {
    if fmt == TextFormat::Json {
        let v = serde_json::json!({
            "source": s.root,
            "digest": s.digest,
            "files": s.files,
            "languages": s.languages.iter().map(|(l, n)| serde_json::json!({"language": l.as_str(), "files": n})).collect::<Vec<_>>(),
            "skipped": s.skipped,
            "results_file": shown,
            "checks": s.checks,
            "findings": s.findings,
        });
        return common::print(&common::json_text(&v)?);
    }
    let mut out = String::new();
    if !cli.quiet {
        let langs: Vec<String> = s
            .languages
            .iter()
            .map(|(l, n)| format!("{} {n}", l.label()))
            .collect();
        out.push_str(&format!(
            "scanned {} ({} files: {}), {} checks, results in {shown}\n",
            s.root,
            s.files,
            if langs.is_empty() {
                "no source".to_string()
            } else {
                langs.join(", ")
            },
            s.checks.len()
        ));
    }
    for c in &s.checks {
        if cli.quiet && !matches!(c.status, "fail" | "partial" | "todo" | "needs_triage") {
            continue;
        }
        let first = c.evidence.first().map(String::as_str).unwrap_or("");
        out.push_str(&format!("{:<12} {:<8} {first}\n", c.status, c.id));
    }
    common::print(&crate::render::excerpt::terminal_safe(&out, true))
}

pub fn run_triage(cli: &Cli, args: &TriageArgs) -> Result<u8, Failure> {
    let session = common::session(cli, crate::session::Needs::FRONTMATTER)?;
    let cat = &session.loaded().catalogue;
    if cat.check(&args.check).is_none() {
        return Err(Failure::Message(format!(
            "`{}` is not a check of this catalogue",
            crate::evidence::untrusted::value(&args.check)
        )));
    }
    let finding = args.finding.trim_start_matches('#').to_string();
    if finding.len() != 12 || !finding.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(Failure::Message(format!(
            "`{}` is not a finding's fingerprint: the evidence shows it as `#` and twelve hex digits",
            crate::evidence::untrusted::value(&args.finding)
        )));
    }
    if let Some(u) = args
        .until
        .as_deref()
        .filter(|u| !crate::model::date::is_calendar_date(u))
    {
        return Err(Failure::Message(format!(
            "--until `{}` is not a day written YYYY-MM-DD",
            crate::evidence::untrusted::value(u)
        )));
    }
    if args.reason.trim().is_empty() {
        return Err(Failure::Message("--reason must say why".into()));
    }
    let existing = super::probe::read_existing(&args.results)?;
    let decision = triage::Decision {
        check: args.check.clone(),
        finding,
        real: args.real,
        reason: args.reason.trim().to_string(),
        until: args.until.clone(),
        decided: crate::model::date::today(),
    };
    let v = triage::record(existing, &decision);
    let shown = inputs::shown(&args.results);
    crate::write::file(&args.results, &merge::to_yaml(&v))
        .map_err(Failure::io(format!("cannot write `{shown}`")))?;
    if !cli.quiet {
        common::print(&format!(
            "{} #{}: {} recorded in {shown}; the next scan applies it\n",
            decision.check,
            decision.finding,
            if decision.real {
                "real"
            } else {
                "false positive"
            }
        ))?;
    }
    Ok(super::EXIT_OK)
}
