//! Many MCP endpoints with mixed behaviours, served by this one process on 127.0.0.1: endpoint
//! `i` is `http://127.0.0.1:PORT/s/i/mcp` and behaves as `Behaviour::of(i)`. A small HTTP/1.1
//! server with keep-alive and plain JSON answers (Streamable HTTP allows `application/json`
//! for a single response), stateless: enough of MCP for every probe kind to have something to
//! see, and nothing a probe does not need.

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How an endpoint behaves. Every tenth endpoint has each behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Clean on every probe.
    Good,
    /// One camelCase tool name among snake_case ones.
    CamelCase,
    /// A tool without annotations.
    NoAnnotations,
    /// Accepts any `Origin`.
    OpenOrigin,
    /// `structuredContent` that does not match its `outputSchema`.
    BadStructured,
    /// Answers every `initialize` with the legacy revision only.
    LegacyOnly,
    /// Accepts an unsupported `MCP-Protocol-Version` header.
    AnyVersionHeader,
    /// A web application firewall's 403 page.
    Waf,
    /// A moved path: 404.
    NotFound,
    /// Reads the request and never answers.
    Hangs,
}

pub const ALL: [Behaviour; 10] = [
    Behaviour::Good,
    Behaviour::CamelCase,
    Behaviour::NoAnnotations,
    Behaviour::OpenOrigin,
    Behaviour::BadStructured,
    Behaviour::LegacyOnly,
    Behaviour::AnyVersionHeader,
    Behaviour::Waf,
    Behaviour::NotFound,
    Behaviour::Hangs,
];

impl Behaviour {
    pub fn of(i: usize) -> Behaviour {
        ALL[i % ALL.len()]
    }
}

/// The fleet benchmark's mix, endpoint `http://127.0.0.1:PORT/f/i/mcp`: per hundred, 5 hung, 10
/// that answer but not as MCP (a firewall's 403, a moved path's 404), 2 garbage bodies, 20 slow
/// (2 s before each opening answer: `initialize`, `server/discover`), and the rest fast with the
/// clean and planted behaviours above. `(behaviour, garbage, slow)`.
pub fn fleet_mix(i: usize) -> (Behaviour, bool, bool) {
    const FAST: [Behaviour; 7] = [
        Behaviour::Good,
        Behaviour::CamelCase,
        Behaviour::NoAnnotations,
        Behaviour::OpenOrigin,
        Behaviour::BadStructured,
        Behaviour::LegacyOnly,
        Behaviour::AnyVersionHeader,
    ];
    match i % 100 {
        0..=4 => (Behaviour::Hangs, false, false),
        5..=9 => (Behaviour::Waf, false, false),
        10..=14 => (Behaviour::NotFound, false, false),
        15..=16 => (Behaviour::Good, true, false),
        17..=36 => (FAST[i % FAST.len()], false, true),
        _ => (FAST[i % FAST.len()], false, false),
    }
}

const NEWEST: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// Start serving on a port of its own; the server runs on `rt` until the process ends.
pub fn start(rt: &tokio::runtime::Runtime) -> std::io::Result<u16> {
    let listener = rt.block_on(TcpListener::bind("127.0.0.1:0"))?;
    let port = listener.local_addr()?.port();
    rt.spawn(async move {
        while let Ok((sock, _)) = listener.accept().await {
            tokio::spawn(connection(sock));
        }
    });
    Ok(port)
}

struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One request from `buf` (refilled from `sock`); `None` at the end of the connection.
async fn read_request(sock: &mut TcpStream, buf: &mut Vec<u8>) -> Option<Request> {
    let head_end = loop {
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        let mut chunk = [0u8; 8192];
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let start = head_end + 4;
    while buf.len() < start + len {
        let mut chunk = [0u8; 8192];
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = buf[start..start + len].to_vec();
    buf.drain(..start + len);
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

async fn respond(sock: &mut TcpStream, status: &str, content_type: &str, body: &str) -> bool {
    let text = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    sock.write_all(text.as_bytes()).await.is_ok()
}

async fn connection(mut sock: TcpStream) {
    let mut buf = Vec::new();
    while let Some(req) = read_request(&mut sock, &mut buf).await {
        let fleet = req
            .path
            .strip_prefix("/f/")
            .and_then(|r| r.strip_suffix("/mcp"))
            .and_then(|i| i.parse::<usize>().ok());
        if let Some(i) = fleet {
            let (b, garbage, slow) = fleet_mix(i);
            if garbage {
                if !respond(
                    &mut sock,
                    "200 OK",
                    "application/json",
                    "\u{1}{\"jsonrpc\": 2.0,,]",
                )
                .await
                {
                    return;
                }
                continue;
            }
            if slow
                && req
                    .body
                    .windows(10)
                    .any(|w| w == b"initialize" || w == b"server/dis")
            {
                tokio::time::sleep(std::time::Duration::from_secs(2)).await;
            }
            let (status, ctype, body) = match b {
                Behaviour::Hangs => {
                    let mut sink = [0u8; 1024];
                    while matches!(sock.read(&mut sink).await, Ok(n) if n > 0) {}
                    return;
                }
                Behaviour::Waf => (
                    "403 Forbidden",
                    "text/html",
                    "<html><body>Request blocked.</body></html>".to_string(),
                ),
                Behaviour::NotFound => (
                    "404 Not Found",
                    "text/html",
                    "<html><body>Moved.</body></html>".to_string(),
                ),
                _ => answer(i, b, &req),
            };
            if !respond(&mut sock, status, ctype, &body).await {
                return;
            }
            continue;
        }
        let index = req
            .path
            .strip_prefix("/s/")
            .and_then(|r| r.strip_suffix("/mcp"))
            .and_then(|i| i.parse::<usize>().ok());
        let Some(i) = index else {
            if !respond(&mut sock, "404 Not Found", "text/plain", "no such endpoint").await {
                return;
            }
            continue;
        };
        let b = Behaviour::of(i);
        let (status, ctype, body) = match b {
            Behaviour::Hangs => {
                // Hold the connection without answering until the client gives up.
                let mut sink = [0u8; 1024];
                while matches!(sock.read(&mut sink).await, Ok(n) if n > 0) {}
                return;
            }
            Behaviour::Waf => (
                "403 Forbidden",
                "text/html",
                "<html><body>Request blocked by the web application firewall.</body></html>"
                    .to_string(),
            ),
            Behaviour::NotFound => (
                "404 Not Found",
                "text/html",
                "<html><body>This page has moved.</body></html>".to_string(),
            ),
            _ => answer(i, b, &req),
        };
        if !respond(&mut sock, status, ctype, &body).await {
            return;
        }
    }
}

fn answer(i: usize, b: Behaviour, req: &Request) -> (&'static str, &'static str, String) {
    let json_type = "application/json";
    if req.method != "POST" {
        return ("405 Method Not Allowed", "text/plain", String::new());
    }
    if let Some(origin) = req.header("origin") {
        if b != Behaviour::OpenOrigin && origin != "http://127.0.0.1" {
            return (
                "403 Forbidden",
                json_type,
                rpc_error(Value::Null, -32600, "origin not allowed"),
            );
        }
    }
    if let Some(v) = req.header("mcp-protocol-version") {
        if b != Behaviour::AnyVersionHeader && v != NEWEST && v != LEGACY {
            return (
                "400 Bad Request",
                json_type,
                rpc_error(Value::Null, -32600, "unsupported MCP-Protocol-Version"),
            );
        }
    }
    let msg: Value = match serde_json::from_slice(&req.body) {
        Ok(v) => v,
        Err(_) => {
            return (
                "400 Bad Request",
                json_type,
                rpc_error(Value::Null, -32700, "parse error"),
            )
        }
    };
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    let method = msg.get("method").and_then(Value::as_str).unwrap_or("");
    if id.is_null() {
        // A notification (or a response): accepted, nothing to answer.
        return ("202 Accepted", json_type, String::new());
    }
    let result = match method {
        "initialize" => {
            let asked = msg
                .pointer("/params/protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or(LEGACY);
            let version = if b == Behaviour::LegacyOnly || asked != NEWEST {
                LEGACY
            } else {
                NEWEST
            };
            json!({
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": format!("loopback-{i}"), "version": "1.0.0"}
            })
        }
        "tools/list" => json!({"tools": tools(b)}),
        "tools/call" => call(b, &msg),
        "ping" => json!({}),
        _ => {
            return (
                "200 OK",
                json_type,
                rpc_error(id, -32601, "method not found"),
            )
        }
    };
    (
        "200 OK",
        json_type,
        json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
    )
}

fn rpc_error(id: Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

fn read_only() -> Value {
    json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
}

fn tools(b: Behaviour) -> Value {
    let output = json!({
        "type": "object",
        "properties": {"count": {"type": "integer"}, "titles": {"type": "array", "items": {"type": "string"}}},
        "required": ["count"]
    });
    let query = json!({
        "type": "object",
        "properties": {"query": {"type": "string", "description": "Words to search for"}},
        "required": ["query"]
    });
    let mut delete = json!({
        "name": "delete_record",
        "description": "Delete one record by its identifier. Use it only to remove a record you created; the deletion cannot be undone and is logged with the caller.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        "outputSchema": {"type": "object", "properties": {"deleted": {"type": "boolean"}}, "required": ["deleted"]},
        "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false}
    });
    if b == Behaviour::NoAnnotations {
        if let Some(m) = delete.as_object_mut() {
            m.remove("annotations");
        }
    }
    json!([
        {
            "name": "search_records",
            "description": "Search the records by words in their title and text. Use it to find candidates before reading one; returns at most twenty titles and the total count.",
            "inputSchema": query,
            "outputSchema": output,
            "annotations": read_only()
        },
        {
            "name": if b == Behaviour::CamelCase { "countRecords" } else { "count_records" },
            "description": "Count the records that match a query without returning them. Use it to size a search before paging; the count is exact up to one million records.",
            "inputSchema": query,
            "outputSchema": output,
            "annotations": read_only()
        },
        delete
    ])
}

fn call(b: Behaviour, msg: &Value) -> Value {
    let query = msg.pointer("/params/arguments/query");
    match query {
        Some(Value::String(_)) => {
            let structured = if b == Behaviour::BadStructured {
                json!({"count": "many"})
            } else {
                json!({"count": 2, "titles": ["Amtsblatt 12/2026", "Amtsblatt 13/2026"]})
            };
            json!({
                "content": [{"type": "text", "text": structured.to_string()}],
                "structuredContent": structured,
                "isError": false
            })
        }
        _ => json!({
            "content": [{"type": "text", "text": "`query` is required and must be a string, e.g. {\"query\": \"Baugesuch\"}"}],
            "isError": true
        }),
    }
}
