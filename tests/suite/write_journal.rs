//! Half-done updates: a writing command killed after any one of its renames leaves a journal,
//! and the next writing command finishes the change, so the catalogue ends exactly as an
//! uninterrupted run leaves it. The kill comes from the test hook `AUDITBOOK_FAULT_AFTER_STEPS`
//! (the process ends at once after the N-th rename, link or removal), run for every N.
#![cfg(unix)]

use crate::common;

use common::{tree, Fixture};
use std::process::Output;

const SKILL: &str = "skills/mcp-data-fidelity/SKILL.md";
const STALE: (&str, &str) = (
    "| **Total** | | **13** | | |",
    "| **Total** | | **12** | | |",
);
const JOURNAL: &str = ".auditbook-journal";
const KILLED: Option<i32> = Some(auditbook::write::fault::EXIT);

fn run(f: &Fixture, args: &[&str], fault: Option<usize>) -> Output {
    let mut c = f.cmd();
    c.args(args);
    if let Some(n) = fault {
        c.env(auditbook::write::fault::ENV, n.to_string());
    }
    c.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn lint(f: &Fixture) -> serde_json::Value {
    f.lint_json().0
}

/// Check files present on disk and ids in the manifest, which must agree.
#[track_caller]
fn assert_manifest_matches_files(f: &Fixture) {
    let mut files: Vec<String> = std::fs::read_dir(f.path("checks"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".md").map(String::from))
        .collect();
    files.sort();
    let mut listed: Vec<String> = f
        .read("checks/MANIFEST.txt")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    listed.sort();
    assert_eq!(files, listed);
}

/// Kill `args` after each of its steps in turn; the next writing command (`sync`, which has
/// nothing of its own to do here unless documents are stale) repairs the catalogue to what an
/// uninterrupted run leaves. Returns how many steps the command has.
fn crash_at_every_step(setup: impl Fn() -> Fixture, args: &[&str], label: &str) -> usize {
    let expected = setup();
    let out = run(&expected, args, None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let want = tree(expected.root());
    let want_lint = lint(&expected);

    for n in 1.. {
        let f = setup();
        let out = run(&f, args, Some(n));
        if out.status.success() {
            assert!(n > 3, "{label}: only {} steps", n - 1);
            assert!(tree(f.root()) == want);
            return n - 1;
        }
        assert_eq!(
            out.status.code(),
            KILLED,
            "{label} step {n}: {}",
            stderr(&out)
        );
        let journal_left = f.path(JOURNAL).exists();
        let repair = run(&f, &["sync"], None);
        assert_eq!(repair.status.code(), Some(0), "{}", stderr(&repair));
        if journal_left {
            assert!(
                stderr(&repair).contains(&format!("finished an interrupted `{label}`")),
                "step {n}: {}",
                stderr(&repair)
            );
        }
        assert!(!f.path(JOURNAL).exists());
        let got = tree(f.root());
        assert!(
            got == want,
            "{label} killed after step {n}: the catalogue was not repaired: {:?} vs {:?}",
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>()
        );
        assert_eq!(lint(&f), want_lint);
    }
    unreachable!()
}

#[test]
fn new_killed_after_any_step_is_finished_by_the_next_command() {
    let steps = crash_at_every_step(
        || Fixture::new("clean"),
        &["new", "FID", "--title", "Schlüssel prüfen"],
        "new FID-003",
    );
    assert_eq!(
        steps, 5,
        "journal, link, temporary name, manifest, journal removed"
    );
    let f = Fixture::new("clean");
    run(&f, &["new", "FID", "--title", "x"], Some(3));
    run(&f, &["sync"], None);
    assert_manifest_matches_files(&f);
}

const RETIRE: &[&str] = &[
    "retire",
    "FID-002",
    "--date",
    "2026-09-01",
    "--reason",
    "in FID-001 aufgegangen",
    "--merged-into",
    "FID-001",
];

#[test]
fn retire_killed_after_any_step_is_finished_by_the_next_command() {
    crash_at_every_step(|| Fixture::new("clean"), RETIRE, "retire FID-002");
    for n in 1..=4 {
        let f = Fixture::new("clean");
        run(&f, RETIRE, Some(n));
        run(&f, &["sync"], None);
        assert!(!f.path("checks/FID-002.md").exists(), "step {n}");
        assert!(f.read("catalogue.yaml").contains("id: FID-002"));
        assert_manifest_matches_files(&f);
    }
}

#[test]
fn sync_killed_after_any_step_is_finished_by_the_next_command() {
    let setup = || {
        let f = Fixture::new("graph");
        f.write("docs/zwei.md", &f.read(SKILL));
        f.edit(
            "catalogue.yaml",
            "docs: [skills/mcp-data-fidelity/SKILL.md]",
            "docs: [skills/mcp-data-fidelity/SKILL.md, docs/zwei.md]",
        );
        f.edit(SKILL, STALE.0, STALE.1);
        f.edit("docs/zwei.md", STALE.0, STALE.1);
        f
    };
    crash_at_every_step(setup, &["sync"], "sync");
}

/// A crash while recovering is repaired the same way: every step is idempotent.
#[test]
fn a_crash_during_recovery_is_repaired_by_the_next_command() {
    let expected = Fixture::new("clean");
    run(&expected, RETIRE, None);
    for first in 1..=4 {
        let f = Fixture::new("clean");
        run(&f, RETIRE, Some(first));
        let out = run(&f, &["sync"], Some(1));
        assert!(
            out.status.code() == KILLED || out.status.success(),
            "{}",
            stderr(&out)
        );
        assert_eq!(run(&f, &["sync"], None).status.code(), Some(0));
        assert!(
            tree(f.root()) == tree(expected.root()),
            "first crash at {first}"
        );
    }
}

#[test]
fn leftover_temporary_files_are_swept_and_others_kept() {
    let f = Fixture::new("clean");
    f.write(
        "checks/.FID-009.md.auditbook-tmp-999999999-0",
        "halb geschrieben",
    );
    f.write(".catalogue.yaml.auditbook-tmp-999999999-1", "name: halb");
    // Not auditbook's, or not a writing command's: kept.
    f.write("checks/.notizen.md", "eigene Notizen");
    f.write(
        ".report.md.auditbook-out-4242-0",
        "a report being written elsewhere",
    );
    // A writing command's temporary file whose process is alive (this test's): kept.
    let live = format!("checks/.FID-010.md.auditbook-tmp-{}-0", std::process::id());
    f.write(&live, "being written");
    let out = run(&f, &["sync"], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("removed 2 temporary file(s)"),
        "{}",
        stderr(&out)
    );
    assert!(!f
        .path("checks/.FID-009.md.auditbook-tmp-999999999-0")
        .exists());
    assert!(!f.path(".catalogue.yaml.auditbook-tmp-999999999-1").exists());
    assert!(f.path("checks/.notizen.md").exists());
    assert!(f.path(".report.md.auditbook-out-4242-0").exists());
    assert!(f.path(&live).exists());

    // The clean twin: nothing to sweep, nothing said.
    let out = run(&f, &["sync"], None);
    assert!(!stderr(&out).contains("temporary"), "{}", stderr(&out));
}

/// The journal is a file in the catalogue, so a change to the catalogue can plant one: its
/// steps may not leave the repository, nor name a temporary file that is not auditbook's.
#[test]
fn a_planted_journal_cannot_reach_outside_the_catalogue() {
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let f = Fixture::new("clean");
    let hostile = [
        serde_json::json!({"remove": {"path": victim.to_string_lossy()}}),
        serde_json::json!({"remove": {"path": format!("../{}/victim.txt", outside.path().file_name().unwrap().to_string_lossy())}}),
        serde_json::json!({"replace": {"tmp": "../../etc/passwd", "path": "checks/FID-001.md"}}),
        serde_json::json!({"replace": {"tmp": "plain-name", "path": "checks/FID-001.md"}}),
    ];
    for step in hostile {
        let journal = serde_json::json!({
            "auditbook_journal": 1,
            "command": "new FID-003",
            "steps": [{"remove": {"path": "checks/FID-002.md"}}, step],
        });
        f.write(JOURNAL, &journal.to_string());
        let out = run(&f, &["sync"], None);
        assert_eq!(out.status.code(), Some(2), "{step}");
        assert!(stderr(&out).contains("refused"), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(f.path("checks/FID-002.md").exists(), "no step ran");
        assert!(f.path(JOURNAL).exists(), "kept for the user to look at");
    }
    f.write(JOURNAL, "{\"not\": \"a journal\"");
    let out = run(&f, &["sync"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not an auditbook journal"));

    // The clean twin: a journal whose steps stay inside is finished.
    let journal = serde_json::json!({
        "auditbook_journal": 1,
        "command": "retire FID-002",
        "steps": [{"remove": {"path": "checks/FID-002.md"}}],
    });
    f.write(JOURNAL, &journal.to_string());
    let out = run(&f, &["sync"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!f.path("checks/FID-002.md").exists());
    assert!(!f.path(JOURNAL).exists());
}

/// Between the crash and the repair, readers say that a change is pending and what finishes it.
#[test]
fn readers_point_to_a_pending_change() {
    let f = Fixture::new("clean");
    let out = run(&f, &["new", "FID", "--title", "Halb"], Some(2));
    assert_eq!(out.status.code(), KILLED);
    // `-q` hides notes and the summary, not the warning that explains the errors it shows.
    let quiet = run(&f, &["-q", "lint"], None);
    assert_eq!(quiet.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&quiet.stdout).contains("error"),
        "{quiet:?}"
    );
    assert!(
        stderr(&quiet).contains("an interrupted change to this catalogue is pending"),
        "{}",
        stderr(&quiet)
    );
    for args in [&["lint"][..], &["list"], &["verify"]] {
        let err = stderr(&run(&f, args, None));
        assert!(
            err.contains("an interrupted change to this catalogue is pending"),
            "{args:?}: {err}"
        );
    }
    run(&f, &["sync"], None);
    // The clean twin: once finished, nothing is said.
    let err = stderr(&run(&f, &["lint"], None));
    assert!(!err.contains("pending"), "{err}");
}
