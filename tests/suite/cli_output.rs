//! Snapshots of what a user reads: lint in human and json form on a catalogue with planted
//! defects, and the data commands on the clean fixture. Every snapshot was read line by line
//! before it was accepted.

use crate::common;
use common::Fixture;

fn defective() -> Fixture {
    let f = Fixture::new("clean");
    f.edit("checks/FID-001.md", "severity: critical", "severity: hgh");
    f.edit(
        "checks/FID-001.md",
        "evidence_required: 2\n",
        "evidence_required: 2\nadoptoin: advisory\n",
    );
    f.edit(
        "checks/ARCH-001.md",
        "See [FID-001](../checks/FID-001.md).",
        "See [FID-007](../checks/FID-007.md) and FID-008.",
    );
    f.edit(
        "checks/FID-002.md",
        "or write_capable == true",
        "or write_capable = true",
    );
    f.edit("checks/MANIFEST.txt", "DRIFT-001\n", "");
    f
}

#[test]
fn lint_human() {
    insta::assert_snapshot!(defective().run(&["lint"]).0);
}

#[test]
fn lint_json() {
    insta::assert_snapshot!(defective().run(&["lint", "--format", "json"]).0);
}

#[test]
fn lint_github() {
    insta::assert_snapshot!(defective().run(&["lint", "--format", "github"]).0);
}

#[test]
fn list_table_json_csv() {
    let f = Fixture::new("clean");
    insta::assert_snapshot!("list_table", f.stdout(&["list"]));
    insta::assert_snapshot!("list_csv", f.stdout(&["list", "--format", "csv"]));
    insta::assert_snapshot!("list_json", f.stdout(&["list", "--format", "json"]));
}

#[test]
fn show_and_stats() {
    let f = Fixture::new("clean");
    insta::assert_snapshot!("show_fid_001", f.stdout(&["show", "FID-001"]));
    insta::assert_snapshot!("stats", f.stdout(&["stats"]));
    insta::assert_snapshot!("stats_json", f.stdout(&["stats", "--format", "json"]));
}

#[test]
fn output_is_byte_identical_across_runs() {
    let f = defective();
    for args in [
        &["lint", "--format", "json"][..],
        &["lint"],
        &["list", "--format", "csv"],
        &["stats"],
    ] {
        assert_eq!(f.run(args), f.run(args), "{args:?}");
    }
}
