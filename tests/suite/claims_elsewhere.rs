//! Documents in other repositories (`verify --claims`, `sync --claims`): a German skill
//! repository beside the shipped catalogue, held to the catalogue root and to its snapshot
//! with the same findings, and planted catalogue changes caught from the other side; a
//! SECURITY.md quoting an audit in German and English, held to the examples' audit report.

use crate::common;

use common::{auditbook, fixture_dir, loud_in, Fixture};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The shipped catalogue in its repository, and the skill repository beside it.
struct Repos {
    f: Fixture,
    skill: PathBuf,
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn repos() -> Repos {
    let f = Fixture::shipped();
    let skill = f.dir.path().join("skill");
    copy_dir(&fixture_dir("elsewhere/skill"), &skill);
    // Its own repository: the fence of its documents.
    std::fs::create_dir(skill.join(".git")).unwrap();
    Repos { f, skill }
}

impl Repos {
    /// The catalogue's snapshot as its release job publishes it.
    fn snapshot(&self) -> PathBuf {
        let out = auditbook()
            .arg("-C")
            .arg(self.f.root())
            .arg("snapshot")
            .output()
            .unwrap();
        let path = self.f.dir.path().join("mcp-audit.snapshot.json");
        std::fs::write(&path, common::success(&out, "snapshot")).unwrap();
        path
    }

    fn run(&self, args: &[&str], source: Option<&Path>) -> (Value, i32) {
        let mut c = auditbook();
        c.current_dir(&self.skill).args(args);
        if let Some(s) = source {
            c.arg("--catalogue").arg(s);
        }
        let out = c.args(["--format", "json"]).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not json ({e}): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (v, out.status.code().unwrap_or(-1))
    }

    fn verify(&self, source: Option<&Path>) -> (Value, i32) {
        self.run(&["verify", "--claims", "claims.yaml"], source)
    }

    fn edit(&self, rel: &str, from: &str, to: &str) {
        let p = self.skill.join(rel);
        let t = std::fs::read_to_string(&p).unwrap();
        assert!(t.contains(from), "{rel} lacks {from:?}");
        std::fs::write(&p, t.replacen(from, to, 1)).unwrap();
    }
}

/// (code, file, line, id) of every error and warning.
fn loud(v: &Value) -> Vec<(String, String, u64, String)> {
    loud_in(v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn codes(v: &Value) -> Vec<String> {
    loud(v).into_iter().map(|(c, ..)| c).collect()
}

#[test]
fn the_skill_verifies_clean_against_the_root_and_its_snapshot_alike() {
    let r = repos();
    let (root, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 0, "{root:#}");
    assert_eq!(root["diagnostics"], serde_json::json!([]), "{root:#}");
    assert_eq!(root["summary"]["claims"], 2);
    let (snap, code) = r.verify(Some(&r.snapshot()));
    assert_eq!(code, 0, "{snap:#}");
    assert_eq!(root, snap);
}

/// FID-001 demoted to advisory in the catalogue: the skill still lists it as enforced and its
/// generated regions are stale; the root and the snapshot say so alike.
#[test]
fn a_check_demoted_to_advisory_is_caught_from_the_other_side() {
    let r = repos();
    r.f.edit(
        "checks/FID-001.md",
        "adoption: enforced",
        "adoption: advisory",
    );
    let (root, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 1);
    let found = loud(&root);
    assert!(
        found.contains(&("AB615".into(), "SKILL.md".into(), 55, "FID-001".into())),
        "{found:?}"
    );
    assert_eq!(
        found.iter().filter(|f| f.0 == "AB601").count(),
        2,
        "both regions are stale: {found:?}"
    );
    let (snap, _) = r.verify(Some(&r.snapshot()));
    assert_eq!(root["diagnostics"], snap["diagnostics"]);
}

/// FID-004 retired (merged into FID-001): the counts, the list, the rule table's link and the
/// regions are caught from the other side, from the root and the snapshot alike.
#[test]
fn a_retired_check_is_caught_from_the_other_side() {
    let r = repos();
    let out = auditbook()
        .arg("-C")
        .arg(r.f.root())
        .args(["retire", "FID-004", "--date", "2026-11-30"])
        .args(["--reason", "zusammengelegt", "--merged-into", "FID-001"])
        .output()
        .unwrap();
    common::success(&out, "retire");
    let (root, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 1);
    let c = codes(&root);
    for want in ["AB212", "AB613", "AB618", "AB601"] {
        assert!(c.contains(&want.to_string()), "{want}: {c:?}");
    }
    let drift: Vec<_> = loud(&root)
        .into_iter()
        .filter(|f| f.0 == "AB613")
        .map(|f| f.2)
        .collect();
    assert_eq!(drift, [14, 14], "120 → 119 checks, seven → six in FID");
    let (snap, _) = r.verify(Some(&r.snapshot()));
    assert_eq!(root["diagnostics"], snap["diagnostics"]);
}

#[test]
fn sync_from_a_snapshot_rewrites_the_regions_and_nothing_else() {
    let r = repos();
    r.f.edit(
        "checks/FID-006.md",
        "adoption: advisory",
        "adoption: enforced",
    );
    let snap = r.snapshot();
    let before = std::fs::read_to_string(r.skill.join("SKILL.md")).unwrap();
    let (v, code) = r.run(&["sync", "--claims", "claims.yaml"], Some(&snap));
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["rewritten"], 2, "{v:#}");
    let after = std::fs::read_to_string(r.skill.join("SKILL.md")).unwrap();
    assert!(
        after.contains("| FID | Data fidelity | 7 | 6 | 1 |"),
        "{after}"
    );
    assert!(!after.contains(
        "[FID-006](https://github.com/mcp-audit/catalogue/blob/main/checks/FID-006.md) — "
    ));
    // Outside the regions nothing changed.
    let outside = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("| ") || l.contains("—"))
            .filter(|l| !l.starts_with("- [FID"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(outside(&before), outside(&after));
    // The list in prose is the author's: verify still names it.
    let (v, _) = r.verify(Some(&snap));
    let c = codes(&v);
    assert!(!c.contains(&"AB601".to_string()), "{c:?}");
    assert!(c.contains(&"AB615".to_string()), "{c:?}");
}

#[test]
fn a_rule_row_that_disagrees_or_names_an_unknown_rule_is_found() {
    let r = repos();
    r.edit(
        "SKILL.md",
        "| [FID-006](https://github.com/mcp-audit/catalogue/blob/main/checks/FID-006.md) | ganz |",
        "| [FID-005](https://github.com/mcp-audit/catalogue/blob/main/checks/FID-005.md) | ganz |\n| 99 — Eine Regel, die es nicht gibt | [FID-001](https://github.com/mcp-audit/catalogue/blob/main/checks/FID-001.md) | ganz |",
    );
    let snap = r.snapshot();
    for source in [r.f.root().to_path_buf(), snap] {
        let (v, code) = r.verify(Some(&source));
        assert_eq!(code, 1);
        let found = loud(&v);
        assert!(
            found.contains(&("AB640".into(), "SKILL.md".into(), 46, "FIDELITY-6".into())),
            "{found:?}"
        );
        assert!(
            found.contains(&("AB641".into(), "SKILL.md".into(), 47, "FIDELITY-99".into())),
            "{found:?}"
        );
    }
}

#[test]
fn what_a_snapshot_cannot_answer_is_a_finding_never_a_pass() {
    let r = repos();
    let link = "[FID-006](https://github.com/mcp-audit/catalogue/blob/main/checks/FID-006.md)";
    r.edit(
        "SKILL.md",
        link,
        &link.replace(".md)", ".md#pass-criteria)"),
    );
    let (root, code) = r.verify(Some(r.f.root()));
    assert_eq!((codes(&root), code), (vec![], 0), "the heading exists");
    let (snap, code) = r.verify(Some(&r.snapshot()));
    assert_eq!(code, 0, "a warning");
    assert_eq!(
        loud(&snap),
        [("AB642".into(), "SKILL.md".into(), 46, "FID-006".into())]
    );
    // A wrong fragment is caught against the root.
    r.edit("SKILL.md", "#pass-criteria", "#bestehenskriterien");
    let (root, _) = r.verify(Some(r.f.root()));
    assert_eq!(codes(&root), ["AB215"]);
    // A snapshot of format 1 answers nothing, and says so.
    let old = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("catalogue/releases/mcp-audit-3.0.0.snapshot.json");
    let (v, code) = r.verify(Some(&old));
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [("AB642".into(), "claims.yaml".into(), 1, String::new())]
    );
    // No catalogue at all.
    let (v, code) = r.verify(None);
    assert_eq!(code, 1);
    assert!(codes(&v).iter().all(|c| c == "AB644"), "{v:#}");
    assert_eq!(
        codes(&v).len(),
        2,
        "the claims, and the document with regions: {v:#}"
    );
}

#[test]
fn catalogue_keys_in_a_claims_file_are_ignored_with_a_warning() {
    let r = repos();
    r.edit(
        "claims.yaml",
        "docs: [ SKILL.md ]",
        "docs: [ SKILL.md ]\ncategories:\n  - {prefix: FID, name: Datentreue}",
    );
    let (v, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 0);
    assert_eq!(
        loud(&v),
        [("AB643".into(), "claims.yaml".into(), 10, String::new())]
    );
}

#[test]
fn claims_file_errors_point_at_the_claims_file() {
    let r = repos();
    r.edit("claims.yaml", "count(categories)", "count(kategorien)");
    r.edit(
        "claims.yaml",
        "docs: [ SKILL.md ]",
        "docs: [ SKILL.md, ../catalogue/README.md ]\ndoks: []",
    );
    let (v, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 1);
    let found = loud(&v);
    assert!(
        found.contains(&("AB610".into(), "claims.yaml".into(), 21, String::new())),
        "{found:?}"
    );
    assert!(
        found.contains(&("AB121".into(), "claims.yaml".into(), 10, String::new())),
        "{found:?}"
    );
    // A document outside the document repository is refused, not read.
    assert!(
        found.contains(&("AB010".into(), "claims.yaml".into(), 9, String::new())),
        "{found:?}"
    );
    let text = serde_json::to_string(&v).unwrap();
    assert!(!text.contains("catalogue.yaml"), "{text}");
}

// ---- claims over an audit report ----

/// The examples' audit report, and a copy of the server repository with its SECURITY.md.
fn server() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture_dir("elsewhere/server"), dir.path());
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = auditbook()
        .current_dir(project)
        .args([
            "-C",
            "catalogue",
            "audit",
            "examples/amtsblatt-readonly.profile.yaml",
        ])
        .args([
            "--results",
            "examples/amtsblatt-readonly.results.yaml",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report = dir.path().join("audit.json");
    std::fs::write(&report, common::success(&out, "audit")).unwrap();
    (dir, report)
}

fn verify_report(dir: &Path, report: Option<&str>) -> (Value, i32) {
    let mut c = auditbook();
    c.current_dir(dir)
        .args(["verify", "--claims", "claims.yaml", "--format", "json"]);
    if let Some(r) = report {
        c.args(["--report", r]);
    }
    let out = c.output().unwrap();
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn edit_in(dir: &Path, rel: &str, from: &str, to: &str) {
    let p = dir.join(rel);
    let t = std::fs::read_to_string(&p).unwrap();
    assert!(t.contains(from), "{rel} lacks {from:?}");
    std::fs::write(&p, t.replacen(from, to, 1)).unwrap();
}

#[test]
fn audit_numbers_in_german_and_english_hold_to_the_report() {
    let (dir, _) = server();
    let (v, code) = verify_report(dir.path(), Some("audit.json"));
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{v:#}");
    assert_eq!(v["summary"]["claims"], 5);
}

#[test]
fn a_planted_wrong_number_is_caught_in_either_language() {
    for (from, to, want) in [
        ("62 pass,", "63 pass,", ("AB613", 8)),
        ("Score 83/100", "Score 88/100", ("AB613", 10)),
        ("Two findings", "Three findings", ("AB613", 9)),
        ("vier teilweise", "drei teilweise", ("AB613", 16)),
        (
            "62 Prüfungen bestanden",
            "zweiundsechzig Prüfungen bestanden",
            ("", 0),
        ),
        (
            "**produktionsreif**",
            "**nicht produktionsreif**",
            ("AB645", 17),
        ),
        ("83 von 100", "90 von 100", ("", 0)),
        ("83 von 100", "80 von 100", ("AB613", 17)),
        ("4 partial", "4 teilweise passend", ("AB646", 9)),
        ("SEC-021 and SDK-002", "SEC-021 and OPS-009", ("AB618", 12)),
        (
            "found it production-ready",
            "found it not production-ready",
            ("AB645", 8),
        ),
        // Reworded: the claim would go unchecked, so it is a finding at the section.
        ("Score 83/100", "83 points of 100", ("AB612", 6)),
    ] {
        let (dir, _) = server();
        edit_in(dir.path(), "SECURITY.md", from, to);
        let (v, code) = verify_report(dir.path(), Some("audit.json"));
        let found: Vec<(String, u64)> = loud(&v).into_iter().map(|f| (f.0, f.2)).collect();
        if want.0.is_empty() {
            assert_eq!((found, code), (vec![], 0), "{to} is still true");
        } else {
            assert!(
                found.contains(&(want.0.to_string(), want.1)),
                "{to}: {found:?}"
            );
            assert_eq!(code, 1, "{to}");
        }
    }
}

#[test]
fn report_claims_without_a_report_or_with_a_broken_one_are_findings() {
    let (dir, _) = server();
    let (v, code) = verify_report(dir.path(), None);
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [("AB644".into(), "claims.yaml".into(), 4, String::new())]
    );
    std::fs::write(
        dir.path().join("broken.json"),
        "{\"verdict\": \"production-ready\"}\n",
    )
    .unwrap();
    let (v, code) = verify_report(dir.path(), Some("broken.json"));
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [("AB647".into(), "broken.json".into(), 1, String::new())]
    );
}

// ---- the pipeline: ledger and sync over a claims file ----

/// The skill's count drifts; its claims file accepts the finding in its own `lint.allow`, by
/// the document's path as the claims file's folder names it.
fn accepted(r: &Repos, until: &str) {
    r.edit("SKILL.md", "umfasst 120 Prüfungen", "umfasst 121 Prüfungen");
    r.edit(
        "claims.yaml",
        "docs: [ SKILL.md ]",
        &format!("docs: [ SKILL.md ]\nlint:\n  allow:\n    - code: AB613\n      file: SKILL.md\n      reason: \"die Zahl folgt mit der nächsten Fassung\"\n      until: \"{until}\""),
    );
}

#[test]
fn the_claims_file_s_ledger_accepts_findings_in_its_documents() {
    let r = repos();
    r.edit("SKILL.md", "umfasst 120 Prüfungen", "umfasst 121 Prüfungen");
    let (v, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [("AB613".into(), "SKILL.md".into(), 14, String::new())]
    );
    let r = repos();
    accepted(&r, "2999-12-31");
    let (v, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(loud(&v), []);
    assert_eq!(v["summary"]["suppressed"], 1, "{v:#}");
}

#[test]
fn an_expired_acceptance_in_a_claims_file_is_reported_there() {
    let r = repos();
    accepted(&r, "2020-01-01");
    let (v, code) = r.verify(Some(r.f.root()));
    assert_eq!(code, 1);
    assert_eq!(
        loud(&v),
        [
            ("AB613".into(), "SKILL.md".into(), 14, String::new()),
            ("AB124".into(), "claims.yaml".into(), 12, String::new())
        ],
        "{v:#}"
    );
}

#[test]
fn sync_of_a_claims_file_fails_when_a_declared_document_is_missing() {
    let r = repos();
    r.f.edit(
        "checks/FID-006.md",
        "adoption: advisory",
        "adoption: enforced",
    );
    r.edit(
        "claims.yaml",
        "docs: [ SKILL.md ]",
        "docs: [ SKILL.md, FEHLT.md ]",
    );
    let before = std::fs::read_to_string(r.skill.join("SKILL.md")).unwrap();
    let (v, code) = r.run(&["sync", "--claims", "claims.yaml"], Some(r.f.root()));
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(
        loud(&v),
        [("AB001".into(), "claims.yaml".into(), 9, String::new())],
        "{v:#}"
    );
    assert_eq!(
        std::fs::read_to_string(r.skill.join("SKILL.md")).unwrap(),
        before
    );
    // The twin: with the document declared that exists, the stale regions are rewritten.
    r.edit(
        "claims.yaml",
        "docs: [ SKILL.md, FEHLT.md ]",
        "docs: [ SKILL.md ]",
    );
    let (v, code) = r.run(&["sync", "--claims", "claims.yaml"], Some(r.f.root()));
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["rewritten"], 2, "{v:#}");
}
