//! `auditbook completions SHELL` and `auditbook man`: generated from the argument definitions,
//! so they never fall behind the commands.

use super::args::Cli;
use super::common::{self, Failure};
use clap::{Args, CommandFactory, ValueEnum};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(args: &CompletionsArgs) -> Result<u8, Failure> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    match args.shell {
        Shell::Bash => {
            clap_complete::generate(clap_complete::Shell::Bash, &mut cmd, "auditbook", &mut out)
        }
        Shell::Zsh => {
            clap_complete::generate(clap_complete::Shell::Zsh, &mut cmd, "auditbook", &mut out)
        }
        Shell::Fish => {
            clap_complete::generate(clap_complete::Shell::Fish, &mut cmd, "auditbook", &mut out)
        }
    }
    common::print(&String::from_utf8_lossy(&out))?;
    Ok(super::EXIT_OK)
}

/// One roff page: clap_mangen's page for the top level, then a section per subcommand with its
/// usage and its full help (whose doc comment carries an example).
pub fn man() -> Result<u8, Failure> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    out.extend_from_slice(b".SH \"COMMAND DETAILS\"\n");
    cmd.build();
    for sub in cmd.get_subcommands_mut() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        let usage = sub.render_usage().to_string();
        let help = sub
            .get_long_about()
            .or(sub.get_about())
            .map(|t| t.to_string())
            .unwrap_or_default();
        out.extend_from_slice(format!(".SS \"{}\"\n", roff(sub.get_name())).as_bytes());
        out.extend_from_slice(format!(".nf\n{}\n.fi\n", roff(&usage)).as_bytes());
        for para in help.split("\n\n") {
            out.extend_from_slice(format!(".PP\n{}\n", roff(para)).as_bytes());
        }
        let mut formats = Vec::new();
        formats_of(sub, sub.get_name(), &mut formats);
        for (path, values) in formats {
            let line = format!("Output formats of `{path} --format`: {}", values.join(", "));
            out.extend_from_slice(format!(".PP\n{}\n", roff(&line)).as_bytes());
        }
    }
    common::print(&String::from_utf8_lossy(&out))?;
    Ok(super::EXIT_OK)
}

/// The `--format` values of a command and of its subcommands, each with its command path.
fn formats_of(cmd: &clap::Command, path: &str, out: &mut Vec<(String, Vec<String>)>) {
    if let Some(arg) = cmd.get_arguments().find(|a| a.get_id() == "format") {
        let values = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        out.push((path.to_string(), values));
    }
    for sub in cmd.get_subcommands() {
        formats_of(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

/// Text safe in roff: backslashes escaped, no line starting with a control character.
fn roff(text: &str) -> String {
    text.replace('\\', "\\e")
        .lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
