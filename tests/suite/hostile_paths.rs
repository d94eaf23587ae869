//! Paths written inside files are confined: a crafted `catalogue.yaml` or portfolio cannot make
//! auditbook open, quote or write files outside the folder it belongs to.

use crate::common;
use common::{findings_in, Fixture};

const SECRET: &str = "TOP-SECRET-VALUE-4711";

/// A secret file beside the catalogue's folder, outside the fence of a catalogue without `.git`.
fn with_secret_outside() -> (tempfile::TempDir, Fixture) {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), format!("{SECRET}\n")).unwrap();
    (outside, Fixture::new("clean"))
}

fn relative_to(from: &std::path::Path, to: &std::path::Path) -> String {
    let depth = from.canonicalize().unwrap().components().count() - 1;
    format!(
        "{}{}",
        "../".repeat(depth),
        to.canonicalize()
            .unwrap()
            .display()
            .to_string()
            .trim_start_matches('/')
    )
}

#[test]
fn a_document_path_leaving_the_repository_is_refused_and_never_read() {
    let (outside, f) = with_secret_outside();
    let secret = outside.path().join("secret.md");
    let rel = relative_to(f.root(), &secret);
    let claim = format!(
        "docs: [\"{rel}\", /etc/passwd, ../../../../proc/self/environ]\nclaims:\n  - name: leak\n    doc: \"{rel}\"\n    pattern: '(?P<n>.+)'\n    expect: {{n: 'count(checks)'}}\n"
    );
    let text = f.read("catalogue.yaml") + &claim;
    f.write("catalogue.yaml", &text);
    for args in [&["verify"][..], &["lint", "--verify"][..]] {
        let out = f.cmd().args(args).output().unwrap();
        let all = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(!all.contains(SECRET), "{args:?} printed the secret:\n{all}");
        assert!(
            !all.contains("root:x:0"),
            "{args:?} printed /etc/passwd:\n{all}"
        );
        assert!(
            !all.contains("PATH="),
            "{args:?} printed the environment:\n{all}"
        );
        assert_eq!(out.status.code(), Some(1), "{args:?} must fail: {all}");
        assert!(all.contains("AB010"), "{all}");
    }
    let (v, _) = f.json_and_code(&["verify", "--format", "json"]);
    let refused = findings_in(&v, "AB010");
    assert_eq!(refused.len(), 3, "{v:#}");
    assert!(refused
        .iter()
        .all(|(file, line, _)| file == "catalogue.yaml" && line.is_some()));
}

#[test]
fn an_allowed_outside_folder_is_read_when_the_command_line_says_so() {
    let (outside, f) = with_secret_outside();
    let rel = relative_to(f.root(), &outside.path().join("secret.md"));
    let text = f.read("catalogue.yaml") + &format!("docs: [\"{rel}\"]\n");
    f.write("catalogue.yaml", &text);
    let (v, _) = f.json_and_code(&["verify", "--format", "json"]);
    assert_eq!(findings_in(&v, "AB010").len(), 1);
    let allow = outside.path().to_string_lossy().into_owned();
    let (v, code) = f.json_and_code(&["--allow-path", &allow, "verify", "--format", "json"]);
    assert!(findings_in(&v, "AB010").is_empty(), "{v:#}");
    assert_eq!(code, 0, "{v:#}");
}

#[test]
fn a_document_inside_the_repository_above_the_root_stays_legal() {
    // The shipped layout: catalogue/ inside a repository whose README sits one level up.
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir(repo.path().join(".git")).unwrap();
    let f = Fixture::new("clean");
    let cat = repo.path().join("catalogue");
    std::fs::rename(f.root(), &cat).unwrap_or_else(|_| {
        // Different file systems: copy instead.
        std::process::Command::new("cp")
            .arg("-r")
            .arg(f.root())
            .arg(&cat)
            .status()
            .unwrap();
    });
    std::fs::write(repo.path().join("README.md"), "# Readme\n").unwrap();
    let text =
        std::fs::read_to_string(cat.join("catalogue.yaml")).unwrap() + "docs: [../README.md]\n";
    std::fs::write(cat.join("catalogue.yaml"), text).unwrap();
    let out = common::auditbook()
        .arg("-C")
        .arg(&cat)
        .args(["verify", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(findings_in(&v, "AB010").is_empty(), "{v:#}");
    assert_eq!(out.status.code(), Some(0), "{v:#}");
}

#[test]
fn a_symlink_inside_the_root_that_leads_out_is_refused() {
    let (outside, f) = with_secret_outside();
    std::os::unix::fs::symlink(outside.path().join("secret.md"), f.path("notes.md")).unwrap();
    let text = f.read("catalogue.yaml") + "docs: [notes.md]\n";
    f.write("catalogue.yaml", &text);
    let out = f.cmd().args(["verify"]).output().unwrap();
    let all = String::from_utf8_lossy(&out.stdout);
    assert!(!all.contains(SECRET), "{all}");
    assert!(all.contains("AB010"), "{all}");
}

#[test]
fn checks_dir_outside_the_root_is_refused_and_new_writes_inside() {
    let (outside, f) = with_secret_outside();
    let rel = relative_to(f.root(), outside.path());
    let text = f.read("catalogue.yaml") + &format!("checks_dir: \"{rel}\"\n");
    f.write("catalogue.yaml", &text);
    let (v, _) = f.lint_json();
    let refused = findings_in(&v, "AB010");
    assert_eq!(refused.len(), 1, "{v:#}");
    assert!(refused[0].1.is_some());
    let before = common::tree(outside.path());
    let _ = f.run(&["new", "FID", "--title", "Probe"]);
    let _ = f.run(&[
        "retire",
        "FID-001",
        "--date",
        "2026-09-01",
        "--reason",
        "test",
    ]);
    assert_eq!(
        common::tree(outside.path()),
        before,
        "a file outside the root was written or removed"
    );

    // The clean twin: an ordinary checks_dir draws no finding.
    let clean = Fixture::new("clean");
    let text = clean.read("catalogue.yaml") + "checks_dir: checks\n";
    clean.write("catalogue.yaml", &text);
    assert!(clean.findings("AB010").is_empty());
}

#[test]
fn portfolio_paths_stay_beside_the_portfolio() {
    let (outside, f) = with_secret_outside();
    let secret = outside.path().join("secret.md");
    f.write("portfolio/ok.profile.yaml", "transport: stdio-only\n");
    f.write(
        "portfolio/evil.yaml",
        &format!(
            "servers:\n  - {{name: abs, profile: \"{}\"}}\n  - {{name: up, profile: \"../../../../../../../../{}\"}}\n  - {{name: good, profile: ok.profile.yaml, results: /etc/shadow}}\n",
            secret.display(),
            secret.display().to_string().trim_start_matches('/')
        ),
    );
    let out = f
        .cmd()
        .args(["portfolio", "portfolio/evil.yaml"])
        .output()
        .unwrap();
    let all =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!all.contains(SECRET), "{all}");
    assert_eq!(all.matches("AB010").count(), 3, "{all}");
}

#[test]
fn a_server_name_cannot_leave_the_results_dir() {
    let f = Fixture::new("clean");
    f.write("pf/p.yaml", "transport: stdio-only\n");
    f.write(
        "pf/portfolio.yaml",
        "servers:\n  - {name: ../leak, profile: p.yaml}\n  - {name: fine, profile: p.yaml}\n",
    );
    f.write("leak.results.yaml", "results: {}\n");
    std::fs::create_dir_all(f.path("pf/results")).unwrap();
    let out = f
        .cmd()
        .args([
            "portfolio",
            "pf/portfolio.yaml",
            "--results-dir",
            "pf/results",
        ])
        .output()
        .unwrap();
    let all =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(all.matches("AB010").count(), 1, "{all}");
    assert!(all.contains("not a plain file name"), "{all}");
}
