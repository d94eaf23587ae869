//! Writes that must not destroy what is at the path: `--out` over a FIFO, a symlink, a device
//! node or a directory; `sync` over a symlinked or read-only document; `new` and `retire` over
//! files with CRLF line endings. Each defect beside its clean twin.
#![cfg(unix)]

use crate::common;

use common::{auditbook, Fixture};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

const PROFILE: &str = "examples/amtsblatt-readonly.profile.yaml";
const RESULTS: &str = "examples/amtsblatt-readonly.results.yaml";
const SKILL: &str = "skills/mcp-data-fidelity/SKILL.md";
const STALE: (&str, &str) = (
    "| **Total** | | **13** | | |",
    "| **Total** | | **12** | | |",
);

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The shipped catalogue run with `args`, then `OUT`, under a minute; (exit code, stderr).
fn written(args: &[&str], out: &Path) -> (i32, String) {
    let o = auditbook()
        .arg("-C")
        .arg(repo("catalogue"))
        .args(args)
        .arg(out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `audit --out OUT` on the shipped catalogue and example; (exit code, stderr).
fn audit_out(out: &Path) -> (i32, String) {
    written(&["audit", PROFILE, "--results", RESULTS, "--out"], out)
}

/// A whole report (its links depend on where it is written, so only its ends are compared).
#[track_caller]
fn assert_full_report(text: &str) {
    assert!(
        text.starts_with("# Audit report: amtsblatt-mcp\n")
            && text.ends_with("| scoring | max 100, floor 0; a fail costs critical 20, high 10, medium 5, low 2; partial × 0.5; advisory × 0.5; waived × 1; final from 80% scored |\n"),
        "not a whole report:\n{text}"
    );
}

fn mkfifo(p: &Path) {
    assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
}

#[test]
fn out_to_a_fifo_is_written_through_and_the_fifo_stays() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let (code, err) = audit_out(&fifo);
    if code != 0 {
        // Release the reader, so a failure fails the test instead of hanging it.
        drop(std::fs::OpenOptions::new().write(true).open(&fifo));
    }
    assert_eq!(code, 0, "{err}");
    assert_full_report(&reader.join().unwrap());
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn out_to_dev_null_leaves_the_device_node() {
    let before = std::fs::metadata("/dev/null").unwrap();
    let (code, err) = audit_out(Path::new("/dev/null"));
    assert_eq!(code, 0, "{err}");
    let after = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(after.file_type().is_char_device());
    assert_eq!((after.ino(), after.rdev()), (before.ino(), before.rdev()));
}

#[test]
fn out_through_a_symlink_rewrites_its_target_and_keeps_link_and_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("reports/real.md");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, "old report").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("latest.md");
    std::os::unix::fs::symlink("reports/real.md", &link).unwrap();

    let (code, err) = audit_out(&link);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_full_report(&std::fs::read_to_string(&real).unwrap());
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640, "the rewritten file keeps its permissions");
    // Nothing else appeared: no temporary file left beside the target or the link.
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(dir.path()), ["latest.md", "reports"]);
    assert_eq!(names(&dir.path().join("reports")), ["real.md"]);
}

#[test]
fn out_through_a_dangling_symlink_creates_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("latest.md");
    std::os::unix::fs::symlink("real.md", &link).unwrap();
    let (code, err) = audit_out(&link);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_full_report(&std::fs::read_to_string(dir.path().join("real.md")).unwrap());
}

/// A new file gets 0666 less the umask (it used to get 0600 from the temporary file).
#[test]
fn a_new_report_gets_the_umask_permissions() {
    let dir = tempfile::tempdir().unwrap();
    for (umask, want) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let out = dir.path().join(format!("r{umask}.md"));
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask}; exec \"$0\" \"$@\""))
            .arg(assert_cmd::cargo::cargo_bin("auditbook"))
            .args([
                "-C",
                "catalogue",
                "audit",
                PROFILE,
                "--results",
                RESULTS,
                "--out",
            ])
            .arg(&out)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(status.success());
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, want, "umask {umask}");
    }
    // A new check file too; the manifest it rewrites keeps its own mode.
    let f = Fixture::new("clean");
    std::fs::set_permissions(
        f.path("checks/MANIFEST.txt"),
        std::fs::Permissions::from_mode(0o664),
    )
    .unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("auditbook"))
        .args(["-C", ".", "new", "FID", "--title", "Neu"])
        .current_dir(f.root())
        .status()
        .unwrap();
    assert!(status.success());
    let mode = |rel: &str| std::fs::metadata(f.path(rel)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode("checks/FID-003.md"), 0o644);
    assert_eq!(mode("checks/MANIFEST.txt"), 0o664);
}

#[test]
fn out_to_a_directory_or_block_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = audit_out(dir.path());
    assert_eq!(code, 2);
    assert!(err.contains("is a directory"), "{err}");
    assert!(dir.path().is_dir());

    // A block device node made in a temporary folder, where one can be (as root).
    let node = dir.path().join("blockdev");
    let made = Command::new("mknod")
        .arg(&node)
        .args(["b", "7", "200"])
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let (code, err) = audit_out(&node);
        assert_eq!(code, 2);
        assert!(err.contains("block device"), "{err}");
        assert!(std::fs::symlink_metadata(&node)
            .unwrap()
            .file_type()
            .is_block_device());
    }
}

#[test]
fn out_to_dev_stdout_streams_the_report() {
    let o = auditbook()
        .args(["-C", "catalogue", "audit", PROFILE, "--results", RESULTS])
        .args(["--out", "/dev/stdout"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_full_report(&String::from_utf8(o.stdout).unwrap());
}

/// `--out /dev/stdout` with stdout appending to a log: the report is appended, the log's
/// earlier lines stay (resolving the name to the file would have replaced the log).
#[test]
fn out_to_dev_stdout_appending_to_a_log_keeps_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("ci.log");
    std::fs::write(&log, "früherer Lauf: ok\n").unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >> \"$LOG\"")
        .arg(assert_cmd::cargo::cargo_bin("auditbook"))
        .args(["-C", "catalogue", "audit", PROFILE, "--results", RESULTS])
        .args(["--out", "/dev/stdout"])
        .env("LOG", &log)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    let rest = text
        .strip_prefix("früherer Lauf: ok\n")
        .unwrap_or_else(|| panic!("{text}"));
    assert_full_report(rest);
}

/// The clean twin: an existing regular report is replaced by the new one, whole.
#[test]
fn out_over_a_regular_file_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("report.md");
    std::fs::write(&p, "x".repeat(100_000)).unwrap();
    assert_eq!(audit_out(&p).0, 0);
    assert_full_report(&std::fs::read_to_string(&p).unwrap());
}

// ---- sync ----

fn stale_graph() -> Fixture {
    let f = Fixture::new("graph");
    f.edit(SKILL, STALE.0, STALE.1);
    f
}

#[test]
fn sync_keeps_a_symlinked_document_symlinked() {
    let f = stale_graph();
    let text = f.read(SKILL);
    f.write("shared/SKILL.md", &text);
    f.remove(SKILL);
    std::os::unix::fs::symlink("../../shared/SKILL.md", f.path(SKILL)).unwrap();
    f.cmd().arg("sync").assert().code(0);
    assert!(std::fs::symlink_metadata(f.path(SKILL))
        .unwrap()
        .file_type()
        .is_symlink());
    let synced = f.read("shared/SKILL.md");
    assert!(synced.contains(STALE.0) && !synced.contains(STALE.1));
}

#[test]
fn sync_refuses_a_read_only_document() {
    let f = stale_graph();
    let before = f.read(SKILL);
    std::fs::set_permissions(f.path(SKILL), std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = f.cmd().arg("sync").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("SKILL.md") && err.contains("read-only"),
        "{err}"
    );
    assert_eq!(f.read(SKILL), before);
    let mode = std::fs::metadata(f.path(SKILL))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o444);

    // The clean twin: writable again, it is synced.
    std::fs::set_permissions(f.path(SKILL), std::fs::Permissions::from_mode(0o644)).unwrap();
    f.cmd().arg("sync").assert().code(0);
    assert!(f.read(SKILL).contains(STALE.0));
}

// ---- line endings ----

fn crlf(f: &Fixture, rel: &str) {
    let text = f.read(rel).replace("\r\n", "\n").replace('\n', "\r\n");
    f.write(rel, &text);
}

/// Every line break of the file is CRLF (`true`) or every one is LF (`false`).
fn all_crlf(f: &Fixture, rel: &str) -> bool {
    let text = f.read(rel);
    let lines = text.matches('\n').count();
    let crlfs = text.matches("\r\n").count();
    assert!(
        crlfs == 0 || crlfs == lines,
        "{rel} has mixed line endings:\n{text:?}"
    );
    crlfs > 0
}

#[test]
fn new_and_retire_keep_crlf_line_endings() {
    let f = Fixture::new("clean");
    crlf(&f, "checks/MANIFEST.txt");
    crlf(&f, "catalogue.yaml");
    f.cmd()
        .args(["new", "FID", "--title", "Schlüssel prüfen"])
        .assert()
        .code(0);
    assert!(f.read("checks/MANIFEST.txt").contains("FID-003\r\n"));
    assert!(all_crlf(&f, "checks/MANIFEST.txt"));
    f.cmd()
        .args(["retire", "FID-002", "--date", "2026-09-01"])
        .args(["--reason", "zusammengelegt", "--merged-into", "FID-001"])
        .assert()
        .code(0);
    assert!(all_crlf(&f, "catalogue.yaml"));
    assert!(f.read("catalogue.yaml").contains("  - id: FID-002\r\n"));
    assert!(all_crlf(&f, "checks/MANIFEST.txt"));
    assert!(!f.read("checks/MANIFEST.txt").contains("FID-002"));
}

/// The clean twin: LF files stay LF.
#[test]
fn new_and_retire_keep_lf_line_endings() {
    let f = Fixture::new("clean");
    f.cmd()
        .args(["new", "FID", "--title", "Schlüssel prüfen"])
        .assert()
        .code(0);
    f.cmd()
        .args(["retire", "FID-002", "--date", "2026-09-01"])
        .args(["--reason", "zusammengelegt", "--merged-into", "FID-001"])
        .assert()
        .code(0);
    assert!(!all_crlf(&f, "catalogue.yaml"));
    assert!(!all_crlf(&f, "checks/MANIFEST.txt"));
}

/// Run as root (CI containers often are), a rewritten report stays its owner's file.
#[test]
fn a_rewritten_file_keeps_its_owner() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("report.md");
    std::fs::write(&p, "old").unwrap();
    if std::os::unix::fs::chown(&p, Some(4321), Some(4321)).is_err() {
        return; // not root: a file can only be one's own, nothing to show
    }
    assert_eq!(audit_out(&p).0, 0);
    let meta = std::fs::metadata(&p).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (4321, 4321));
    assert_full_report(&std::fs::read_to_string(&p).unwrap());
}

/// A catalogue change never lands outside the repository: a planted symlink in the catalogue
/// that points outside, or a folder link leading out, is refused before anything is staged,
/// and the twin inside is written.
#[test]
fn a_session_refuses_targets_outside_the_repository() {
    use auditbook::write::{Change, Session};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("cat");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("victim.md"), "unberührt\n").unwrap();
    std::os::unix::fs::symlink(outside.join("victim.md"), root.join("link.md")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("checks")).unwrap();
    let session = Session::begin(&root, || {}).unwrap();
    for change in [
        Change::Write(root.join("link.md"), "x\n".into()),
        Change::Create(root.join("checks/NEW-001.md"), "x\n".into()),
    ] {
        let e = session.apply("test", &[change]).unwrap_err();
        assert!(e.to_string().contains("outside the repository"), "{e}");
    }
    assert_eq!(
        std::fs::read_to_string(outside.join("victim.md")).unwrap(),
        "unberührt\n"
    );
    assert!(!outside.join("NEW-001.md").exists());
    // The clean twin: a file inside is written.
    session
        .apply(
            "test",
            &[Change::Write(root.join("inside.md"), "x\n".into())],
        )
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("inside.md")).unwrap(),
        "x\n"
    );
}

/// `site --out DIR` on the shipped catalogue; (exit code, stderr).
fn site_out(out: &Path) -> (i32, String) {
    written(&["site", "--out"], out)
}

/// Symlinks planted in the site folder (a pull request's `public/`) lead nowhere: a page
/// linked to a file outside and a folder linked to one outside are refused before anything is
/// written, and nothing outside the folder changes or appears.
#[test]
fn site_out_refuses_links_planted_in_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&public).unwrap();
    std::fs::create_dir_all(outside.join("pages")).unwrap();
    std::fs::write(outside.join("victim.txt"), "unberührt\n").unwrap();
    std::os::unix::fs::symlink(outside.join("victim.txt"), public.join("index.html")).unwrap();
    std::os::unix::fs::symlink(outside.join("pages"), public.join("checks")).unwrap();
    let (code, err) = site_out(&public);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    assert_eq!(
        std::fs::read_to_string(outside.join("victim.txt")).unwrap(),
        "unberührt\n"
    );
    assert_eq!(std::fs::read_dir(outside.join("pages")).unwrap().count(), 0);
    // Refused before the first write: no page landed in the folder either.
    let mut names: Vec<String> = std::fs::read_dir(&public)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["checks", "index.html"]);

    // Only the folder link: still refused, still nothing in it.
    std::fs::remove_file(public.join("index.html")).unwrap();
    let (code, err) = site_out(&public);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_dir(outside.join("pages")).unwrap().count(), 0);

    // The folder itself a link: refused.
    std::fs::remove_file(public.join("checks")).unwrap();
    let linked = dir.path().join("linked");
    std::os::unix::fs::symlink(&outside, &linked).unwrap();
    let (code, err) = site_out(&linked);
    assert_eq!(code, 2, "{err}");
    assert!(!outside.join("index.html").exists());
}

/// The clean twin: a folder with real subfolders and an earlier site's pages is written over,
/// and a FIFO planted at a page's name is refused instead of blocking the run.
#[test]
fn site_out_replaces_an_earlier_site_and_refuses_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    std::fs::create_dir_all(public.join("checks")).unwrap();
    std::fs::write(public.join("index.html"), "old\n").unwrap();
    std::fs::write(public.join("checks/FID-006.html"), "old\n").unwrap();
    let (code, err) = site_out(&public);
    assert_eq!(code, 0, "{err}");
    let index = std::fs::read_to_string(public.join("index.html")).unwrap();
    assert!(index.starts_with("<!doctype html>"), "{index}");
    let page = std::fs::read_to_string(public.join("checks/FID-006.html")).unwrap();
    assert!(page.contains("FID-006"), "{page}");
    // Built again: a page that holds the same bytes is left as it is, not replaced.
    let inode = |rel: &str| std::fs::metadata(public.join(rel)).unwrap().ino();
    let before = inode("checks/FID-006.html");
    std::fs::write(public.join("index.html"), "edited by hand\n").unwrap();
    let (code, err) = site_out(&public);
    assert_eq!(code, 0, "{err}");
    assert_eq!(inode("checks/FID-006.html"), before);
    assert_eq!(
        std::fs::read_to_string(public.join("index.html")).unwrap(),
        index
    );

    std::fs::remove_file(public.join("rules.html")).unwrap();
    mkfifo(&public.join("rules.html"));
    let (code, err) = site_out(&public);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rules.html"), "{err}");
}
