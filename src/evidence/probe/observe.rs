//! Looking at a live server: which revisions it serves, what it lists, what its tools answer,
//! how it treats requests a correct server must refuse, and the declared steps of the checks
//! that apply. Everything is recorded as plain values in an `Observation`; judging it is
//! `judge`'s job, so every decision can be tested on recorded observations too.
//!
//! The revisions are asked for as each defines it: first a modern (2026-07-28) client, which
//! sends `server/discover` with its version in `_meta` — a `DiscoverResult` or a recognised
//! modern error says the server is modern; then, on a fresh connection (a fresh process over
//! stdio), a legacy (2025-11-25) client with the `initialize` handshake. `-32601` is never
//! evidence of anything but "not this revision".

use super::behaviours;
use super::calls::{self, CallPolicy};
use super::client::{Client, Era, Target};
use super::listing::{self, Listing};
use super::steps::{self, StepRun};
use super::transport::{Limits, Reply, Trouble};
use crate::evidence::sandbox::{Policy, Used};
use crate::evidence::untrusted;
use crate::model::probe::{Kind, ProbeSpec};
use serde::Serialize;
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};

/// The revisions the probe speaks.
pub const NEWEST: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

/// Modern JSON-RPC errors: a server that answers with one of them speaks a modern revision
/// (HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion).
pub const MODERN_ERRORS: [i64; 3] = [-32020, -32021, -32022];

/// A declared probe to run: the check and the probe's place in its `probe:` list.
#[derive(Clone, Debug)]
pub struct Declared {
    pub key: String,
    pub spec: ProbeSpec,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub limits: Limits,
    pub calls: CallPolicy,
    pub newest: String,
    pub legacy: String,
    /// The `Origin` sent by the origin probe.
    pub foreign_origin: String,
    /// A protocol version no server supports (the version-header, echo and unsupported-version
    /// probes send it).
    pub bogus_version: String,
    pub sandbox: Policy,
    pub user_agent: String,
    /// Bounds on one listing.
    pub max_pages: usize,
    pub max_items: usize,
    /// At most this many tools are called to sample their results.
    pub max_calls: usize,
    /// Call one tool the policy allows even when none is sampled, so that a server which asks
    /// an upstream shows what it sends (`collect`, with the catching proxy).
    pub upstream_call: bool,
    /// The built-in kinds whose observations are gathered (`None`: all of them).
    pub wanted: Option<BTreeSet<Kind>>,
    pub declared: Vec<Declared>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: Limits::default(),
            calls: CallPolicy::ReadOnly,
            newest: NEWEST.into(),
            legacy: LEGACY.into(),
            foreign_origin: "http://probe.invalid".into(),
            bogus_version: "1999-01-01".into(),
            sandbox: Policy::default(),
            user_agent: super::transport::http::user_agent(None),
            max_pages: 50,
            max_items: 5000,
            max_calls: 20,
            upstream_call: false,
            wanted: None,
            declared: Vec::new(),
        }
    }
}

impl Options {
    pub fn wants(&self, k: Kind) -> bool {
        self.wanted.as_ref().is_none_or(|w| w.contains(&k))
    }
}

/// Whether the target answered as an MCP server at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", content = "detail", rename_all = "kebab-case")]
pub enum Reach {
    Reached,
    /// It could not be started or connected to (refused, command not found, sandbox refused).
    Unreachable(String),
    /// It answered, but not as MCP (an HTML page, a 403 from a firewall, a 404, text on stdout).
    NotMcp(String),
    /// It stopped answering within the time-out (also after it was opened).
    Hung(String),
    /// It exited or closed the connection (also after it was opened).
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

    /// The outcome's name (`reached`, `unreachable`, `not-mcp`, `hung`, `crashed`).
    pub fn name(&self) -> &'static str {
        match self {
            Reach::Reached => "reached",
            Reach::Unreachable(_) => "unreachable",
            Reach::NotMcp(_) => "not-mcp",
            Reach::Hung(_) => "hung",
            Reach::Crashed(_) => "crashed",
        }
    }
}

/// What a target that answered, but not as MCP, answered with: the kinds a fleet's report
/// counts apart, because each says something different about the endpoint (a firewall or a
/// login in front of it, a moved path, a redirect, a web page, anything else).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Foreign {
    /// HTTP 401 or 403.
    Denied,
    /// HTTP 404 or 410.
    NotFound,
    /// HTTP 3xx (the probe follows no redirect).
    Redirect,
    /// An HTML page with any other status.
    Html,
    /// Anything else that is not JSON-RPC (text on stdout, a JSON body of another shape).
    Other,
}

impl Foreign {
    /// The kind of a reply that carried no JSON-RPC answer.
    pub fn of(reply: &Reply) -> Foreign {
        let Some(h) = &reply.http else {
            return Foreign::Other;
        };
        let html = h.content_type.to_ascii_lowercase().contains("text/html")
            || h.body
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("<!doctype html")
            || h.body
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("<html");
        match h.status {
            401 | 403 => Foreign::Denied,
            404 | 410 => Foreign::NotFound,
            300..=399 => Foreign::Redirect,
            _ if html => Foreign::Html,
            _ => Foreign::Other,
        }
    }
}

/// Keep the kind of the first answer that was not JSON-RPC.
fn note_foreign(obs: &mut Observation, reply: &Reply) {
    if obs.foreign.is_none() && matches!(reply.trouble, Some(Trouble::NotJsonRpc(_))) {
        obs.foreign = Some(Foreign::of(reply));
    }
}

/// How the server answered a client of one era.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Opening {
    pub era: Era,
    pub asked: String,
    /// The version the server serves to this client, or why it does not.
    pub answered: Result<String, String>,
    /// The versions a modern server lists (`supportedVersions`, or `supported` of -32022).
    pub supported: Vec<String>,
}

/// The answer to one `tools/call`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
// The variant names are the recorded tags (`no-answer`).
#[allow(clippy::enum_variant_names)]
pub enum Answer {
    Result { value: Json },
    RpcError { code: i64, message: String },
    NoAnswer { why: String },
}

impl Answer {
    pub fn of(reply: &Reply) -> Answer {
        if let Some(r) = reply.result() {
            Answer::Result { value: r.clone() }
        } else if let Some(code) = reply.error_code() {
            Answer::RpcError {
                code,
                message: reply.error_message(),
            }
        } else {
            Answer::NoAnswer {
                why: reply
                    .trouble
                    .as_ref()
                    .map(Trouble::describe)
                    .unwrap_or_else(|| "no answer".into()),
            }
        }
    }
}

/// One `tools/call` the probe sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Call {
    pub tool: String,
    pub arguments: Json,
    pub answer: Answer,
}

/// A tool the probe did not call, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotCalled {
    pub tool: String,
    pub why: String,
}

/// One request the probe sent for a behaviour, and its answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exchanged {
    /// What was sent, in one line.
    pub sent: String,
    pub reply: Reply,
}

impl Exchanged {
    pub fn shown(&self) -> String {
        format!("{} → {}", self.sent, self.reply.shown())
    }
}

/// A result of the modern revision, as far as the shape checks need it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Seen {
    pub method: String,
    pub result_type: Option<Json>,
    pub ttl_ms: Option<Json>,
    pub cache_scope: Option<Json>,
    /// For an `input_required` result: whether `inputRequests` is there.
    pub input_requests: bool,
}

/// What the modern revision showed beyond the listings.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Modern {
    /// The `DiscoverResult`.
    pub discover: Option<Json>,
    pub results: Vec<Seen>,
    /// Requests the server sent of its own on modern exchanges.
    pub server_requests: Vec<String>,
    /// Methods whose modern answer carried an `Mcp-Session-Id`.
    pub sessions_minted: Vec<String>,
    /// `tools/list` as the first request on a fresh connection (a fresh process over stdio).
    pub fresh_first: Option<Exchanged>,
    /// GET on the endpoint.
    pub get: Option<Exchanged>,
    /// `tools/list` naming the bogus version in `_meta` and the header.
    pub unsupported: Option<Exchanged>,
    pub no_method_header: Option<Exchanged>,
    pub wrong_method_header: Option<Exchanged>,
    pub wrong_name_header: Option<Exchanged>,
}

/// The transport probes over HTTP, each with its positive control.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HttpSeen {
    pub era: Option<Era>,
    /// The request served without an `Origin`.
    pub origin_control: Option<Exchanged>,
    pub foreign_origin: Option<Exchanged>,
    /// The request with the supported version header.
    pub version_control: Option<Exchanged>,
    pub bogus_version: Option<Exchanged>,
}

/// Everything one probe run saw. Every text a server sent is quoted (`untrusted`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Observation {
    pub target: String,
    pub http: bool,
    pub reach: Option<Reach>,
    /// When it answered but not as MCP: what kind of answer it was (the first such answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foreign: Option<Foreign>,
    /// How the server ran (stdio): sandboxed or not, and why.
    pub sandbox: Option<Used>,
    pub server_name: String,
    pub server_version: String,
    pub protocol_version: String,
    pub openings: Vec<Opening>,
    /// An `initialize` asking for the bogus version: what the server answered.
    pub echo: Option<Opening>,
    /// The era the listings, calls and drift come from.
    pub primary: Option<Era>,
    pub tools: Listing,
    pub resources: Listing,
    pub prompts: Listing,
    pub templates: Listing,
    /// Tool names, in order, of a second `tools/list`.
    pub tools_again: Option<Vec<String>>,
    pub samples: Vec<Call>,
    /// The one call made to see the server's upstream requests (`Options::upstream_call`).
    pub upstream: Option<Call>,
    pub bad_call: Option<Call>,
    pub not_called: Vec<NotCalled>,
    pub modern: Option<Modern>,
    pub http_probes: Option<HttpSeen>,
    /// Declared probes, by `CHECK#n`.
    pub steps: BTreeMap<String, StepRun>,
}

impl Observation {
    pub fn reached(&self) -> bool {
        self.reach.as_ref().is_some_and(Reach::reached)
    }

    /// The opening of `era`.
    pub fn opening(&self, era: Era) -> Option<&Opening> {
        self.openings.iter().find(|o| o.era == era)
    }

    /// Whether the server serves `era` (its opening answered with a version).
    pub fn serves(&self, era: Era) -> bool {
        self.opening(era).is_some_and(|o| o.answered.is_ok())
    }

    /// Whether the listings are whole: the tools were listed, and no listing broke off.
    pub fn complete(&self) -> bool {
        self.reached() && self.tools.answered && self.tools.complete
    }
}

/// Record what a modern result shows (shape, minted sessions, server requests).
pub(super) fn note_modern(m: &mut Modern, method: &str, reply: &Reply) {
    m.server_requests
        .extend(reply.server_requests.iter().cloned());
    if reply.header("mcp-session-id").is_some() && !m.sessions_minted.contains(&method.to_string())
    {
        m.sessions_minted.push(method.to_string());
    }
    if let Some(r) = reply.result() {
        let input_required = r.get("resultType").and_then(Json::as_str) == Some("input_required");
        m.results.push(Seen {
            method: method.to_string(),
            result_type: r.get("resultType").cloned(),
            ttl_ms: r.get("ttlMs").cloned(),
            cache_scope: r.get("cacheScope").cloned(),
            input_requests: !input_required || r.get("inputRequests").is_some(),
        });
    }
}

/// The versions a modern answer lists: `supportedVersions`, or the `supported` of -32022.
fn supported_of(reply: &Reply) -> Vec<String> {
    let list = reply
        .result()
        .and_then(|r| r.get("supportedVersions"))
        .or_else(|| {
            reply
                .message
                .as_ref()
                .and_then(|m| m.pointer("/error/data/supported"))
        });
    list.and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Json::as_str)
                .map(untrusted::value)
                .collect()
        })
        .unwrap_or_default()
}

/// Why an opening failed, in one line.
fn failed(reply: &Reply) -> String {
    reply.shown()
}

/// Ask for the modern revision: `server/discover`. `Ok` with the client when the server is
/// modern (a `DiscoverResult`, or a modern error naming a version the probe then uses).
async fn open_modern(
    target: &Target,
    opts: &Options,
    obs: &mut Observation,
    m: &mut Modern,
) -> (Option<Client>, Option<Trouble>) {
    let mut client = match Client::open(
        target,
        Era::Modern,
        &opts.newest,
        &opts.sandbox,
        opts.limits,
        &opts.user_agent,
    ) {
        Ok(c) => c,
        Err(t) => {
            obs.openings.push(Opening {
                era: Era::Modern,
                asked: opts.newest.clone(),
                answered: Err(t.describe()),
                supported: Vec::new(),
            });
            return (None, Some(t));
        }
    };
    if obs.sandbox.is_none() {
        obs.sandbox = client.sandbox.clone();
    }
    let mut reply = client.request("server/discover", json!({})).await;
    let mut supported = supported_of(&reply);
    // A modern server that does not serve the version asked for names the ones it does.
    if reply.error_code() == Some(-32022) {
        if let Some(v) = supported
            .iter()
            .find(|v| v.as_str() > opts.legacy.as_str())
            .cloned()
        {
            client.version = v;
            reply = client.request("server/discover", json!({})).await;
            supported = supported_of(&reply);
        }
    }
    note_foreign(obs, &reply);
    let discovered = reply
        .result()
        .is_some_and(|r| r.get("supportedVersions").is_some_and(Json::is_array));
    let trouble = reply.trouble.clone();
    if discovered {
        note_modern(m, "server/discover", &reply);
        m.discover = reply.result().cloned();
        let version = client.version.clone();
        obs.openings.push(Opening {
            era: Era::Modern,
            asked: opts.newest.clone(),
            answered: Ok(version),
            supported,
        });
        if let Some(info) = reply
            .result()
            .and_then(|r| r.pointer("/_meta/io.modelcontextprotocol~1serverInfo"))
        {
            obs.server_name =
                untrusted::value(info.get("name").and_then(Json::as_str).unwrap_or(""));
            obs.server_version =
                untrusted::value(info.get("version").and_then(Json::as_str).unwrap_or(""));
        }
        (Some(client), None)
    } else {
        let why = if reply
            .error_code()
            .is_some_and(|c| MODERN_ERRORS.contains(&c))
        {
            format!(
                "a modern server that serves none of the probe's versions: {}",
                failed(&reply)
            )
        } else {
            format!("server/discover → {}", failed(&reply))
        };
        obs.openings.push(Opening {
            era: Era::Modern,
            asked: opts.newest.clone(),
            answered: Err(why),
            supported,
        });
        (None, trouble)
    }
}

/// Ask for the legacy revision with `initialize`, on a fresh connection.
async fn open_legacy(
    target: &Target,
    opts: &Options,
    asked: &str,
    obs: &mut Observation,
) -> (Option<Client>, Option<Trouble>, Opening) {
    let mut client = match Client::open(
        target,
        Era::Legacy,
        asked,
        &opts.sandbox,
        opts.limits,
        &opts.user_agent,
    ) {
        Ok(c) => c,
        Err(t) => {
            let o = Opening {
                era: Era::Legacy,
                asked: asked.to_string(),
                answered: Err(t.describe()),
                supported: Vec::new(),
            };
            return (None, Some(t), o);
        }
    };
    if obs.sandbox.is_none() {
        obs.sandbox = client.sandbox.clone();
    }
    let reply = client.initialize(asked).await;
    note_foreign(obs, &reply);
    let version = reply
        .result()
        .and_then(|r| r.get("protocolVersion"))
        .and_then(Json::as_str)
        .map(untrusted::value);
    match version {
        Some(v) => {
            if let Some(info) = reply.result().and_then(|r| r.get("serverInfo")) {
                if obs.server_name.is_empty() {
                    obs.server_name =
                        untrusted::value(info.get("name").and_then(Json::as_str).unwrap_or(""));
                    obs.server_version =
                        untrusted::value(info.get("version").and_then(Json::as_str).unwrap_or(""));
                }
            }
            let o = Opening {
                era: Era::Legacy,
                asked: asked.to_string(),
                answered: Ok(v),
                supported: Vec::new(),
            };
            (Some(client), None, o)
        }
        None => {
            let o = Opening {
                era: Era::Legacy,
                asked: asked.to_string(),
                answered: Err(format!("initialize → {}", failed(&reply))),
                supported: Vec::new(),
            };
            let stderr = client.stderr_tail().filter(|s| !s.is_empty());
            let trouble = reply.trouble.clone().map(|t| match (t, stderr) {
                (Trouble::TimedOut(d), Some(e)) => Trouble::TimedOut(format!("{d}; stderr: {e}")),
                (t, _) => t,
            });
            client.close().await;
            (None, trouble, o)
        }
    }
}

/// Why neither revision was reached, from what each attempt met.
fn unreached(troubles: &[Option<Trouble>], openings: &[Opening]) -> Reach {
    let all: Vec<&Trouble> = troubles.iter().flatten().collect();
    let detail = openings
        .iter()
        .map(|o| match &o.answered {
            Ok(v) => format!("{}: {v}", o.asked),
            Err(e) => e.clone(),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let any = |f: fn(&Trouble) -> bool| all.iter().any(|t| f(t));
    if any(|t| matches!(t, Trouble::NoAnswer(_))) && !any(|t| matches!(t, Trouble::NotJsonRpc(_))) {
        Reach::Unreachable(detail)
    } else if any(|t| matches!(t, Trouble::Closed(_))) {
        Reach::Crashed(detail)
    } else if any(|t| matches!(t, Trouble::TimedOut(_)))
        && !any(|t| matches!(t, Trouble::NotJsonRpc(_)))
    {
        Reach::Hung(detail)
    } else {
        Reach::NotMcp(detail)
    }
}

/// Probe a target.
pub async fn observe(target: &Target, opts: &Options) -> Observation {
    super::transport::http::install_tls();
    let mut obs = Observation {
        target: target.shown(),
        http: target.is_http(),
        ..Observation::default()
    };
    let mut modern = Modern::default();
    let (mut mclient, mtrouble) = open_modern(target, opts, &mut obs, &mut modern).await;
    let (mut lclient, ltrouble, lopen) = open_legacy(target, opts, &opts.legacy, &mut obs).await;
    obs.openings.push(lopen);
    if mclient.is_none() && lclient.is_none() {
        obs.reach = Some(unreached(&[mtrouble, ltrouble], &obs.openings));
        return obs;
    }
    obs.primary = Some(if mclient.is_some() {
        Era::Modern
    } else {
        Era::Legacy
    });
    obs.reach = Some(Reach::Reached);
    {
        let primary = match (&mut mclient, &mut lclient) {
            (Some(m), _) => m,
            (None, Some(l)) => l,
            (None, None) => return obs,
        };
        obs.protocol_version = primary.version.clone();
        listing::all(primary, opts, &mut obs, &mut modern).await;
        if obs.tools.answered && opts.wants(Kind::ListOrder) {
            obs.tools_again = listing::names_again(primary, opts, &mut modern).await;
        }
        if obs.tools.answered {
            calls::sample(primary, opts, &mut obs, &mut modern).await;
        }
    }
    if let Some(why) = obs.tools.broke.clone() {
        // Opened, then lost: a server that dies or hangs after opening was not reached.
        obs.reach = Some(why);
    }
    if obs.reached() {
        if target.is_http() {
            behaviours::http(&mut mclient, &mut lclient, opts, &mut obs, &mut modern).await;
        }
        if mclient.is_some() {
            behaviours::modern(target, &mut mclient, opts, &mut obs, &mut modern).await;
        }
        if lclient.is_some() && opts.wants(Kind::ProtocolVersion) {
            let (echo_client, _, o) =
                open_legacy(target, opts, &opts.bogus_version, &mut obs).await;
            obs.echo = Some(o);
            if let Some(c) = echo_client {
                c.close().await;
            }
        }
        for d in &opts.declared {
            let run = steps::run(
                target,
                &d.spec,
                &mut mclient,
                &mut lclient,
                opts,
                &mut modern,
            )
            .await;
            obs.steps.insert(d.key.clone(), run);
        }
    }
    if mclient.is_some() {
        obs.modern = Some(modern);
    }
    if let Some(c) = lclient {
        c.close().await;
    }
    obs
}

/// `observe` on a runtime of its own, for callers without one.
pub fn observe_blocking(target: &Target, opts: &Options) -> std::io::Result<Observation> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(rt.block_on(observe(target, opts)))
}
