//! Looking at a live server as an MCP client (the official Rust SDK, `rmcp`): start or reach it,
//! open as a client of the newest revision and then as a legacy client, list what it offers,
//! sample read-only tools, send one call with bad arguments, and (over HTTP) send the raw
//! requests the transport probes need. Everything is recorded as plain JSON in an
//! `Observation`; judging it is `judge`'s job, so no probe reads the SDK's types.
//!
//! Every request has a time-out: a server that hangs or crashes becomes a recorded outcome,
//! never a hung probe.

use super::http;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientInfo, Implementation, ProtocolVersion,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::ServiceExt;
use serde::Serialize;
use serde_json::{Map, Value as Json};
use std::time::Duration;

/// The revisions the probe opens with: the newest first, then the legacy one.
pub const NEWEST: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

/// Where the server is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
        match self {
            Target::Stdio(c) => format!("stdio: {c}"),
            Target::Http(u) => u.clone(),
        }
    }
}

/// Which tools a probe may call. Calling a tool can change things on the server's side, so by
/// default only tools that declare `readOnlyHint: true` are called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallPolicy {
    ReadOnly,
    All,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// Time-out for each request (and for starting the server).
    pub timeout: Duration,
    pub calls: CallPolicy,
    /// The revisions to open with.
    pub newest: String,
    pub legacy: String,
    /// The `Origin` sent by the HTTP origin probe.
    pub foreign_origin: String,
    /// The unsupported `MCP-Protocol-Version` the header probe sends.
    pub bogus_version: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(10),
            calls: CallPolicy::ReadOnly,
            newest: NEWEST.into(),
            legacy: LEGACY.into(),
            foreign_origin: "http://probe.invalid".into(),
            bogus_version: "1999-01-01".into(),
        }
    }
}

/// Whether the target answered as an MCP server at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", content = "detail", rename_all = "kebab-case")]
pub enum Reach {
    Reached,
    /// It could not be started or connected to.
    Unreachable(String),
    /// It answered, but not as MCP (an HTML page, a 403 from a firewall, a 404).
    NotMcp(String),
    /// It stopped answering within the time-out.
    Hung(String),
    /// It exited or closed the connection.
    Crashed(String),
}

impl Reach {
    pub fn reached(&self) -> bool {
        matches!(self, Reach::Reached)
    }

    pub fn describe(&self) -> String {
        match self {
            Reach::Reached => "reached as MCP".into(),
            Reach::Unreachable(d) => format!("not reachable: {d}"),
            Reach::NotMcp(d) => format!("not reachable as MCP: {d}"),
            Reach::Hung(d) => format!("the server hung: {d}"),
            Reach::Crashed(d) => format!("the server crashed: {d}"),
        }
    }
}

/// The answer to one request.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
// The variant names are the recorded tags (`no-answer`), read back by older records.
#[allow(clippy::enum_variant_names)]
pub enum Answer {
    /// A result (as JSON).
    Result { value: Json },
    /// A JSON-RPC error.
    RpcError { code: i32, message: String },
    /// No answer: time-out, crash, transport failure.
    NoAnswer { why: String },
}

/// One `tools/call` the probe sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Call {
    pub tool: String,
    pub arguments: Json,
    pub answer: Answer,
}

/// How the server answered a client of one revision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Opening {
    pub asked: String,
    /// The revision the server answered with, or why there was none.
    pub answered: Result<String, String>,
}

/// Everything one probe run saw.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Observation {
    pub target: String,
    pub http: bool,
    pub reach: Option<Reach>,
    pub server_name: String,
    pub server_version: String,
    pub protocol_version: String,
    pub openings: Vec<Opening>,
    pub tools: Vec<Json>,
    pub resources: Vec<Json>,
    pub prompts: Vec<Json>,
    /// Listings the server did not answer (method, why); `-32601` counts as "offers none".
    pub listing_notes: Vec<String>,
    /// Read-only (or, when allowed, any) tools called with arguments made from their schema.
    pub samples: Vec<Call>,
    /// A call with arguments that break the tool's input schema.
    pub bad_call: Option<Call>,
    /// Tools that were not called, and why.
    pub not_called: Vec<String>,
    pub http_probes: Option<http::HttpObservation>,
}

impl Observation {
    pub fn reached(&self) -> bool {
        self.reach.as_ref().is_some_and(Reach::reached)
    }
}

type Client = RunningService<RoleClient, ClientInfo>;

fn client_info(version: &str) -> ClientInfo {
    ClientInfo::new(
        ClientCapabilities::default(),
        Implementation::new("auditbook-probe", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(version_of(version))
}

fn version_of(v: &str) -> ProtocolVersion {
    ProtocolVersion::KNOWN_VERSIONS
        .iter()
        .find(|k| k.as_str() == v)
        .cloned()
        .unwrap_or(ProtocolVersion::LATEST)
}

/// The process groups of the stdio servers a probe started. Each server runs in a group of its
/// own, and the whole group is killed when the probe is done with it (or is dropped at its
/// time-out): `sh -c` may leave the server as its child, and a server may start its own.
#[derive(Default)]
pub struct Groups(std::sync::Mutex<Vec<i32>>);

impl Groups {
    fn add(&self, pid: Option<u32>) {
        if let (Some(pid), Ok(mut g)) = (pid.and_then(|p| i32::try_from(p).ok()), self.0.lock()) {
            g.push(pid);
        }
    }
}

impl Drop for Groups {
    fn drop(&mut self) {
        if let Ok(g) = self.0.lock() {
            for pid in g.iter().filter(|p| **p > 1) {
                // SAFETY: killpg only sends a signal; the group is one this probe created.
                unsafe {
                    libc::killpg(*pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// Open one session as a client of `version`.
async fn connect(
    target: &Target,
    version: &str,
    opts: &Options,
    groups: &Groups,
) -> Result<Client, Reach> {
    let info = client_info(version);
    let t = opts.timeout;
    let outcome = match target {
        Target::Stdio(cmd) => {
            let mut command = tokio::process::Command::new("sh");
            command.arg("-c").arg(cmd).process_group(0);
            let spawned = rmcp::transport::TokioChildProcess::builder(command)
                .stderr(std::process::Stdio::null())
                .spawn();
            let (transport, _stderr) = match spawned {
                Ok(t) => t,
                Err(e) => return Err(Reach::Unreachable(format!("could not start `{cmd}`: {e}"))),
            };
            groups.add(transport.id());
            tokio::time::timeout(t, info.serve(transport)).await
        }
        Target::Http(url) => {
            let client =
                http::client().map_err(|e| Reach::Unreachable(format!("no HTTP client: {e}")))?;
            let transport = rmcp::transport::StreamableHttpClientTransport::with_client(
                client,
                rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
                    url.as_str(),
                ),
            );
            tokio::time::timeout(t, info.serve(transport)).await
        }
    };
    match outcome {
        Err(_) => Err(Reach::Hung(format!(
            "no answer to `initialize` within {} ms",
            t.as_millis()
        ))),
        Ok(Ok(client)) => Ok(client),
        Ok(Err(e)) => {
            let text = e.to_string();
            Err(match e {
                rmcp::service::ClientInitializeError::ConnectionClosed(_) => Reach::Crashed(
                    format!("the connection closed during `initialize` ({text})"),
                ),
                // A stdio server whose pipe broke has exited.
                rmcp::service::ClientInitializeError::TransportError { .. }
                    if matches!(target, Target::Stdio(_)) =>
                {
                    Reach::Crashed(format!("the server exited during `initialize` ({text})"))
                }
                rmcp::service::ClientInitializeError::JsonRpcError(d) => Reach::NotMcp(format!(
                    "`initialize` answered with JSON-RPC error {}: {}",
                    d.code.0, d.message
                )),
                _ => Reach::NotMcp(excerpt(&text, 300)),
            })
        }
    }
}

/// At most `n` characters of `s`, on one line.
pub fn excerpt(s: &str, n: usize) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= n {
        one
    } else {
        format!("{}…", one.chars().take(n).collect::<String>())
    }
}

fn answer_of<T: Serialize>(
    r: Result<Result<T, ServiceError>, tokio::time::error::Elapsed>,
    t: Duration,
) -> Answer {
    match r {
        Err(_) => Answer::NoAnswer {
            why: format!("no answer within {} ms", t.as_millis()),
        },
        Ok(Ok(v)) => Answer::Result {
            value: serde_json::to_value(v).unwrap_or(Json::Null),
        },
        Ok(Err(ServiceError::McpError(d))) => Answer::RpcError {
            code: d.code.0,
            message: d.message.to_string(),
        },
        Ok(Err(e)) => Answer::NoAnswer {
            why: excerpt(&e.to_string(), 200),
        },
    }
}

/// Probe a target: the whole protocol-side observation, then the raw HTTP probes.
pub async fn observe(target: &Target, opts: &Options) -> Observation {
    http::install_tls();
    let groups = Groups::default();
    let mut obs = Observation {
        target: target.shown(),
        http: matches!(target, Target::Http(_)),
        ..Observation::default()
    };
    // The raw HTTP requests first: they also tell "not MCP at all" from "MCP but refused".
    if let Target::Http(url) = target {
        let h = http::probe(url, opts).await;
        if let Some(why) = h.not_mcp.clone() {
            // No answer at all (refused, reset, timed out) is not reachable; an answer that is
            // not JSON-RPC is not reachable as MCP.
            let control = h.control.as_ref();
            let silent = control.is_some_and(|c| c.failure.is_some());
            obs.reach = Some(if control.is_some_and(|c| c.timed_out) {
                Reach::Hung(why)
            } else if silent {
                Reach::Unreachable(why)
            } else {
                Reach::NotMcp(why)
            });
            obs.http_probes = Some(h);
            return obs;
        }
        obs.http_probes = Some(h);
    }
    let newest = connect(target, &opts.newest, opts, &groups).await;
    let client = match newest {
        Ok(c) => {
            obs.openings.push(opening(&opts.newest, &c));
            c
        }
        Err(reach) => {
            obs.openings.push(Opening {
                asked: opts.newest.clone(),
                answered: Err(reach.describe()),
            });
            match connect(target, &opts.legacy, opts, &groups).await {
                Ok(c) => c,
                Err(r2) => {
                    obs.openings.push(Opening {
                        asked: opts.legacy.clone(),
                        answered: Err(r2.describe()),
                    });
                    obs.reach = Some(reach);
                    return obs;
                }
            }
        }
    };
    obs.reach = Some(Reach::Reached);
    if let Some(info) = client.peer_info() {
        obs.server_name = info.server_info.name.clone();
        obs.server_version = info.server_info.version.clone();
        obs.protocol_version = info.protocol_version.to_string();
    }
    list(&client, opts, &mut obs).await;
    calls(&client, opts, &mut obs).await;
    let _ = tokio::time::timeout(opts.timeout, client.cancel()).await;
    // A second session as a legacy client, unless that is how the first one was opened.
    if obs.openings.len() == 1 {
        match connect(target, &opts.legacy, opts, &groups).await {
            Ok(c) => {
                obs.openings.push(opening(&opts.legacy, &c));
                let _ = tokio::time::timeout(opts.timeout, c.cancel()).await;
            }
            Err(r) => obs.openings.push(Opening {
                asked: opts.legacy.clone(),
                answered: Err(r.describe()),
            }),
        }
    }
    obs
}

fn opening(asked: &str, c: &Client) -> Opening {
    Opening {
        asked: asked.to_string(),
        answered: c
            .peer_info()
            .map(|i| i.protocol_version.to_string())
            .ok_or_else(|| "no initialize result".to_string()),
    }
}

async fn list(client: &Client, opts: &Options, obs: &mut Observation) {
    let t = opts.timeout;
    let tools = tokio::time::timeout(t, client.list_all_tools()).await;
    obs.tools = listed("tools/list", answer_of(tools, t), &mut obs.listing_notes);
    let res = tokio::time::timeout(t, client.list_all_resources()).await;
    obs.resources = listed("resources/list", answer_of(res, t), &mut obs.listing_notes);
    let prompts = tokio::time::timeout(t, client.list_all_prompts()).await;
    obs.prompts = listed(
        "prompts/list",
        answer_of(prompts, t),
        &mut obs.listing_notes,
    );
}

fn listed(method: &str, a: Answer, notes: &mut Vec<String>) -> Vec<Json> {
    match a {
        Answer::Result {
            value: Json::Array(items),
        } => items,
        Answer::Result { .. } => Vec::new(),
        // -32601: the server offers none of these; not evidence of anything.
        Answer::RpcError { code: -32601, .. } => {
            notes.push(format!(
                "{method}: method not found (-32601), the server offers none"
            ));
            Vec::new()
        }
        Answer::RpcError { code, message } => {
            notes.push(format!("{method}: JSON-RPC error {code}: {message}"));
            Vec::new()
        }
        Answer::NoAnswer { why } => {
            notes.push(format!("{method}: {why}"));
            Vec::new()
        }
    }
}

fn read_only(tool: &Json) -> bool {
    tool.pointer("/annotations/readOnlyHint") == Some(&Json::Bool(true))
}

fn name_of(tool: &Json) -> String {
    tool.get("name")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string()
}

async fn call(client: &Client, t: Duration, tool: &str, args: Map<String, Json>) -> Call {
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(args.clone());
    let answer = answer_of(tokio::time::timeout(t, client.call_tool(params)).await, t);
    Call {
        tool: tool.to_string(),
        arguments: Json::Object(args),
        answer,
    }
}

async fn calls(client: &Client, opts: &Options, obs: &mut Observation) {
    let mut tools: Vec<&Json> = obs.tools.iter().collect();
    tools.sort_by_key(|t| name_of(t));
    let mut samples = Vec::new();
    let mut not_called = Vec::new();
    let mut bad_target: Option<(String, Map<String, Json>)> = None;
    for tool in tools {
        let name = name_of(tool);
        if opts.calls == CallPolicy::ReadOnly && !read_only(tool) {
            not_called.push(format!(
                "{name}: not called, it does not declare readOnlyHint: true"
            ));
            continue;
        }
        let schema = tool.get("inputSchema").cloned().unwrap_or(Json::Null);
        if bad_target.is_none() {
            if let Some(bad) = super::arguments::breaking(&schema) {
                bad_target = Some((name.clone(), bad));
            }
        }
        if tool.get("outputSchema").is_none() {
            continue;
        }
        match super::arguments::sample(&schema) {
            Some(args) => samples.push((name, args)),
            None => not_called.push(format!(
                "{name}: not called, no arguments could be made from its input schema"
            )),
        }
    }
    for (name, args) in samples {
        let c = call(client, opts.timeout, &name, args).await;
        obs.samples.push(c);
    }
    if let Some((name, args)) = bad_target {
        obs.bad_call = Some(call(client, opts.timeout, &name, args).await);
    }
    obs.not_called = not_called;
}

/// `observe` on a runtime of its own, for callers without one.
pub fn observe_blocking(target: &Target, opts: &Options) -> std::io::Result<Observation> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(rt.block_on(observe(target, opts)))
}
