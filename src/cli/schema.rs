//! `auditbook schema check|profile|results|config`

use super::args::Cli;
use super::common::{self, Failure};
use crate::json_schema;
use clap::{Args, ValueEnum};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SchemaKind {
    /// The frontmatter of a check file (this catalogue's vocabularies)
    Check,
    /// A server profile (this catalogue's profile.fields)
    Profile,
    /// A results file (this catalogue's check ids)
    Results,
    /// catalogue.yaml
    Config,
}

#[derive(Args, Debug)]
pub struct SchemaArgs {
    /// Which input to describe
    #[arg(value_enum)]
    pub kind: SchemaKind,
    /// Output format (default: json)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::JsonFormat>,
}

pub fn run(cli: &Cli, args: &SchemaArgs) -> Result<u8, Failure> {
    let schema = match args.kind {
        SchemaKind::Config => json_schema::config(),
        kind => {
            let session = common::session(cli, crate::session::Needs::FRONTMATTER)?;
            let loaded = session.loaded();
            common::warn_load_problems(cli, loaded);
            let cat = &loaded.catalogue;
            match kind {
                SchemaKind::Check => json_schema::check(cat),
                SchemaKind::Results => json_schema::results(cat),
                _ => json_schema::profile(cat).ok_or_else(|| {
                    Failure::Message(
                        "the catalogue declares no profile schema (`profile.fields` in \
                         catalogue.yaml), so there is no profile schema to generate"
                            .into(),
                    )
                })?,
            }
        }
    };
    common::print(&json_schema::to_text(&schema))?;
    Ok(super::EXIT_OK)
}
