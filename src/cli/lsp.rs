//! `auditbook lsp`: the language server on stdin and stdout. The transport lives here because
//! stdout belongs to `output`: one thread reads framed messages from stdin, one writes them
//! through `output::lsp_message`, and the server in `crate::lsp` sees only the two channels.

use super::common::Failure;
use lsp_server::{Connection, Message};

pub fn run() -> Result<u8, Failure> {
    let (to_server, from_client) = crossbeam_channel::bounded::<Message>(0);
    let (to_client, from_server) = crossbeam_channel::bounded::<Message>(0);
    let reader = std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || -> std::io::Result<()> {
            let stdin = std::io::stdin();
            let mut stdin = stdin.lock();
            while let Some(msg) = Message::read(&mut stdin)? {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if to_server.send(msg).is_err() || exit {
                    break;
                }
            }
            Ok(())
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
    // The connection is dropped: the writer drains what is queued and ends.
    let wrote = writer.join();
    // The reader ends at `exit` or end of input; after a protocol error it may still wait on
    // stdin, which ending the process closes.
    if reader.is_finished() {
        if let Ok(Err(e)) = reader.join() {
            return Err(Failure::Message(format!("language server input: {e}")));
        }
    }
    match (served, wrote) {
        (Err(e), _) => Err(Failure::Message(format!("language server: {e}"))),
        (_, Ok(Err(e))) => Err(Failure::Message(format!("language server output: {e}"))),
        (Ok(code), _) => Ok(code),
    }
}
