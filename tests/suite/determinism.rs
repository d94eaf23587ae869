//! Every command that prints data prints the same bytes on every run and with any number of
//! worker threads: loading runs in parallel, output order must never depend on scheduling.
//! The first run of each command goes without the outline cache, the others with one (cold,
//! then warm): the cache must not change a byte either.

use crate::common;
use common::tree;
use std::path::PathBuf;
use std::time::Duration;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One run: exit code, stdout, stderr. `threads` "1" or "2" runs the shipped catalogue's work
/// in parallel (every list from one item on) on that many threads; "seq" as it runs by default
/// at this size, on the calling thread.
fn run(args: &[&str], threads: &str, cached: bool) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    static CACHE: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let mut cmd = assert_cmd::Command::cargo_bin("auditbook").unwrap();
    if cached {
        let dir = CACHE.get_or_init(|| tempfile::tempdir().unwrap());
        cmd.env_remove("AUDITBOOK_NO_CACHE")
            .env("AUDITBOOK_CACHE_DIR", dir.path());
    } else {
        cmd.env("AUDITBOOK_NO_CACHE", "1");
    }
    if threads != "seq" {
        cmd.env("RAYON_NUM_THREADS", threads)
            .env("AUDITBOOK_PARALLEL_FROM", "1");
    }
    let out = cmd
        .args(["-C", "catalogue"])
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(repo())
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    (out.status.code(), out.stdout, out.stderr)
}

/// Two runs on two threads, one on one thread, one without the pool: all byte-identical.
fn assert_stable(args: &[&str]) {
    let first = run(args, "2", false);
    assert!(
        matches!(first.0, Some(0 | 1)),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&first.2)
    );
    assert!(!first.1.is_empty(), "{args:?} printed nothing");
    for threads in ["2", "1", "seq"] {
        let again = run(args, threads, true);
        assert!(
            again == first,
            "{args:?} differs with RAYON_NUM_THREADS={threads}"
        );
    }
}

const PROFILE: &str = "examples/amtsblatt-readonly.profile.yaml";
const RESULTS: &str = "examples/amtsblatt-readonly.results.yaml";
const OTHER: &str = "examples/cloud-http-apikey.profile.yaml";

#[test]
fn lint_in_every_format() {
    for fmt in ["human", "json", "github", "sarif"] {
        assert_stable(&["lint", "--format", fmt]);
    }
}

#[test]
fn catalogue_views() {
    for args in [
        &["list", "--format", "json"][..],
        &["list", "--format", "csv"],
        &["list", "--format", "table"],
        &["show", "FID-006"],
        &["show", "FID-006", "--format", "json"],
        &["stats"],
        &["stats", "--format", "json"],
        &["table", "rules-table", "--format", "md"],
        &["table", "rules-table", "--format", "json"],
        &["table", "check-index", "--format", "md"],
        &["table", "category-counts", "--format", "md"],
        &["graph", "--format", "dot"],
        &["graph", "--format", "mermaid"],
        &["graph", "--format", "json"],
        &["snapshot"],
        &["verify", "--format", "json"],
        &["verify", "--format", "sarif"],
    ] {
        assert_stable(args);
    }
}

#[test]
fn audits_and_schemas() {
    for args in [
        &["applicability", PROFILE, "--format", "json"][..],
        &[
            "applicability",
            PROFILE,
            "--diff",
            OTHER,
            "--format",
            "json",
        ],
        &["audit", PROFILE, "--results", RESULTS, "--format", "md"],
        &["audit", PROFILE, "--results", RESULTS, "--format", "json"],
        &["audit", PROFILE, "--results", RESULTS, "--format", "html"],
        &["portfolio", "examples/portfolio.yaml", "--format", "json"],
        &["schema", "check"],
        &["schema", "profile"],
        &["schema", "results"],
        &["schema", "config"],
        &[
            "diff",
            "catalogue",
            "tests/fixtures/graph",
            "--format",
            "json",
        ],
    ] {
        assert_stable(args);
    }
}

#[test]
fn site_directories_are_identical() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    for (d, threads) in dirs.iter().zip(["2", "seq", "1"]) {
        let out = d.path().join("site");
        let (code, _, err) = run(&["site", "--out", out.to_str().unwrap()], threads, true);
        assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&err));
    }
    let first = tree(&dirs[0].path().join("site"));
    assert!(first.len() > 100, "the site has a page per check");
    for d in &dirs[1..] {
        assert!(tree(&d.path().join("site")) == first, "site output differs");
    }
}
