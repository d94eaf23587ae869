//! `auditbook collect` against packages installed through the same path as published ones:
//! a planted-defect Python server and its clean twin (wheels on a PEP 503 index), a console
//! script that exits without a word, and a small TypeScript package and its twin (tarballs on
//! an npm registry) — index and registry served on loopback by `python3 -m http.server` from
//! what `tests/servers/packages.py` builds, named to pip and npm through their own
//! configuration (`PIP_INDEX_URL`, `npm_config_registry`). Every planted defect is found by
//! its rule with file and line, the twins are clean, and the started servers run in the
//! sandbox, which refuses an outside connection and a write into the home folder.

use crate::common;

use common::auditbook;
use common::probe::{free_port, listening, root, Server};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The index and registry, built and served once for every test of this file.
struct Packages {
    dir: PathBuf,
    base: String,
    _server: Server,
}

fn packages() -> &'static Packages {
    static P: OnceLock<Packages> = OnceLock::new();
    P.get_or_init(|| {
        common::prereq::bwrap();
        // Built afresh for each run, under target/ (kept for a look after a failure).
        let dir = root().join("target/collect-packages");
        let _ = std::fs::remove_dir_all(&dir);
        let port = free_port();
        let base = format!("http://127.0.0.1:{port}");
        let built = Command::new("python3")
            .arg(root().join("tests/servers/packages.py"))
            .arg(&dir)
            .arg(&base)
            .status()
            .unwrap_or_else(|e| panic!("cannot run python3: {e}"));
        assert!(built.success(), "tests/servers/packages.py failed");
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .arg("--directory")
            .arg(&dir);
        let server = listening(cmd, port);
        Packages {
            dir,
            base,
            _server: server,
        }
    })
}

fn fixture() -> PathBuf {
    root().join("tests/fixtures/collect")
}

/// `auditbook -C tests/fixtures/collect --format json collect server.profile.yaml ARGS` in a
/// fresh folder with a fresh cache: (the JSON, the results file's value, exit code, stderr).
fn collect(args: &[&str], dir: &Path) -> (Value, Value, i32, String) {
    let p = packages();
    let out = auditbook()
        .current_dir(dir)
        .arg("-C")
        .arg(fixture())
        .args(["--format", "json", "collect"])
        .arg(fixture().join("server.profile.yaml"))
        .args(args)
        .args(["--results", "r.yaml"])
        .env("AUDITBOOK_CACHE_DIR", dir.join("cache"))
        .env("PIP_INDEX_URL", format!("{}/simple", p.base))
        .env("UV_INDEX_URL", format!("{}/simple", p.base))
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .env("npm_config_registry", format!("{}/npm/", p.base))
        .env("npm_config_cache", dir.join("npm-cache"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("collect printed no JSON ({e}): {stdout}\n{stderr}"));
    let text = std::fs::read_to_string(dir.join("r.yaml"))
        .unwrap_or_else(|e| panic!("no results file: {e}\n{stderr}"));
    let results: Value = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    (json, results, out.status.code().unwrap_or(-1), stderr)
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

fn status<'a>(results: &'a Value, id: &str) -> &'a str {
    results["results"][id]["status"].as_str().unwrap_or("")
}

fn evidence(results: &Value, id: &str) -> String {
    common::probe::evidence(&results["results"][id])
}

fn lines() -> Value {
    let text = std::fs::read_to_string(packages().dir.join("lines.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// `file:line:` of a planted defect, as a finding names it.
fn at(defect: &str) -> String {
    let l = &lines()[defect];
    format!("{}:{}:", l[0].as_str().unwrap_or(""), l[1])
}

#[test]
fn every_planted_defect_of_the_python_package_is_found_with_file_and_line() {
    let d = tmp();
    let (json, r, code, stderr) = collect(&["--package", "pypi:planted-mcp==1.0.0"], d.path());
    assert_eq!(code, 1, "findings exit 1: {stderr}");
    // The package block: what was installed, from which artifact, run how.
    let pkg = &r["package"];
    assert_eq!(pkg["name"], "planted-mcp");
    assert_eq!(pkg["version"], "1.0.0");
    assert_eq!(pkg["installed"], true);
    let wheel = packages()
        .dir
        .join("simple/planted-mcp/planted_mcp-1.0.0-py3-none-any.whl");
    let digest = format!(
        "sha256:{}",
        sha256_hex(&std::fs::read(&wheel).unwrap_or_default())
    );
    assert_eq!(pkg["digest"], Value::String(digest.clone()));
    assert!(
        pkg["sandbox"]
            .as_str()
            .is_some_and(|s| s.starts_with("sandboxed (bubblewrap")),
        "{pkg}"
    );
    // Each defect, by its rule, where it is.
    assert_eq!(status(&r, "IDENT-002"), "partial");
    assert!(
        evidence(&r, "IDENT-002").contains(&format!(
            "{}1: `__version__ = \"0.9.0\"`",
            at("version-literal")
        )),
        "{}",
        evidence(&r, "IDENT-002")
    );
    assert_eq!(status(&r, "IDENT-001"), "fail");
    let ident = evidence(&r, "IDENT-001");
    assert!(ident.contains(&at("ua-literal")), "{ident}");
    assert!(
        ident.contains("announces 0.9.0; the installed version is 1.0.0"),
        "the User-Agent on the wire, caught through the proxy: {ident}"
    );
    assert_eq!(
        pkg["user_agents"],
        serde_json::json!(["planted-mcp/0.9.0 (+https://example.invalid)"])
    );
    assert_eq!(
        status(&r, "OBS-001"),
        "needs_triage",
        "a signal waits for a person"
    );
    assert!(evidence(&r, "OBS-001").contains(&at("exception-text")));
    assert_eq!(status(&r, "DEP-001"), "fail");
    let dep = evidence(&r, "DEP-001");
    assert!(
        dep.contains("planted_mcp-1.0.0.dist-info/METADATA:4:1: `planted-dep>=1.0`"),
        "{dep}"
    );
    assert!(
        dep.contains("import planted_extra: ModuleNotFoundError"),
        "the second module fails to import, the root package first: {dep}"
    );
    assert!(dep.contains("`import planted_mcp` works"), "{dep}");
    assert_eq!(status(&r, "IDENT-003"), "partial");
    assert!(evidence(&r, "IDENT-003").contains("newest release is 1.1.0"));
    assert_eq!(status(&r, "ARCH-001"), "fail");
    assert!(evidence(&r, "ARCH-001").contains("`GetAllNotices`"));
    // The server started, answered and stayed up: that much is clean.
    assert_eq!(status(&r, "OPS-001"), "pass", "{}", evidence(&r, "OPS-001"));
    // Every machine result names the artifact it was taken from.
    for id in [
        "DEP-001",
        "IDENT-001",
        "IDENT-002",
        "IDENT-003",
        "OBS-001",
        "OPS-001",
    ] {
        assert_eq!(
            r["results"][id]["digest"],
            Value::String(digest.clone()),
            "{id}"
        );
    }
    assert_eq!(json["machine_decided"], 6, "{json}");
}

#[test]
fn the_clean_twin_passes_every_check() {
    let d = tmp();
    let (json, r, code, stderr) = collect(&["--package", "pypi:clean-mcp"], d.path());
    for id in [
        "ARCH-001",
        "DEP-001",
        "IDENT-001",
        "IDENT-002",
        "IDENT-003",
        "OBS-001",
        "OPS-001",
    ] {
        assert_eq!(status(&r, id), "pass", "{id}: {}", evidence(&r, id));
    }
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["machine_decided"], 7);
    // Every decided check carries its evidence, and so may one a person still completes.
    assert!(json["machine_evidence"].as_u64() >= Some(7), "{json}");
    assert_eq!(
        r["package"]["user_agents"],
        serde_json::json!(["clean-mcp/1.0.0 (+https://example.invalid)"])
    );
}

#[test]
fn a_script_that_exits_without_a_word_does_not_start() {
    let d = tmp();
    let (_, r, code, _) = collect(&["--package", "pypi:silent-mcp"], d.path());
    assert_eq!(code, 1);
    assert_eq!(status(&r, "OPS-001"), "fail");
    assert!(
        evidence(&r, "OPS-001").contains("exited with code 0"),
        "{}",
        evidence(&r, "OPS-001")
    );
    // What the probe could not gather makes an audit of these results incomplete.
    assert_eq!(r["probe"]["reached"], false);
}

#[test]
fn the_typescript_package_and_its_twin_from_the_registry() {
    let d = tmp();
    let (_, r, _, stderr) = collect(&["--package", "npm:planted-ts", "--no-start"], d.path());
    assert_eq!(r["package"]["name"], "planted-ts", "{stderr}");
    assert_eq!(status(&r, "IDENT-001"), "needs_triage");
    assert!(
        evidence(&r, "IDENT-001").contains("planted-ts/src/client.ts:4:14: `'planted-ts/0.0.1'`"),
        "{}",
        evidence(&r, "IDENT-001")
    );
    assert_eq!(
        status(&r, "IDENT-003"),
        "pass",
        "read from the same registry"
    );
    let d = tmp();
    let (_, r, _, _) = collect(&["--package", "npm:clean-ts", "--no-start"], d.path());
    assert!(
        !evidence(&r, "IDENT-001").contains("client.ts:"),
        "{}",
        evidence(&r, "IDENT-001")
    );
    // The twin's JavaScript has no rule: the check says so instead of passing.
    assert!(evidence(&r, "IDENT-001").contains("not scanned: no rule for JavaScript"));
}

/// The sandbox refuses a connection to the machine's loopback and a write outside its scratch
/// folder; the same server started without it does both (the positive control).
#[test]
fn a_sandboxed_server_cannot_connect_out_or_write_the_home_folder() {
    common::prereq::bwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let home = tempfile::tempdir_in(root().join("target")).unwrap_or_else(|e| panic!("{e}"));
    let cmd = format!(
        "python3 {} {port} {}",
        root()
            .join("tests/servers/sandbox_probe_server.py")
            .display(),
        home.path().display()
    );
    let run = |mode: &str| {
        let d = tmp();
        let out = auditbook()
            .current_dir(d.path())
            .arg("-C")
            .arg(fixture())
            .args(["--format", "json", "probe"])
            .arg(fixture().join("server.profile.yaml"))
            .args(["--stdio", &cmd, "--sandbox", mode, "--results", "r.yaml"])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        v["fingerprint"]["server_name"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let inside = run("require");
    assert!(
        inside.starts_with("net=ConnectionRefusedError,home="),
        "inside the sandbox the machine's loopback is not there: {inside}"
    );
    assert!(!inside.ends_with("home=written"), "{inside}");
    let written = home.path().join("auditbook-sandbox-probe.txt");
    assert!(!written.exists(), "nothing reached the real home folder");
    let outside = run("off");
    assert_eq!(outside, "net=connected,home=written", "the control");
    assert!(written.exists());
    drop(listener);
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
