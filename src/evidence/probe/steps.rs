//! Running a declared probe: each step's request is sent in the revision it names (modern
//! steps on the modern client, legacy steps in the legacy session, raw HTTP to the endpoint),
//! with the values earlier steps captured put in for `${name}`. The answers are recorded; the
//! matchers are applied when the observation is judged. A step that cannot be sent — the
//! server does not serve its revision, the target is not HTTP, a capture found nothing — stops
//! the probe, and the reason is recorded: that is "could not look", never a pass.

use super::client::{Client, Shape, Target};
use super::observe::{note_modern, Exchanged, Modern, Options};
use crate::model::declared::Transport;
use crate::model::probe::ProbeSpec;
use crate::model::probe_steps::{Request, Revision};
use serde::Serialize;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// What a declared probe's steps got.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StepRun {
    /// One per step sent, in order.
    pub exchanges: Vec<Exchanged>,
    /// Why the remaining steps were not sent.
    pub stopped: Option<String>,
}

/// The JSON an answer's pointers are read from: the JSON-RPC response, or a raw JSON body.
pub fn answer_json(e: &Exchanged) -> Option<&Json> {
    e.reply.message.as_ref()
}

fn text_of(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn put_in(s: &str, caps: &BTreeMap<String, Json>) -> String {
    let mut out = s.to_string();
    for (k, v) in caps {
        out = out.replace(&format!("${{{k}}}"), &text_of(v));
    }
    out
}

/// `${name}` in the strings of a JSON value; a string that is exactly one reference takes the
/// captured value with its type.
fn put_in_json(v: &Json, caps: &BTreeMap<String, Json>) -> Json {
    match v {
        Json::String(s) => {
            let whole = s
                .strip_prefix("${")
                .and_then(|r| r.strip_suffix('}'))
                .and_then(|k| caps.get(k));
            match whole {
                Some(c) => c.clone(),
                None => Json::String(put_in(s, caps)),
            }
        }
        Json::Array(a) => Json::Array(a.iter().map(|x| put_in_json(x, caps)).collect()),
        Json::Object(m) => Json::Object(
            m.iter()
                .map(|(k, x)| (put_in(k, caps), put_in_json(x, caps)))
                .collect(),
        ),
        other => other.clone(),
    }
}

pub async fn run(
    target: &Target,
    spec: &ProbeSpec,
    mclient: &mut Option<Client>,
    lclient: &mut Option<Client>,
    _opts: &Options,
    modern: &mut Modern,
) -> StepRun {
    let mut out = StepRun::default();
    match (spec.transport, target.is_http()) {
        (Transport::Http, false) => {
            out.stopped =
                Some("the probe runs over Streamable HTTP; the target is a stdio server".into());
            return out;
        }
        (Transport::Stdio, true) => {
            out.stopped =
                Some("the probe runs over stdio; the target is a Streamable HTTP endpoint".into());
            return out;
        }
        _ => {}
    }
    let mut caps: BTreeMap<String, Json> = BTreeMap::new();
    for (i, step) in spec.steps.iter().enumerate() {
        let n = i + 1;
        let exchange = match &step.request {
            Request::Rpc {
                method,
                params,
                revision,
                meta,
                version,
                headers,
                omit_headers,
            } => {
                let (client, era_name) = match revision {
                    Revision::Modern => (
                        mclient.as_mut(),
                        "2026-07-28 (it answers no server/discover)",
                    ),
                    Revision::Legacy => (lclient.as_mut(), "2025-11-25 (it answers no initialize)"),
                };
                let Some(client) = client else {
                    out.stopped = Some(format!("step {n}: the server does not serve {era_name}"));
                    return out;
                };
                let method = put_in(method, &caps);
                let shape = Shape {
                    no_meta: !meta,
                    version: version.as_deref().map(|v| put_in(v, &caps)),
                    headers: headers
                        .iter()
                        .map(|(k, v)| (k.clone(), put_in(v, &caps)))
                        .collect(),
                    omit: omit_headers.clone(),
                };
                let reply = client
                    .request_shaped(&method, put_in_json(params, &caps), &shape)
                    .await;
                if *revision == Revision::Modern {
                    note_modern(modern, &method, &reply);
                }
                let mut sent = format!(
                    "{method} ({})",
                    match revision {
                        Revision::Modern => "2026-07-28",
                        Revision::Legacy => "2025-11-25",
                    }
                );
                if let Some(v) = &shape.version {
                    sent.push_str(&format!(", protocol version {v}"));
                }
                if shape.no_meta {
                    sent.push_str(", without _meta");
                }
                for (k, v) in &shape.headers {
                    sent.push_str(&format!(", {k}: {v}"));
                }
                for k in &shape.omit {
                    sent.push_str(&format!(", no {k}"));
                }
                Exchanged { sent, reply }
            }
            Request::Http {
                method,
                headers,
                body,
            } => {
                let client = match (mclient.as_mut(), lclient.as_mut()) {
                    (Some(c), _) => c,
                    (None, Some(c)) => c,
                    (None, None) => {
                        out.stopped = Some(format!("step {n}: no connection to send it on"));
                        return out;
                    }
                };
                let headers: Vec<(String, String)> = headers
                    .iter()
                    .map(|(k, v)| (k.clone(), put_in(v, &caps)))
                    .collect();
                let body = body.as_deref().map(|b| put_in(b, &caps));
                let Some(reply) = client.raw(method, &headers, body).await else {
                    out.stopped =
                        Some(format!("step {n}: a raw HTTP request needs an HTTP target"));
                    return out;
                };
                Exchanged {
                    sent: format!("HTTP {method}"),
                    reply,
                }
            }
        };
        for (name, pointer) in &step.capture {
            match answer_json(&exchange).and_then(|j| j.pointer(pointer)) {
                Some(v) => {
                    caps.insert(name.clone(), v.clone());
                }
                None => {
                    out.stopped = Some(format!(
                        "step {n}: the answer has nothing at `{pointer}` to capture as `{name}`; the later steps were not sent"
                    ));
                    out.exchanges.push(exchange);
                    return out;
                }
            }
        }
        out.exchanges.push(exchange);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn captures_keep_their_type_when_a_string_is_one_reference() {
        let caps: BTreeMap<String, Json> = [
            ("n".to_string(), json!(3)),
            ("u".to_string(), json!("file:///x")),
        ]
        .into();
        assert_eq!(
            put_in_json(&json!({"a": "${n}", "b": "uri=${u}", "${u}": 1}), &caps),
            json!({"a": 3, "b": "uri=file:///x", "file:///x": 1})
        );
    }
}
