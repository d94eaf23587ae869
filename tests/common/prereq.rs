//! What some tests need from outside Rust, installed on first use so that `cargo test --locked`
//! passes on a fresh machine: Python validators and MCP test servers in `target/`, and Debian's
//! Chromium and Neovim through `apt-get` (as root; otherwise the test fails with the command to
//! run). Nothing here skips: a prerequisite that cannot be installed fails the test that needs it.
//!
//! Test binaries run their tests on several threads, and `cargo test` may be run twice at once
//! in one checkout, so every install holds an exclusive lock on `target/prereq.lock` and looks
//! again, under the lock, whether another process installed it meanwhile.

use std::path::{Path, PathBuf};
use std::process::Command;

fn target() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target")
}

/// `ready()`, installing with `steps` (each a program and its arguments) when it is false.
#[track_caller]
fn ensure(what: &str, ready: impl Fn() -> bool, steps: &[Vec<String>]) {
    if ready() {
        return;
    }
    std::fs::create_dir_all(target()).unwrap();
    let lock = std::fs::File::create(target().join("prereq.lock")).unwrap();
    lock.lock().unwrap();
    if ready() {
        return;
    }
    eprintln!("installing {what} for the tests");
    for step in steps {
        let (program, args) = step.split_first().expect("a step names a program");
        let status = Command::new(program)
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status();
        assert!(
            status.as_ref().is_ok_and(|s| s.success()),
            "installing {what} failed at `{}`: {status:?}",
            step.join(" ")
        );
    }
    assert!(ready(), "{what} is still missing after installing it");
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// A Python virtual environment at `dir` with `packages` importable as `modules`.
fn venv(what: &str, dir: &Path, packages: &[&str], modules: &[&str]) -> PathBuf {
    let python = dir.join("bin/python");
    let ready = || {
        python.is_file()
            && Command::new(&python)
                .arg("-c")
                .arg(format!("import {}", modules.join(", ")))
                .output()
                .is_ok_and(|o| o.status.success())
    };
    let pip = dir.join("bin/pip").display().to_string();
    let mut install = vec![pip, "install".into(), "--quiet".into()];
    install.push("--disable-pip-version-check".into());
    install.extend(packages.iter().map(|p| p.to_string()));
    let create = vec![
        "python3".into(),
        "-m".into(),
        "venv".into(),
        dir.display().to_string(),
    ];
    ensure(what, ready, &[create, install]);
    python
}

/// The validators' environment (`check-jsonschema`, `xmlschema`): `target/validators`, or
/// where `AUDITBOOK_VALIDATORS` points (taken as it is, never installed into).
pub fn validators() -> PathBuf {
    if let Some(dir) = std::env::var_os("AUDITBOOK_VALIDATORS") {
        return PathBuf::from(dir);
    }
    let dir = target().join("validators");
    venv(
        "the format validators",
        &dir,
        &["check-jsonschema", "xmlschema"],
        &["check_jsonschema", "xmlschema"],
    );
    dir
}

/// `kubernetes-validate` (PyPI), which carries the Kubernetes API's JSON schemas for every
/// release in the package itself, so manifests are checked offline: `target/kubernetes-validate`.
/// (kubeconform's binary and schema downloads are not reachable from where the tests run.)
pub fn kubernetes_validate() -> PathBuf {
    let dir = target().join("kubernetes-validate");
    venv(
        "the Kubernetes manifest validator (kubernetes-validate)",
        &dir,
        &["kubernetes-validate"],
        &["kubernetes_validate"],
    );
    dir.join("bin/kubernetes-validate")
}

/// The directory of the MCP test servers.
pub fn test_servers() -> PathBuf {
    target().join("test-servers")
}

/// The reference MCP server's entry point (npm `@modelcontextprotocol/server-everything`).
pub fn server_everything() -> PathBuf {
    let dir = test_servers();
    let js = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let install = words("npm install --no-audit --no-fund --prefix")
        .into_iter()
        .chain([
            dir.display().to_string(),
            "@modelcontextprotocol/server-everything".into(),
        ])
        .collect();
    ensure(
        "@modelcontextprotocol/server-everything (npm)",
        || js.is_file(),
        &[install],
    );
    js
}

/// The official conformance suite and a Node.js it runs on (it needs Node 22 or newer; the npm
/// package `node` provides one under `target/`, whatever the machine has): `(node, suite)`.
pub fn conformance() -> (PathBuf, PathBuf) {
    let dir = test_servers().join("conformance");
    let node = dir.join("node_modules/node/bin/node");
    let suite = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let install = words("npm install --no-audit --no-fund --prefix")
        .into_iter()
        .chain([
            dir.display().to_string(),
            "@modelcontextprotocol/conformance@0.2.0-alpha.12".into(),
            "node@22".into(),
        ])
        .collect();
    ensure(
        "the MCP conformance suite and Node.js 22 (npm)",
        || node.is_file() && suite.is_file(),
        &[install],
    );
    (node, suite)
}

/// Python with the `mcp` 2.x package (both revisions), for the correct modern test server.
pub fn mcp2_python() -> PathBuf {
    venv(
        "the Python `mcp` 2.x package",
        &test_servers().join("venv-mcp2"),
        &["mcp>=2.3,<3"],
        &["mcp.server.mcpserver"],
    )
}

/// Python with the `mcp` 1.x package (2025-11-25 only), for the planted legacy test server.
pub fn mcp_python() -> PathBuf {
    venv(
        "the Python `mcp` package",
        &test_servers().join("venv"),
        &["mcp>=1.12,<2"],
        &["mcp.server.fastmcp"],
    )
}

/// The first of `names` found on `PATH` (or in `/usr/bin`).
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .collect();
    names
        .iter()
        .flat_map(|n| dirs.iter().map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// A program (one of `names`) from a Debian package, installed with `apt-get` when missing
/// and running as root.
fn debian(what: &str, package: &str, names: &[&str]) -> PathBuf {
    if let Some(p) = on_path(names) {
        return p;
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    assert!(
        root,
        "{what} is needed by this test and is not installed; install Debian's package as \
         root: apt-get update && apt-get install -y {package}"
    );
    ensure(
        &format!("{what} (Debian package `{package}`)"),
        || on_path(names).is_some(),
        &[
            words("apt-get update -qq"),
            words(&format!("apt-get install -y -qq {package}")),
        ],
    );
    on_path(names).expect("checked by ensure")
}

/// bubblewrap, the sandbox `probe` and `collect` start servers in.
pub fn bwrap() -> PathBuf {
    debian("bubblewrap", "bubblewrap", &["bwrap"])
}

/// Headless Chromium.
pub fn chromium() -> PathBuf {
    debian("Chromium", "chromium", &["chromium", "chromium-browser"])
}

/// Neovim.
pub fn nvim() -> PathBuf {
    debian("Neovim", "neovim", &["nvim"])
}
