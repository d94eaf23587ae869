//! `lint --fix` / `verify --fix`: per fix family the defect is found, the fix is shown as a
//! diff (snapshot), and a second lint no longer reports it; unsafe fixes wait for
//! `--unsafe-fixes`; a file changed meanwhile and a failing write leave every file as it was.

use crate::common;

use common::{tree, Fixture};

fn codes(f: &Fixture, args: &[&str]) -> Vec<String> {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let (v, _) = f.json_and_code(&a);
    common::codes_in(&v)
}

/// `--diff` output (stdout), which must not change any file.
#[track_caller]
fn diff(f: &Fixture, args: &[&str]) -> String {
    let before = tree(f.root());
    let out = f.cmd().args(args).arg("--diff").output().unwrap();
    assert_eq!(tree(f.root()), before, "--diff wrote a file");
    String::from_utf8(out.stdout).unwrap()
}

/// Defect found, fix shown, fixed, gone on the next lint.
#[track_caller]
fn round_trip(f: &Fixture, code: &str, lint: &[&str], fix: &[&str], snapshot: &str) {
    assert!(
        codes(f, lint).iter().any(|c| c == code),
        "{code} not found before the fix"
    );
    let shown = diff(f, &[lint, fix].concat());
    insta::assert_snapshot!(snapshot, shown);
    let out = f.cmd().args(lint).args(fix).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0) | Some(1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("fixed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !codes(f, lint).iter().any(|c| c == code),
        "{code} still reported after the fix"
    );
}

fn clean() -> Fixture {
    Fixture::new("clean")
}

#[test]
fn a_link_to_a_retired_check_moves_to_its_successor_and_mentions_stay() {
    let f = clean();
    f.edit(
        "checks/ARCH-001.md",
        "## References\n",
        "## References\n\n- [DRIFT-002](../checks/DRIFT-002.md) — früher eigener Check; DRIFT-002 bleibt als Geschichte.\n",
    );
    round_trip(&f, "AB212", &["lint"], &["--fix"], "retired_link");
    assert!(f
        .read("checks/ARCH-001.md")
        .contains("DRIFT-002 bleibt als Geschichte"));
}

#[test]
fn a_clean_catalogue_has_nothing_to_fix() {
    let f = clean();
    let before = tree(f.root());
    let out = f
        .cmd()
        .args(["lint", "--fix", "--unsafe-fixes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("fixed 0 finding(s) in 0 file(s)"));
    assert_eq!(tree(f.root()), before);
    assert_eq!(diff(&f, &["lint"]), "");
}

#[test]
fn the_manifest_is_rewritten_from_the_files_keeping_comments() {
    let f = clean();
    f.edit("checks/MANIFEST.txt", "FID-002\n", "FID-009\n");
    assert!(codes(&f, &["lint"]).iter().any(|c| c == "AB201"));
    round_trip(&f, "AB202", &["lint"], &["--fix"], "manifest");
    assert_eq!(
        f.read("checks/MANIFEST.txt"),
        "# ids of this fixture catalogue\nARCH-001\nDRIFT-001\nFID-001\nFID-002\n"
    );
}

#[test]
fn a_key_in_the_wrong_case_is_normalised_when_unambiguous() {
    let f = clean();
    f.edit(
        "checks/FID-001.md",
        "severity: critical",
        "Severity: critical",
    );
    round_trip(&f, "AB106", &["lint"], &["--fix"], "key_case");

    // The twin: `Severity` beside `severity` is ambiguous and stays for a person to settle.
    let g = clean();
    g.edit(
        "checks/FID-001.md",
        "severity: critical",
        "severity: critical\nSeverity: high",
    );
    let before = tree(g.root());
    g.cmd().args(["lint", "--fix"]).output().unwrap();
    assert_eq!(tree(g.root()), before);
    assert!(codes(&g, &["lint"]).iter().any(|c| c == "AB106"));
}

#[test]
fn a_bare_date_baseline_is_quoted_and_line_endings_are_kept() {
    let f = clean();
    f.edit(
        "checks/FID-002.md",
        "spec_baseline: both",
        "spec_baseline: 2026-07-28",
    );
    let crlf = f.read("checks/FID-002.md").replace('\n', "\r\n");
    f.write("checks/FID-002.md", &crlf);
    round_trip(&f, "AB123", &["lint"], &["--fix"], "date_quoted");
    let after = f.read("checks/FID-002.md");
    assert_eq!(
        after,
        crlf.replace("spec_baseline: 2026-07-28", "spec_baseline: \"2026-07-28\"")
    );

    // The twin: a quoted date is not flagged.
    let g = clean();
    g.edit(
        "checks/FID-002.md",
        "spec_baseline: both",
        "spec_baseline: '2026-07-28'",
    );
    assert!(!codes(&g, &["lint"]).iter().any(|c| c == "AB123"));
}

#[test]
fn a_missing_section_is_added_as_a_stub_only_with_unsafe_fixes() {
    let f = clean();
    f.edit(
        "checks/FID-001.md",
        "## Remediation\n\nSend the parameters.\n\n",
        "",
    );
    let before = tree(f.root());
    let out = f.cmd().args(["lint", "--fix"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "the finding remains");
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("1 unsafe fix(es) available with --unsafe-fixes"));
    let mut after = tree(f.root());
    after.retain(|k, _| !k.contains(".auditbook"));
    assert_eq!(after, before, "a safe run leaves the unsafe fix alone");
    round_trip(
        &f,
        "AB220",
        &["lint"],
        &["--fix", "--unsafe-fixes"],
        "section_stub",
    );
    let text = f.read("checks/FID-001.md");
    assert!(
        text.find("## Remediation").unwrap() < text.find("## References").unwrap(),
        "the stub sits in the order required_sections gives"
    );
}

#[test]
fn a_stale_region_is_regenerated_by_verify_fix() {
    let f = Fixture::shipped();
    f.edit("README.md", "| low | 1 | 1 | 0 |", "| low | 2 | 2 | 0 |");
    round_trip(&f, "AB601", &["verify"], &["--fix"], "stale_region");
}

#[test]
fn a_stale_number_in_prose_is_updated_only_with_unsafe_fixes() {
    let f = Fixture::shipped();
    f.edit("README.md", "holds 120 checks", "holds 119 checks");
    let out = f.cmd().args(["verify", "--fix"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(f.read("README.md").contains("holds 119 checks"));
    round_trip(
        &f,
        "AB613",
        &["verify"],
        &["--fix", "--unsafe-fixes"],
        "claim_number",
    );
    assert!(f.read("README.md").contains("holds 120 checks"));
}

#[test]
fn a_failing_write_leaves_every_file_untouched() {
    use std::os::unix::fs::PermissionsExt;
    let f = clean();
    f.edit(
        "checks/FID-001.md",
        "severity: critical",
        "Severity: critical",
    );
    f.edit("checks/MANIFEST.txt", "FID-002\n", "");
    // Two files to fix; the second cannot be written.
    std::fs::set_permissions(
        f.path("checks/MANIFEST.txt"),
        std::fs::Permissions::from_mode(0o444),
    )
    .unwrap();
    let before = tree(f.root());
    let out = f.cmd().args(["lint", "--fix"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was changed"));
    assert_eq!(tree(f.root()), before);
    // The clean twin: writable again, both are fixed.
    std::fs::set_permissions(
        f.path("checks/MANIFEST.txt"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    f.cmd().args(["lint", "--fix"]).assert().code(0);
}

#[test]
fn a_fix_against_a_file_changed_meanwhile_refuses() {
    use auditbook::fix::{self, apply};
    use std::sync::Arc;
    let f = clean();
    f.edit(
        "checks/FID-001.md",
        "severity: critical",
        "Severity: critical",
    );
    let loaded = auditbook::load::load(f.root()).unwrap();
    let graph = auditbook::graph::Graph::build(&loaded.catalogue);
    let mut diags = loaded.diagnostics.clone();
    diags.extend(auditbook::lint::run(&loaded.catalogue, &graph));
    let root = f.root().to_path_buf();
    let read = move |rel: &str| -> Option<Arc<str>> {
        std::fs::read_to_string(root.join(rel)).ok().map(Arc::from)
    };
    let fixes = fix::fixes(&loaded.catalogue, &graph, &diags, &read);
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert_eq!(fixes[0].safety, fix::Safety::Safe);
    let chosen: Vec<&fix::Fix> = fixes.iter().collect();
    let edited = apply::edit(&chosen, &read).unwrap();
    assert_eq!(apply::unchanged(&edited, &read), Ok(()));
    // Someone saves the file between planning and writing.
    f.edit("checks/FID-001.md", "title:", "title:  ");
    assert_eq!(
        apply::unchanged(&edited, &read),
        Err("checks/FID-001.md".to_string())
    );
}

#[test]
fn fixes_read_unsaved_buffers_through_text_of() {
    use auditbook::fix;
    use std::sync::Arc;
    // An editor's buffer differs from the file on disk: the edit is computed on the buffer.
    let f = clean();
    f.edit(
        "checks/FID-002.md",
        "spec_baseline: both",
        "spec_baseline: 2026-07-28",
    );
    let loaded = auditbook::load::load(f.root()).unwrap();
    let graph = auditbook::graph::Graph::build(&loaded.catalogue);
    let diags = auditbook::lint::run(&loaded.catalogue, &graph);
    let buffer: Arc<str> = Arc::from(f.read("checks/FID-002.md"));
    let fixes = fix::fixes(&loaded.catalogue, &graph, &diags, &|rel| {
        (rel == "checks/FID-002.md").then(|| Arc::clone(&buffer))
    });
    let e = &fixes[0].edits[0];
    assert_eq!(fixes[0].code, "AB123");
    assert_eq!(&buffer[e.start..e.end], "2026-07-28");
    assert_eq!(e.replacement, "\"2026-07-28\"");
}

#[test]
fn a_fix_killed_after_any_write_step_is_finished_by_the_next_writing_command() {
    let setup = || {
        let f = clean();
        f.edit(
            "checks/FID-001.md",
            "severity: critical",
            "Severity: critical",
        );
        f.edit(
            "checks/FID-002.md",
            "spec_baseline: both",
            "spec_baseline: 2026-07-28",
        );
        f.edit("checks/MANIFEST.txt", "FID-002\n", "");
        f
    };
    let expected = setup();
    expected.cmd().args(["lint", "--fix"]).assert().code(0);
    let mut want = tree(expected.root());
    want.retain(|k, _| !k.starts_with('.'));
    let mut n = 1;
    loop {
        let f = setup();
        let out = f
            .cmd()
            .args(["lint", "--fix"])
            .env(auditbook::write::fault::ENV, n.to_string())
            .output()
            .unwrap();
        if out.status.code() != Some(auditbook::write::fault::EXIT) {
            assert_eq!(out.status.code(), Some(0), "run {n}");
            break;
        }
        // The next writing command finishes the interrupted change.
        f.cmd().arg("sync").output().unwrap();
        let mut got = tree(f.root());
        got.retain(|k, _| !k.starts_with('.'));
        assert_eq!(got, want, "killed after step {n}");
        n += 1;
    }
    assert!(n > 3, "three files are written: at least three steps ({n})");
}
