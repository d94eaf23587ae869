//! `auditbook mcp [--root DIR] [--allow-write] [--listen 127.0.0.1:PORT] [--allow-probe TARGET…]`: the
//! catalogue and the audit as an MCP server. The catalogue is loaded once; the server in
//! `crate::serve` answers until the client closes stdin (or, with --listen, until the process
//! is stopped). Standard output carries the protocol and nothing else; notes go to stderr.

use super::args::{Cli, McpArgs};
use super::common::{self, Failure};
use std::path::PathBuf;
use std::sync::Arc;

pub fn run(cli: &Cli, args: &McpArgs) -> Result<u8, Failure> {
    let listen = args.listen.as_deref().map(loopback).transpose()?;
    let root = args.root.clone().unwrap_or_else(|| PathBuf::from("."));
    if !root.is_dir() {
        return Err(Failure::Message(format!(
            "--root `{}` is not a folder",
            root.display()
        )));
    }
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    refuse_a_partial_catalogue(session.loaded())?;
    let templates = common::templates(cli)?;
    let state = Arc::new(crate::serve::state::State::new(
        session,
        templates,
        common::prefix(cli),
        &root,
        args.allow_probe.clone(),
        args.allow_write,
        super::output::eprint,
    ));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(Failure::io("cannot start the MCP server"))?;
    let served = match listen {
        None => runtime.block_on(crate::serve::stdio(state, super::output::mcp_stdio())),
        Some(addr) => {
            if !cli.quiet {
                super::output::eprint(&format!(
                    "auditbook: serving MCP over Streamable HTTP at http://{addr}/mcp\n"
                ));
            }
            runtime.block_on(crate::serve::http(state, addr))
        }
    };
    served.map_err(Failure::Message)?;
    Ok(super::EXIT_OK)
}

/// A catalogue that loaded with errors is not served: an agent would get answers from the
/// checks that did load with nothing to tell them from a whole catalogue's (a search that
/// misses a check left out looks like one that found nothing). The editor's language server
/// is the place to work on a broken catalogue.
fn refuse_a_partial_catalogue(loaded: &crate::load::Loaded) -> Result<(), Failure> {
    let s = crate::diag::Summary::of(&loaded.diagnostics);
    if s.errors == 0 {
        return Ok(());
    }
    Err(Failure::Message(format!(
        "the catalogue has {} error(s) while loading ({} check file(s) left out) and is not served incomplete; run `auditbook lint` and fix them",
        s.errors,
        loaded.catalogue.broken.len()
    )))
}

/// `--listen`: a socket address on the loopback interface; any other is refused, since the
/// server has no authentication.
fn loopback(s: &str) -> Result<std::net::SocketAddr, Failure> {
    let addr: std::net::SocketAddr = s.parse().map_err(|_| {
        Failure::Message(format!(
            "--listen `{s}` is not an address with a port; write 127.0.0.1:PORT or [::1]:PORT"
        ))
    })?;
    if !addr.ip().is_loopback() {
        return Err(Failure::Message(format!(
            "--listen `{s}` is not a loopback address; the server has no authentication and listens on 127.0.0.1 or ::1 only"
        )));
    }
    Ok(addr)
}
