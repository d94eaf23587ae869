//! Streamable HTTP on a loopback address (`--listen`; the command line refuses any
//! other). rmcp's service answers the protocol; hyper carries it, one HTTP/1.1 connection per
//! task. Every path is the endpoint (clients use `/mcp`). Requests whose Host is not a
//! loopback name are refused (DNS rebinding), and so are requests from a page of any origin
//! but the server's own loopback address: a page elsewhere, or on another local port, has no
//! business here. A request without `Origin` (every non-browser client) passes.

use super::state::State;
use super::Server;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;

/// The origins of a page served from this server's own address, by each loopback name.
fn own_origins(port: u16) -> Vec<String> {
    ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .map(|h| format!("http://{h}:{port}"))
        .collect()
}

/// Serve until the process is stopped.
pub async fn serve(state: Arc<State>, addr: SocketAddr) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen at {addr}: {e}"))?;
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(["localhost", "127.0.0.1", "::1", "[::1]"])
        .with_allowed_origins(own_origins(addr.port()))
        .enforce_origin_validation();
    let handler = Server::new(state);
    let service: StreamableHttpService<Server, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(conn) => conn,
            // A connection that failed before it was accepted (reset, out of descriptors for
            // a moment) costs that connection only.
            Err(_) => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = service.clone();
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
                .await;
        });
    }
}
