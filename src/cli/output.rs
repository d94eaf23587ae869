//! The one writer to stdout and stderr. `print!` and `eprint!` panic when the stream fails
//! (`auditbook graph | head -c 10` used to exit 101); here every failure has an outcome:
//!
//! - a closed pipe (EPIPE) on either stream ends the run quietly with exit code 141, what a
//!   shell reports for a process ended by SIGPIPE, so a pipeline under `pipefail` never takes a
//!   truncated run for a clean one;
//! - any other failure of stdout (ENOSPC on a full disk, a closed descriptor) ends the run with
//!   exit code 2 and a message on stderr;
//! - a failure of stderr (a full disk, or stderr closed: `2>&-`) cannot be reported; the run
//!   goes on and ends with exit code 2 at the latest, because messages were lost.

use super::common::Failure;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of a run whose output went to a pipe that was closed early.
pub const EXIT_PIPE_CLOSED: u8 = 141;

static PIPE_CLOSED: AtomicBool = AtomicBool::new(false);
static STDERR_FAILED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// Record that the process started with stdout closed (`auditbook list >&-`). The runtime
/// puts `/dev/null` in its place before `main`, so only a probe that runs earlier can tell;
/// the binary has one.
pub fn stdout_was_closed() {
    STDOUT_CLOSED.store(true, Ordering::SeqCst);
}

/// Record that the process started with stderr closed (`2>&-`): whatever it would have said is
/// lost, which the exit code then says instead.
pub fn stderr_was_closed() {
    STDERR_CLOSED.store(true, Ordering::SeqCst);
}

/// Whether stdout is a terminal (colour is for people, not for pipes and files).
pub fn stdout_is_terminal() -> bool {
    io::IsTerminal::is_terminal(&io::stdout())
}

/// Whether stderr is a terminal.
pub fn stderr_is_terminal() -> bool {
    io::IsTerminal::is_terminal(&io::stderr())
}

/// Write `text` to stdout. `Err` ends the run, quietly when the pipe was closed.
pub fn print(text: &str) -> Result<(), Failure> {
    if text.is_empty() {
        return Ok(());
    }
    if STDOUT_CLOSED.load(Ordering::SeqCst) {
        return Err(Failure::Message(
            "standard output is closed; the output was not written".into(),
        ));
    }
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            PIPE_CLOSED.store(true, Ordering::SeqCst);
            Err(Failure::PipeClosed)
        }
        Err(e) => Err(Failure::io("cannot write to standard output")(e)),
    }
}

/// Write `text` to stderr; a failure is remembered for the exit code, never a panic.
pub fn eprint(text: &str) {
    if text.is_empty() {
        return;
    }
    if STDERR_CLOSED.load(Ordering::SeqCst) {
        STDERR_FAILED.store(true, Ordering::SeqCst);
        return;
    }
    let mut err = io::stderr().lock();
    match err.write_all(text.as_bytes()).and_then(|()| err.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            PIPE_CLOSED.store(true, Ordering::SeqCst)
        }
        Err(_) => STDERR_FAILED.store(true, Ordering::SeqCst),
    }
}

/// Whether output went to a closed pipe (then nothing more is printed).
pub fn pipe_closed() -> bool {
    PIPE_CLOSED.load(Ordering::SeqCst)
}

/// The exit code a run with `code` ends with, given what happened to its output.
pub fn exit_code(code: u8) -> u8 {
    if pipe_closed() {
        EXIT_PIPE_CLOSED
    } else if STDERR_FAILED.load(Ordering::SeqCst) {
        code.max(super::EXIT_FAILURE)
    } else {
        code
    }
}

/// Write one framed language-server message to stdout and flush it: while `auditbook lsp`
/// runs, stdout carries the protocol and nothing else.
pub fn lsp_message(msg: &lsp_server::Message) -> io::Result<()> {
    let stdout = io::stdout();
    let mut lock = stdout.lock();
    msg.write(&mut lock)
}

/// The byte streams of `auditbook mcp` over stdio: while it runs, stdout carries the protocol
/// and nothing else.
pub fn mcp_stdio() -> (tokio::io::Stdin, tokio::io::Stdout) {
    (tokio::io::stdin(), tokio::io::stdout())
}
