//! The wire under the probe: JSON-RPC messages over a started process's stdio, or POSTed to a
//! Streamable HTTP endpoint and read back as JSON or as an event stream. The probe speaks the
//! protocol itself rather than through an SDK client, because what it must see is exactly what
//! a client library hides: answers to deliberately wrong requests, the raw status and headers,
//! priming events, a reply whose keys come in any order, a message too large to keep.
//!
//! Every read is bounded: each message by `Limits::message_bytes`, each request by
//! `Limits::timeout`. A server that sends more, or nothing, becomes a recorded `Trouble`.

pub mod http;
pub mod sse;
pub mod stdio;

use serde::Serialize;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::time::Duration;

/// How much the probe reads and waits for.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Time-out for one request (and for starting the server).
    pub timeout: Duration,
    /// The largest message kept; a larger one is `Trouble::TooLarge`.
    pub message_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            message_bytes: 4 << 20,
        }
    }
}

/// Why a request got no JSON-RPC answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "trouble", content = "detail", rename_all = "kebab-case")]
pub enum Trouble {
    /// Refused, reset, or the request could not be sent.
    NoAnswer(String),
    /// Nothing within the time-out.
    TimedOut(String),
    /// A message larger than the limit.
    TooLarge(String),
    /// An answer that is not JSON-RPC (an HTML page, a 403 from a firewall, text on stdout).
    NotJsonRpc(String),
    /// The process exited or the connection closed.
    Closed(String),
}

impl Trouble {
    pub fn describe(&self) -> String {
        match self {
            Trouble::NoAnswer(d) => format!("no answer ({d})"),
            Trouble::TimedOut(d) => format!("timed out ({d})"),
            Trouble::TooLarge(d) => format!("too large ({d})"),
            Trouble::NotJsonRpc(d) => format!("not JSON-RPC ({d})"),
            Trouble::Closed(d) => format!("closed ({d})"),
        }
    }
}

/// The HTTP side of an answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HttpMeta {
    pub status: u16,
    pub content_type: String,
    /// The headers of interest to the probe, names in lower case.
    pub headers: BTreeMap<String, String>,
    /// The start of a body that was not a JSON-RPC answer (quoted).
    pub body: String,
}

/// The answer to one request.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Reply {
    /// The response message carrying the request's id (`result` or `error`), as sent.
    pub message: Option<Json>,
    pub http: Option<HttpMeta>,
    pub trouble: Option<Trouble>,
    /// Methods of the requests the server sent while answering (server-initiated requests).
    pub server_requests: Vec<String>,
}

impl Reply {
    pub fn trouble(t: Trouble) -> Reply {
        Reply {
            trouble: Some(t),
            ..Reply::default()
        }
    }

    pub fn result(&self) -> Option<&Json> {
        self.message.as_ref().and_then(|m| m.get("result"))
    }

    pub fn error_code(&self) -> Option<i64> {
        self.message
            .as_ref()
            .and_then(|m| m.pointer("/error/code"))
            .and_then(Json::as_i64)
    }

    pub fn error_message(&self) -> String {
        self.message
            .as_ref()
            .and_then(|m| m.pointer("/error/message"))
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    }

    pub fn status(&self) -> Option<u16> {
        self.http.as_ref().map(|h| h.status)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.http
            .as_ref()
            .and_then(|h| h.headers.get(&name.to_ascii_lowercase()))
            .map(String::as_str)
    }

    /// The answer in one line for evidence, every server value quoted.
    pub fn shown(&self) -> String {
        let http = self
            .http
            .as_ref()
            .map(|h| format!("HTTP {} ", h.status))
            .unwrap_or_default();
        let u = |s: &str| crate::evidence::untrusted::value(s);
        match (&self.message, &self.trouble) {
            (Some(m), _) if m.get("error").is_some() => format!(
                "{http}JSON-RPC error {}: \"{}\"",
                self.error_code()
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "(no code)".into()),
                u(&self.error_message())
            ),
            (Some(m), _) => format!(
                "{http}result {}",
                crate::evidence::untrusted::json(m.get("result").unwrap_or(&Json::Null), 160)
            ),
            (None, Some(t)) => format!("{http}{}", t.describe()),
            (None, None) => match &self.http {
                Some(h) if h.body.is_empty() => {
                    format!("{http}{}", h.content_type).trim_end().to_string()
                }
                Some(h) => format!("{http}{}: {}", h.content_type, h.body),
                None => "no answer".into(),
            },
        }
    }
}

/// The JSON-RPC message with `id` among the values a body or an event carried (a single
/// message or a batch, keys in any order): the response, the methods of server requests,
/// and how many other messages there were.
pub fn find_response(value: Json, id: i64, into: &mut Found) {
    match value {
        Json::Array(items) => items.into_iter().for_each(|v| find_response(v, id, into)),
        Json::Object(m) => {
            let is_ours = m.get("id").and_then(Json::as_i64) == Some(id);
            let has_method = m.get("method").and_then(Json::as_str);
            let answers = m.contains_key("result") || m.contains_key("error");
            if let (Some(method), true) = (has_method, m.contains_key("id")) {
                into.server_requests.push(method.to_string());
            } else if is_ours && answers {
                if into.response.is_none() {
                    into.response = Some(Json::Object(m));
                }
            } else if m.get("id") == Some(&Json::Null) && m.contains_key("error") {
                // An error about a request the server could not read has no id; it answers
                // ours when nothing else does.
                if into.unaddressed.is_none() {
                    into.unaddressed = Some(Json::Object(m));
                }
            } else {
                into.other += 1;
            }
        }
        _ => into.other += 1,
    }
}

impl Found {
    /// The response, or else an unaddressed error.
    pub fn answer(&mut self) -> Option<Json> {
        self.response.take().or_else(|| self.unaddressed.take())
    }
}

/// What `find_response` gathered.
#[derive(Default, Debug)]
pub struct Found {
    pub response: Option<Json>,
    /// An error with `id: null`.
    pub unaddressed: Option<Json>,
    pub server_requests: Vec<String>,
    pub other: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_response_is_found_in_any_key_order_and_in_batches() {
        let mut f = Found::default();
        find_response(
            json!([{"method": "notifications/message", "params": {}, "jsonrpc": "2.0"},
                   {"method": "sampling/createMessage", "id": 9, "jsonrpc": "2.0"},
                   {"result": {"tools": []}, "id": 3, "jsonrpc": "2.0"}]),
            3,
            &mut f,
        );
        assert!(f.response.is_some());
        assert_eq!(f.server_requests, vec!["sampling/createMessage"]);
        assert_eq!(f.other, 1);
    }
}
