//! Each command's `--format` is a closed set of its own: help, completions and the manual page
//! list exactly that set, any other value is refused before the command runs, and the spelling
//! with `--format` before the command name keeps working, held to the same set.

use crate::common;
use common::{auditbook, fixture_dir, success};

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = auditbook()
        .arg("-C")
        .arg(fixture_dir("clean"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `[possible values: …]` line of `--format` in a command's short help.
fn formats_in_help(command: &[&str]) -> String {
    let mut args = command.to_vec();
    args.push("-h");
    let help = success(&auditbook().args(&args).output().unwrap(), &args);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("--format"))
        .unwrap_or_else(|| panic!("{command:?}: no --format in\n{help}"));
    let start = line
        .find("[possible values: ")
        .unwrap_or_else(|| panic!("{command:?}: no values in `{line}`"));
    line[start..].to_string()
}

#[test]
fn help_lists_each_commands_own_formats() {
    assert_eq!(
        formats_in_help(&["lint"]),
        "[possible values: human, json, github, sarif, junit]"
    );
    assert_eq!(
        formats_in_help(&["list"]),
        "[possible values: table, json, csv]"
    );
    assert_eq!(
        formats_in_help(&["audit"]),
        "[possible values: md, json, html, sarif, junit]"
    );
    assert_eq!(
        formats_in_help(&["graph"]),
        "[possible values: dot, mermaid, json]"
    );
    assert_eq!(
        formats_in_help(&["profile", "check"]),
        "[possible values: human, json]"
    );
}

#[test]
fn a_command_without_formats_offers_none() {
    let help = success(
        &auditbook().args(["init", "-h"]).output().unwrap(),
        "init -h",
    );
    assert!(!help.contains("--format"), "{help}");
}

#[test]
fn a_format_the_command_lacks_is_refused_with_the_accepted_ones() {
    let (code, stdout, stderr) = run(&["list", "--format", "sarif"]);
    assert_eq!(code, Some(2));
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("invalid value 'sarif' for '--format <FORMAT>'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("[possible values: table, json, csv]"),
        "{stderr}"
    );
    // The same value is one `lint` accepts.
    let (code, stdout, _) = run(&["lint", "--format", "sarif"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("\"version\": \"2.1.0\""), "{stdout}");
}

#[test]
fn format_before_the_command_name_still_works() {
    for (before, after) in [
        (
            vec!["--format", "json", "stats"],
            vec!["stats", "--format", "json"],
        ),
        (
            vec!["--format", "csv", "list"],
            vec!["list", "--format", "csv"],
        ),
        (
            vec!["--format=github", "lint"],
            vec!["lint", "--format=github"],
        ),
    ] {
        let a = run(&before);
        let b = run(&after);
        assert_eq!(a.0, Some(0), "{before:?}: {}", a.2);
        assert_eq!(a, b, "{before:?} and {after:?} differ");
    }
    let (_, default, _) = run(&["stats"]);
    let (_, json, _) = run(&["--format", "json", "stats"]);
    assert_ne!(default, json, "the early --format was ignored");
}

#[test]
fn format_before_the_command_name_is_held_to_the_commands_set() {
    let (code, stdout, stderr) = run(&["--format", "csv", "lint"]);
    assert_eq!(code, Some(2));
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("invalid value 'csv' for '--format <FORMAT>'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("[possible values: human, json, github, sarif, junit]"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["--format", "json", "init", "--dry-run"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("`init` has no output format"), "{stderr}");
}

#[test]
fn completions_offer_each_commands_formats() {
    let bash = success(
        &auditbook().args(["completions", "bash"]).output().unwrap(),
        "completions bash",
    );
    assert!(bash.contains(r#"compgen -W "table json csv""#));
    assert!(bash.contains(r#"compgen -W "md json html sarif junit""#));
    assert!(bash.contains(r#"compgen -W "dot mermaid json""#));
    let zsh = success(
        &auditbook().args(["completions", "zsh"]).output().unwrap(),
        "completions zsh",
    );
    assert!(
        zsh.contains(":FORMAT:(table json csv)"),
        "zsh: list formats"
    );
    let fish = success(
        &auditbook().args(["completions", "fish"]).output().unwrap(),
        "completions fish",
    );
    assert!(fish.contains(r#"using_subcommand list" -l format"#));
}

#[test]
fn the_manual_page_names_each_commands_formats() {
    let man = success(&auditbook().arg("man").output().unwrap(), "man");
    for line in [
        "Output formats of `list --format`: table, json, csv",
        "Output formats of `audit --format`: md, json, html, sarif, junit",
        "Output formats of `profile check --format`: human, json",
        "Output formats of `lint --format`: human, json, github, sarif, junit",
    ] {
        assert!(man.contains(line), "man page lacks `{line}`");
    }
    let init = &man[man.find(".SS \"init\"").unwrap()..];
    let init = &init[..init[4..].find(".SS ").map_or(init.len(), |i| i + 4)];
    assert!(!init.contains("--format"), "{init}");
}
