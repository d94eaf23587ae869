//! Shell completions and the manual page are generated from the argument definitions; every
//! command documents itself with an example.

use crate::common;
use clap::CommandFactory;
use common::{auditbook, success};

fn stdout(args: &[&str]) -> String {
    success(&auditbook().args(args).output().unwrap(), args)
}

fn commands() -> Vec<String> {
    auditbook::cli::Cli::command()
        .get_subcommands()
        // A hidden command is auditbook's own plumbing (`catch-proxy`), not for a person.
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect()
}

#[test]
fn completions_cover_every_command() {
    let names = commands();
    assert!(names.len() >= 17, "{names:?}");
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef auditbook"),
        ("fish", "complete -c auditbook"),
    ] {
        let text = stdout(&["completions", shell]);
        assert!(text.contains(marker), "{shell}: no `{marker}`");
        for n in &names {
            assert!(text.contains(n.as_str()), "{shell} completions lack `{n}`");
        }
    }
    // Value completions for closed choices.
    let bash = stdout(&["completions", "bash"]);
    assert!(bash.contains("check profile results config"));
}

#[test]
fn man_page_documents_every_command_with_an_example() {
    let man = stdout(&["man"]);
    assert!(man.contains(".TH auditbook 1"));
    assert!(man.contains(".SH \"COMMAND DETAILS\""));
    for n in commands() {
        let start = man
            .find(&format!(".SS \"{n}\""))
            .unwrap_or_else(|| panic!("man page has no section for `{n}`"));
        let rest = &man[start + 4..];
        let section = &rest[..rest.find(".SS ").unwrap_or(rest.len())];
        assert!(
            section.contains("Example: auditbook"),
            "`{n}` has no example in the man page"
        );
    }
}

#[test]
fn every_command_help_carries_an_example() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for sub in cmd.get_subcommands().filter(|c| !c.is_hide_set()) {
            let name = format!("{path} {}", sub.get_name());
            let help = sub
                .get_long_about()
                .or(sub.get_about())
                .map(|s| s.to_string())
                .unwrap_or_default();
            // A command with subcommands may carry the example for them.
            if !help.contains("Example: auditbook") && sub.get_subcommands().next().is_none() {
                missing.push(name.clone());
            }
            walk(sub, &name, missing);
        }
    }
    let mut missing = Vec::new();
    walk(&auditbook::cli::Cli::command(), "auditbook", &mut missing);
    assert!(
        missing.is_empty(),
        "commands without an example: {missing:?}"
    );
}
