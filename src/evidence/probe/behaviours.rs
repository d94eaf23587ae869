//! Requests a correct server must refuse, each beside a positive control that it serves, so a
//! refusal means what it seems to: a foreign `Origin`, an unsupported protocol-version header,
//! and — for the stateless revision — an unsupported version in `_meta`, missing or
//! mismatched routing headers, a GET on the endpoint, and a request that arrives first on a
//! fresh connection with no handshake before it.

use super::client::{Client, Era, Shape, Target};
use super::observe::{note_modern, Exchanged, HttpSeen, Modern, Observation, Options};
use crate::model::probe::Kind;
use serde_json::json;

fn shaped(sent: String, reply: super::transport::Reply) -> Exchanged {
    Exchanged { sent, reply }
}

/// The transport probes over HTTP, in the era the server is probed in.
pub async fn http(
    mclient: &mut Option<Client>,
    lclient: &mut Option<Client>,
    opts: &Options,
    obs: &mut Observation,
    modern: &mut Modern,
) {
    let mut seen = HttpSeen::default();
    let origin = opts.wants(Kind::HttpOrigin);
    let header = opts.wants(Kind::HttpVersionHeader);
    if let Some(c) = mclient.as_mut() {
        seen.era = Some(Era::Modern);
        if origin {
            let control = c.request("server/discover", json!({})).await;
            note_modern(modern, "server/discover", &control);
            seen.origin_control = Some(shaped(
                "POST server/discover without Origin".into(),
                control,
            ));
            let shape = Shape {
                headers: vec![("Origin".into(), opts.foreign_origin.clone())],
                ..Shape::default()
            };
            let r = c.request_shaped("server/discover", json!({}), &shape).await;
            seen.foreign_origin = Some(shaped(
                format!("POST server/discover with Origin: {}", opts.foreign_origin),
                r,
            ));
        }
        if header {
            let control = c.request("tools/list", json!({})).await;
            note_modern(modern, "tools/list", &control);
            seen.version_control = Some(shaped(
                format!("POST tools/list with MCP-Protocol-Version: {}", c.version),
                control,
            ));
            let shape = Shape {
                version: Some(opts.bogus_version.clone()),
                ..Shape::default()
            };
            let r = c.request_shaped("tools/list", json!({}), &shape).await;
            seen.bogus_version = Some(shaped(
                format!(
                    "POST tools/list with MCP-Protocol-Version: {} (and the same in _meta)",
                    opts.bogus_version
                ),
                r,
            ));
        }
    } else if let Some(c) = lclient.as_mut() {
        seen.era = Some(Era::Legacy);
        if origin {
            // A session of its own: `initialize` with and without the foreign Origin.
            let mut control = Client::http(
                obs_url(c),
                Era::Legacy,
                &opts.legacy,
                opts.limits,
                &user_agent(opts),
            );
            let r = control.initialize(&opts.legacy).await;
            seen.origin_control = Some(shaped(
                format!("POST initialize ({}) without Origin", opts.legacy),
                r,
            ));
            control.close().await;
            let mut foreign = Client::http(
                obs_url(c),
                Era::Legacy,
                &opts.legacy,
                opts.limits,
                &user_agent(opts),
            );
            let shape = Shape {
                headers: vec![("Origin".into(), opts.foreign_origin.clone())],
                ..Shape::default()
            };
            let params = json!({
                "protocolVersion": opts.legacy,
                "capabilities": {},
                "clientInfo": {"name": "auditbook-probe", "version": env!("CARGO_PKG_VERSION")},
            });
            let r = foreign.request_shaped("initialize", params, &shape).await;
            if let Some(s) = r.header("mcp-session-id") {
                foreign.session = Some(s.to_string());
            }
            seen.foreign_origin = Some(shaped(
                format!("POST initialize with Origin: {}", opts.foreign_origin),
                r,
            ));
            foreign.close().await;
        }
        if header {
            let control = c.request("tools/list", json!({})).await;
            seen.version_control = Some(shaped(
                format!("POST tools/list with MCP-Protocol-Version: {}", c.version),
                control,
            ));
            let shape = Shape {
                version: Some(opts.bogus_version.clone()),
                ..Shape::default()
            };
            let r = c.request_shaped("tools/list", json!({}), &shape).await;
            seen.bogus_version = Some(shaped(
                format!(
                    "POST tools/list with MCP-Protocol-Version: {}",
                    opts.bogus_version
                ),
                r,
            ));
        }
    }
    obs.http_probes = Some(seen);
}

fn user_agent(opts: &Options) -> String {
    opts.user_agent.clone()
}

fn obs_url(c: &Client) -> &str {
    c.url().unwrap_or("")
}

/// The stateless revision's behaviours.
pub async fn modern(
    target: &Target,
    mclient: &mut Option<Client>,
    opts: &Options,
    obs: &mut Observation,
    m: &mut Modern,
) {
    let Some(c) = mclient.as_mut() else {
        return;
    };
    if opts.wants(Kind::ProtocolVersion) {
        let shape = Shape {
            version: Some(opts.bogus_version.clone()),
            ..Shape::default()
        };
        let r = c.request_shaped("tools/list", json!({}), &shape).await;
        m.unsupported = Some(shaped(
            format!(
                "tools/list naming protocol version {} in _meta",
                opts.bogus_version
            ),
            r,
        ));
    }
    if opts.wants(Kind::Stateless) {
        // A fresh connection (over stdio a fresh process) whose first request is not discover.
        match Client::open(
            target,
            Era::Modern,
            &c.version,
            &opts.sandbox,
            opts.limits,
            &opts.user_agent,
        ) {
            Ok(mut fresh) => {
                let r = fresh.request("tools/list", json!({})).await;
                note_modern(m, "tools/list", &r);
                m.fresh_first = Some(shaped(
                    "tools/list as the first request on a fresh connection, no handshake".into(),
                    r,
                ));
            }
            Err(t) => {
                m.fresh_first = Some(shaped(
                    "tools/list as the first request on a fresh connection".into(),
                    super::transport::Reply::trouble(t),
                ))
            }
        }
        if c.is_http() {
            let headers = vec![
                ("Accept".to_string(), "text/event-stream".to_string()),
                ("MCP-Protocol-Version".to_string(), c.version.clone()),
            ];
            if let Some(r) = c.raw("GET", &headers, None).await {
                m.get = Some(shaped("GET on the endpoint".into(), r));
            }
        }
    }
    if opts.wants(Kind::RoutingHeaders) && c.is_http() {
        let omit = Shape {
            omit: vec!["Mcp-Method".into()],
            ..Shape::default()
        };
        let r = c.request_shaped("tools/list", json!({}), &omit).await;
        m.no_method_header = Some(shaped("tools/list without an Mcp-Method header".into(), r));
        let wrong = Shape {
            headers: vec![("Mcp-Method".into(), "prompts/list".into())],
            ..Shape::default()
        };
        let r = c.request_shaped("tools/list", json!({}), &wrong).await;
        m.wrong_method_header = Some(shaped("tools/list with Mcp-Method: prompts/list".into(), r));
        // The body names a tool that does not exist: a server that skips the check answers
        // "unknown tool", and nothing is run either way.
        let name = Shape {
            headers: vec![("Mcp-Name".into(), "auditbook-probe-header".into())],
            ..Shape::default()
        };
        let r = c
            .request_shaped(
                "tools/call",
                json!({"name": "auditbook-probe-no-such-tool", "arguments": {}}),
                &name,
            )
            .await;
        m.wrong_name_header = Some(shaped(
            "tools/call of `auditbook-probe-no-such-tool` with Mcp-Name: auditbook-probe-header"
                .into(),
            r,
        ));
    }
    let _ = obs;
}
