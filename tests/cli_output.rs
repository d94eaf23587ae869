//! Snapshots of what a user reads: lint in human and json form on a catalogue with planted
//! defects, and the data commands on the clean fixture. Every snapshot was read line by line
//! before it was accepted.

mod common;
use common::Fixture;

fn stdout(f: &Fixture, args: &[&str]) -> String {
    let out = f.cmd().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

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
    insta::assert_snapshot!(stdout(&defective(), &["lint"]));
}

#[test]
fn lint_json() {
    insta::assert_snapshot!(stdout(&defective(), &["lint", "--format", "json"]));
}

#[test]
fn lint_github() {
    insta::assert_snapshot!(stdout(&defective(), &["lint", "--format", "github"]));
}

#[test]
fn list_table_json_csv() {
    let f = Fixture::new("clean");
    insta::assert_snapshot!("list_table", stdout(&f, &["list"]));
    insta::assert_snapshot!("list_csv", stdout(&f, &["list", "--format", "csv"]));
    insta::assert_snapshot!("list_json", stdout(&f, &["list", "--format", "json"]));
}

#[test]
fn show_and_stats() {
    let f = Fixture::new("clean");
    insta::assert_snapshot!("show_fid_001", stdout(&f, &["show", "FID-001"]));
    insta::assert_snapshot!("stats", stdout(&f, &["stats"]));
    insta::assert_snapshot!("stats_json", stdout(&f, &["stats", "--format", "json"]));
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
        assert_eq!(stdout(&f, args), stdout(&f, args), "{args:?}");
    }
}
