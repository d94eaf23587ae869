//! The raw Streamable HTTP requests the transport probes need, which an SDK client would never
//! send: a plain `initialize` (is this MCP at all?), the same with a foreign `Origin`, and a
//! request with an unsupported `MCP-Protocol-Version` header.

use super::observe::{excerpt, Options};
use serde::Serialize;

/// HTTPS goes through rustls with the `ring` provider (no system OpenSSL), certificates checked
/// against the platform's roots. The provider is installed once per process, before the first
/// client is built (reqwest is built without a provider of its own).
pub fn install_tls() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Err: a provider is already installed, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// The one HTTP client of the process, shared by the raw requests and every `rmcp` session:
/// building a client loads the platform's certificate roots, which a portfolio of a thousand
/// servers would otherwise do three thousand times. Like `rmcp`'s own default client it keeps
/// no idle connections (a half-read body would stall the next request) and follows no
/// redirect (a redirect to a login page is not MCP). Time-outs are set per request.
pub fn client() -> Result<reqwest::Client, String> {
    static CLIENT: std::sync::OnceLock<Result<reqwest::Client, String>> =
        std::sync::OnceLock::new();
    CLIENT
        .get_or_init(|| {
            install_tls();
            reqwest::Client::builder()
                .pool_max_idle_per_host(0)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| with_causes(&e))
        })
        .clone()
}

/// An error with its causes, on one line: reqwest's own message rarely says why ("error
/// sending request"), its sources do ("connection refused", "invalid peer certificate").
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        cause = c.source();
    }
    text
}

/// What one HTTP request got back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Exchange {
    /// What was sent, in one line.
    pub sent: String,
    /// The status code, or 0 when there was no answer.
    pub status: u16,
    pub content_type: String,
    /// The start of the body, on one line.
    pub body: String,
    /// Why there was no answer.
    pub failure: Option<String>,
    /// There was no answer within the time-out (rather than a refused or broken connection).
    pub timed_out: bool,
}

impl Exchange {
    /// The answer in one line, for evidence.
    pub fn shown(&self) -> String {
        match &self.failure {
            Some(f) => format!("{} → no answer ({f})", self.sent),
            None => format!(
                "{} → HTTP {} {}{}",
                self.sent,
                self.status,
                self.content_type,
                if self.body.is_empty() {
                    String::new()
                } else {
                    format!(": {}", self.body)
                }
            ),
        }
    }

    /// A JSON-RPC answer, as JSON or in an event stream.
    pub fn is_json_rpc(&self) -> bool {
        (200..300).contains(&self.status) && self.body.contains("\"jsonrpc\"")
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HttpObservation {
    /// A plain `initialize` without `Origin`.
    pub control: Option<Exchange>,
    /// `initialize` with a foreign `Origin`.
    pub foreign_origin: Option<Exchange>,
    /// A request with an unsupported `MCP-Protocol-Version`.
    pub bogus_version: Option<Exchange>,
    /// Set when the control request shows the endpoint is not MCP at all.
    pub not_mcp: Option<String>,
}

fn initialize_body(version: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "auditbook-probe", "version": env!("CARGO_PKG_VERSION")}
        }
    })
    .to_string()
}

async fn post(
    client: &reqwest::Client,
    timeout: std::time::Duration,
    url: &str,
    body: String,
    headers: &[(&str, &str)],
    sent: String,
) -> (Exchange, Option<String>) {
    let mut req = client
        .post(url)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(body);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    match req.send().await {
        Err(e) => (
            Exchange {
                sent,
                status: 0,
                content_type: String::new(),
                body: String::new(),
                failure: Some(excerpt(&with_causes(&e), 300)),
                timed_out: e.is_timeout(),
            },
            None,
        ),
        Ok(resp) => {
            let status = resp.status().as_u16();
            let header = |name: &str| {
                resp.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(String::from)
            };
            let content_type = header("content-type").unwrap_or_default();
            let session = header("mcp-session-id");
            let body = resp.text().await.unwrap_or_default();
            (
                Exchange {
                    sent,
                    status,
                    content_type,
                    body: excerpt(&body, 160),
                    failure: None,
                    timed_out: false,
                },
                session,
            )
        }
    }
}

/// Send the three requests. A control request that is not answered as JSON-RPC marks the
/// endpoint "not reachable as MCP", and the other two are not sent.
pub async fn probe(url: &str, opts: &Options) -> HttpObservation {
    let mut out = HttpObservation::default();
    let client = match client() {
        Ok(c) => c,
        Err(e) => {
            out.not_mcp = Some(format!("no HTTP client: {e}"));
            return out;
        }
    };
    let (control, session) = post(
        &client,
        opts.timeout,
        url,
        initialize_body(&opts.legacy),
        &[],
        format!("POST initialize ({}) without Origin", opts.legacy),
    )
    .await;
    if !control.is_json_rpc() {
        out.not_mcp = Some(control.shown());
        out.control = Some(control);
        return out;
    }
    out.control = Some(control);
    let (foreign, _) = post(
        &client,
        opts.timeout,
        url,
        initialize_body(&opts.legacy),
        &[("Origin", opts.foreign_origin.as_str())],
        format!("POST initialize with Origin: {}", opts.foreign_origin),
    )
    .await;
    out.foreign_origin = Some(foreign);
    // After the control session's `initialized`, a request carrying an unsupported version.
    let mut headers: Vec<(&str, &str)> = vec![("MCP-Protocol-Version", opts.legacy.as_str())];
    if let Some(s) = &session {
        headers.push(("Mcp-Session-Id", s.as_str()));
    }
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string();
    let _ = post(
        &client,
        opts.timeout,
        url,
        initialized,
        &headers,
        String::new(),
    )
    .await;
    if let Some(v) = headers.first_mut() {
        v.1 = opts.bogus_version.as_str();
    }
    let (bogus, _) = post(
        &client,
        opts.timeout,
        url,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#.to_string(),
        &headers,
        format!(
            "POST tools/list with MCP-Protocol-Version: {}",
            opts.bogus_version
        ),
    )
    .await;
    out.bogus_version = Some(bogus);
    out
}
