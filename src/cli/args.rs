//! Argument definitions (clap derive). Help texts carry an example per command.

use super::formats::{
    DiagnosticsFormat, GraphFormat, JsonFormat, ListFormat, MarkdownFormat, TextFormat,
};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "auditbook",
    version,
    about = "Load, lint, render and verify Markdown audit catalogues",
    long_about = "auditbook reads an audit catalogue (checks/*.md with YAML frontmatter, \
                  rules, catalogue.yaml), finds every inconsistency, renders tables and audit \
                  reports, and verifies that documents still tell the truth about it.",
    after_help = "Exit codes: 0 no errors, 1 errors found (or warnings with --deny warnings), \
                  2 the engine could not do its job (also: output lost to a full disk or a \
                  closed stdout), 141 output went to a pipe that was closed early."
)]
pub struct Cli {
    /// Catalogue root (default: ./catalogue if it exists, else .)
    #[arg(short = 'C', long = "catalogue", global = true, value_name = "DIR")]
    pub catalogue: Option<PathBuf>,
    /// Output format given before the command name; each command's help lists its own values
    #[arg(long, value_name = "FORMAT", hide = true)]
    pub format: Option<String>,
    /// Colour in human output (NO_COLOR is honoured by auto)
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print findings only: no notes, no summary line
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Directory of *.tera templates overriding the embedded ones by name
    #[arg(long, global = true, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Treat warnings as errors for the exit code
    #[arg(long, global = true, value_enum, value_name = "WHAT")]
    pub deny: Option<Deny>,
    /// Allow paths written in catalogue.yaml or a portfolio to name files under DIR, outside
    /// the folder they are otherwise confined to (repeatable; configuration cannot do this)
    #[arg(long = "allow-path", global = true, value_name = "DIR")]
    pub allow_path: Vec<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    Warnings,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Load and check the catalogue; print diagnostics.
    ///
    /// Example: auditbook -C catalogue lint --deny warnings --format github
    Lint(LintArgs),
    /// List the checks with their effective frontmatter (defaults applied).
    ///
    /// Example: auditbook list --where 'category == "FID" and adoption == "advisory"' --format csv
    List(ListArgs),
    /// Show one check: fields, sections, outgoing and incoming references.
    ///
    /// Example: auditbook show FID-006
    Show(ShowArgs),
    /// Counts by category, severity, adoption and baseline (every value, zeros included).
    ///
    /// Example: auditbook stats --format json
    Stats(StatsArgs),
    /// A named table (rules-table, category-counts, severity-counts, advisory-list,
    /// check-index, or a project template) as Markdown or JSON.
    ///
    /// Example: auditbook table rules-table base=../checks/ --format md
    Table(TableArgs),
    /// The graph of checks, rules, retired ids and documents as dot, mermaid or json.
    ///
    /// Example: auditbook graph --focus FID-006 --depth 1 --format mermaid
    Graph(GraphArgs),
    /// Create the next check file of a category from a template (never a retired number).
    ///
    /// Example: auditbook new DRIFT --title "Live tests pin the upstream version"
    New(NewArgs),
    /// Retire a check: record it in catalogue.yaml, remove its file, list what still links it.
    ///
    /// Example: auditbook retire DRIFT-007 --date 2026-08-07 --reason "merged" --merged-into FID-006
    Retire(RetireArgs),
    /// Rename a check: its file, every link, mention, table cell and manifest line; records the
    /// old id as replaced by the new one.
    ///
    /// Example: auditbook rename DRIFT-003 FID-008
    Rename(RenameArgs),
    /// A JSON snapshot of the catalogue with byte and semantic fingerprints.
    ///
    /// Example: auditbook snapshot > snapshot-2.3.0.json
    Snapshot(SnapshotArgs),
    /// What changed between two snapshots or catalogue roots, classified for re-audit.
    ///
    /// Example: auditbook diff old-snapshot.json catalogue --format md
    Diff(DiffArgs),
    /// Documents against the catalogue: links, generated regions, declared claims.
    ///
    /// Example: auditbook -C catalogue verify --format github
    ///
    /// Documents in another repository: auditbook verify --claims claims.yaml --catalogue mcp-audit.snapshot.json
    Verify(VerifyArgs),
    /// Rewrite stale generated regions in place (atomically; nothing outside the markers).
    ///
    /// Example: auditbook -C catalogue sync
    ///
    /// Documents in another repository: auditbook sync --claims claims.yaml --catalogue ../catalogue
    Sync(SyncArgs),
    /// Server profiles: `profile check PROFILE` validates one against the catalogue's schema.
    ///
    /// Example: auditbook profile check examples/amtsblatt-readonly.profile.yaml
    #[command(subcommand)]
    Profile(super::profile::ProfileCommand),
    /// Which checks apply to a profile, each with its reason; with a second profile, which
    /// checks change and why.
    ///
    /// Example: auditbook applicability examples/amtsblatt-readonly.profile.yaml --diff examples/cloud-http-apikey.profile.yaml
    Applicability(super::applicability::ApplicabilityArgs),
    /// The audit report (md, json, html) with verdict and score; exit 1 unless production-ready.
    ///
    /// Example: auditbook audit examples/amtsblatt-readonly.profile.yaml --results examples/amtsblatt-readonly.results.yaml --out report.md
    Audit(super::audit::AuditArgs),
    /// Probe a live MCP server for the checks that declare `probe:`; write a results file.
    ///
    /// Example: auditbook probe server.profile.yaml --stdio 'node server.js' --results probe.results.yaml
    Probe(super::probe::ProbeArgs),
    /// Scan a server's source tree with the checks' structural rules and file facts; write a
    /// results file (`source: scan`): every finding with file, line, column and the code.
    ///
    /// Example: auditbook -C catalogue scan server.profile.yaml --source ../my-server --results scan.results.yaml
    Scan(super::scan::ScanArgs),
    /// Decide a scan's signal: real, or a false positive (with a reason, optionally until a
    /// day), kept in the results file by the fingerprint of the matched code.
    ///
    /// Example: auditbook triage IDENT-002 '#3f9a0c1b2d4e' --false-positive --reason "test fixture" --results scan.results.yaml
    Triage(super::scan::TriageArgs),
    /// Gather every machine's evidence about one server into one results file: its published
    /// package installed and read (artifact facts), its source scanned, the installed server
    /// started sandboxed and probed (or --stdio / --url), merged with a person's results.
    ///
    /// Example: auditbook collect examples/amtsblatt-readonly.profile.yaml --package pypi:amtsblatt-mcp
    Collect(Box<super::collect::CollectArgs>),
    /// Combine the run files of a fleet's shards into one report (byte for byte the report of
    /// the unsharded run), and optionally every server's results file.
    ///
    /// Example: auditbook merge shard-1.jsonl shard-2.jsonl shard-3.jsonl shard-4.jsonl --results-dir fleet-results
    Merge(super::merge::MergeArgs),
    /// MCP registry entries (server.json files, a registry list answer, or a folder of them)
    /// as a portfolio for `collect --portfolio`.
    ///
    /// Example: auditbook registry registry-export/ --profile remote.profile.yaml --out fleet.yaml
    Registry(super::registry::RegistryArgs),
    /// The catching proxy a started server's upstream requests go to (run by `collect`, inside
    /// the server's sandbox): each request recorded and answered 502.
    #[command(hide = true)]
    CatchProxy(super::collect::CatchProxyArgs),
    /// Many servers in one matrix of servers × categories, with verdicts and scores.
    ///
    /// Example: auditbook portfolio examples/portfolio.yaml --format md
    Portfolio(super::portfolio::PortfolioArgs),
    /// JSON Schema of an input (check frontmatter, profile, results, catalogue.yaml), for editors.
    ///
    /// Example: auditbook -C catalogue schema check > .vscode/check.schema.json
    Schema(super::schema::SchemaArgs),
    /// A static HTML catalogue: filterable index, one page per check and retired id, rule table.
    ///
    /// Example: auditbook -C catalogue site --out public
    Site(super::site::SiteArgs),
    /// A language server over stdio for editors: diagnostics as you type, hover, go to
    /// definition, references, completion, rename and quick fixes for check ids.
    ///
    /// Example: auditbook lsp   (started by the editor; see the README's editor set-up)
    Lsp,
    /// The catalogue and the audit as an MCP server, over stdio (or Streamable HTTP on
    /// loopback with --listen): tools to search checks, decide applicability, record results
    /// and build the report, each check as a resource, and a prompt that walks an audit.
    ///
    /// Example: auditbook -C catalogue mcp --root audits   (started by the MCP client)
    Mcp(McpArgs),
    /// Shell completions for bash, zsh or fish, printed to stdout.
    ///
    /// Example: auditbook completions bash > /etc/bash_completion.d/auditbook
    Completions(super::completions::CompletionsArgs),
    /// Start a catalogue: a starter that lints clean in an empty folder, or (--from-existing)
    /// a catalogue.yaml inferred from the checks of a catalogue that has none. Never overwrites.
    ///
    /// Example: auditbook -C path/to/german-catalogue init --from-existing --dry-run
    Init(InitArgs),
    /// Run the catalogue's own tests (tests/*.yaml under its root): which checks must and must
    /// not apply to a profile, the verdict and score of example results, the claims a document
    /// must pass; a failure shows the diff.
    ///
    /// Example: auditbook -C catalogue test
    Test(TestArgs),
    /// The manual page (roff), printed to stdout.
    ///
    /// Example: auditbook man > auditbook.1 && man ./auditbook.1
    Man,
    /// One diagnostic code at length: what it means, since when, an example that produces
    /// it and one that does not.
    ///
    /// Example: auditbook explain AB212   (or: auditbook explain link-to-retired-check)
    Explain(ExplainArgs),
}

#[derive(Args, Debug)]
pub struct McpArgs {
    /// The folder the writing tools may write in (default: the current folder)
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Offer the writing tools record_result and record_triage (phase 3), confined to --root;
    /// without it every tool is read-only (phase 1)
    #[arg(long = "allow-write")]
    pub allow_write: bool,
    /// Serve Streamable HTTP at this loopback address (127.0.0.1:PORT or [::1]:PORT) instead of stdio
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Offer the probe_target tool, for these targets only (a server command line or an http(s) URL)
    #[arg(long = "allow-probe", value_name = "TARGET", num_args = 1..)]
    pub allow_probe: Vec<String>,
}

#[derive(Args, Debug)]
pub struct TableArgs {
    /// rules-table, category-counts, severity-counts, advisory-list, check-index, or a template name
    pub name: String,
    /// KEY=VALUE arguments: category=FID, where=EXPR, base=LINK-PREFIX
    pub args: Vec<String>,
    /// Output format (default: md)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<MarkdownFormat>,
}

#[derive(Args, Debug)]
pub struct GraphArgs {
    /// Show only the neighbourhood of this check, rule, retired id or document
    #[arg(long)]
    pub focus: Option<String>,
    /// How many steps around --focus
    #[arg(long, default_value_t = 1)]
    pub depth: usize,
    /// Output format (default: dot)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<GraphFormat>,
}

#[derive(Args, Debug)]
pub struct NewArgs {
    /// The category prefix (e.g. DRIFT)
    pub category: String,
    /// The new check's title
    #[arg(long)]
    pub title: String,
    /// Severity of the new check
    #[arg(long, default_value = "medium")]
    pub severity: String,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug)]
pub struct RetireArgs {
    /// The check to retire
    pub id: String,
    /// Retirement date, YYYY-MM-DD
    #[arg(long)]
    pub date: String,
    /// Why the check is retired
    #[arg(long)]
    pub reason: String,
    /// The check that absorbs this one
    #[arg(long = "merged-into", value_name = "ID")]
    pub merged_into: Option<String>,
    /// The check that replaces this one
    #[arg(
        long = "replaced-by",
        value_name = "ID",
        conflicts_with = "merged_into"
    )]
    pub replaced_by: Option<String>,
    /// Also move every link to the id onto the successor (mentions in prose stay, listed)
    #[arg(long)]
    pub rewrite: bool,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug)]
pub struct RenameArgs {
    /// The check to rename
    pub old: String,
    /// Its new id
    pub new: String,
    /// The date recorded for the old id, YYYY-MM-DD (default: today)
    #[arg(long)]
    pub date: Option<String>,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The older snapshot (json) or catalogue root
    pub old: PathBuf,
    /// The newer snapshot (json) or catalogue root
    pub new: PathBuf,
    /// Output format (default: md)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<MarkdownFormat>,
}

#[derive(Args, Debug)]
pub struct LintArgs {
    /// Also verify the documents (regions, claims, links) in the same run, as `verify` does:
    /// one process for a pre-commit hook
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub fixing: FixArgs,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<DiagnosticsFormat>,
}

/// Fixing findings in place (`lint` and `verify`).
#[derive(Args, Debug, Default, Clone)]
pub struct FixArgs {
    /// Apply the safe fixes (retired links, stale regions, manifest, key case, quoting), all
    /// files at once or none, then lint again and report what remains
    #[arg(long)]
    pub fix: bool,
    /// Also apply unsafe fixes (stub sections, stale numbers in prose); implies --fix
    #[arg(long = "unsafe-fixes")]
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff instead of writing them
    #[arg(long)]
    pub diff: bool,
}

impl FixArgs {
    pub fn wanted(&self) -> bool {
        self.fix || self.unsafe_fixes || self.diff
    }
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Keep the checks this expression (over check fields) selects
    #[arg(long = "where", value_name = "EXPR")]
    pub filter: Option<String>,
    /// Output format (default: table)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<ListFormat>,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The check id
    pub id: String,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug, Default)]
pub struct VerifyArgs {
    /// Verify the documents a claims file declares (docs, claims, rules.tables, links), in
    /// the repository that holds it, against --catalogue DIR-OR-SNAPSHOT
    #[arg(long, value_name = "FILE")]
    pub claims: Option<PathBuf>,
    /// An audit report (`audit --format json`) that `audit.` claims of --claims are held to
    #[arg(long, value_name = "FILE", requires = "claims")]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub fix: FixArgs,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<DiagnosticsFormat>,
}

#[derive(Args, Debug, Default)]
pub struct SyncArgs {
    /// Rewrite the generated regions of the documents a claims file declares, from
    /// --catalogue DIR-OR-SNAPSHOT
    #[arg(long, value_name = "FILE")]
    pub claims: Option<PathBuf>,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The code (AB212) or its name (link-to-retired-check)
    pub code: String,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug)]
pub struct InitArgs {
    /// Infer catalogue.yaml from the check files already in the folder
    #[arg(long = "from-existing")]
    pub from_existing: bool,
    /// Print what would be written instead of writing it
    #[arg(long = "dry-run")]
    pub dry_run: bool,
    /// The catalogue's name (default: the folder's name)
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Args, Debug, Default)]
pub struct StatsArgs {
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}

#[derive(Args, Debug, Default)]
pub struct SnapshotArgs {
    /// Output format (default: json)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<JsonFormat>,
}

#[derive(Args, Debug, Default)]
pub struct TestArgs {
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<TextFormat>,
}
