//! `auditbook profile check PROFILE [--server NAME]`

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::inputs;
use clap::{Args, Subcommand};
use serde_json::json;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum ProfileCommand {
    /// Validate a server profile (YAML or JSON) against the catalogue's profile schema:
    /// missing fields, placeholders, wrong types, values outside closed vocabularies,
    /// undeclared fields, derived fields that contradict their source.
    ///
    /// Example: auditbook profile check examples/amtsblatt-readonly.profile.yaml
    Check(ProfileCheckArgs),
}

#[derive(Args, Debug)]
pub struct ProfileCheckArgs {
    /// The profile file, or a portfolio file together with --server
    #[arg(value_name = "PROFILE")]
    pub profile: PathBuf,
    /// The server to take from a portfolio file
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// Output format (default: human)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<super::formats::TextFormat>,
}

pub fn run(cli: &Cli, cmd: &ProfileCommand) -> Result<u8, Failure> {
    let ProfileCommand::Check(args) = cmd;
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::FRONTMATTER)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let shown = inputs::shown(&args.profile);
    let (diags, fields, sources) =
        match inputs::profile(cat, &args.profile, args.server.as_deref())? {
            Ok(c) => {
                let fields: serde_json::Map<String, serde_json::Value> = c
                    .profile
                    .fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let file = c.profile.source.shown.clone();
                let text = c.profile.source.text.as_str();
                let sources = inputs::sources(&[(file.as_str(), text)]);
                (c.diagnostics, Some((file, fields)), sources)
            }
            Err(r) => (r.diagnostics, None, r.sources),
        };
    let file = fields
        .as_ref()
        .map(|(f, _)| f.clone())
        .unwrap_or(shown.clone());
    let out = match fmt {
        TextFormat::Json => {
            let mut extra = serde_json::Map::new();
            extra.insert(
                "profile".into(),
                json!({
                    "file": file,
                    "server": args.server,
                    "fields": fields.as_ref().map(|(_, f)| f.clone()),
                }),
            );
            crate::render::emit::json::document(&diags, extra).map_err(|source| Failure::Json {
                what: "cannot write the profile's findings as JSON".into(),
                source,
            })?
        }
        _ => {
            let mut t = common::human(cli, &diags, &sources, "");
            if !inputs::fails(cli, &diags) && !cli.quiet {
                t.push_str(&format!(
                    "profile `{file}` is valid: {} field(s) checked against the schema of {}\n",
                    fields.as_ref().map(|(_, f)| f.len()).unwrap_or(0),
                    cat.name()
                ));
            }
            t
        }
    };
    common::print(&out)?;
    Ok(if inputs::fails(cli, &diags) {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}
