//! A small language-server client for tests: starts `auditbook lsp`, frames JSON-RPC
//! messages over its stdin and stdout, and keeps the latest diagnostics published per file.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long a test waits for any message before it calls the server hung. Generous: the
/// machine is shared and a debug build is slow; this guards against hangs, it times nothing.
const PATIENCE: Duration = Duration::from_secs(120);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Value>,
    next: i64,
    /// Latest published diagnostics by URI.
    pub diagnostics: BTreeMap<String, Vec<Value>>,
    /// How many times diagnostics were published, by URI.
    pub publications: BTreeMap<String, usize>,
    /// Every `window/logMessage` text.
    pub logs: Vec<String>,
}

pub fn uri(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut buf = vec![0; len?];
    std::io::Read::read_exact(r, &mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

impl Client {
    /// Start the server in `cwd` and initialize it with a workspace folder at `root`.
    pub fn start(root: &Path) -> Client {
        let bin = assert_cmd::cargo::cargo_bin("auditbook");
        let mut child = Command::new(bin)
            .arg("lsp")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start auditbook lsp");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(v) = read_frame(&mut r) {
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut c = Client {
            child,
            stdin,
            rx,
            next: 0,
            diagnostics: BTreeMap::new(),
            publications: BTreeMap::new(),
            logs: Vec::new(),
        };
        let init = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": {
                    "workspace": { "workspaceEdit": { "documentChanges": true,
                        "resourceOperations": ["rename"] } }
                },
            }),
        );
        assert!(
            init["result"]["capabilities"]["hoverProvider"] == json!(true),
            "{init}"
        );
        c.notify("initialized", json!({}));
        c
    }

    pub fn send(&mut self, v: Value) {
        let text = v.to_string();
        let stdin = self.stdin.as_mut().expect("stdin open");
        write!(stdin, "Content-Length: {}\r\n\r\n{text}", text.len()).unwrap();
        stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn take(&mut self) -> Value {
        let v = self
            .rx
            .recv_timeout(PATIENCE)
            .expect("the server answered nothing (hung or died)");
        if v["method"] == "textDocument/publishDiagnostics" {
            let u = v["params"]["uri"].as_str().unwrap_or("").to_string();
            let list = v["params"]["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            *self.publications.entry(u.clone()).or_default() += 1;
            self.diagnostics.insert(u, list);
        }
        if v["method"] == "window/logMessage" {
            self.logs
                .push(v["params"]["message"].as_str().unwrap_or("").to_string());
        }
        v
    }

    /// Send a request and return the whole response (`result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self.take();
            if v["id"] == json!(id) && v.get("method").is_none() {
                return v;
            }
        }
    }

    /// Every message the server sends before answering a request has been taken in: the
    /// server checks pending edits and publishes before it answers.
    pub fn sync(&mut self) {
        self.request("workspace/symbol", json!({"query": ""}));
    }

    /// Wait, sending nothing, until diagnostics for `path` are published (an editor that only
    /// types and waits for them); the list published.
    pub fn published_unasked(&mut self, path: &Path) -> Vec<Value> {
        let want = uri(path);
        loop {
            let v = self.take();
            if v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == want {
                return self.diagnostics.get(&want).cloned().unwrap_or_default();
            }
        }
    }

    pub fn open(&mut self, path: &Path) -> String {
        let text = std::fs::read_to_string(path).unwrap();
        self.open_text(path, &text);
        text
    }

    pub fn open_text(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "markdown",
                "version": 1, "text": text}}),
        );
    }

    pub fn change(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": 2},
                "contentChanges": [{"text": text}]}),
        );
    }

    /// Codes (with the id a diagnostic's data names) currently published for `path`.
    pub fn codes(&self, path: &Path) -> Vec<String> {
        self.diagnostics
            .get(&uri(path))
            .map(|l| {
                l.iter()
                    .map(|d| d["code"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn at(&mut self, method: &str, path: &Path, line: u32, character: u32) -> Value {
        let mut params = json!({"textDocument": {"uri": uri(path)},
            "position": {"line": line, "character": character}});
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        self.request(method, params)
    }

    /// Shut down and exit; the exit code of the server.
    pub fn finish(mut self) -> Option<i32> {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        self.stdin.take();
        self.child.wait().ok()?.code()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// (line, character) of the first occurrence of `needle` in `text`, 0-based, in UTF-16 units.
pub fn find(text: &str, needle: &str) -> (u32, u32) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let before = &text[..at];
    let line = before.matches('\n').count() as u32;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .encode_utf16()
        .count() as u32;
    (line, col)
}
