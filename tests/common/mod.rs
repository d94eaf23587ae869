//! Shared test helpers: fixture catalogues copied to a temporary directory, edited, and run
//! through the real binary.
#![allow(dead_code)]

pub mod prereq;
pub mod probe;
pub mod validators;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

pub fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The binary, colour off.
pub fn auditbook() -> Command {
    let mut c = Command::cargo_bin("auditbook").unwrap();
    c.env("NO_COLOR", "1");
    c
}

/// The stdout of a run that must have exited 0 (its stderr in the failure message).
#[track_caller]
pub fn success(out: &Output, what: impl std::fmt::Debug) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A writable copy of a fixture catalogue.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    /// The catalogue root inside `dir` (`dir` itself unless set).
    root: PathBuf,
}

impl Fixture {
    pub fn new(name: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&fixture_dir(name), dir.path());
        let root = dir.path().to_path_buf();
        Fixture { dir, root }
    }

    /// A writable copy of the shipped catalogue as it sits in its repository: the root is
    /// `catalogue/` below a directory holding `.git`, the README its claims read and the
    /// example inputs it declares.
    pub fn shipped() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let project = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = dir.path().join("catalogue");
        copy_dir(&project.join("catalogue"), &root);
        std::fs::copy(project.join("README.md"), dir.path().join("README.md")).unwrap();
        // The example inputs its catalogue.yaml declares (`examples`).
        copy_dir(&project.join("examples"), &dir.path().join("examples"));
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        Fixture { dir, root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }

    pub fn write(&self, rel: &str, text: &str) -> &Self {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
        self
    }

    pub fn write_bytes(&self, rel: &str, bytes: &[u8]) -> &Self {
        std::fs::write(self.path(rel), bytes).unwrap();
        self
    }

    /// Replace exactly one occurrence of `from` in a file (panics if absent: a test that edits
    /// nothing would test nothing).
    pub fn edit(&self, rel: &str, from: &str, to: &str) -> &Self {
        let text = self.read(rel);
        assert!(text.contains(from), "{rel} does not contain {from:?}");
        self.write(rel, &text.replacen(from, to, 1))
    }

    pub fn remove(&self, rel: &str) -> &Self {
        std::fs::remove_file(self.path(rel)).unwrap();
        self
    }

    pub fn cmd(&self) -> Command {
        let mut c = auditbook();
        c.arg("-C").arg(".").current_dir(self.root());
        c
    }

    /// Stdout as text and the exit code, whatever it is.
    pub fn run(&self, args: &[&str]) -> (String, i32) {
        let out = self.cmd().args(args).output().unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            out.status.code().unwrap_or(-1),
        )
    }

    /// Stdout of a run that must exit 0.
    #[track_caller]
    pub fn stdout(&self, args: &[&str]) -> String {
        success(&self.cmd().args(args).output().unwrap(), args)
    }

    /// Stdout of a run that must exit 0, parsed as JSON.
    #[track_caller]
    pub fn json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.stdout(args)).unwrap()
    }

    /// Stdout parsed as JSON, and the exit code, whatever it is (findings exit 1).
    #[track_caller]
    pub fn json_and_code(&self, args: &[&str]) -> (Value, i32) {
        let out = self.cmd().args(args).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not json ({e}): {}", String::from_utf8_lossy(&out.stdout)));
        (v, out.status.code().unwrap_or(-1))
    }

    /// `lint --format json`, parsed; also returns the exit code.
    pub fn lint_json(&self) -> (Value, i32) {
        self.json_and_code(&["lint", "--format", "json"])
    }

    /// The diagnostics with this code as (file, line, id).
    pub fn findings(&self, code: &str) -> Vec<(String, Option<u64>, Option<String>)> {
        let (v, _) = self.lint_json();
        findings_in(&v, code)
    }
}

pub fn findings_in(v: &Value, code: &str) -> Vec<(String, Option<u64>, Option<String>)> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| {
            (
                d["file"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64(),
                d["id"].as_str().map(str::to_string),
            )
        })
        .collect()
}

pub fn codes_in(v: &Value) -> Vec<String> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// The errors and warnings of a diagnostics document (`lint`/`verify --format json`).
pub fn loud_in(v: &Value) -> Vec<&Value> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["level"] != "note")
        .collect()
}

/// Every file under `root` with its bytes, by relative path: equal before and after means
/// nothing changed, no temporary file was left behind and nothing was removed.
pub fn tree(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            // The lock file is the one file every writing command leaves, by design.
            if p.file_name()
                .is_some_and(|n| n == auditbook::write::LOCK_FILE)
            {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(root, root, &mut out);
    out
}
