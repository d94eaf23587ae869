//! Writing commands at the same time: each takes the catalogue lock, so four `new` runs take
//! four numbers and no update is lost; a run that finds the lock held waits and says so.
#![cfg(unix)]

use crate::common;

use common::Fixture;
use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("auditbook")
}

fn spawn_new(f: &Fixture, title: &str) -> std::process::Child {
    Command::new(bin())
        .args([
            "-C", ".", "new", "FID", "--title", title, "--format", "json",
        ])
        .current_dir(f.root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn manifest_ids(f: &Fixture) -> Vec<String> {
    f.read("checks/MANIFEST.txt")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn four_concurrent_new_runs_create_four_checks() {
    let f = Fixture::new("clean");
    let titles = [
        "Schlüssel prüfen",
        "Zeitzonen «Europe/Zurich»",
        "Paginierung: letzte Seite",
        "Umlaute in Feldnamen",
    ];
    let children: Vec<_> = titles.iter().map(|t| spawn_new(&f, t)).collect();
    let mut ids = BTreeSet::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        ids.insert(v["id"].as_str().unwrap().to_string());
    }
    let want: BTreeSet<String> = ["FID-003", "FID-004", "FID-005", "FID-006"]
        .map(String::from)
        .into();
    assert_eq!(ids, want, "every run took its own number");
    // Each file holds its own title, and the manifest lists each once.
    let mut found_titles = BTreeSet::new();
    for id in &want {
        let text = f.read(&format!("checks/{id}.md"));
        let t = titles.iter().find(|t| text.contains(*t)).unwrap();
        found_titles.insert(*t);
    }
    assert_eq!(found_titles.len(), 4);
    let listed = manifest_ids(&f);
    for id in &want {
        assert_eq!(listed.iter().filter(|l| *l == id).count(), 1, "{listed:?}");
    }
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v:#}");
}

/// A writer that finds the lock held waits for it and says why, then does its work.
#[test]
fn a_writer_waits_for_the_lock() {
    use std::io::BufRead;
    let f = Fixture::new("clean");
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(f.path(auditbook::write::LOCK_FILE))
        .unwrap();
    lock.lock().unwrap();
    let mut child = spawn_new(&f, "Wartet auf die Sperre");
    // Wait (however slow the machine) until the writer says it is waiting.
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(err).lines() {
            let _ = tx.send(line.unwrap_or_default());
        }
    });
    let said = rx.recv_timeout(Duration::from_secs(120)).unwrap();
    assert!(said.contains("waiting for another auditbook run"), "{said}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !f.path("checks/FID-003.md").exists(),
        "wrote while the lock was held"
    );
    let started = Instant::now();
    lock.unlock().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(f.path("checks/FID-003.md").exists());
    assert!(f.read("checks/MANIFEST.txt").contains("FID-003"));
}

/// The clean twin: an uncontended writer says nothing about waiting.
#[test]
fn an_uncontended_writer_does_not_wait() {
    let f = Fixture::new("clean");
    let out = spawn_new(&f, "Allein").wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Read-only commands take no lock: `lint` runs while a writer holds it.
#[test]
fn readers_do_not_wait_for_the_lock() {
    let f = Fixture::new("clean");
    let lock = std::fs::File::create(f.path(auditbook::write::LOCK_FILE)).unwrap();
    lock.lock().unwrap();
    let out = Command::new(bin())
        .args(["-C", ".", "lint"])
        .current_dir(f.root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}
