//! Streamable HTTP: one POST per JSON-RPC message, the answer read as `application/json` or as
//! an event stream (priming events, notifications and server requests before the response are
//! skipped and counted), bounded in size and time. Raw requests (any method, headers and body
//! as written) serve the declared steps and the transport probes.

use super::sse::Events;
use super::{find_response, Found, HttpMeta, Limits, Reply, Trouble};
use crate::evidence::untrusted;
use serde_json::Value as Json;
use std::collections::BTreeMap;

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

/// The User-Agent of every request: it names auditbook, so an operator who sees the probe in
/// a log knows what it was (and `--contact` adds who to ask).
pub fn user_agent(contact: Option<&str>) -> String {
    let base = format!(
        "auditbook/{} (+https://github.com/auditbook/auditbook)",
        env!("CARGO_PKG_VERSION")
    );
    match contact {
        Some(c) if !c.trim().is_empty() => format!("{base} contact: {}", c.trim()),
        _ => base,
    }
}

/// The one HTTP client of the process: building a client loads the platform's certificate
/// roots, which a portfolio of a thousand servers would otherwise do thousands of times. It
/// keeps no idle connections (every request is a fresh connection, which the stateless
/// revision's probes rely on, and a half-read body cannot stall the next request) and follows
/// no redirect (a redirect to a login page is not MCP). Time-outs are set per request.
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

/// The process's request rate: at most `per_second` HTTP requests a second over every server a
/// run probes (a fleet's politeness towards the few hosting providers most endpoints share).
/// 0 (the default) sets no limit. Requests wait for their turn in the order they asked.
pub fn set_rate(per_second: u32) {
    let slot = PACE.get_or_init(|| std::sync::Mutex::new(Pace::default()));
    if let Ok(mut p) = slot.lock() {
        p.interval = (per_second > 0)
            .then(|| std::time::Duration::from_secs_f64(1.0 / f64::from(per_second)));
    }
}

#[derive(Default)]
struct Pace {
    interval: Option<std::time::Duration>,
    next: Option<tokio::time::Instant>,
}

static PACE: std::sync::OnceLock<std::sync::Mutex<Pace>> = std::sync::OnceLock::new();

/// Wait for this request's turn under the rate, if one is set.
async fn wait_turn() {
    let turn = PACE.get().and_then(|m| {
        let mut p = m.lock().ok()?;
        let interval = p.interval?;
        let now = tokio::time::Instant::now();
        let at = p.next.filter(|n| *n > now).unwrap_or(now);
        p.next = Some(at + interval);
        Some(at)
    });
    if let Some(at) = turn {
        tokio::time::sleep_until(at).await;
    }
}

/// At most this many response headers are kept.
const HEADERS_KEPT: usize = 64;

fn meta_of(resp: &reqwest::Response) -> HttpMeta {
    let mut headers = BTreeMap::new();
    for (k, v) in resp.headers().iter().take(HEADERS_KEPT) {
        let value = String::from_utf8_lossy(v.as_bytes());
        headers
            .entry(k.as_str().to_ascii_lowercase())
            .or_insert_with(|| untrusted::value(&value));
    }
    HttpMeta {
        status: resp.status().as_u16(),
        content_type: headers.get("content-type").cloned().unwrap_or_default(),
        headers,
        body: String::new(),
    }
}

/// One HTTP request as the caller wrote it.
pub struct Raw<'a> {
    pub method: &'a str,
    pub url: &'a str,
    pub headers: &'a [(String, String)],
    pub body: Option<String>,
}

fn failure(e: &reqwest::Error, limits: &Limits) -> Trouble {
    if e.is_timeout() {
        Trouble::TimedOut(format!(
            "no answer within {} ms",
            limits.timeout.as_millis()
        ))
    } else {
        Trouble::NoAnswer(crate::evidence::untrusted::quote(&with_causes(e), 300))
    }
}

async fn send(
    client: &reqwest::Client,
    raw: &Raw<'_>,
    limits: &Limits,
    ua: &str,
) -> Result<reqwest::Response, Trouble> {
    let method = reqwest::Method::from_bytes(raw.method.as_bytes())
        .map_err(|_| Trouble::NoAnswer(format!("`{}` is not an HTTP method", raw.method)))?;
    wait_turn().await;
    let mut req = client
        .request(method, raw.url)
        .timeout(limits.timeout)
        .header("User-Agent", ua);
    for (k, v) in raw.headers {
        req = req.header(k.as_str(), v.as_str());
    }
    if let Some(b) = &raw.body {
        req = req.body(b.clone());
    }
    req.send().await.map_err(|e| failure(&e, limits))
}

/// Send `raw` and read the answer; when `id` is given, the body is read as JSON-RPC and
/// reading stops at the response with that id.
pub async fn exchange(raw: &Raw<'_>, id: Option<i64>, limits: &Limits, ua: &str) -> Reply {
    let client = match client() {
        Ok(c) => c,
        Err(e) => return Reply::trouble(Trouble::NoAnswer(format!("no HTTP client: {e}"))),
    };
    let mut resp = match send(&client, raw, limits, ua).await {
        Ok(r) => r,
        Err(t) => return Reply::trouble(t),
    };
    let mut meta = meta_of(&resp);
    let stream = meta
        .content_type
        .to_ascii_lowercase()
        .starts_with("text/event-stream");
    let mut found = Found::default();
    let mut body = Vec::new();
    if stream && id.is_none() {
        // A raw request's event stream (a legacy GET stream stays open): the status and the
        // headers are the answer.
        return Reply {
            http: Some(meta),
            ..Reply::default()
        };
    }
    let mut events = Events::default();
    let limit = limits.message_bytes;
    let mut trouble = None;
    loop {
        match resp.chunk().await {
            Ok(Some(bytes)) => {
                if stream {
                    events.feed(&bytes, limit, &mut |data| {
                        if let (Some(id), Ok(v)) = (id, serde_json::from_slice::<Json>(data)) {
                            find_response(v, id, &mut found);
                        }
                    });
                    if found.response.is_some() {
                        break;
                    }
                    // Keep the start of the stream for evidence when no response comes.
                    if body.len() < 2048 {
                        body.extend_from_slice(&bytes[..bytes.len().min(2048 - body.len())]);
                    }
                } else {
                    if body.len() + bytes.len() > limit {
                        trouble = Some(Trouble::TooLarge(format!(
                            "the body passed {limit} bytes; the rest was not read"
                        )));
                        break;
                    }
                    body.extend_from_slice(&bytes);
                }
            }
            Ok(None) => {
                if stream {
                    events.finish(limit, &mut |data| {
                        if let (Some(id), Ok(v)) = (id, serde_json::from_slice::<Json>(data)) {
                            find_response(v, id, &mut found);
                        }
                    });
                }
                break;
            }
            Err(e) => {
                trouble = Some(failure(&e, limits));
                break;
            }
        }
    }
    if stream && found.response.is_none() {
        if let Some(n) = events.too_large {
            trouble.get_or_insert(Trouble::TooLarge(format!(
                "an event of {n} bytes or more (the limit is {limit})"
            )));
        }
    }
    if !stream && trouble.is_none() {
        match (id, serde_json::from_slice::<Json>(&body)) {
            (Some(id), Ok(v)) => find_response(v, id, &mut found),
            // A raw request: a JSON body is the answer as it is.
            (None, Ok(v)) => found.response = Some(v),
            _ => {}
        }
    }
    let message = found.answer();
    if message.is_none() {
        meta.body = untrusted::quote(String::from_utf8_lossy(&body).trim(), 200);
        if trouble.is_none() && id.is_some() {
            trouble = Some(Trouble::NotJsonRpc(format!(
                "HTTP {} {}{}",
                meta.status,
                meta.content_type,
                if meta.body.is_empty() {
                    String::new()
                } else {
                    format!(": {}", meta.body)
                }
            )));
        }
    }
    Reply {
        message,
        http: Some(meta),
        trouble,
        server_requests: found.server_requests,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_agent_names_auditbook_and_the_contact() {
        assert!(user_agent(None).starts_with("auditbook/"));
        assert!(user_agent(Some("ops@example.org")).ends_with("contact: ops@example.org"));
    }
}
