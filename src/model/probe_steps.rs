//! Declared probe steps: a check observes a new behaviour of a server without new Rust code.
//! A step sends one request — a JSON-RPC method at a named revision (`rpc:`), or a raw HTTP
//! request (`http:`) — and holds the answer to matchers (a JSON pointer exists, equals a
//! value, matches a pattern, is in a set or validates against a JSON Schema; an HTTP status; a
//! header present, equal or matching). Captures pass values of one answer into later steps as
//! `${name}`. Every part is typed here, with the key path of each problem for lint.

use super::declared::{problem, Problem, Records, Transport};
use serde::Serialize;
use serde_json::Value as Json;
use serde_yaml::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The revision a JSON-RPC step speaks: `modern` is 2026-07-28 (per-request `_meta`, the
/// routing headers over HTTP, no handshake); `legacy` is 2025-11-25, sent after `initialize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Revision {
    Modern,
    Legacy,
}

/// What a step sends.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Request {
    Rpc {
        method: String,
        params: Json,
        revision: Revision,
        /// `false` sends a modern request without its `_meta` protocol fields.
        meta: bool,
        /// The protocol version named in `_meta` and the version header, when not the revision's.
        version: Option<String>,
        headers: BTreeMap<String, String>,
        omit_headers: Vec<String>,
    },
    Http {
        method: String,
        headers: BTreeMap<String, String>,
        body: Option<String>,
    },
}

/// How a header is judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HeaderTest {
    Present(bool),
    Equals(String),
    Matches(String),
}

/// One test on the answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Test {
    Exists(bool),
    Equals(Json),
    Matches(String),
    In(Vec<Json>),
    Schema(Json),
    Status(Vec<u16>),
    Header { name: String, test: HeaderTest },
}

/// A matcher: a test, on the value at `pointer` for the value tests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Matcher {
    pub pointer: Option<String>,
    pub test: Test,
    /// What the matcher asks, in the check's words (shown in evidence), when given.
    pub says: Option<String>,
}

/// One step of a declared probe.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub request: Request,
    pub expect: Vec<Matcher>,
    /// Capture name → JSON pointer into the answer.
    pub capture: BTreeMap<String, String>,
    /// What an expectation that does not hold records.
    pub records: Records,
}

/// A name for a probe or a capture: letters, digits, `-` and `_`, starting with a letter.
pub fn plain_name(s: &str) -> bool {
    s.len() <= 64
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A JSON pointer (RFC 6901): empty, or `/`-separated tokens where `~` is only `~0` or `~1`.
pub fn valid_pointer(p: &str) -> bool {
    if p.is_empty() {
        return true;
    }
    if !p.starts_with('/') {
        return false;
    }
    let b = p.as_bytes();
    b.iter()
        .enumerate()
        .all(|(i, c)| *c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

/// The `${name}` references in a text.
pub fn references(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        let after = &rest[i + 2..];
        match after.find('}') {
            Some(j) => {
                out.push(after[..j].to_string());
                rest = &after[j + 1..];
            }
            None => break,
        }
    }
    out
}

fn strings_of(v: &Json, out: &mut Vec<String>) {
    match v {
        Json::String(s) => out.push(s.clone()),
        Json::Array(a) => a.iter().for_each(|x| strings_of(x, out)),
        Json::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings_of(x, out)
        }),
        _ => {}
    }
}

impl Step {
    /// Every text of the request a capture can be substituted into.
    pub fn texts(&self) -> Vec<String> {
        let mut out = Vec::new();
        match &self.request {
            Request::Rpc {
                method,
                params,
                version,
                headers,
                ..
            } => {
                out.push(method.clone());
                strings_of(params, &mut out);
                out.extend(version.clone());
                out.extend(headers.values().cloned());
            }
            Request::Http { headers, body, .. } => {
                out.extend(headers.values().cloned());
                out.extend(body.clone());
            }
        }
        out
    }
}

const STEP_KEYS: &[&str] = &[
    "rpc",
    "http",
    "revision",
    "params",
    "meta",
    "version",
    "headers",
    "omit_headers",
    "body",
    "expect",
    "capture",
    "records",
];
const MATCHER_KEYS: &[&str] = &[
    "pointer", "exists", "equals", "matches", "in", "schema", "status", "header", "present", "says",
];

fn describe(v: &Value) -> String {
    crate::text::yaml_value::describe(v)
}

fn did_you_mean(key: &str, keys: &[&str], what: &str) -> String {
    crate::text::suggest::did_you_mean(key, keys.iter().copied()).unwrap_or_else(|| {
        format!(
            "{what} takes {}",
            keys.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn to_json(v: &Value) -> Json {
    serde_json::to_value(v).unwrap_or(Json::Null)
}

fn text_map(
    v: &Value,
    at: &str,
    what: &str,
    problems: &mut Vec<Problem>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Value::Mapping(m) = v else {
        problems.push(problem(
            at,
            format!(
                "{what}: `headers` must map header names to strings; YAML reads it as {}",
                describe(v)
            ),
            "e.g. `headers: {Mcp-Method: prompts/list}`",
        ));
        return out;
    };
    for (k, val) in m {
        match (k.as_str(), val) {
            (Some(k), Value::String(s)) if header_name(k) => {
                out.insert(k.to_string(), s.clone());
            }
            (Some(k), Value::Number(n)) if header_name(k) => {
                out.insert(k.to_string(), n.to_string());
            }
            (Some(k), _) if !header_name(k) => problems.push(problem(
                format!("{at}.{k}"),
                format!("{what}: `{k}` is not an HTTP header name"),
                "a header name is letters, digits and `-`",
            )),
            (k, other) => problems.push(problem(
                format!("{at}.{}", k.unwrap_or("")),
                format!(
                    "{what}: the value of header `{}` must be a string; YAML reads it as {}",
                    k.unwrap_or(""),
                    describe(other)
                ),
                "quote the value",
            )),
        }
    }
    out
}

fn header_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// Type the `steps:` list of probe `n`. Captures must be set by an earlier step than the one
/// that uses them; a declared probe limited to stdio cannot send raw HTTP.
pub fn parse(
    value: &Value,
    n: usize,
    path: &str,
    transport: Transport,
) -> Result<Vec<Step>, Vec<Problem>> {
    let Value::Sequence(items) = value else {
        return Err(vec![problem(
            path,
            format!("probe {n}: `steps` must be a list of steps; YAML reads it as {}", describe(value)),
            "e.g. `steps: [{rpc: server/discover, expect: [{pointer: /result/supportedVersions, exists: true}]}]`",
        )]);
    };
    if items.is_empty() {
        return Err(vec![problem(
            path,
            format!("probe {n}: `steps` is empty"),
            "a declared probe sends at least one request",
        )]);
    }
    let mut steps = Vec::new();
    let mut problems = Vec::new();
    let mut captured: BTreeSet<String> = BTreeSet::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let what = format!("probe {n}, step {}", i + 1);
        let before = problems.len();
        if let Some(step) = step(item, &at, &what, transport, &mut problems) {
            for name in step.texts().iter().flat_map(|t| references(t)) {
                if !captured.contains(&name) {
                    problems.push(problem(
                        at.clone(),
                        format!(
                            "{what}: `${{{name}}}` is used, but no earlier step captures `{name}`"
                        ),
                        "capture it in an earlier step: `capture: {NAME: /result/…}`",
                    ));
                }
            }
            captured.extend(step.capture.keys().cloned());
            if problems.len() == before {
                steps.push(step);
            }
        }
    }
    if problems.is_empty() {
        Ok(steps)
    } else {
        Err(problems)
    }
}

fn step(
    item: &Value,
    at: &str,
    what: &str,
    transport: Transport,
    problems: &mut Vec<Problem>,
) -> Option<Step> {
    let Value::Mapping(m) = item else {
        problems.push(problem(
            at,
            format!(
                "{what} must be a mapping with `rpc` or `http`; YAML reads it as {}",
                describe(item)
            ),
            "e.g. `{rpc: tools/list, expect: […]}`",
        ));
        return None;
    };
    for k in m.keys() {
        let key = k.as_str().unwrap_or("");
        if !STEP_KEYS.contains(&key) {
            problems.push(problem(
                format!("{at}.{key}"),
                format!("{what}: unknown key `{key}`"),
                did_you_mean(key, STEP_KEYS, "a step"),
            ));
        }
    }
    let get = |k: &str| m.get(k);
    let headers = get("headers")
        .map(|h| text_map(h, &format!("{at}.headers"), what, problems))
        .unwrap_or_default();
    let request = match (get("rpc"), get("http")) {
        (Some(Value::String(method)), None) if !method.trim().is_empty() => {
            let revision = match get("revision").map(|v| v.as_str()) {
                None | Some(Some("modern" | "2026-07-28")) => Revision::Modern,
                Some(Some("legacy" | "2025-11-25")) => Revision::Legacy,
                _ => {
                    problems.push(problem(
                        format!("{at}.revision"),
                        format!("{what}: `revision` must be `modern` (2026-07-28) or `legacy` (2025-11-25)"),
                        "a legacy step is sent after `initialize`; a modern one carries `_meta`",
                    ));
                    Revision::Modern
                }
            };
            let params = match get("params") {
                None => Json::Object(Default::default()),
                Some(v @ Value::Mapping(_)) => to_json(v),
                Some(other) => {
                    problems.push(problem(
                        format!("{at}.params"),
                        format!(
                            "{what}: `params` must be a mapping; YAML reads it as {}",
                            describe(other)
                        ),
                        "e.g. `params: {uri: 'auditbook-probe://none'}`",
                    ));
                    Json::Null
                }
            };
            let meta = match get("meta") {
                None => true,
                Some(Value::Bool(b)) => *b,
                Some(_) => {
                    problems.push(problem(
                        format!("{at}.meta"),
                        format!("{what}: `meta` must be true or false"),
                        "`meta: false` sends a modern request without its `_meta` protocol fields",
                    ));
                    true
                }
            };
            let version = match get("version") {
                None => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => {
                    problems.push(problem(
                        format!("{at}.version"),
                        format!("{what}: `version` must be a string such as \"1900-01-01\""),
                        "quote the date",
                    ));
                    None
                }
            };
            let omit_headers = match get("omit_headers") {
                None => Vec::new(),
                Some(Value::Sequence(s))
                    if s.iter().all(|x| x.as_str().is_some_and(header_name)) =>
                {
                    s.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                }
                Some(_) => {
                    problems.push(problem(
                        format!("{at}.omit_headers"),
                        format!("{what}: `omit_headers` must be a list of header names"),
                        "e.g. `omit_headers: [Mcp-Method]`",
                    ));
                    Vec::new()
                }
            };
            if let Some(b) = get("body") {
                let _ = b;
                problems.push(problem(
                    format!("{at}.body"),
                    format!(
                        "{what}: `body` belongs to an `http` step; an `rpc` step sends `params`"
                    ),
                    "move the request into `params`, or make the step `http: POST`",
                ));
            }
            Request::Rpc {
                method: method.clone(),
                params,
                revision,
                meta,
                version,
                headers,
                omit_headers,
            }
        }
        (None, Some(Value::String(method))) => {
            let method = method.to_ascii_uppercase();
            if !["GET", "POST", "DELETE", "PUT", "OPTIONS", "HEAD"].contains(&method.as_str()) {
                problems.push(problem(
                    format!("{at}.http"),
                    format!("{what}: `http` must be an HTTP method (GET, POST, DELETE, PUT, OPTIONS, HEAD)"),
                    "e.g. `http: GET`",
                ));
            }
            if transport == Transport::Stdio {
                problems.push(problem(
                    format!("{at}.http"),
                    format!("{what}: a raw HTTP step in a probe limited to `transport: stdio`"),
                    "set `transport: http` on the probe",
                ));
            }
            for k in ["revision", "params", "meta", "version", "omit_headers"] {
                if get(k).is_some() {
                    problems.push(problem(
                        format!("{at}.{k}"),
                        format!("{what}: `{k}` belongs to an `rpc` step"),
                        "an `http` step sends `headers` and `body` as written",
                    ));
                }
            }
            let body = match get("body") {
                None => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(v @ (Value::Mapping(_) | Value::Sequence(_))) => Some(to_json(v).to_string()),
                Some(other) => {
                    problems.push(problem(
                        format!("{at}.body"),
                        format!("{what}: `body` must be a string or a mapping (sent as JSON); YAML reads it as {}", describe(other)),
                        "e.g. `body: {jsonrpc: '2.0', id: 1, method: tools/list}`",
                    ));
                    None
                }
            };
            Request::Http {
                method,
                headers,
                body,
            }
        }
        (Some(_), Some(_)) => {
            problems.push(problem(
                at,
                format!("{what}: a step is either `rpc` or `http`, not both"),
                "split it into two steps",
            ));
            return None;
        }
        (None, None) => {
            problems.push(problem(
                at,
                format!("{what} names no request: give `rpc: METHOD` or `http: METHOD`"),
                "e.g. `rpc: server/discover`",
            ));
            return None;
        }
        (Some(v), None) | (None, Some(v)) => {
            problems.push(problem(
                at,
                format!(
                    "{what}: the request must be a method name; YAML reads it as {}",
                    describe(v)
                ),
                "e.g. `rpc: tools/list` or `http: GET`",
            ));
            return None;
        }
    };
    let expect = match get("expect") {
        None => {
            problems.push(problem(
                at,
                format!("{what} has no `expect`"),
                "a step holds its answer to at least one matcher",
            ));
            Vec::new()
        }
        Some(Value::Sequence(ms)) => ms
            .iter()
            .enumerate()
            .filter_map(|(j, m)| {
                matcher(
                    m,
                    &format!("{at}.expect[{j}]"),
                    &format!("{what}, matcher {}", j + 1),
                    problems,
                )
            })
            .collect(),
        Some(other) => {
            problems.push(problem(
                format!("{at}.expect"),
                format!(
                    "{what}: `expect` must be a list of matchers; YAML reads it as {}",
                    describe(other)
                ),
                "e.g. `expect: [{pointer: /result/resultType, equals: complete}]`",
            ));
            Vec::new()
        }
    };
    let mut capture = BTreeMap::new();
    match get("capture") {
        None => {}
        Some(Value::Mapping(c)) => {
            for (k, v) in c {
                let name = k.as_str().unwrap_or("");
                match v.as_str() {
                    Some(p) if plain_name(name) && valid_pointer(p) => {
                        capture.insert(name.to_string(), p.to_string());
                    }
                    Some(p) if !valid_pointer(p) => problems.push(problem(
                        format!("{at}.capture.{name}"),
                        format!("{what}: capture `{name}`: `{p}` is not a JSON pointer"),
                        "a pointer starts with `/`, e.g. `/result/resources/0/uri`; `~` is written `~0`, `/` inside a key `~1`",
                    )),
                    _ => problems.push(problem(
                        format!("{at}.capture.{name}"),
                        format!("{what}: a capture maps a plain name to a JSON pointer"),
                        "e.g. `capture: {uri: /result/resources/0/uri}`",
                    )),
                }
            }
        }
        Some(other) => problems.push(problem(
            format!("{at}.capture"),
            format!(
                "{what}: `capture` must map names to JSON pointers; YAML reads it as {}",
                describe(other)
            ),
            "e.g. `capture: {uri: /result/resources/0/uri}`",
        )),
    }
    let records = match get("records") {
        None => Records::Fail,
        Some(v) => match v.as_str().and_then(Records::parse) {
            Some(r) => r,
            None => {
                problems.push(problem(
                    format!("{at}.records"),
                    format!("{what}: `records` must be `fail`, `partial` or `not_verified`"),
                    "what a step whose expectation does not hold records for the check",
                ));
                Records::Fail
            }
        },
    };
    Some(Step {
        request,
        expect,
        capture,
        records,
    })
}

fn matcher(v: &Value, at: &str, what: &str, problems: &mut Vec<Problem>) -> Option<Matcher> {
    let Value::Mapping(m) = v else {
        problems.push(problem(
            at,
            format!("{what} must be a mapping; YAML reads it as {}", describe(v)),
            "e.g. `{pointer: /error/code, equals: -32022}`, `{status: 400}`, `{header: Mcp-Session-Id, present: false}`",
        ));
        return None;
    };
    let before = problems.len();
    for k in m.keys() {
        let key = k.as_str().unwrap_or("");
        if !MATCHER_KEYS.contains(&key) {
            problems.push(problem(
                format!("{at}.{key}"),
                format!("{what}: unknown matcher `{key}`"),
                did_you_mean(key, MATCHER_KEYS, "a matcher"),
            ));
        }
    }
    let says = m.get("says").and_then(Value::as_str).map(String::from);
    let pointer = match m.get("pointer") {
        None => None,
        Some(Value::String(p)) if valid_pointer(p) => Some(p.clone()),
        Some(Value::String(p)) => {
            problems.push(problem(
                format!("{at}.pointer"),
                format!("{what}: `{p}` is not a JSON pointer"),
                "a pointer starts with `/` (`/result/tools/0/name`); `~` is written `~0`, `/` inside a key `~1`",
            ));
            None
        }
        Some(other) => {
            problems.push(problem(
                format!("{at}.pointer"),
                format!(
                    "{what}: `pointer` must be a string; YAML reads it as {}",
                    describe(other)
                ),
                "e.g. `pointer: /result/resultType`",
            ));
            None
        }
    };
    let value_tests: Vec<&str> = ["exists", "equals", "matches", "in", "schema"]
        .into_iter()
        .filter(|k| m.contains_key(*k))
        .collect();
    let wire_tests: Vec<&str> = ["status", "header"]
        .into_iter()
        .filter(|k| m.contains_key(*k))
        .collect();
    if value_tests.len() + wire_tests.len() != 1 {
        problems.push(problem(
            at,
            format!(
                "{what}: a matcher has exactly one test (`exists`, `equals`, `matches`, `in`, `schema`, `status` or `header`); found {}",
                if value_tests.len() + wire_tests.len() == 0 { "none".to_string() } else { value_tests.iter().chain(&wire_tests).map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ") }
            ),
            "write one matcher per test",
        ));
        return None;
    }
    if !value_tests.is_empty() && m.get("pointer").is_none() {
        problems.push(problem(
            at,
            format!(
                "{what}: `{}` tests the value at a `pointer`, and none is given",
                value_tests[0]
            ),
            "add `pointer: /result/…` (`pointer: ''` is the whole answer)",
        ));
    }
    if !wire_tests.is_empty() && m.get("pointer").is_some() {
        problems.push(problem(
            format!("{at}.pointer"),
            format!(
                "{what}: `{}` tests the HTTP answer and takes no `pointer`",
                wire_tests[0]
            ),
            "remove `pointer`, or split the matcher in two",
        ));
    }
    if m.contains_key("present") && !m.contains_key("header") {
        problems.push(problem(
            format!("{at}.present"),
            format!("{what}: `present` goes with `header`"),
            "e.g. `{header: Mcp-Session-Id, present: false}`; for a JSON value use `exists`",
        ));
    }
    let test = if let Some(v) = m.get("exists") {
        match v {
            Value::Bool(b) => Some(Test::Exists(*b)),
            _ => bad(at, what, "exists", "true or false", problems),
        }
    } else if let Some(v) = m.get("equals") {
        Some(Test::Equals(to_json(v)))
    } else if let Some(v) = m.get("matches") {
        match v.as_str() {
            Some(re) if regex::Regex::new(re).is_ok() => Some(Test::Matches(re.to_string())),
            _ => bad(at, what, "matches", "a valid regular expression", problems),
        }
    } else if let Some(v) = m.get("in") {
        match v {
            Value::Sequence(s) if !s.is_empty() => Some(Test::In(s.iter().map(to_json).collect())),
            _ => bad(at, what, "in", "a non-empty list of values", problems),
        }
    } else if let Some(v) = m.get("schema") {
        let schema = to_json(v);
        match jsonschema::validator_for(&schema) {
            Ok(_) => Some(Test::Schema(schema)),
            Err(e) => {
                problems.push(problem(
                    format!("{at}.schema"),
                    format!("{what}: `schema` is not a valid JSON Schema ({e})"),
                    "e.g. `schema: {type: integer, minimum: 0}`",
                ));
                None
            }
        }
    } else if let Some(v) = m.get("status") {
        let codes = match v {
            Value::Number(n) => n.as_u64().map(|c| vec![c]),
            Value::Sequence(s) => s.iter().map(Value::as_u64).collect::<Option<Vec<_>>>(),
            _ => None,
        };
        match codes {
            Some(c) if !c.is_empty() && c.iter().all(|x| (100..600).contains(x)) => {
                Some(Test::Status(c.into_iter().map(|x| x as u16).collect()))
            }
            _ => bad(
                at,
                what,
                "status",
                "an HTTP status code or a list of them",
                problems,
            ),
        }
    } else if let Some(v) = m.get("header") {
        match v.as_str() {
            Some(name) if header_name(name) => {
                let tests: Vec<&str> = ["present", "equals", "matches"]
                    .into_iter()
                    .filter(|k| m.contains_key(*k))
                    .collect();
                let t = match (
                    tests.as_slice(),
                    m.get("present"),
                    m.get("equals"),
                    m.get("matches"),
                ) {
                    (["present"], Some(Value::Bool(b)), _, _) => Some(HeaderTest::Present(*b)),
                    (["equals"], _, Some(Value::String(s)), _) => {
                        Some(HeaderTest::Equals(s.clone()))
                    }
                    (["matches"], _, _, Some(Value::String(re)))
                        if regex::Regex::new(re).is_ok() =>
                    {
                        Some(HeaderTest::Matches(re.clone()))
                    }
                    _ => {
                        problems.push(problem(
                            at,
                            format!("{what}: `header` takes exactly one of `present: true|false`, `equals: TEXT`, `matches: REGEX`"),
                            "e.g. `{header: Content-Type, matches: 'json'}`",
                        ));
                        None
                    }
                };
                t.map(|test| Test::Header {
                    name: name.to_string(),
                    test,
                })
            }
            _ => bad(at, what, "header", "an HTTP header name", problems),
        }
    } else {
        None
    };
    if problems.len() > before {
        return None;
    }
    test.map(|test| Matcher {
        pointer,
        test,
        says,
    })
}

fn bad<T>(at: &str, what: &str, key: &str, want: &str, problems: &mut Vec<Problem>) -> Option<T> {
    problems.push(problem(
        format!("{at}.{key}"),
        format!("{what}: `{key}` must be {want}"),
        format!("give `{key}` {want}"),
    ));
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::probe::{self, Kind};

    fn parse_probe(s: &str) -> Result<Vec<probe::ProbeSpec>, Vec<Problem>> {
        probe::parse(&serde_yaml::from_str(s).unwrap_or(Value::Null))
    }

    #[test]
    fn a_declared_probe_is_typed() {
        let specs = parse_probe(
            "[{name: discover, cites: 'https://modelcontextprotocol.io/specification/2026-07-28/server/discover', steps: [{rpc: server/discover, expect: [{pointer: /result/supportedVersions, exists: true}, {pointer: /result/cacheScope, in: [public, private]}], capture: {v: /result/supportedVersions/0}}, {rpc: tools/list, version: '${v}', expect: [{status: 200}, {header: Mcp-Session-Id, present: false}]}, {http: get, expect: [{status: [405]}]}]}]",
        )
        .unwrap_or_else(|p| panic!("{p:?}"));
        assert_eq!(specs[0].kind, Kind::Steps);
        assert_eq!(specs[0].label(), "steps:discover");
        assert_eq!(specs[0].steps.len(), 3);
        assert_eq!(specs[0].steps[0].expect.len(), 2);
        assert!(
            matches!(specs[0].steps[2].request, Request::Http { ref method, .. } if method == "GET")
        );
    }

    #[test]
    fn every_problem_has_its_path() {
        let p = parse_probe(
            "[{name: x, steps: [{rpc: tools/list, expect: [{pointer: 'result/x', exists: true}, {pointr: /a, equals: 1}, {pointer: /a}]}, {rpc: resources/read, params: {uri: '${uri}'}, expect: [{status: 99}]}]}]",
        )
        .err()
        .unwrap_or_default();
        let paths: Vec<&str> = p.iter().map(|x| x.path.as_str()).collect();
        assert!(
            paths.contains(&"probe[0].steps[0].expect[0].pointer"),
            "{p:?}"
        );
        assert!(
            paths.contains(&"probe[0].steps[0].expect[1].pointr"),
            "{p:?}"
        );
        assert!(
            p.iter().any(|x| x.help.contains("did you mean `pointer`")),
            "{p:?}"
        );
        assert!(paths.contains(&"probe[0].steps[0].expect[2]"), "{p:?}");
        assert!(
            p.iter()
                .any(|x| x.message.contains("no earlier step captures `uri`")),
            "{p:?}"
        );
        assert!(
            paths.contains(&"probe[0].steps[1].expect[0].status"),
            "{p:?}"
        );
    }

    #[test]
    fn pointers_follow_rfc_6901() {
        assert!(valid_pointer(""));
        assert!(valid_pointer("/a~1b/~0c/0"));
        assert!(!valid_pointer("a"));
        assert!(!valid_pointer("/a~2"));
        assert_eq!(references("x ${a} y ${b_2}"), vec!["a", "b_2"]);
    }
}
