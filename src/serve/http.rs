//! Streamable HTTP on a loopback address.

use super::State;
use std::sync::Arc;

pub async fn serve(_state: Arc<State>, _addr: std::net::SocketAddr) -> Result<(), String> {
    Err("Streamable HTTP is not served yet".into())
}
