//! A stdio server: a started process (sandboxed where the launch says so) that reads
//! newline-delimited JSON-RPC on stdin and writes it on stdout. A reader task splits stdout
//! into messages, each bounded by the message limit; another keeps the last part of stderr,
//! which the probe quotes when the server fails to start or exits. The process runs in a group
//! of its own, killed when the probe is done with it, so nothing it started outlives the probe.

use super::{find_response, Found, Limits, Reply, Trouble};
use crate::evidence::sandbox::Launch;
use crate::evidence::untrusted;
use serde_json::Value as Json;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin};
use tokio::sync::mpsc;

/// What one line of stdout was.
enum Line {
    Message(Json),
    /// Not JSON: its start.
    Garbage(String),
    TooLong(usize),
}

/// How much of stderr is kept.
const STDERR_KEPT: usize = 4096;

/// The end of stderr, bounded.
#[derive(Default)]
struct Tail(Vec<u8>);

impl Tail {
    fn push(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
        if self.0.len() > STDERR_KEPT {
            let cut = self.0.len() - STDERR_KEPT;
            self.0.drain(..cut);
        }
    }
}

/// A started stdio server.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Line>,
    stderr: Arc<Mutex<Tail>>,
    group: Option<i32>,
    /// The start of the first lines of stdout that were not JSON.
    pub garbage: Vec<String>,
    /// Whether any JSON-RPC message arrived.
    pub spoke: bool,
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(pid) = self.group.filter(|p| *p > 1) {
            // SAFETY: killpg only sends a signal; the group is the one this process leads.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
            }
        }
    }
}

/// Read lines of at most `limit` bytes; a longer line is reported by its length and skipped.
async fn read_lines<R: tokio::io::AsyncRead + Unpin>(out: R, limit: usize, tx: mpsc::Sender<Line>) {
    let mut reader = BufReader::with_capacity(64 * 1024, out);
    let mut line: Vec<u8> = Vec::new();
    let mut skipped = 0usize;
    loop {
        let buf = match reader.fill_buf().await {
            Ok([]) | Err(_) => break,
            Ok(b) => b,
        };
        let (chunk, newline) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if skipped > 0 || line.len() + chunk.len() > limit {
            skipped += line.len() + chunk.len();
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        let used = newline.unwrap_or(buf.len());
        reader.consume(used);
        if newline.is_some() {
            let item = if skipped > 0 {
                Line::TooLong(std::mem::take(&mut skipped))
            } else {
                let text = std::mem::take(&mut line);
                let trimmed = text.trim_ascii();
                if trimmed.is_empty() {
                    continue;
                }
                match serde_json::from_slice::<Json>(trimmed) {
                    Ok(v) => Line::Message(v),
                    Err(_) => {
                        Line::Garbage(untrusted::quote(&String::from_utf8_lossy(trimmed), 160))
                    }
                }
            };
            if tx.send(item).await.is_err() {
                break;
            }
        }
    }
}

impl Process {
    /// Start the server. Its stdin and stdout are the protocol; stderr is kept in part.
    pub fn spawn(launch: &Launch, limits: &Limits) -> std::io::Result<Process> {
        let mut command = launch.command();
        command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn()?;
        let group = child.id().and_then(|p| i32::try_from(p).ok());
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel(64);
        if let Some(out) = child.stdout.take() {
            tokio::spawn(read_lines(out, limits.message_bytes, tx));
        }
        let stderr = Arc::new(Mutex::new(Tail::default()));
        if let Some(mut err) = child.stderr.take() {
            let tail = stderr.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.push(&buf[..n]);
                    }
                }
            });
        }
        Ok(Process {
            child,
            stdin,
            lines,
            stderr,
            group,
            garbage: Vec::new(),
            spoke: false,
        })
    }

    /// The last part of what the server wrote to stderr, quoted, on one line.
    pub fn stderr_tail(&self) -> String {
        let text = self
            .stderr
            .lock()
            .map(|t| String::from_utf8_lossy(&t.0).into_owned())
            .unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let last: Vec<&str> = lines.iter().rev().take(6).rev().copied().collect();
        untrusted::quote(last.join(" | ").trim(), 600)
    }

    /// Why the process is gone: its exit code and the end of its stderr.
    async fn gone(&mut self) -> Trouble {
        // The pipe closed; give the process a moment to be reaped.
        let status =
            tokio::time::timeout(std::time::Duration::from_millis(500), self.child.wait()).await;
        // Let the stderr task drain what the process wrote last.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let tail = self.stderr_tail();
        let stderr = if tail.is_empty() {
            "nothing on stderr".to_string()
        } else {
            format!("stderr: {tail}")
        };
        match status {
            // `sh` could not find the command: the server was never started.
            Ok(Ok(s)) if s.code() == Some(127) => {
                Trouble::NoAnswer(format!("command not found (exit 127); {stderr}"))
            }
            Ok(Ok(s)) => match s.code() {
                Some(c) => Trouble::Closed(format!("the server exited with code {c}; {stderr}")),
                None => Trouble::Closed(format!("the server was killed by a signal; {stderr}")),
            },
            _ => Trouble::Closed(format!("the server closed its stdout; {stderr}")),
        }
    }

    async fn write(&mut self, msg: &Json) -> Result<(), Trouble> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Trouble::Closed("stdin is closed".into()));
        };
        let mut bytes = serde_json::to_vec(msg).unwrap_or_default();
        bytes.push(b'\n');
        match stdin.write_all(&bytes).await {
            Ok(()) => stdin
                .flush()
                .await
                .map_err(|e| Trouble::Closed(e.to_string())),
            Err(e) => Err(Trouble::Closed(e.to_string())),
        }
    }

    /// Send a notification.
    pub async fn notify(&mut self, msg: &Json) -> Result<(), Trouble> {
        match self.write(msg).await {
            Ok(()) => Ok(()),
            Err(_) => Err(self.gone().await),
        }
    }

    /// Send a request and wait for the message that answers it. Requests the server sends in
    /// between are answered with "method not found" (the probe offers no client features) and
    /// recorded; notifications are skipped.
    pub async fn request(&mut self, msg: &Json, id: i64, limits: &Limits) -> Reply {
        if self.write(msg).await.is_err() {
            return Reply::trouble(self.gone().await);
        }
        let deadline = tokio::time::Instant::now() + limits.timeout;
        let mut found = Found::default();
        loop {
            let line = match tokio::time::timeout_at(deadline, self.lines.recv()).await {
                Err(_) => {
                    let t = if !self.spoke && !self.garbage.is_empty() {
                        Trouble::NotJsonRpc(format!(
                            "the server wrote something other than JSON-RPC to stdout: {}",
                            self.garbage.join(" | ")
                        ))
                    } else {
                        Trouble::TimedOut(format!(
                            "no answer within {} ms",
                            limits.timeout.as_millis()
                        ))
                    };
                    return Reply {
                        trouble: Some(t),
                        server_requests: found.server_requests,
                        ..Reply::default()
                    };
                }
                Ok(None) => {
                    let mut t = self.gone().await;
                    if !self.spoke && !self.garbage.is_empty() {
                        t = Trouble::NotJsonRpc(format!(
                            "the server wrote something other than JSON-RPC to stdout ({}): {}",
                            t.describe(),
                            self.garbage.join(" | ")
                        ));
                    }
                    return Reply {
                        trouble: Some(t),
                        server_requests: found.server_requests,
                        ..Reply::default()
                    };
                }
                Ok(Some(l)) => l,
            };
            match line {
                Line::Message(v) => {
                    self.spoke = true;
                    let asks: Vec<Json> = match &v {
                        Json::Object(m) if m.contains_key("method") && m.contains_key("id") => {
                            vec![m.get("id").cloned().unwrap_or(Json::Null)]
                        }
                        _ => Vec::new(),
                    };
                    find_response(v, id, &mut found);
                    for ask in asks {
                        let refusal = serde_json::json!({"jsonrpc": "2.0", "id": ask, "error": {"code": -32601, "message": "the probe offers no client features"}});
                        let _ = self.write(&refusal).await;
                    }
                    if let Some(m) = found.answer() {
                        return Reply {
                            message: Some(m),
                            server_requests: found.server_requests,
                            ..Reply::default()
                        };
                    }
                }
                Line::Garbage(g) => {
                    if self.garbage.len() < 3 {
                        self.garbage.push(g);
                    }
                }
                Line::TooLong(n) => {
                    return Reply {
                        trouble: Some(Trouble::TooLarge(format!(
                            "a message of {n} bytes or more (the limit is {})",
                            limits.message_bytes
                        ))),
                        server_requests: found.server_requests,
                        ..Reply::default()
                    }
                }
            }
        }
    }
}
