//! Hostile and huge inputs through the real binary, and writes that must never lose a user's
//! text: a failure in the middle of `sync`, `new` or `retire` leaves every file as it was,
//! links out of the catalogue are refused, and concurrent `sync` runs never interleave.

use crate::common;

use common::{findings_in, tree, Fixture};
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Far above any expected run time: only there so a hang fails the test instead of CI.
const LIMIT: Duration = Duration::from_secs(300);
const SKILL: &str = "skills/mcp-data-fidelity/SKILL.md";
const STALE: (&str, &str) = (
    "| **Total** | | **13** | | |",
    "| **Total** | | **12** | | |",
);

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not json ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn lint(f: &Fixture) -> (Value, i32) {
    let out = f
        .cmd()
        .args(["lint", "--format", "json"])
        .timeout(LIMIT)
        .output()
        .unwrap();
    (json_of(&out), out.status.code().unwrap_or(-1))
}

fn message(v: &Value, code: &str) -> String {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code)
        .map(|d| d["message"].as_str().unwrap_or("").to_string())
        .unwrap_or_default()
}

fn set_applies_when(f: &Fixture, expr: &str) {
    f.edit(
        "checks/FID-001.md",
        "applies_when: 'tools_make_external_requests == true and transport != \"stdio-only\"'",
        &format!("applies_when: '{expr}'"),
    );
}

// ---- deep and huge inputs ----

fn parenthesised(n: usize) -> String {
    format!("{}write_capable == true{}", "(".repeat(n), ")".repeat(n))
}

#[test]
fn ten_thousand_parentheses_are_a_diagnostic_not_a_stack_overflow() {
    for (n, says) in [(10_000, "the limit is"), (5_000, "nests deeper than")] {
        let f = Fixture::new("clean");
        set_applies_when(&f, &parenthesised(n));
        let (v, code) = lint(&f);
        assert_eq!(code, 1);
        assert_eq!(
            findings_in(&v, "AB301"),
            [(
                "checks/FID-001.md".to_string(),
                Some(6),
                Some("FID-001".to_string())
            )]
        );
        assert!(message(&v, "AB301").contains(says), "{v}");
    }
}

/// The clean twin: nesting within the limit is judged like any other expression.
#[test]
fn moderate_nesting_is_judged_normally() {
    let f = Fixture::new("clean");
    set_applies_when(&f, &parenthesised(60));
    let (v, _) = lint(&f);
    assert!(findings_in(&v, "AB301").is_empty(), "{v}");
}

#[test]
fn a_hundred_kilobyte_expression_is_a_diagnostic() {
    let f = Fixture::new("clean");
    let term = "transport == \"dual\"";
    let expr = vec![term; 100 * 1024 / (term.len() + 4)].join(" or ");
    assert!(expr.len() > 100_000);
    set_applies_when(&f, &expr);
    let (v, code) = lint(&f);
    assert_eq!(code, 1);
    assert_eq!(findings_in(&v, "AB301").len(), 1, "{v}");
    assert!(message(&v, "AB301").contains("the limit is"), "{v}");
}

/// The clean twin: a long but admissible expression is judged normally.
#[test]
fn a_long_flat_expression_within_the_limit_is_judged_normally() {
    let f = Fixture::new("clean");
    let term = "transport == \"dual\"";
    let expr = vec![term; 12 * 1024 / (term.len() + 4)].join(" or ");
    set_applies_when(&f, &expr);
    let (v, _) = lint(&f);
    assert!(findings_in(&v, "AB301").is_empty(), "{v}");
}

fn ten_megabytes(line: &str) -> String {
    line.repeat(10 * 1024 * 1024 / line.len() + 1)
}

#[test]
fn a_ten_megabyte_document_is_verified_normally() {
    let f = Fixture::new("graph");
    let mut text = f.read(SKILL);
    text.push_str("\n## Anhang\n\n");
    text.push_str(&ten_megabytes(
        "Prose naming FID-001 and linking [FID-002](../../checks/FID-002.md), *emphasis*, `code`.\n",
    ));
    f.write(SKILL, &text);
    let out = f
        .cmd()
        .args(["verify", "--format", "json"])
        .timeout(LIMIT)
        .output()
        .unwrap();
    let v = json_of(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    let (v, code) = lint(&f);
    assert_eq!(code, 0, "{v}");
}

/// Two megabytes of nothing but nesting (a stack would overflow at a small fraction of this):
/// Markdown parsing must not recurse per level.
#[test]
fn a_document_of_deep_nesting_is_read() {
    let f = Fixture::new("graph");
    let mut text = f.read(SKILL);
    text.push_str("\n## Anhang\n\n");
    text.push_str(&">".repeat(1024 * 1024));
    text.push_str(" FID-001\n\n");
    text.push_str(&"[".repeat(1024 * 1024));
    f.write(SKILL, &text);
    let out = f
        .cmd()
        .args(["verify", "--format", "json"])
        .timeout(LIMIT)
        .output()
        .unwrap();
    json_of(&out);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
}

#[test]
fn a_ten_megabyte_check_body_is_linted_normally() {
    let f = Fixture::new("clean");
    let mut text = f.read("checks/FID-001.md");
    text.push_str("\n## Notes\n\n");
    text.push_str(&ten_megabytes(
        "- [ ] see [DRIFT-001](https://github.com/example/catalogue/blob/main/checks/DRIFT-001.md) and ARCH-001.\n",
    ));
    f.write("checks/FID-001.md", &text);
    let (v, code) = lint(&f);
    assert!(matches!(code, 0 | 1), "{v}");
    // Reported, if at all, as findings on the file: never a failure to load it.
    assert!(findings_in(&v, "AB001").is_empty() && findings_in(&v, "AB007").is_empty());
    let out = f
        .cmd()
        .args(["show", "FID-001", "--format", "json"])
        .timeout(LIMIT)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    json_of(&out);
}

#[test]
fn a_document_over_the_size_limit_is_refused_with_a_diagnostic() {
    let f = Fixture::new("graph");
    let big = vec![b'x'; 33 * 1024 * 1024];
    f.write_bytes(SKILL, &big);
    let (v, code) = lint(&f);
    assert_eq!(code, 1);
    assert_eq!(findings_in(&v, "AB007").len(), 1, "{v}");
    assert!(message(&v, "AB007").contains("over the limit of"), "{v}");
}

// ---- nothing lost ----

/// Run the binary with a file-size limit (`ulimit -f`, in 512- or 1024-byte blocks) and
/// SIGXFSZ ignored, so every write past the limit fails with an I/O error instead of
/// killing the process: an injected failure that also works for root, which permissions
/// would not stop.
fn with_file_size_limit(f: &Fixture, blocks: u32, args: &[&str]) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("auditbook");
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\""
        ))
        .arg(bin)
        .args(["-C", "."])
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(f.root());
    assert_cmd::Command::from_std(c)
        .timeout(LIMIT)
        .output()
        .unwrap()
}

/// Eight blocks is 4 or 8 KiB: every fixture file fits, the padded ones do not.
const BLOCKS: u32 = 8;
const PADDING: usize = 64 * 1024;

fn pad_manifest(f: &Fixture) {
    let mut m = f.read("checks/MANIFEST.txt");
    m.push_str(&"# padding to exceed the file size limit of the test\n".repeat(PADDING / 52));
    f.write("checks/MANIFEST.txt", &m);
}

#[test]
fn sync_failing_on_its_second_document_restores_the_first() {
    let f = Fixture::new("graph");
    f.edit(SKILL, STALE.0, STALE.1);
    // A second stale document, written after SKILL.md (documents go in path order) and too
    // big for the limit.
    let mut big = f.read(SKILL);
    big.push_str(&"Filler prose.\n".repeat(PADDING / 14));
    f.write("zz/big.md", &big);
    f.edit(
        "catalogue.yaml",
        "docs: [skills/mcp-data-fidelity/SKILL.md]",
        "docs: [skills/mcp-data-fidelity/SKILL.md, zz/big.md]",
    );
    let before = tree(f.root());
    assert!(before[SKILL].len() < 4096);
    let out = with_file_size_limit(&f, BLOCKS, &["sync"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write") && err.contains("big.md"),
        "{err}"
    );
    assert!(
        tree(f.root()) == before,
        "sync changed files although it failed"
    );

    // The clean twin: without the limit both documents are rewritten.
    f.cmd().arg("sync").timeout(LIMIT).assert().code(0);
    assert!(f.read(SKILL).contains(STALE.0) && f.read("zz/big.md").contains(STALE.0));
}

#[test]
fn new_failing_on_the_manifest_removes_the_new_check() {
    let f = Fixture::new("clean");
    pad_manifest(&f);
    let before = tree(f.root());
    let out = with_file_size_limit(&f, BLOCKS, &["new", "FID", "--title", "Fresh check"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nothing was changed"), "{err}");
    assert!(tree(f.root()) == before, "new left changes behind");

    f.cmd()
        .args(["new", "FID", "--title", "Fresh check"])
        .timeout(LIMIT)
        .assert()
        .code(0);
    assert!(f.path("checks/FID-003.md").exists());
    assert!(f.read("checks/MANIFEST.txt").contains("FID-003"));
}

#[test]
fn retire_failing_on_the_manifest_restores_catalogue_yaml_and_the_check() {
    let f = Fixture::new("clean");
    pad_manifest(&f);
    let before = tree(f.root());
    assert!(before["catalogue.yaml"].len() < 3000);
    let args = [
        "retire",
        "FID-002",
        "--date",
        "2026-09-01",
        "--reason",
        "merged",
        "--merged-into",
        "FID-001",
    ];
    let out = with_file_size_limit(&f, BLOCKS, &args);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was changed"));
    assert!(tree(f.root()) == before, "retire left changes behind");

    f.cmd().args(args).timeout(LIMIT).assert().code(0);
    assert!(!f.path("checks/FID-002.md").exists());
    assert!(f.read("catalogue.yaml").contains("FID-002"));
}

/// The same at library level with a different failure: the second document's path turns
/// into a non-empty directory between planning and writing, so its rename fails.
#[test]
fn a_sync_plan_failing_on_a_rename_restores_what_it_wrote() {
    let f = Fixture::new("graph");
    f.edit(SKILL, STALE.0, STALE.1);
    f.write("zz/big.md", &f.read(SKILL));
    f.edit(
        "catalogue.yaml",
        "docs: [skills/mcp-data-fidelity/SKILL.md]",
        "docs: [skills/mcp-data-fidelity/SKILL.md, zz/big.md]",
    );
    let loaded = auditbook::load::load(f.root()).unwrap();
    let templates = auditbook::render::templates::Templates::new(None).unwrap();
    let plan = auditbook::claims::plan_sync(&loaded.catalogue, &templates)
        .unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(plan.changes.len(), 2);
    std::fs::remove_file(f.path("zz/big.md")).unwrap();
    f.write("zz/big.md/keep", "in the way");
    let before = tree(f.root());
    let session = auditbook::write::Session::begin(f.root(), || {}).unwrap();
    assert!(session.apply("sync", &plan.changes).is_err());
    assert!(tree(f.root()) == before);
}

// ---- links out of the root ----

#[test]
fn a_check_file_linking_outside_the_root_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let f = Fixture::new("clean");
    let target = outside.path().join("FID-009.md");
    std::fs::write(
        &target,
        f.read("checks/FID-002.md").replace("FID-002", "FID-009"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&target, f.path("checks/FID-009.md")).unwrap();
    let (v, code) = lint(&f);
    assert_eq!(code, 1);
    assert_eq!(
        findings_in(&v, "AB005"),
        [("checks/FID-009.md".to_string(), None, None)]
    );
    assert!(message(&v, "AB005").contains("outside the catalogue root"));
}

#[test]
fn a_check_file_linking_inside_the_root_is_read() {
    let f = Fixture::new("clean");
    f.write(
        "drafts/FID-009.md",
        &f.read("checks/FID-002.md").replace("FID-002", "FID-009"),
    );
    std::os::unix::fs::symlink("../drafts/FID-009.md", f.path("checks/FID-009.md")).unwrap();
    let (v, _) = lint(&f);
    assert!(findings_in(&v, "AB005").is_empty(), "{v}");
    assert!(findings_in(&v, "AB001").is_empty(), "{v}");
}

#[test]
fn catalogue_yaml_linking_outside_the_root_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let f = Fixture::new("clean");
    let target = outside.path().join("catalogue.yaml");
    std::fs::copy(f.path("catalogue.yaml"), &target).unwrap();
    f.remove("catalogue.yaml");
    std::os::unix::fs::symlink(&target, f.path("catalogue.yaml")).unwrap();
    let (v, _) = lint(&f);
    assert_eq!(findings_in(&v, "AB005").len(), 1, "{v}");
}

// ---- concurrent sync ----

#[test]
fn concurrent_syncs_never_interleave_partial_writes() {
    let docs = ["docs/a.md", "docs/b.md", "notes/c.md", SKILL];
    let setup = || {
        let f = Fixture::new("graph");
        let skill = f.read(SKILL);
        for d in &docs[..3] {
            let mut t = skill.clone();
            // Enough text that a torn write would be visible.
            t.push_str(&format!("\n{}\n", "Lorem ipsum FID-001.\n".repeat(4000)));
            f.write(d, &t);
        }
        f.edit(
            "catalogue.yaml",
            "docs: [skills/mcp-data-fidelity/SKILL.md]",
            "docs: [skills/mcp-data-fidelity/SKILL.md, docs/a.md, docs/b.md, notes/c.md]",
        );
        for d in docs {
            f.edit(d, STALE.0, STALE.1);
        }
        f
    };
    let expected = setup();
    expected.cmd().arg("sync").timeout(LIMIT).assert().code(0);

    let f = setup();
    let bin = assert_cmd::cargo::cargo_bin("auditbook");
    let children: Vec<_> = (0..6)
        .map(|_| {
            Command::new(&bin)
                .args(["-C", ".", "sync"])
                .current_dir(f.root())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        // A run that saw a document change under it refuses (1) and writes nothing; no run
        // may fail to do its job.
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for d in docs {
        assert!(f.read(d) == expected.read(d), "{d} is not the synced text");
    }
    assert!(tree(f.root()) == tree(expected.root()), "stray files left");
    f.cmd()
        .args(["verify", "--format", "json"])
        .timeout(LIMIT)
        .assert()
        .code(0);
}
