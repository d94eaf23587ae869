//! A client of one revision on one connection. Modern (2026-07-28) requests carry their
//! protocol version, client capabilities and client identity in `_meta`, and over HTTP the
//! version, `Mcp-Method` and `Mcp-Name` headers; there is no handshake and no session. Legacy
//! (2025-11-25) requests follow an `initialize` handshake, over HTTP with the session id the
//! server gave, which `close` ends with DELETE.

use super::transport::http::{self, Raw};
use super::transport::stdio::Process;
use super::transport::{Limits, Reply, Trouble};
use crate::evidence::sandbox::{Launch, Policy, Used};
use serde_json::{json, Map, Value as Json};

/// The revision families the probe speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    Modern,
    Legacy,
}

/// The keys of the per-request protocol fields (2026-07-28, basic/index, `_meta`).
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_CLIENT: &str = "io.modelcontextprotocol/clientInfo";

/// Where the server is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// A command line that starts a stdio server (run by `sh -c`).
    Stdio(String),
    /// A Streamable HTTP endpoint.
    Http(String),
}

impl Target {
    /// How the target is shown in evidence and fingerprints.
    pub fn shown(&self) -> String {
        let raw = match self {
            Target::Stdio(c) => format!("stdio: {c}"),
            Target::Http(u) => u.clone(),
        };
        crate::evidence::untrusted::quote(&raw, 300)
    }

    pub fn is_http(&self) -> bool {
        matches!(self, Target::Http(_))
    }
}

enum Conn {
    Stdio(Box<Process>),
    Http(String),
}

/// How one request departs from the revision's defaults (declared steps and the negative
/// probes use these).
#[derive(Clone, Debug, Default)]
pub struct Shape {
    /// Leave out the `_meta` protocol fields (modern).
    pub no_meta: bool,
    /// The protocol version named instead of the session's.
    pub version: Option<String>,
    /// Headers set (replacing the defaults of the same name).
    pub headers: Vec<(String, String)>,
    /// Default headers left out.
    pub omit: Vec<String>,
}

/// A connection speaking one era.
pub struct Client {
    conn: Conn,
    pub era: Era,
    /// The protocol version requests carry.
    pub version: String,
    /// The legacy session id the server gave (HTTP).
    pub session: Option<String>,
    next_id: i64,
    pub limits: Limits,
    ua: String,
    /// How a started server runs; `None` over HTTP.
    pub sandbox: Option<Used>,
    // Keeps the server's scratch folder until the server is gone.
    _launch: Option<Launch>,
}

/// The `Mcp-Name` value of a request: `params.name` or `params.uri` for the methods that name
/// something, Base64-wrapped when it is not plain visible ASCII (2026-07-28, Value Encoding).
fn mcp_name(method: &str, params: &Json) -> Option<String> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return None,
    };
    let v = params.get(key).and_then(Json::as_str)?;
    let plain = v.bytes().all(|b| (0x21..0x7f).contains(&b)) && !v.starts_with("=?base64?");
    Some(if plain {
        v.to_string()
    } else {
        use base64::Engine;
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(v.as_bytes())
        )
    })
}

impl Client {
    /// Start a stdio server for a client of `era` speaking `version`.
    pub fn stdio(
        cmd: &str,
        era: Era,
        version: &str,
        policy: &Policy,
        limits: Limits,
        ua: &str,
    ) -> Result<Client, Trouble> {
        let launch = Launch::shell(cmd, policy).map_err(Trouble::NoAnswer)?;
        let process = Process::spawn(&launch, &limits)
            .map_err(|e| Trouble::NoAnswer(format!("could not start `sh`: {e}")))?;
        Ok(Client {
            conn: Conn::Stdio(Box::new(process)),
            era,
            version: version.to_string(),
            session: None,
            next_id: 1,
            limits,
            ua: ua.to_string(),
            sandbox: Some(launch.used.clone()),
            _launch: Some(launch),
        })
    }

    /// A client of a Streamable HTTP endpoint (no connection is opened until a request).
    pub fn http(url: &str, era: Era, version: &str, limits: Limits, ua: &str) -> Client {
        Client {
            conn: Conn::Http(url.to_string()),
            era,
            version: version.to_string(),
            session: None,
            next_id: 1,
            limits,
            ua: ua.to_string(),
            sandbox: None,
            _launch: None,
        }
    }

    /// A client of `target` (starting a stdio server).
    pub fn open(
        target: &Target,
        era: Era,
        version: &str,
        policy: &Policy,
        limits: Limits,
        ua: &str,
    ) -> Result<Client, Trouble> {
        match target {
            Target::Stdio(c) => Client::stdio(c, era, version, policy, limits, ua),
            Target::Http(u) => Ok(Client::http(u, era, version, limits, ua)),
        }
    }

    pub fn is_http(&self) -> bool {
        matches!(self.conn, Conn::Http(_))
    }

    /// The endpoint, over HTTP.
    pub fn url(&self) -> Option<&str> {
        match &self.conn {
            Conn::Http(u) => Some(u),
            Conn::Stdio(_) => None,
        }
    }

    fn meta(&self, version: &str) -> Json {
        json!({
            META_VERSION: version,
            META_CAPABILITIES: {},
            META_CLIENT: {"name": "auditbook-probe", "version": env!("CARGO_PKG_VERSION")},
        })
    }

    /// The message and the HTTP headers of a request.
    fn build(
        &mut self,
        method: &str,
        params: Json,
        shape: &Shape,
    ) -> (i64, Json, Vec<(String, String)>) {
        let id = self.next_id;
        self.next_id += 1;
        let version = shape
            .version
            .clone()
            .unwrap_or_else(|| self.version.clone());
        let mut params = match params {
            Json::Object(m) => m,
            _ => Map::new(),
        };
        if self.era == Era::Modern && !shape.no_meta {
            let meta = self.meta(&version);
            match params.get_mut("_meta") {
                Some(Json::Object(m)) => {
                    if let Json::Object(ours) = meta {
                        for (k, v) in ours {
                            m.entry(k).or_insert(v);
                        }
                    }
                }
                _ => {
                    params.insert("_meta".into(), meta);
                }
            }
        }
        let params = Json::Object(params);
        let mut headers: Vec<(String, String)> = vec![
            ("Content-Type".into(), "application/json".into()),
            (
                "Accept".into(),
                "application/json, text/event-stream".into(),
            ),
        ];
        let handshake = method == "initialize";
        if !handshake {
            headers.push(("MCP-Protocol-Version".into(), version));
        }
        if self.era == Era::Modern {
            headers.push(("Mcp-Method".into(), method.to_string()));
            if let Some(n) = mcp_name(method, &params) {
                headers.push(("Mcp-Name".into(), n));
            }
        } else if let Some(s) = &self.session {
            headers.push(("Mcp-Session-Id".into(), s.clone()));
        }
        for (k, v) in &shape.headers {
            headers.retain(|(h, _)| !h.eq_ignore_ascii_case(k));
            headers.push((k.clone(), v.clone()));
        }
        headers.retain(|(h, _)| !shape.omit.iter().any(|o| o.eq_ignore_ascii_case(h)));
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        (id, msg, headers)
    }

    /// Send a request shaped by `shape` and wait for its answer.
    pub async fn request_shaped(&mut self, method: &str, params: Json, shape: &Shape) -> Reply {
        let (id, msg, headers) = self.build(method, params, shape);
        let limits = self.limits;
        match &mut self.conn {
            Conn::Stdio(p) => p.request(&msg, id, &limits).await,
            Conn::Http(url) => {
                let raw = Raw {
                    method: "POST",
                    url,
                    headers: &headers,
                    body: Some(msg.to_string()),
                };
                http::exchange(&raw, Some(id), &limits, &self.ua).await
            }
        }
    }

    /// Send a request of this client's revision.
    pub async fn request(&mut self, method: &str, params: Json) -> Reply {
        self.request_shaped(method, params, &Shape::default()).await
    }

    /// A raw HTTP request to the endpoint (`None` over stdio).
    pub async fn raw(
        &mut self,
        method: &str,
        headers: &[(String, String)],
        body: Option<String>,
    ) -> Option<Reply> {
        let Conn::Http(url) = &self.conn else {
            return None;
        };
        let raw = Raw {
            method,
            url,
            headers,
            body,
        };
        // A body that is a JSON-RPC request is read for its response; any other JSON body
        // is the answer as it is (for the pointer matchers).
        let id = raw
            .body
            .as_deref()
            .and_then(|b| serde_json::from_str::<Json>(b).ok())
            .and_then(|v| v.get("id").and_then(Json::as_i64));
        Some(http::exchange(&raw, id, &self.limits, &self.ua).await)
    }

    /// Send a notification (legacy `notifications/initialized`).
    pub async fn notify(&mut self, method: &str) {
        let msg = json!({"jsonrpc": "2.0", "method": method});
        match &mut self.conn {
            Conn::Stdio(p) => {
                let _ = p.notify(&msg).await;
            }
            Conn::Http(url) => {
                let mut headers = vec![
                    ("Content-Type".to_string(), "application/json".to_string()),
                    (
                        "Accept".to_string(),
                        "application/json, text/event-stream".to_string(),
                    ),
                    ("MCP-Protocol-Version".to_string(), self.version.clone()),
                ];
                if let Some(s) = &self.session {
                    headers.push(("Mcp-Session-Id".into(), s.clone()));
                }
                let raw = Raw {
                    method: "POST",
                    url,
                    headers: &headers,
                    body: Some(msg.to_string()),
                };
                let _ = http::exchange(&raw, None, &self.limits, &self.ua).await;
            }
        }
    }

    /// The legacy handshake: `initialize` asking for `asked`, then `initialized`. The reply is
    /// returned; on success the client speaks the version the server answered with.
    pub async fn initialize(&mut self, asked: &str) -> Reply {
        let params = json!({
            "protocolVersion": asked,
            "capabilities": {},
            "clientInfo": {"name": "auditbook-probe", "version": env!("CARGO_PKG_VERSION")},
        });
        let reply = self.request("initialize", params).await;
        if let Some(v) = reply
            .result()
            .and_then(|r| r.get("protocolVersion"))
            .and_then(Json::as_str)
        {
            self.version = v.to_string();
            self.session = reply.header("mcp-session-id").map(String::from);
            self.notify("notifications/initialized").await;
        }
        reply
    }

    /// End the connection: a legacy HTTP session is deleted (its id is the server's to free).
    pub async fn close(mut self) {
        if let (Conn::Http(_), Some(s)) = (&self.conn, self.session.clone()) {
            let headers = vec![
                ("Mcp-Session-Id".to_string(), s),
                ("MCP-Protocol-Version".to_string(), self.version.clone()),
            ];
            let _ = self.raw("DELETE", &headers, None).await;
        }
    }

    /// What the started server wrote to stderr (stdio).
    pub fn stderr_tail(&self) -> Option<String> {
        match &self.conn {
            Conn::Stdio(p) => Some(p.stderr_tail()),
            Conn::Http(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modern_requests_carry_meta_and_routing_headers() {
        let mut c = Client::http(
            "http://127.0.0.1:1/mcp",
            Era::Modern,
            "2026-07-28",
            Limits::default(),
            "t",
        );
        let (_, msg, headers) = c.build("tools/call", json!({"name": "zürich"}), &Shape::default());
        assert_eq!(
            msg.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion"),
            Some(&json!("2026-07-28"))
        );
        let h = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        assert_eq!(h("Mcp-Method").as_deref(), Some("tools/call"));
        assert_eq!(h("Mcp-Name").as_deref(), Some("=?base64?esO8cmljaA==?="));
        let shape = Shape {
            omit: vec!["mcp-method".into()],
            no_meta: true,
            ..Shape::default()
        };
        let (_, msg, headers) = c.build("tools/list", json!({}), &shape);
        assert!(msg.pointer("/params/_meta").is_none());
        assert!(!headers.iter().any(|(k, _)| k == "Mcp-Method"));
    }
}
