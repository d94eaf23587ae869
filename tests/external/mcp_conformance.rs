//! The official MCP conformance suite's server scenarios (npm `@modelcontextprotocol/conformance`,
//! on the Node.js the npm package `node` provides) against `auditbook mcp --listen`, once for
//! each revision it serves (`--requirements 2025-11-25`, `--requirements 2026-07-28`: exactly the
//! scenarios that revision requires, plus the extensions the suite runs unscored). Every check the
//! suite does not pass — a failure, a warning or a skip — is one the table below names with the
//! reason; an unexplained one fails the test, and so does a reason no run needed any more.
//!
//! Most scenarios drive fixtures of the suite's own reference server (tools such as
//! `test_simple_text`, prompts such as `test_simple_prompt`, resources under `test://`); a server
//! with other tools cannot pass them and the suite says so. What a server must do whatever its
//! tools — the handshakes, stateless requests, header validation, DNS-rebinding protection,
//! caching hints, error shapes — passes.

use crate::common;

use common::probe::{catalogue, free_port, listening};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

const TOOL: &str = "calls a tool of the suite's reference server (`test_*`, `greet`, `slow_compute`, …); auditbook's tools are its catalogue's";
const PROMPT: &str = "gets a prompt of the suite's reference server (`test_*_prompt`); auditbook's one prompt is `audit_server`";
const RESOURCE: &str =
    "reads a `test://` resource of the suite's reference server; auditbook's are `auditbook://`";
const COMPLETION: &str = "auditbook declares no `completions` capability; the suite calls `completion/complete` regardless";
const LOGGING: &str =
    "auditbook declares no `logging` capability, so `logging/setLevel` is not a method it has";
const SUBSCRIBE: &str =
    "auditbook's resources change only with the catalogue on disk; it offers no subscriptions";
const LISTEN: &str = "the suite skips these: auditbook's lists never change while it runs, so it sends no list-changed notifications";
const INPUT: &str = "auditbook's tools never ask the client for input (no elicitation, sampling or roots), so no InputRequiredResult is due; the scenario drives a reference-server tool that does";
const TASKS: &str = "the tasks extension (unscored for the revision): auditbook offers no tasks, every tool call completes in its answer";
const CUSTOM_HEADER: &str = "no auditbook tool declares `x-mcp-header` parameters; the suite reports the requirements as not testable";
const SCHEMA: &str = "looks for the reference server's `json_schema_2020_12_tool`";

/// (scenario, check — `*` for every check of the scenario, why it does not pass).
const EXPECTED: &[(&str, &str, &str)] = &[
    ("completion-complete", "*", COMPLETION),
    ("elicitation-sep1034-defaults", "*", TOOL),
    ("elicitation-sep1330-enums", "*", TOOL),
    ("http-custom-header-server-validation", "*", CUSTOM_HEADER),
    ("input-required-result-basic-elicitation", "*", INPUT),
    ("input-required-result-basic-list-roots", "*", INPUT),
    ("input-required-result-basic-sampling", "*", INPUT),
    ("input-required-result-capability-check", "*", INPUT),
    ("input-required-result-ignore-extra-params", "*", INPUT),
    ("input-required-result-missing-input-response", "*", INPUT),
    ("input-required-result-multi-round", "*", INPUT),
    ("input-required-result-multiple-input-requests", "*", INPUT),
    ("input-required-result-non-tool-request", "*", INPUT),
    ("input-required-result-request-state", "*", INPUT),
    ("input-required-result-result-type", "*", INPUT),
    ("input-required-result-tampered-state", "*", INPUT),
    ("json-schema-2020-12", "*", SCHEMA),
    ("logging-set-level", "*", LOGGING),
    ("prompts-get-embedded-resource", "*", PROMPT),
    ("prompts-get-simple", "*", PROMPT),
    ("prompts-get-with-args", "*", PROMPT),
    ("prompts-get-with-image", "*", PROMPT),
    ("resources-read-binary", "*", RESOURCE),
    ("resources-read-text", "*", RESOURCE),
    ("resources-subscribe", "*", SUBSCRIBE),
    ("resources-templates-read", "*", RESOURCE),
    ("resources-unsubscribe", "*", SUBSCRIBE),
    ("server-sse-polling", "server-sse-disconnect-resume", TOOL),
    (
        "server-stateless",
        "sep-2575-http-server-no-independent-requests-on-stream",
        TOOL,
    ),
    (
        "server-stateless",
        "sep-2575-missing-capability-http-400",
        TOOL,
    ),
    (
        "server-stateless",
        "sep-2575-server-honors-notification-filter",
        LISTEN,
    ),
    (
        "server-stateless",
        "sep-2575-server-no-log-without-loglevel",
        TOOL,
    ),
    (
        "server-stateless",
        "sep-2575-server-rejects-undeclared-capability",
        TOOL,
    ),
    (
        "server-stateless",
        "sep-2575-server-sends-prompts-list-changed-on-subscription",
        LISTEN,
    ),
    (
        "server-stateless",
        "sep-2575-server-sends-subscription-ack",
        LISTEN,
    ),
    (
        "server-stateless",
        "sep-2575-server-sends-tools-list-changed-on-subscription",
        LISTEN,
    ),
    (
        "server-stateless",
        "sep-2575-server-tags-subscription-id",
        LISTEN,
    ),
    ("tasks-capability-negotiation", "*", TASKS),
    ("tasks-dispatch-and-envelope", "*", TASKS),
    ("tasks-lifecycle", "*", TASKS),
    ("tasks-mrtr-composition", "*", TASKS),
    ("tasks-mrtr-input", "*", TASKS),
    ("tasks-request-headers", "*", TASKS),
    ("tasks-request-state-removal", "*", TASKS),
    ("tasks-required-task-error", "*", TASKS),
    ("tasks-status-notifications", "*", TASKS),
    ("tasks-wire-fields", "*", TASKS),
    ("tools-call-audio", "*", TOOL),
    ("tools-call-elicitation", "*", TOOL),
    ("tools-call-embedded-resource", "*", TOOL),
    ("tools-call-error", "*", TOOL),
    ("tools-call-image", "*", TOOL),
    ("tools-call-mixed-content", "*", TOOL),
    ("tools-call-sampling", "*", TOOL),
    ("tools-call-simple-text", "*", TOOL),
    ("tools-call-with-logging", "*", TOOL),
    ("tools-call-with-progress", "*", TOOL),
];

/// Scenarios that hold for any server and must pass whole, in the revisions that run them.
const MUST_PASS: &[&str] = &[
    "caching",
    "dns-rebinding-protection",
    "http-header-validation",
    "ping",
    "prompts-list",
    "resources-list",
    "sep-2164-resource-not-found",
    "server-initialize",
    "server-session-lifecycle",
    "server-sse-multiple-streams",
    "tools-list",
];

/// One check as the suite recorded it.
struct Seen {
    scenario: String,
    check: String,
    status: String,
    message: String,
}

/// The scenario a results folder is for: `server-<scenario>-<timestamp>`.
fn scenario_of(folder: &str) -> String {
    let re = regex::Regex::new(r"-\d{4}-\d{2}-\d{2}T.*$").unwrap();
    // One `server-` prefix only: scenarios have names like `server-initialize` themselves.
    re.replace(folder.strip_prefix("server-").unwrap_or(folder), "")
        .into_owned()
}

/// Run the scenarios `revision` requires against `url`; every check of every scenario.
fn run_suite(revision: &str, url: &str, out: &Path) -> Vec<Seen> {
    common::probe::conformance_suite(url, &["--requirements", revision], out);
    let mut seen = Vec::new();
    for e in std::fs::read_dir(out).unwrap_or_else(|e| panic!("no suite results: {e}")) {
        let dir = e.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(dir.join("checks.json"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let checks: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for c in checks.as_array().unwrap() {
            seen.push(Seen {
                scenario: scenario_of(&name),
                check: c["id"].as_str().unwrap_or("").to_string(),
                status: c["status"].as_str().unwrap_or("").to_string(),
                message: c["errorMessage"].as_str().unwrap_or("").to_string(),
            });
        }
    }
    seen
}

fn passed(status: &str) -> bool {
    matches!(status, "SUCCESS" | "INFO")
}

/// The table's entry for a check, by its index.
fn reason(s: &Seen) -> Option<usize> {
    EXPECTED
        .iter()
        .position(|(sc, ch, _)| *sc == s.scenario && (*ch == "*" || *ch == s.check))
}

#[test]
fn the_conformance_suite_passes_auditbook_mcp_wherever_the_table_gives_no_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("auditbook"));
    cmd.current_dir(tmp.path())
        .arg("-C")
        .arg(catalogue())
        .args(["mcp", "--listen", &format!("127.0.0.1:{port}")]);
    let _server = listening(cmd, port);
    let url = format!("http://127.0.0.1:{port}/mcp");

    let mut used = BTreeSet::new();
    let mut unexplained = Vec::new();
    for revision in ["2025-11-25", "2026-07-28"] {
        let seen = run_suite(revision, &url, &tmp.path().join(revision));
        let scenarios: BTreeSet<&str> = seen.iter().map(|s| s.scenario.as_str()).collect();
        // The revision's own handshake scenario ran: the suite reached the server.
        let handshake = match revision {
            "2025-11-25" => "server-initialize",
            _ => "server-stateless",
        };
        assert!(scenarios.contains(handshake), "{revision}: {scenarios:?}");
        assert!(
            seen.iter().filter(|s| passed(&s.status)).count() >= 40,
            "{revision}: the suite passed too little to have reached the server"
        );
        for s in &seen {
            if passed(&s.status) {
                continue;
            }
            match reason(s) {
                Some(i) => {
                    used.insert(i);
                }
                None => unexplained.push(format!(
                    "{revision} {} / {}: {} {}",
                    s.scenario, s.check, s.status, s.message
                )),
            }
            assert!(
                !MUST_PASS.contains(&s.scenario.as_str()),
                "{revision} {} / {} must pass: {} {}",
                s.scenario,
                s.check,
                s.status,
                s.message
            );
        }
    }
    assert_eq!(
        unexplained,
        Vec::<String>::new(),
        "checks the suite did not pass and the table does not explain"
    );
    let stale: Vec<String> = EXPECTED
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, (sc, ch, why))| format!("{sc} / {ch}: {why}"))
        .collect();
    assert_eq!(
        stale,
        Vec::<String>::new(),
        "reasons no run needed: the suite passes these now, drop them from the table"
    );
}
