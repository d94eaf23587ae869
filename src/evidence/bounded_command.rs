//! A package tool's command (pip, npm, a probe of the index), run with its output drained and
//! bounded in time: the tools act on someone else's package, and a hung resolver must not hold
//! a collect forever. One owner for the bound, so package and index reads share it.

use super::untrusted;
use std::process::Command;
use std::time::Duration;

/// How long an install may take.
pub const INSTALL_TIME: Duration = Duration::from_secs(600);

/// Run an installer's command, bounded by `INSTALL_TIME`; its output when it succeeds.
pub(super) fn run(cmd: &mut Command, what: &str, log: &mut Vec<String>) -> Result<String, String> {
    log.push(what.to_string());
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{what}: cannot run: {e}"))?;
    // Both pipes are drained while the command runs, so a chatty installer cannot block.
    let drain = |p: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = p {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if start.elapsed() > INSTALL_TIME => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{what}: no end within {} s",
                    INSTALL_TIME.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(25)),
            Err(e) => return Err(format!("{what}: {e}")),
        }
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    if status.success() {
        Ok(String::from_utf8_lossy(&out).into_owned())
    } else {
        let err = String::from_utf8_lossy(&err);
        let tail: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = tail
            .iter()
            .rev()
            .take(6)
            .rev()
            .copied()
            .collect::<Vec<_>>()
            .join(" | ");
        Err(format!(
            "{what}: exit {}: {}",
            status.code().unwrap_or(-1),
            untrusted::quote(&tail, 600)
        ))
    }
}
