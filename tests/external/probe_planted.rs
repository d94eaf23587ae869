//! Every probe kind against the scripted server (`tests/servers/scripted_server.py`, standard
//! library Python, serving 2026-07-28 and 2025-11-25): the clean server is not flagged by any
//! probe on either transport, and each planted defect is found by its kind, with the server's
//! own words quoted and the status the check's rules give. Beside them: targets that cannot be
//! reached or are not MCP, servers lost after opening, hostile output, and the trust fixes (no
//! write called, no baseline wiped, no gate passed by a server that is down).

use crate::common;

use common::probe::{free_port, probe_json, profile, run, scripted, scripted_http, Probe};
use std::path::Path;

fn stdio(defects: &str, profile_name: &str, dir: &Path) -> Probe {
    let p = profile(profile_name);
    let cmd = scripted(defects);
    probe_json(&[&p, "--stdio", &cmd, "--results", "r.yaml"], dir, &[])
}

fn http(defects: &str, profile_name: &str, dir: &Path) -> Probe {
    let (_server, url) = scripted_http(defects);
    let p = profile(profile_name);
    probe_json(&[&p, "--url", &url, "--results", "r.yaml"], dir, &[])
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_clean_server_is_clean_on_both_transports() {
    for transport in ["stdio", "http"] {
        let dir = tmp();
        let r = if transport == "stdio" {
            stdio("", "modern.profile.yaml", dir.path())
        } else {
            http("", "modern.profile.yaml", dir.path())
        };
        assert_eq!(r.reach(), "reached", "{transport}: {}", r.stderr);
        assert_eq!(
            r.findings(),
            Vec::<(String, String)>::new(),
            "{transport}: {}",
            r.stdout
        );
        assert_eq!(r.code, Some(0), "{transport}: {}", r.stderr);
        // It serves both revisions, and the probe saw both.
        let serves = r.report["serves"].to_string();
        assert!(
            serves.contains("\"Ok\":\"2026-07-28\"") && serves.contains("\"Ok\":\"2025-11-25\""),
            "{serves}"
        );
        // The stateless checks were observed, not skipped.
        for id in [
            "ARCH-015", "ARCH-016", "ARCH-018", "ARCH-020", "ARCH-021", "HITL-006",
        ] {
            assert!(
                !r.evidence(id).contains("was not observed"),
                "{transport} {id}: {}",
                r.evidence(id)
            );
        }
    }
}

/// (defects, transport, profile, check, status, words the evidence quotes). `todo`: the
/// probe saw the defect but made fewer observations than the check's `evidence_required`,
/// so a person completes the evidence; the audit stays incomplete until then.
const PLANTED: &[(&str, &str, &str, &str, &str, &str)] = &[
    (
        "camel-name",
        "stdio",
        "modern",
        "ARCH-001",
        "fail",
        "`countRecords`: camelCase among snake_case",
    ),
    (
        "pascal-names",
        "stdio",
        "modern",
        "ARCH-001",
        "fail",
        "`SearchRecords`: follows none of",
    ),
    (
        "placeholder-name",
        "stdio",
        "modern",
        "ARCH-001",
        "partial",
        "`tool1`: the name looks like a placeholder",
    ),
    (
        "dotted-name",
        "stdio",
        "modern",
        "ARCH-001",
        "partial",
        "`records.count`: the name contains a dot",
    ),
    (
        "restated-description",
        "stdio",
        "modern",
        "ARCH-001",
        "partial",
        "\"Count records\" only restates the name",
    ),
    (
        "restated-description",
        "stdio",
        "modern",
        "ARCH-002",
        "fail",
        "\"Count records\" only restates",
    ),
    (
        "short-descriptions",
        "stdio",
        "modern",
        "ARCH-002",
        "partial",
        "the median description has 40 characters",
    ),
    (
        "no-annotations",
        "stdio",
        "modern",
        "ARCH-009",
        "fail",
        "`count_records`: no `annotations`",
    ),
    (
        "unset-hint",
        "stdio",
        "modern",
        "ARCH-009",
        "partial",
        "leave `openWorldHint` unset",
    ),
    (
        "mislabelled-write",
        "stdio",
        "modern",
        "ARCH-009",
        "partial",
        "`delete_record`: a write verb (`delete`) with `readOnlyHint: true`",
    ),
    (
        "bad-structured",
        "stdio",
        "modern",
        "ARCH-007",
        "fail",
        "\"many\" is not of type \"integer\"",
    ),
    (
        "bad-structured",
        "http",
        "modern",
        "SDK-002",
        "fail",
        "\"many\" is not of type \"integer\"",
    ),
    (
        "always-errors",
        "stdio",
        "modern",
        "ARCH-007",
        "not_verified",
        "isError result: \"upstream said: internal failure\"",
    ),
    (
        "error-protocol",
        "stdio",
        "modern",
        "OBS-001",
        "fail",
        "JSON-RPC error -32602 (\"invalid arguments: query must be a string\")",
    ),
    (
        "error-unflagged",
        "stdio",
        "modern",
        "OBS-001",
        "fail",
        "not flagged isError: \"no query given\"",
    ),
    (
        "bad-input-schema",
        "stdio",
        "modern",
        "SDK-002",
        "fail",
        "`search_records`: `inputSchema` is not a valid JSON Schema",
    ),
    (
        "network-ref",
        "stdio",
        "modern",
        "SDK-002",
        "fail",
        "refers to `https://schemas.example.org/query.json`",
    ),
    (
        "bad-header-name",
        "http",
        "modern",
        "SEC-027",
        "todo",
        "`x-mcp-header` \"Bad Header\"",
    ),
    (
        "legacy-only",
        "stdio",
        "modern",
        "ARCH-012",
        "fail",
        "legacy only: serves 2025-11-25, not 2026-07-28; the profile targets 2026-07-28",
    ),
    (
        "legacy-only",
        "stdio",
        "unstated",
        "ARCH-012",
        "partial",
        "legacy only",
    ),
    (
        "modern-only",
        "stdio",
        "http",
        "ARCH-012",
        "fail",
        "modern only: serves 2026-07-28, not 2025-11-25; the profile targets 2025-11-25",
    ),
    (
        "echo-version",
        "stdio",
        "modern",
        "ARCH-012",
        "fail",
        "the invented version was served",
    ),
    (
        "echo-version",
        "http",
        "modern",
        "ARCH-012",
        "fail",
        "invented version 1999-01-01 → the server answered 1999-01-01",
    ),
    (
        "no-result-type",
        "stdio",
        "modern",
        "ARCH-018",
        "fail",
        "results without `resultType`: ",
    ),
    (
        "no-cache-hints",
        "stdio",
        "modern",
        "ARCH-020",
        "fail",
        "`ttlMs` missing or not an integer ≥ 0: ",
    ),
    (
        "no-cache-hints",
        "http",
        "modern",
        "ARCH-016",
        "partial",
        "expected `/result/ttlMs` validates",
    ),
    (
        "unstable-order",
        "stdio",
        "modern",
        "ARCH-020",
        "todo",
        "first: search_records, count_records, delete_record; then: delete_record",
    ),
    (
        "core-tasks",
        "stdio",
        "modern",
        "ARCH-021",
        "fail",
        "declares `capabilities.tasks`",
    ),
    (
        "bad-extension-id",
        "stdio",
        "modern",
        "ARCH-021",
        "partial",
        "extension `tasks` is not a prefixed id",
    ),
    (
        "server-request",
        "stdio",
        "modern",
        "HITL-006",
        "todo",
        "the server sent requests of its own: sampling/createMessage",
    ),
    (
        "logging",
        "stdio",
        "modern",
        "ARCH-019",
        "todo",
        "expected no protocol logging capability is declared",
    ),
    (
        "resource-32002",
        "stdio",
        "modern",
        "ARCH-008",
        "todo",
        "found -32002",
    ),
    (
        "session-minted",
        "http",
        "modern",
        "ARCH-015",
        "fail",
        "carried an Mcp-Session-Id",
    ),
    (
        "get-stream",
        "http",
        "modern",
        "ARCH-015",
        "partial",
        "GET on the endpoint → HTTP 200 text/event-stream — HTTP 200 instead of 405",
    ),
    (
        "get-stream",
        "http",
        "modern",
        "SCALE-010",
        "todo",
        "found HTTP 200",
    ),
    (
        "headers-ignored",
        "http",
        "modern",
        "SCALE-008",
        "fail",
        "the header was not checked",
    ),
    (
        "http-200-errors",
        "http",
        "modern",
        "SCALE-008",
        "partial",
        "refused, but not with HTTP 400 and -32020",
    ),
    (
        "any-origin",
        "http",
        "modern",
        "SEC-024",
        "fail",
        "with Origin: http://probe.invalid → HTTP 200",
    ),
    (
        "any-origin,legacy-only",
        "http",
        "http",
        "SEC-024",
        "fail",
        "initialize with Origin: http://probe.invalid → HTTP 200",
    ),
    (
        "version-header-ignored,legacy-only",
        "http",
        "http",
        "SCALE-001",
        "partial",
        "expected HTTP 400, got 200",
    ),
];

#[test]
fn every_planted_defect_is_found_by_its_kind_with_the_servers_words() {
    let mut missed = Vec::new();
    for (defects, transport, prof, id, status, words) in PLANTED {
        let dir = tmp();
        let p = format!("{prof}.profile.yaml");
        let r = if *transport == "stdio" {
            stdio(defects, &p, dir.path())
        } else {
            http(defects, &p, dir.path())
        };
        let ev = r.evidence(id);
        if r.status(id) != *status || !ev.contains(words) {
            missed.push(format!(
                "{defects} over {transport} ({prof}): {id} is {} (want {status}), evidence:\n{ev}",
                r.status(id)
            ));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n\n"));
}

#[test]
fn a_tool_suspected_of_writing_is_never_called_and_every_skipped_tool_says_why() {
    let dir = tmp();
    let log = dir.path().join("deleted.log");
    let p = profile("modern.profile.yaml");
    let cmd = scripted("mislabelled-write");
    let l = log.display().to_string();
    let r = probe_json(
        &[&p, "--stdio", &cmd, "--results", "r.yaml"],
        dir.path(),
        &[("DELETED_LOG", &l)],
    );
    assert_eq!(r.reach(), "reached", "{}", r.stderr);
    assert!(
        !log.exists(),
        "the probe called delete_record: {:?}",
        std::fs::read_to_string(&log)
    );
    let skipped = r.report["not_called"].to_string();
    assert!(
        skipped.contains("delete_record") && skipped.contains("write verb `delete`"),
        "{skipped}"
    );
    // `--call-tools all` lifts the rule: the write verb is no longer a reason.
    let r = probe_json(
        &[
            &p,
            "--stdio",
            &cmd,
            "--results",
            "r.yaml",
            "--call-tools",
            "all",
        ],
        dir.path(),
        &[("DELETED_LOG", &l)],
    );
    assert_eq!(r.reach(), "reached");
    assert!(
        !r.report["not_called"].to_string().contains("write verb"),
        "{}",
        r.report["not_called"]
    );
}

#[test]
fn unreachable_and_foreign_targets_are_told_apart_and_check_nothing() {
    let dir = tmp();
    let p = profile("modern.profile.yaml");
    let closed = format!("http://127.0.0.1:{}/mcp", free_port());
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (
            vec!["--url".into(), closed],
            "unreachable",
            "onnection refused",
        ),
        (
            vec!["--stdio".into(), "no-such-command-auditbook".into()],
            "unreachable",
            "command not found (exit 127)",
        ),
        (
            vec!["--stdio".into(), scripted("exit-at-start")],
            "crashed",
            "configuration file /etc/scripted.toml not found",
        ),
        (
            vec!["--stdio".into(), "yes 'Starting up...'".into()],
            "not-mcp",
            "something other than JSON-RPC to stdout",
        ),
        (
            vec![
                "--stdio".into(),
                "sleep 30".into(),
                "--timeout-ms".into(),
                "800".into(),
            ],
            "hung",
            "no answer within 800 ms",
        ),
        (
            vec!["--stdio".into(), scripted("crash-after-open")],
            "crashed",
            "after it was opened, tools/list got closed",
        ),
        (
            vec![
                "--stdio".into(),
                scripted("hang-after-open"),
                "--timeout-ms".into(),
                "1500".into(),
            ],
            "hung",
            "after it was opened, tools/list got timed out",
        ),
    ];
    for (args, outcome, words) in cases {
        let mut a: Vec<&str> = vec![&p, "--results", "r.yaml"];
        a.extend(args.iter().map(String::as_str));
        let r = probe_json(&a, dir.path(), &[]);
        assert_eq!(r.reach(), outcome, "{args:?}: {}", r.report["reach"]);
        assert!(
            r.report["reach"]["detail"]
                .as_str()
                .unwrap_or("")
                .contains(words),
            "{args:?}: {}",
            r.report["reach"]
        );
        assert_eq!(r.code, Some(1), "{args:?}");
        assert!(
            r.findings().is_empty(),
            "{args:?}: nothing was observed, so nothing is a finding"
        );
        assert!(
            r.report["fingerprint"].is_null(),
            "{args:?}: no fingerprint for a server not seen whole"
        );
    }
    for kind in ["waf", "moved", "redirect", "text"] {
        let port = free_port();
        let mut cmd = std::process::Command::new("python3");
        cmd.arg(common::probe::root().join("tests/servers/scripted_server.py"))
            .args(["--http", &port.to_string(), "--not-mcp", kind]);
        let _s = common::probe::listening(cmd, port);
        let url = format!("http://127.0.0.1:{port}/mcp");
        let r = probe_json(&[&p, "--url", &url, "--results", "r.yaml"], dir.path(), &[]);
        assert_eq!(r.reach(), "not-mcp", "{kind}: {}", r.report["reach"]);
    }
    // A log line on stdout before the protocol starts is not the end of the server.
    let r = stdio("garbage-stdout", "modern.profile.yaml", dir.path());
    assert_eq!(r.reach(), "reached", "{}", r.report["reach"]);
}

#[test]
fn a_server_lost_after_opening_wipes_no_baseline_and_leaves_the_lock_alone() {
    let dir = tmp();
    let p = profile("modern.profile.yaml");
    let clean = scripted("");
    let r = probe_json(
        &[&p, "--stdio", &clean, "--results", "r.yaml", "--lock"],
        dir.path(),
        &[],
    );
    assert_eq!(r.reach(), "reached");
    let lock = dir.path().join("mcp-tools.lock");
    let before = std::fs::read_to_string(&lock).unwrap_or_else(|e| panic!("{e}"));
    assert!(before.contains("search_records"));
    let broken = scripted("crash-after-open");
    let r = probe_json(
        &[&p, "--stdio", &broken, "--results", "r.yaml", "--lock"],
        dir.path(),
        &[],
    );
    assert_eq!(r.reach(), "crashed");
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap_or_default(),
        before,
        "the lock was overwritten"
    );
    assert_eq!(r.status("SEC-022"), "not_verified");
    assert!(
        !r.evidence("SEC-022").contains("removed"),
        "{}",
        r.evidence("SEC-022")
    );
    let results = std::fs::read_to_string(dir.path().join("r.yaml")).unwrap_or_default();
    assert!(results.contains("reached: false"), "{results}");
    // A repeated cursor stops the listing at once instead of paging until the time-out.
    let started = std::time::Instant::now();
    let r = stdio("repeat-cursor", "modern.profile.yaml", dir.path());
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert!(
        r.report["listings"]["tools"]
            .to_string()
            .contains("repeated the cursor `again`"),
        "{}",
        r.report["listings"]
    );
    assert!(
        r.report["fingerprint"].is_null(),
        "a listing cut short has no fingerprint"
    );
}

#[test]
fn an_audit_whose_probe_did_not_reach_the_server_is_incomplete_and_fails_the_gate() {
    let dir = tmp();
    let p = profile("modern.profile.yaml");
    // A person passed every applicable check that has no probe.
    let app = run(
        &["--format", "json", "applicability"],
        &[&p],
        dir.path(),
        &[],
    );
    let mut results = String::from("results:\n");
    for e in app.report["checks"].as_array().into_iter().flatten() {
        if e["status"] == "applies" {
            let id = e["id"].as_str().unwrap_or("");
            results.push_str(&format!(
                "  {id}: {{status: pass, evidence: [\"looked at one\", \"looked at two\", \"looked at three\", \"looked at four\"]}}\n"
            ));
        }
    }
    std::fs::write(dir.path().join("person.yaml"), &results).unwrap_or_else(|e| panic!("{e}"));
    let closed = format!("http://127.0.0.1:{}/mcp", free_port());
    let out = run(
        &["--format", "json", "audit"],
        &[&p, "--results", "person.yaml", "--probe", "--url", &closed],
        dir.path(),
        &[],
    );
    assert_eq!(out.code, Some(1), "the gate must fail: {}", out.stderr);
    assert_eq!(
        out.report["verdict"], "incomplete",
        "{}",
        out.report["incomplete"]
    );
    let why = out.report["incomplete"].to_string();
    assert!(
        why.contains("could not gather evidence") && why.contains("not reachable"),
        "{why}"
    );
    // The clean twin: the same results and a reachable server.
    let (_s, url) = scripted_http("");
    let out = run(
        &["--format", "json", "audit"],
        &[&p, "--results", "person.yaml", "--probe", "--url", &url],
        dir.path(),
        &[],
    );
    assert_ne!(
        out.report["verdict"], "incomplete",
        "{}",
        out.report["incomplete"]
    );
}

#[test]
fn hostile_output_is_quoted_bounded_and_inert() {
    let dir = tmp();
    let r = stdio("hostile-names", "modern.profile.yaml", dir.path());
    assert_eq!(r.reach(), "reached", "{}", r.stderr);
    let ev = r.evidence("ARCH-001");
    assert!(ev.contains("\\u{1b}") && ev.contains("\\u{202e}"), "{ev}");
    // The human output cannot drive the terminal or forge a line.
    let p = profile("modern.profile.yaml");
    let cmd = scripted("hostile-names");
    let human = run(
        &["probe"],
        &[&p, "--stdio", &cmd, "--results", "h.yaml"],
        dir.path(),
        &[],
    );
    for bad in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(
            !human.stdout.contains(bad) && !human.stderr.contains(bad),
            "{bad:?} in {}",
            human.stdout
        );
    }
    assert!(
        !human.stdout.lines().any(|l| l.starts_with(" pass SEC-024")),
        "{}",
        human.stdout
    );
    // Links from a server's values are inert in the Markdown report.
    let md = run(
        &["--format", "md", "audit"],
        &[&p, "--results", "h.yaml"],
        dir.path(),
        &[],
    );
    assert!(!md.stdout.contains("](javascript:"), "{}", md.stdout);
    // A message larger than the limit is not kept, and the run says so.
    let big = stdio("huge-description", "modern.profile.yaml", dir.path());
    assert_eq!(big.reach(), "not-mcp", "{}", big.report["reach"]);
    assert!(
        big.report["reach"]["detail"]
            .to_string()
            .contains("too large"),
        "{}",
        big.report["reach"]
    );
    let size = std::fs::metadata(dir.path().join("r.yaml"))
        .map(|m| m.len())
        .unwrap_or(0);
    assert!(size < 200_000, "the results file holds {size} bytes");
}

#[test]
fn quiet_mode_prints_the_failures() {
    let dir = tmp();
    let p = profile("modern.profile.yaml");
    let cmd = scripted("camel-name");
    let q = run(
        &["-q", "probe"],
        &[&p, "--stdio", &cmd, "--results", "r.yaml"],
        dir.path(),
        &[],
    );
    assert!(
        q.stdout.contains("fail") && q.stdout.contains("ARCH-001"),
        "{}",
        q.stdout
    );
    assert!(!q.stdout.contains("not_verified"), "{}", q.stdout);
    let clean = scripted("");
    let q = run(
        &["-q", "probe"],
        &[&p, "--stdio", &clean, "--results", "r.yaml"],
        dir.path(),
        &[],
    );
    assert_eq!(q.stdout, "", "a clean probe is silent in quiet mode");
}

#[test]
fn legacy_sessions_are_closed_and_drift_quotes_the_change() {
    let dir = tmp();
    let log = dir.path().join("sessions.log");
    let (_server, url) = {
        let port = free_port();
        let mut cmd = std::process::Command::new("python3");
        cmd.arg(common::probe::root().join("tests/servers/scripted_server.py"))
            .args(["--http", &port.to_string(), "--defects", "legacy-only"])
            .env("SESSION_LOG", &log);
        (
            common::probe::listening(cmd, port),
            format!("http://127.0.0.1:{port}/mcp"),
        )
    };
    let p = profile("http.profile.yaml");
    let r = probe_json(
        &[&p, "--url", &url, "--results", "r.yaml", "--lock"],
        dir.path(),
        &[],
    );
    assert_eq!(r.reach(), "reached", "{}", r.stderr);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let opened = text.lines().filter(|l| l.starts_with("open")).count();
    let closed = text.lines().filter(|l| l.starts_with("close")).count();
    assert!(
        opened > 0 && opened == closed,
        "every session opened is closed: {text}"
    );
    // The definitions change (the scripted server with a renamed tool): the change is quoted.
    let (_s2, url2) = scripted_http("legacy-only,restated-description");
    let r = probe_json(
        &[&p, "--url", &url2, "--results", "r.yaml"],
        dir.path(),
        &[],
    );
    let ev = r.evidence("SEC-022");
    assert!(
        ev.contains("tool `count_records` changed: `description` \"Count the public records"),
        "{ev}"
    );
    assert!(ev.contains("→ \"Count records\""), "{ev}");
}
