//! `auditbook lsp`: the language server on stdin and stdout. The transport lives here because
//! stdout belongs to `output`: one thread reads framed messages from stdin, one writes them
//! through `output::lsp_message`, and the server in `crate::lsp` sees only the two channels.

use super::common::Failure;
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read};
use std::sync::{Arc, Mutex};

/// The largest message read. The largest a client legitimately sends is a whole buffer
/// (`didOpen`, a full `didChange`), and a catalogue file is refused above
/// `load::text::MAX_FILE_BYTES`; twice that leaves room for JSON escapes, so a buffer over the
/// limit still reaches the loader and gets its finding.
pub const MAX_MESSAGE_BYTES: u64 = 2 * crate::load::text::MAX_FILE_BYTES;
/// The header block of a message (`Content-Length`, perhaps `Content-Type`) is a few dozen
/// bytes; a longer one is not a client speaking the protocol.
const MAX_HEADER_BYTES: u64 = 4096;
/// Messages read ahead of the server: an editor's burst of keystrokes waits here while the
/// server takes them in, so it sees the burst and checks once.
const QUEUE: usize = 64;

pub fn run() -> Result<u8, Failure> {
    let (to_server, from_client) = crossbeam_channel::bounded::<Message>(QUEUE);
    let (to_client, from_server) = crossbeam_channel::bounded::<Message>(0);
    // Set before the reader drops its end of the channel, so the server's end of input is
    // always explained by the time `serve` returns.
    let input_error: Arc<Mutex<Option<io::Error>>> = Arc::default();
    let reader_error = Arc::clone(&input_error);
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut stdin = stdin.lock();
            loop {
                match read_message(&mut stdin) {
                    Ok(Some(msg)) => {
                        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                        if to_server.send(msg).is_err() || exit {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        if let Ok(mut slot) = reader_error.lock() {
                            *slot = Some(e);
                        }
                        break;
                    }
                }
            }
            drop(to_server);
        })
        .map_err(|e| Failure::Message(format!("cannot start the language server: {e}")))?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || -> std::io::Result<()> {
            for msg in from_server {
                super::output::lsp_message(&msg)?;
            }
            Ok(())
        })
        .map_err(|e| Failure::Message(format!("cannot start the language server: {e}")))?;
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    let served = crate::lsp::serve(connection);
    // The connection is dropped: the writer drains what is queued and ends. The reader ends
    // at `exit`, at the end of input or at a message it refuses; after a protocol error on
    // the server's side it may still wait on stdin, which ending the process closes.
    let wrote = writer.join();
    if let Some(e) = input_error.lock().ok().and_then(|mut slot| slot.take()) {
        return Err(Failure::Message(format!("language server input: {e}")));
    }
    match (served, wrote) {
        (Err(e), _) => Err(Failure::Message(format!("language server: {e}"))),
        (_, Ok(Err(e))) => Err(Failure::Message(format!("language server output: {e}"))),
        (Ok(code), _) => Ok(code),
    }
}

/// One framed message (`Content-Length: N`, a blank line, N bytes of JSON), or `None` at the
/// end of input. Bounded before anything is allocated for it: the header block may hold
/// [`MAX_HEADER_BYTES`], the body [`MAX_MESSAGE_BYTES`], and the body's buffer grows with the
/// bytes that arrive, never with the length a header claims.
pub fn read_message(input: &mut impl BufRead) -> io::Result<Option<Message>> {
    let mut header = Vec::new();
    let mut length: Option<u64> = None;
    loop {
        let mut line = Vec::new();
        let room = MAX_HEADER_BYTES.saturating_sub(header.len() as u64);
        let n = input.by_ref().take(room + 1).read_until(b'\n', &mut line)?;
        if n == 0 {
            return if header.is_empty() {
                Ok(None)
            } else {
                Err(invalid("the input ended inside a message header"))
            };
        }
        if n as u64 > room {
            return Err(invalid(&format!(
                "a message header is longer than {MAX_HEADER_BYTES} bytes; refused"
            )));
        }
        header.extend_from_slice(&line);
        let Some(text) = line.strip_suffix(b"\r\n") else {
            return Err(invalid("a message header line does not end with CRLF"));
        };
        if text.is_empty() {
            break;
        }
        let text = std::str::from_utf8(text).map_err(|_| invalid("a header is not UTF-8"))?;
        let Some((name, value)) = text.split_once(':') else {
            return Err(invalid(&format!("malformed header `{}`", shown(text))));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let n: u64 = value.trim().parse().map_err(|_| {
                invalid(&format!(
                    "`Content-Length` is not a length: `{}`",
                    shown(value)
                ))
            })?;
            if n > MAX_MESSAGE_BYTES {
                return Err(invalid(&format!(
                    "a message of {n} bytes is over the limit of {MAX_MESSAGE_BYTES} bytes; \
                     refused before reading it"
                )));
            }
            length = Some(n);
        }
    }
    let length = length.ok_or_else(|| invalid("a message has no `Content-Length` header"))?;
    let mut body = Vec::new();
    input.by_ref().take(length).read_to_end(&mut body)?;
    if (body.len() as u64) < length {
        return Err(invalid("the input ended inside a message"));
    }
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| invalid(&format!("a message is not JSON-RPC: {e}")))
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// A header value as a message shows it: short, control characters made visible.
fn shown(s: &str) -> String {
    let short: String = s.chars().take(40).collect();
    short.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> io::Result<Option<Message>> {
        read_message(&mut io::Cursor::new(bytes.to_vec()))
    }

    #[test]
    fn a_framed_message_is_read_and_the_end_of_input_is_none() {
        let body = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        framed.extend_from_slice(body);
        let mut input = io::Cursor::new([framed.clone(), framed].concat());
        for _ in 0..2 {
            let msg = read_message(&mut input).unwrap();
            assert!(matches!(msg, Some(Message::Notification(n)) if n.method == "initialized"));
        }
        assert!(read_message(&mut input).unwrap().is_none());
    }

    #[test]
    fn lengths_over_the_bound_and_endless_headers_are_refused() {
        let e = read(b"Content-Length: 18446744073709551615\r\n\r\n{}").unwrap_err();
        assert!(e.to_string().contains("over the limit"), "{e}");
        let e = read(b"Content-Length: 99999999999999999999999\r\n\r\n").unwrap_err();
        assert!(e.to_string().contains("not a length"), "{e}");
        let mut endless = b"Content-Length: 2\r\nX: ".to_vec();
        endless.extend(std::iter::repeat_n(b'a', 10_000));
        let e = read(&endless).unwrap_err();
        assert!(e.to_string().contains("longer than"), "{e}");
        let e = read(b"Content-Length: 10\r\n\r\n{}").unwrap_err();
        assert!(e.to_string().contains("ended inside"), "{e}");
        let e = read(b"Content-Type: x\r\n\r\n{}").unwrap_err();
        assert!(e.to_string().contains("no `Content-Length`"), "{e}");
    }
}
