//! Files that are not what a catalogue expects: FIFOs, devices and directories where a file
//! should be, deep nesting, YAML tags, impossible dates, huge lines. Each is a finding with a
//! place, in bounded time; none hangs, panics or passes silently.

use crate::common;
use common::{findings_in, Fixture};
use std::time::{Duration, Instant};

fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo is needed for this test");
}

/// Run with a deadline: a FIFO without a writer blocks a reader forever, so a hang must fail
/// the test rather than the whole suite.
fn run_within(f: &Fixture, args: &[&str], limit: Duration) -> (String, i32) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("auditbook"))
        .env("NO_COLOR", "1")
        .current_dir(f.root())
        .args(["-C", "."])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            return (text, status.code().unwrap_or(-1));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!(
                "auditbook {args:?} did not finish within {limit:?}: it blocked on a special file"
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn fifos_where_files_belong_are_reported_not_read() {
    let limit = Duration::from_secs(30);
    // A check file, the manifest, a rule file and a declared document, each a FIFO.
    let f = Fixture::new("clean");
    mkfifo(&f.path("checks/FID-009.md"));
    f.remove("checks/MANIFEST.txt");
    mkfifo(&f.path("checks/MANIFEST.txt"));
    std::fs::create_dir_all(f.path("rules")).unwrap();
    mkfifo(&f.path("rules/R-1.md"));
    mkfifo(&f.path("notes.md"));
    let text = f.read("catalogue.yaml") + "docs: [notes.md]\n";
    f.write("catalogue.yaml", &text);
    let (out, code) = run_within(&f, &["lint", "--verify", "--format", "json"], limit);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let files: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").contains("FIFO"))
        .map(|d| {
            // A declared document is reported where catalogue.yaml declares it, by name.
            let file = d["file"].as_str().unwrap_or("");
            let message = d["message"].as_str().unwrap_or("");
            if file == "catalogue.yaml" && message.contains("`notes.md`") {
                "notes.md".to_string()
            } else {
                file.to_string()
            }
        })
        .collect();
    for expected in [
        "checks/FID-009.md",
        "checks/MANIFEST.txt",
        "rules/R-1.md",
        "notes.md",
    ] {
        assert!(
            files.iter().any(|f| f == expected),
            "{expected} not reported: {files:?}\n{out}"
        );
    }

    // catalogue.yaml itself a FIFO.
    let g = Fixture::new("clean");
    g.remove("catalogue.yaml");
    mkfifo(&g.path("catalogue.yaml"));
    let (out, code) = run_within(&g, &["lint"], limit);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("AB009"), "{out}");

    // A profile and a results file named on the command line.
    let h = Fixture::new("clean");
    mkfifo(&h.path("p.yaml"));
    let (out, code) = run_within(&h, &["audit", "p.yaml"], limit);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not a regular file"), "{out}");
    h.write("q.yaml", "transport: stdio-only\n");
    mkfifo(&h.path("r.yaml"));
    let (out, code) = run_within(&h, &["audit", "q.yaml", "--results", "r.yaml"], limit);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not a regular file"), "{out}");
}

#[test]
fn regular_files_draw_no_file_type_finding() {
    let f = Fixture::new("clean");
    let (v, code) = f.lint_json();
    assert!(findings_in(&v, "AB009").is_empty(), "{v:#}");
    assert_eq!(code, 0, "{v:#}");
}

#[test]
fn an_unreadable_root_is_a_failure_not_a_finding() {
    let f = Fixture::new("clean");
    let (_, code) = f.run(&["-C", "no-such-dir", "lint"]);
    assert_eq!(code, 2);
    let (_, code) = f.run(&["-C", "catalogue.yaml", "lint"]);
    assert_eq!(code, 2);
}

#[test]
fn deep_nesting_is_refused_before_parsing() {
    let f = Fixture::new("clean");
    // Flow nesting that cost seconds in the parser before its own limit fired.
    let deep = format!(
        "transport: {}1{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    f.write("deep.yaml", &deep);
    let start = Instant::now();
    let out = f
        .cmd()
        .args(["profile", "check", "deep.yaml"])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("nested more than"), "{text}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    // Frontmatter and catalogue.yaml too.
    f.edit(
        "checks/FID-001.md",
        "evidence_required: 2",
        &format!("extra: {}{}", "{a: ".repeat(70), "}".repeat(70)),
    );
    let (v, _) = f.lint_json();
    assert!(v.to_string().contains("nested more than"), "{v:#}");
    // The clean twin: ordinary nesting parses.
    let g = Fixture::new("clean");
    g.write(
        "ok.yaml",
        "transport: stdio-only\ndeployment: [local-stdio]\n",
    );
    let out = g
        .cmd()
        .args(["profile", "check", "ok.yaml"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("nested more than"));
}

#[test]
fn yaml_tags_are_errors_in_frontmatter_and_configuration() {
    let f = Fixture::new("clean");
    f.edit(
        "checks/FID-001.md",
        "title: \"Scope parameters are sent explicitly\"",
        "title: !!python/object:os.system \"x\"",
    );
    f.edit("catalogue.yaml", "version: 1.0.0", "version: !custom 1.0.0");
    let (v, code) = f.lint_json();
    assert_eq!(code, 1);
    let tags = findings_in(&v, "AB118");
    assert_eq!(tags.len(), 2, "{v:#}");
    assert!(
        tags.contains(&("checks/FID-001.md".into(), Some(3), Some("FID-001".into()))),
        "{tags:?}"
    );
    assert!(
        tags.contains(&("catalogue.yaml".into(), Some(2), None)),
        "{tags:?}"
    );
    // One bad key does not discard the rest of catalogue.yaml: no cascade of undeclared
    // categories.
    let errors = common::loud_in(&v).len();
    assert!(errors <= 4, "a tag cascaded into {errors} findings: {v:#}");
    // The clean twin: quoted exclamation marks are text.
    let g = Fixture::new("clean");
    g.edit(
        "checks/FID-001.md",
        "title: \"Scope parameters are sent explicitly\"",
        "title: \"Scope! parameters are sent explicitly\"",
    );
    assert!(g.findings("AB118").is_empty());
}

#[test]
fn impossible_dates_are_refused() {
    let f = Fixture::new("clean");
    f.edit(
        "catalogue.yaml",
        "retired: \"2026-08-07\"",
        "retired: \"2026-02-30\"",
    );
    let (v, _) = f.lint_json();
    assert!(
        v.to_string().contains("2026-02-30` is not a calendar day"),
        "{v:#}"
    );
    let g = Fixture::new("clean");
    let before = common::tree(g.root());
    let out = g
        .cmd()
        .args(["retire", "FID-001", "--date", "2026-13-45", "--reason", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a calendar day"));
    assert_eq!(common::tree(g.root()), before);
    // The clean twin: a real leap day.
    let h = Fixture::new("clean");
    h.edit(
        "catalogue.yaml",
        "retired: \"2026-08-07\"",
        "retired: \"2024-02-29\"",
    );
    let (v, _) = h.lint_json();
    assert!(!v.to_string().contains("not a calendar day"), "{v:#}");
}

#[test]
fn a_megabyte_line_yields_a_bounded_excerpt() {
    let f = Fixture::new("clean");
    // One finding on a one-line results file of a megabyte.
    f.write("p.yaml", "transport: stdio-only\n");
    let filler = "x".repeat(1_000_000);
    f.write(
        "r.yaml",
        &format!(
            "{{\"results\": {{\"NOPE-001\": {{\"status\": \"pass\", \"note\": \"{filler}\"}}}}}}\n"
        ),
    );
    let out = f
        .cmd()
        .args(["audit", "p.yaml", "--results", "r.yaml"])
        .output()
        .unwrap();
    let stderr = out.stderr.len() + out.stdout.len();
    assert!(stderr < 200_000, "printed {stderr} bytes for one finding");
}

#[test]
fn many_findings_in_a_large_file_render_in_linear_time() {
    // 20,000 findings in one file: the human renderer must index the file once, not per finding.
    let f = Fixture::new("clean");
    let mut body = String::new();
    for i in 0..20_000 {
        body.push_str(&format!("See FID-9{:02}.\n", i % 100));
    }
    f.write("notes.md", &body);
    let text = f.read("catalogue.yaml") + "docs: [notes.md]\n";
    f.write("catalogue.yaml", &text);
    let out = f.cmd().args(["lint", "--verify"]).output().unwrap();
    let human = String::from_utf8_lossy(&out.stdout);
    assert!(
        human.lines().count() > 1000,
        "expected many findings:\n{}",
        &human[..human.len().min(2000)]
    );
}
