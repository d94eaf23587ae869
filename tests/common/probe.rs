//! Running `auditbook probe` against test servers: the scripted server of
//! `tests/servers/scripted_server.py` (standard-library Python, both revisions, one planted
//! defect at a time), servers started over HTTP on a free loopback port, and reading the JSON
//! report.

use super::auditbook;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn catalogue() -> PathBuf {
    root().join("catalogue")
}

/// A profile of `tests/fixtures/probe/`.
pub fn profile(name: &str) -> String {
    root()
        .join("tests/fixtures/probe")
        .join(name)
        .display()
        .to_string()
}

/// The scripted server over stdio, with `defects` planted (comma-separated, may be empty).
pub fn scripted(defects: &str) -> String {
    format!(
        "python3 {} --defects '{defects}'",
        root().join("tests/servers/scripted_server.py").display()
    )
}

/// What one probe printed.
pub struct Probe {
    pub code: Option<i32>,
    pub report: Value,
    pub stdout: String,
    pub stderr: String,
}

impl Probe {
    pub fn check(&self, id: &str) -> &Value {
        self.report["checks"]
            .as_array()
            .and_then(|a| a.iter().find(|c| c["id"] == id))
            .unwrap_or_else(|| panic!("{id} was not probed: {}", self.report))
    }

    pub fn status(&self, id: &str) -> String {
        self.check(id)["status"].as_str().unwrap_or("").to_string()
    }

    pub fn evidence(&self, id: &str) -> String {
        evidence(self.check(id))
    }

    pub fn reach(&self) -> &str {
        self.report["reach"]["outcome"].as_str().unwrap_or("")
    }

    /// The checks whose status is `fail` or `partial`, in id order.
    pub fn findings(&self) -> Vec<(String, String)> {
        self.report["checks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| matches!(c["status"].as_str(), Some("fail" | "partial")))
            .map(|c| {
                (
                    c["id"].as_str().unwrap_or("").to_string(),
                    c["status"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }
}

pub fn evidence(c: &Value) -> String {
    c["evidence"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// `auditbook --format json probe ARGS` in `dir`, with `env`.
pub fn probe_json(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Probe {
    run(&["--format", "json", "probe"], args, dir, env)
}

/// `auditbook PRE ARGS` in `dir` against the shipped catalogue.
pub fn run(pre: &[&str], args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Probe {
    let mut cmd = auditbook();
    cmd.current_dir(dir)
        .arg("-C")
        .arg(catalogue())
        .args(pre)
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Probe {
        code: out.status.code(),
        report: serde_json::from_str(&stdout).unwrap_or(Value::Null),
        stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A server process, killed when dropped.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Start `program args…` (which must listen on `port`) and wait until it accepts.
pub fn listening(mut cmd: Command, port: u16) -> Server {
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the server: {e}"));
    let server = Server(child);
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return server;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the server did not listen on {port}");
}

/// The scripted server over Streamable HTTP with `defects`: the guard and the endpoint.
pub fn scripted_http(defects: &str) -> (Server, String) {
    let port = free_port();
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("tests/servers/scripted_server.py"))
        .args(["--http", &port.to_string(), "--defects", defects]);
    (listening(cmd, port), format!("http://127.0.0.1:{port}/mcp"))
}

/// Run the official conformance suite's server scenarios against `url`, results under `out`;
/// `select` chooses them (`["--scenario", NAME]` or `["--requirements", REVISION]`). The suite
/// exits non-zero when a check fails: the results it writes are what a test judges.
pub fn conformance_suite(url: &str, select: &[&str], out: &Path) {
    let (node, script) = super::prereq::conformance();
    let _ = Command::new(&node)
        .arg(&script)
        .args(["server", "--url", url])
        .args(select)
        .arg("-o")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot run the conformance suite: {e}"));
}
