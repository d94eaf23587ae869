//! Argument definitions (clap derive). Help texts carry an example per command.

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
                  2 the engine could not do its job."
)]
pub struct Cli {
    /// Catalogue root (default: ./catalogue if it exists, else .)
    #[arg(short = 'C', long = "catalogue", global = true, value_name = "DIR")]
    pub catalogue: Option<PathBuf>,
    /// Output format: human, json, github, sarif (lint); table, json, csv (list); human, json
    #[arg(long, global = true, value_name = "FORMAT")]
    pub format: Option<String>,
    /// Colour in human output (NO_COLOR is honoured by auto)
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print findings only: no notes, no summary line
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Treat warnings as errors for the exit code
    #[arg(long, global = true, value_enum, value_name = "WHAT")]
    pub deny: Option<Deny>,
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
    Lint,
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
    Stats,
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Keep the checks this expression (over check fields) selects
    #[arg(long = "where", value_name = "EXPR")]
    pub filter: Option<String>,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The check id
    pub id: String,
}
