//! The `probe:` key of a check's frontmatter: how the check is observed on a live server. Each
//! entry is a built-in kind with its parameters (`{kind: tool-names, max_length: 64}`) or a
//! declared probe made of steps (`{name: discover, steps: […]}`, `probe_steps`). Typed here
//! once; lint reports every problem (unknown kind, unknown or ill-typed parameter, a step's
//! unknown matcher, a bad pointer, a capture never set) at the line it is written on.
//!
//! What a probe sees is sorted into named observations, and each name records a status: the
//! kind's default (a proof of a defect `fail`, a heuristic at most `partial`), or what the check
//! says under `records:` — the check's own "Recording the result" rules decide.

use super::declared::{problem, Covers, Problem, Records, Transport};
use super::probe_steps::{self, Step};
use serde::Serialize;
use serde_yaml::Value;
use std::collections::BTreeMap;

/// The built-in probe kinds, and `steps` for a declared probe. Each built-in kind observes one
/// thing that needs code (a heuristic, a comparison across requests, drift).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    ToolNames,
    ToolAnnotations,
    ToolDescriptions,
    OutputSchema,
    ToolErrors,
    ProtocolVersion,
    HttpOrigin,
    HttpVersionHeader,
    ToolDrift,
    Stateless,
    ResultType,
    CacheHints,
    ListOrder,
    RoutingHeaders,
    InputRequired,
    Extensions,
    SchemaDialect,
    ParamHeaders,
    /// A declared probe: its steps are in the spec.
    Steps,
}

/// One named observation a kind can make, and what it records unless the check says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub name: &'static str,
    pub records: Records,
    pub meaning: &'static str,
}

const fn obs(name: &'static str, records: Records, meaning: &'static str) -> Observation {
    Observation {
        name,
        records,
        meaning,
    }
}

use Records::{Fail, NotVerified, Partial};

/// The type a parameter's value must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ParamType {
    Text,
    Regex,
    Count,
    Flag,
    TextList,
}

impl ParamType {
    fn describe(self) -> &'static str {
        match self {
            ParamType::Text => "a string",
            ParamType::Regex => "a regular expression (string)",
            ParamType::Count => "a whole number",
            ParamType::Flag => "true or false",
            ParamType::TextList => "a list of strings",
        }
    }
}

const SPEC_2025: &str = "https://modelcontextprotocol.io/specification/2025-11-25";
const SPEC_2026: &str = "https://modelcontextprotocol.io/specification/2026-07-28";

impl Kind {
    /// The built-in kinds (every kind but `steps`).
    pub const BUILT_IN: [Kind; 18] = [
        Kind::ToolNames,
        Kind::ToolAnnotations,
        Kind::ToolDescriptions,
        Kind::OutputSchema,
        Kind::ToolErrors,
        Kind::ProtocolVersion,
        Kind::HttpOrigin,
        Kind::HttpVersionHeader,
        Kind::ToolDrift,
        Kind::Stateless,
        Kind::ResultType,
        Kind::CacheHints,
        Kind::ListOrder,
        Kind::RoutingHeaders,
        Kind::InputRequired,
        Kind::Extensions,
        Kind::SchemaDialect,
        Kind::ParamHeaders,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ToolNames => "tool-names",
            Kind::ToolAnnotations => "tool-annotations",
            Kind::ToolDescriptions => "tool-descriptions",
            Kind::OutputSchema => "output-schema",
            Kind::ToolErrors => "tool-errors",
            Kind::ProtocolVersion => "protocol-version",
            Kind::HttpOrigin => "http-origin",
            Kind::HttpVersionHeader => "http-version-header",
            Kind::ToolDrift => "tool-drift",
            Kind::Stateless => "stateless",
            Kind::ResultType => "result-type",
            Kind::CacheHints => "cache-hints",
            Kind::ListOrder => "list-order",
            Kind::RoutingHeaders => "routing-headers",
            Kind::InputRequired => "input-required",
            Kind::Extensions => "extensions",
            Kind::SchemaDialect => "schema-dialect",
            Kind::ParamHeaders => "param-headers",
            Kind::Steps => "steps",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::BUILT_IN.into_iter().find(|k| k.as_str() == s)
    }

    /// Whether the kind looks only at a server of the stateless revision (2026-07-28).
    pub fn modern_only(self) -> bool {
        matches!(
            self,
            Kind::Stateless
                | Kind::ResultType
                | Kind::CacheHints
                | Kind::RoutingHeaders
                | Kind::InputRequired
                | Kind::Extensions
        )
    }

    /// What the probe observes, one line (README, `show`).
    pub fn summary(self) -> &'static str {
        match self {
            Kind::ToolNames => "every tool name is valid under the specification, follows one style (or `pattern`), has no dot (`no_dots`), is no placeholder; descriptions say more than the name",
            Kind::ToolAnnotations => "every tool sets the annotation `hints`; read-only verbs are not destructive, write verbs not read-only",
            Kind::ToolDescriptions => "every tool has a description of more than one word that does not restate its name, of at least `min_length` characters; the median at least `median_length`",
            Kind::OutputSchema => "each sampled `structuredContent` validates against the tool's `outputSchema`; a tool without one is noted only with `require: true`",
            Kind::ToolErrors => "bad arguments come back as an `isError` result with a message, not a JSON-RPC error; valid arguments do not",
            Kind::ProtocolVersion => "which revisions the server serves (2026-07-28 through `server/discover`, 2025-11-25 through `initialize`), held to the profile's `mcp_spec_version`; an invented version is refused",
            Kind::HttpOrigin => "a request with a foreign `Origin` is refused while the same request without it is served (Streamable HTTP)",
            Kind::HttpVersionHeader => "an unsupported `MCP-Protocol-Version` header gets HTTP 400 while the supported one is served (Streamable HTTP)",
            Kind::ToolDrift => "tool, resource and prompt definitions equal those in the lock file",
            Kind::Stateless => "2026-07-28: a request is served as the first on a fresh connection, without a handshake; no session id is minted; GET is refused",
            Kind::ResultType => "2026-07-28: every result carries a known `resultType`",
            Kind::CacheHints => "2026-07-28: discover, list and read results carry `ttlMs` (≥ 0) and `cacheScope` (`public`/`private`)",
            Kind::ListOrder => "two `tools/list` answers list the same tools in the same order",
            Kind::RoutingHeaders => "2026-07-28 over HTTP: a missing or mismatched `Mcp-Method` or `Mcp-Name` header is refused with 400 and `-32020`",
            Kind::InputRequired => "2026-07-28: the server sends no requests of its own; an `input_required` result carries `inputRequests`",
            Kind::Extensions => "2026-07-28: extensions are declared under prefixed ids; tasks only as the `io.modelcontextprotocol/tasks` extension",
            Kind::SchemaDialect => "every input and output schema is a valid JSON Schema of its dialect (2020-12 when none is named), with no `$ref` to the network",
            Kind::ParamHeaders => "every `x-mcp-header` in an input schema is a valid, unique header name on a primitive, statically reachable parameter",
            Kind::Steps => "declared steps: requests and matchers written in the check",
        }
    }

    /// The specification section a finding of this kind is held against.
    pub fn cites(self) -> String {
        let (rev, path) = match self {
            Kind::ToolNames => (SPEC_2025, "server/tools#tool-names"),
            Kind::ToolAnnotations => (SPEC_2025, "server/tools#tool"),
            Kind::ToolDescriptions => (SPEC_2025, "server/tools#tool"),
            Kind::OutputSchema => (SPEC_2025, "server/tools#output-schema"),
            Kind::ToolErrors => (SPEC_2025, "server/tools#error-handling"),
            Kind::ProtocolVersion => (SPEC_2026, "basic/versioning#protocol-version-negotiation"),
            Kind::HttpOrigin => (SPEC_2025, "basic/transports#security-warning"),
            Kind::HttpVersionHeader => (SPEC_2025, "basic/transports#protocol-version-header"),
            Kind::ToolDrift => (SPEC_2025, "server/tools#list-changed-notification"),
            Kind::Stateless => (SPEC_2026, "basic#statelessness"),
            Kind::ResultType => (SPEC_2026, "basic#resulttype"),
            Kind::CacheHints => (SPEC_2026, "server/utilities/caching#cacheable-results"),
            Kind::ListOrder => (SPEC_2026, "changelog#minor-changes"),
            Kind::RoutingHeaders => (
                SPEC_2026,
                "basic/transports/streamable-http#standard-request-headers",
            ),
            Kind::InputRequired => (SPEC_2026, "basic/patterns/mrtr"),
            Kind::Extensions => (SPEC_2026, "basic/versioning#extension-negotiation"),
            Kind::SchemaDialect => (SPEC_2026, "basic#json-schema-usage"),
            Kind::ParamHeaders => (SPEC_2026, "basic/transports/streamable-http#x-mcp-header"),
            Kind::Steps => (SPEC_2026, ""),
        };
        format!("{rev}/{path}")
    }

    /// The observations the kind makes and what each records by default.
    pub fn observations(self) -> &'static [Observation] {
        const NAMES: &[Observation] = &[
            obs("empty", Fail, "a tool has an empty name"),
            obs("too-long", Fail, "a name is longer than `max_length`"),
            obs("invalid-character", Fail, "a name uses a character outside A-Z a-z 0-9 _ - ."),
            obs("duplicate", Fail, "a name is listed twice"),
            obs("mixed-style", Fail, "names follow more than one style"),
            obs("no-style", Fail, "a name follows none of camelCase, snake_case and kebab-case (PascalCase, mixed separators)"),
            obs("pattern", Fail, "a name does not match `pattern`"),
            obs("dotted", Partial, "a name contains a dot (a house rule, stricter than the specification)"),
            obs("placeholder", Partial, "a name looks like a placeholder (`tool1`, `helper`, `misc`)"),
            obs("restated-description", Partial, "a description only restates the tool's name"),
        ];
        const ANNOTATIONS: &[Observation] = &[
            obs("no-annotations", Fail, "a tool carries no annotations"),
            obs(
                "read-only-and-destructive",
                Fail,
                "`readOnlyHint: true` together with `destructiveHint: true`",
            ),
            obs("unset-hint", Partial, "a hint is left to its default"),
            obs(
                "read-verb-destructive",
                Partial,
                "a read verb with `destructiveHint: true` (a guess from the name)",
            ),
            obs(
                "write-verb-read-only",
                Partial,
                "a write verb with `readOnlyHint: true` (a guess from the name)",
            ),
        ];
        const DESCRIPTIONS: &[Observation] = &[
            obs("missing", Fail, "a tool has no description"),
            obs(
                "one-word",
                Fail,
                "a description is a single word or restates the name",
            ),
            obs(
                "short",
                Partial,
                "a description is shorter than `min_length`",
            ),
            obs(
                "short-median",
                Partial,
                "the median description is shorter than `median_length`",
            ),
        ];
        const OUTPUT: &[Observation] = &[
            obs("mismatch", Fail, "`structuredContent` does not validate against the `outputSchema`"),
            obs("no-structured-content", Fail, "a tool with `outputSchema` returned no `structuredContent`"),
            obs("invalid-schema", Fail, "an `outputSchema` is not a valid JSON Schema"),
            obs("no-output-schema", Partial, "a tool declares no `outputSchema` (optional in the specification; noted with `require: true`)"),
            obs("error-on-valid-arguments", NotVerified, "a call with arguments valid under the input schema came back `isError` (the arguments are made up, so a person judges the quoted message)"),
        ];
        const ERRORS: &[Observation] = &[
            obs(
                "protocol-error",
                Fail,
                "bad arguments answered with a JSON-RPC error instead of an `isError` result",
            ),
            obs(
                "not-flagged",
                Fail,
                "bad arguments answered with an ordinary result",
            ),
            obs(
                "no-message",
                Partial,
                "an `isError` result without a message",
            ),
            obs("no-answer", Fail, "bad arguments got no answer"),
            obs(
                "error-on-valid-arguments",
                NotVerified,
                "a call with arguments valid under the input schema came back `isError` (the arguments are made up, so a person judges the quoted message)",
            ),
        ];
        const VERSIONS: &[Observation] = &[
            obs("legacy-only", Fail, "the server serves only 2025-11-25 where the profile targets 2026-07-28"),
            obs("modern-only", Fail, "the server serves only 2026-07-28 where the profile targets 2025-11-25"),
            obs("revision-unstated", Partial, "the server serves only the legacy revision and the profile names no `mcp_spec_version`"),
            obs("echo", Fail, "the server accepts an invented protocol version"),
            obs("wrong-refusal", Fail, "an unsupported version is not refused with `-32022` listing the supported versions"),
        ];
        const ORIGIN: &[Observation] = &[obs(
            "foreign-origin-accepted",
            Fail,
            "a request with a foreign `Origin` is served",
        )];
        const VERSION_HEADER: &[Observation] = &[obs(
            "wrong-status",
            Partial,
            "an unsupported `MCP-Protocol-Version` header did not get HTTP 400",
        )];
        const DRIFT: &[Observation] = &[obs(
            "changed",
            Fail,
            "a definition differs from the lock file",
        )];
        const STATELESS: &[Observation] = &[
            obs(
                "needs-handshake",
                Fail,
                "a request is not served as the first on a fresh connection",
            ),
            obs(
                "session-minted",
                Fail,
                "a 2026-07-28 answer mints an `Mcp-Session-Id`",
            ),
            obs(
                "get-served",
                Partial,
                "HTTP GET on the endpoint is not refused with 405",
            ),
        ];
        const RESULT_TYPE: &[Observation] = &[
            obs("missing", Fail, "a result carries no `resultType`"),
            obs(
                "unknown",
                Fail,
                "a result carries a `resultType` the revision does not define",
            ),
        ];
        const CACHE: &[Observation] = &[
            obs(
                "no-ttl",
                Fail,
                "a cacheable result carries no `ttlMs`, or a negative or non-integer one",
            ),
            obs(
                "no-scope",
                Fail,
                "a cacheable result carries no `cacheScope` of `public` or `private`",
            ),
        ];
        const ORDER: &[Observation] = &[obs(
            "order-changed",
            Partial,
            "two listings list the tools in a different order",
        )];
        const ROUTING: &[Observation] = &[
            obs(
                "missing-header-served",
                Fail,
                "a request without `Mcp-Method` is served",
            ),
            obs(
                "mismatch-served",
                Fail,
                "a request whose `Mcp-Method` or `Mcp-Name` contradicts the body is served",
            ),
            obs(
                "wrong-code",
                Partial,
                "a header problem is refused, but not with HTTP 400 and `-32020`",
            ),
        ];
        const INPUT: &[Observation] = &[
            obs(
                "server-request",
                Fail,
                "the server sent a request of its own on a 2026-07-28 exchange",
            ),
            obs(
                "no-input-requests",
                Fail,
                "an `input_required` result carries no `inputRequests`",
            ),
        ];
        const EXTENSIONS: &[Observation] = &[
            obs(
                "core-tasks",
                Fail,
                "`capabilities.tasks` is declared in the core capabilities",
            ),
            obs(
                "bad-extension-id",
                Fail,
                "an extension id does not follow the prefixed `_meta` key rule",
            ),
        ];
        const DIALECT: &[Observation] = &[
            obs(
                "invalid-schema",
                Fail,
                "a schema is not valid under its dialect",
            ),
            obs(
                "unknown-dialect",
                Partial,
                "a schema names a dialect the probe cannot check",
            ),
            obs(
                "network-ref",
                Fail,
                "a schema's `$ref` points to the network",
            ),
        ];
        const PARAM_HEADERS: &[Observation] = &[
            obs("bad-header-name", Fail, "an `x-mcp-header` is empty, not a token, or has control characters"),
            obs("duplicate-header", Fail, "two `x-mcp-header` values differ only in case"),
            obs("not-primitive", Fail, "an `x-mcp-header` sits on a parameter that is not a primitive or not statically reachable"),
        ];
        const STEPS: &[Observation] = &[
            obs(
                "expectation",
                Fail,
                "an expectation of a step does not hold",
            ),
            obs(
                "expectation-partial",
                Partial,
                "an expectation of a step with `records: partial` does not hold",
            ),
            obs(
                "expectation-open",
                NotVerified,
                "an expectation of a step with `records: not_verified` does not hold",
            ),
        ];
        match self {
            Kind::ToolNames => NAMES,
            Kind::ToolAnnotations => ANNOTATIONS,
            Kind::ToolDescriptions => DESCRIPTIONS,
            Kind::OutputSchema => OUTPUT,
            Kind::ToolErrors => ERRORS,
            Kind::ProtocolVersion => VERSIONS,
            Kind::HttpOrigin => ORIGIN,
            Kind::HttpVersionHeader => VERSION_HEADER,
            Kind::ToolDrift => DRIFT,
            Kind::Stateless => STATELESS,
            Kind::ResultType => RESULT_TYPE,
            Kind::CacheHints => CACHE,
            Kind::ListOrder => ORDER,
            Kind::RoutingHeaders => ROUTING,
            Kind::InputRequired => INPUT,
            Kind::Extensions => EXTENSIONS,
            Kind::SchemaDialect => DIALECT,
            Kind::ParamHeaders => PARAM_HEADERS,
            Kind::Steps => STEPS,
        }
    }

    fn params(self) -> &'static [(&'static str, ParamType)] {
        match self {
            Kind::ToolNames => &[
                ("pattern", ParamType::Regex),
                ("max_length", ParamType::Count),
                ("no_dots", ParamType::Flag),
                ("placeholders", ParamType::TextList),
            ],
            Kind::ToolAnnotations => &[
                ("hints", ParamType::TextList),
                ("read_verbs", ParamType::TextList),
                ("write_verbs", ParamType::TextList),
            ],
            Kind::ToolDescriptions => &[
                ("min_length", ParamType::Count),
                ("median_length", ParamType::Count),
            ],
            Kind::OutputSchema => &[("require", ParamType::Flag)],
            Kind::ProtocolVersion => &[("newest", ParamType::Text), ("legacy", ParamType::Text)],
            Kind::HttpOrigin => &[("origin", ParamType::Text)],
            Kind::HttpVersionHeader => &[("version", ParamType::Text)],
            _ => &[],
        }
    }
}

/// A parameter's value, typed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Param {
    Text(String),
    Count(u64),
    Flag(bool),
    TextList(Vec<String>),
}

/// One probe named by a check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeSpec {
    pub kind: Kind,
    pub covers: Covers,
    #[serde(flatten)]
    pub params: BTreeMap<String, Param>,
    /// Observation name → the status it records, where the check differs from the default.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub records: BTreeMap<String, Records>,
    /// A declared probe's name (`steps` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The specification section a declared probe is held against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cites: Option<String>,
    /// Where a declared probe runs.
    #[serde(skip_serializing_if = "is_any")]
    pub transport: Transport,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
}

fn is_any(t: &Transport) -> bool {
    *t == Transport::Any
}

impl ProbeSpec {
    pub fn new(kind: Kind) -> ProbeSpec {
        ProbeSpec {
            kind,
            covers: Covers::All,
            params: BTreeMap::new(),
            records: BTreeMap::new(),
            name: None,
            cites: None,
            transport: Transport::Any,
            steps: Vec::new(),
        }
    }

    /// How the probe is named in evidence: the kind, or `steps:NAME`.
    pub fn label(&self) -> String {
        match (&self.kind, &self.name) {
            (Kind::Steps, Some(n)) => format!("steps:{n}"),
            (k, _) => k.as_str().to_string(),
        }
    }

    /// The section the probe's findings are held against.
    pub fn citation(&self) -> String {
        self.cites.clone().unwrap_or_else(|| self.kind.cites())
    }

    /// What observation `name` records for this check.
    pub fn records_for(&self, name: &str) -> Records {
        if let Some(r) = self.records.get(name) {
            return *r;
        }
        self.kind
            .observations()
            .iter()
            .find(|o| o.name == name)
            .map(|o| o.records)
            .unwrap_or(NotVerified)
    }

    pub fn text(&self, key: &str) -> Option<&str> {
        match self.params.get(key) {
            Some(Param::Text(s)) => Some(s),
            _ => None,
        }
    }

    pub fn count(&self, key: &str, default: u64) -> u64 {
        match self.params.get(key) {
            Some(Param::Count(n)) => *n,
            _ => default,
        }
    }

    pub fn flag(&self, key: &str, default: bool) -> bool {
        match self.params.get(key) {
            Some(Param::Flag(b)) => *b,
            _ => default,
        }
    }

    pub fn list(&self, key: &str, default: &[&str]) -> Vec<String> {
        match self.params.get(key) {
            Some(Param::TextList(v)) => v.clone(),
            _ => default.iter().map(|s| s.to_string()).collect(),
        }
    }
}

fn kinds_list() -> String {
    Kind::BUILT_IN
        .iter()
        .map(|k| format!("`{}`", k.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Type the value of `probe:`: a list of mappings or bare kind names; a single mapping or name
/// is read as a list of one. Every problem is returned.
pub fn parse(value: &Value) -> Result<Vec<ProbeSpec>, Vec<Problem>> {
    let (items, listed): (Vec<&Value>, bool) = match value {
        Value::Sequence(items) => (items.iter().collect(), true),
        Value::Mapping(_) | Value::String(_) => (vec![value], false),
        Value::Null => {
            return Err(vec![problem(
                "probe",
                "`probe` has no value; expected a list of probes".into(),
                "write `probe: [{kind: tool-names}]`, or remove the key",
            )])
        }
        other => {
            return Err(vec![problem(
                "probe",
                format!(
                    "`probe` must be a list of probes; YAML reads it as {}",
                    crate::text::yaml_value::describe(other)
                ),
                "write `probe: [{kind: tool-names}]`",
            )])
        }
    };
    let mut specs = Vec::new();
    let mut problems = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = if listed {
            format!("probe[{i}]")
        } else {
            "probe".to_string()
        };
        match parse_one(item, i + 1, &path) {
            Ok(s) => specs.push(s),
            Err(p) => problems.extend(p),
        }
    }
    let mut names = std::collections::BTreeSet::new();
    for (i, s) in specs.iter().enumerate() {
        if let Some(n) = &s.name {
            if !names.insert(n.clone()) {
                problems.push(problem(
                    format!("probe[{i}].name"),
                    format!(
                        "probe {}: the name `{n}` is used by an earlier probe",
                        i + 1
                    ),
                    "give every declared probe of a check a name of its own",
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(specs)
    } else {
        Err(problems)
    }
}

fn kind_of(name: &str, n: usize, path: &str) -> Result<Kind, Problem> {
    Kind::parse(name).ok_or_else(|| {
        let help =
            crate::text::suggest::did_you_mean(name, Kind::BUILT_IN.iter().map(|k| k.as_str()))
                .unwrap_or_else(|| {
                    format!(
                "the probe kinds are {}; a probe of your own is written with `name` and `steps`",
                kinds_list()
            )
                });
        problem(
            path,
            format!("probe {n}: unknown probe kind `{name}`"),
            help,
        )
    })
}

fn describe(v: &Value) -> String {
    crate::text::yaml_value::describe(v)
}

fn parse_one(item: &Value, n: usize, path: &str) -> Result<ProbeSpec, Vec<Problem>> {
    let map = match item {
        Value::String(name) => {
            return kind_of(name, n, path)
                .map(ProbeSpec::new)
                .map_err(|p| vec![p])
        }
        Value::Mapping(m) => m,
        other => {
            return Err(vec![problem(
                path,
                format!(
                    "probe {n} must be a mapping with `kind` (or `name` and `steps`); YAML reads it as {}",
                    describe(other)
                ),
                "write `{kind: tool-names}`",
            )])
        }
    };
    let declared = map.get("steps").is_some();
    let kind = match (map.get("kind"), declared) {
        (Some(Value::String(s)), false) => kind_of(s, n, path).map_err(|p| vec![p])?,
        (Some(_), true) => {
            return Err(vec![problem(
                format!("{path}.kind"),
                format!(
                "probe {n}: a probe has either `kind` (built in) or `steps` (declared), not both"
            ),
                "remove `kind`, or move the steps into a probe of their own",
            )])
        }
        (None, true) => Kind::Steps,
        (Some(other), false) => {
            return Err(vec![problem(
                format!("{path}.kind"),
                format!(
                    "probe {n}: `kind` must be a string; YAML reads it as {}",
                    describe(other)
                ),
                format!("the probe kinds are {}", kinds_list()),
            )])
        }
        (None, false) => {
            return Err(vec![problem(
                path,
                format!("probe {n} has neither `kind` nor `steps`"),
                format!(
                "the probe kinds are {}; a probe of your own is written with `name` and `steps`",
                kinds_list()
            ),
            )])
        }
    };
    let mut spec = ProbeSpec::new(kind);
    let mut problems = Vec::new();
    let label = if kind == Kind::Steps {
        "steps".to_string()
    } else {
        kind.as_str().to_string()
    };
    for (key, value) in map {
        let Value::String(key) = key else {
            problems.push(problem(
                path,
                format!("probe {n} ({label}): parameter names must be strings"),
                "quote the parameter name",
            ));
            continue;
        };
        let at = format!("{path}.{key}");
        match key.as_str() {
            "kind" | "steps" => {}
            "covers" => match value {
                Value::String(s) if s == "all" => spec.covers = Covers::All,
                Value::String(s) if s == "part" => spec.covers = Covers::Part,
                _ => problems.push(problem(
                    at,
                    format!("probe {n} ({label}): `covers` must be `all` or `part`"),
                    "`part` when a clean probe does not decide the whole check",
                )),
            },
            "records" => records(&mut spec, value, n, &label, &at, &mut problems),
            "name" if kind == Kind::Steps => match value {
                Value::String(s) if probe_steps::plain_name(s) => spec.name = Some(s.clone()),
                _ => problems.push(problem(
                    at,
                    format!("probe {n}: `name` must be a short name of letters, digits and `-`"),
                    "e.g. `name: discover-complete`",
                )),
            },
            "cites" => match value {
                Value::String(s) if s.starts_with("https://") => spec.cites = Some(s.clone()),
                _ => problems.push(problem(
                    at,
                    format!("probe {n} ({label}): `cites` must be an https:// link to the section the probe holds the server to"),
                    "e.g. `cites: https://modelcontextprotocol.io/specification/2026-07-28/server/discover`",
                )),
            },
            "transport" if kind == Kind::Steps => match value.as_str() {
                Some("any") => spec.transport = Transport::Any,
                Some("http") => spec.transport = Transport::Http,
                Some("stdio") => spec.transport = Transport::Stdio,
                _ => problems.push(problem(
                    at,
                    format!("probe {n}: `transport` must be `any`, `http` or `stdio`"),
                    "`http` for steps that send raw HTTP or test headers",
                )),
            },
            _ => param(&mut spec, key, value, n, &label, &at, &mut problems),
        }
    }
    if kind == Kind::Steps {
        if spec.name.is_none() {
            problems.push(problem(
                path,
                format!("probe {n}: a probe with `steps` needs a `name`"),
                "the name appears in the evidence, e.g. `[probe steps:discover-complete]`",
            ));
        }
        if let Some(steps) = map.get("steps") {
            match probe_steps::parse(steps, n, &format!("{path}.steps"), spec.transport) {
                Ok(s) => spec.steps = s,
                Err(p) => problems.extend(p),
            }
        }
    }
    if problems.is_empty() {
        Ok(spec)
    } else {
        Err(problems)
    }
}

fn records(
    spec: &mut ProbeSpec,
    value: &Value,
    n: usize,
    label: &str,
    at: &str,
    problems: &mut Vec<Problem>,
) {
    let names: Vec<&str> = spec.kind.observations().iter().map(|o| o.name).collect();
    let Value::Mapping(m) = value else {
        problems.push(problem(
            at,
            format!(
                "probe {n} ({label}): `records` must map observation names to statuses; YAML reads it as {}",
                describe(value)
            ),
            format!("e.g. `records: {{{}: partial}}`", names.first().unwrap_or(&"name")),
        ));
        return;
    };
    for (k, v) in m {
        let key = k.as_str().unwrap_or("");
        if !names.contains(&key) {
            let help = crate::text::suggest::did_you_mean(key, names.iter().copied())
                .unwrap_or_else(|| {
                    format!(
                        "`{label}` observes {}",
                        names
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
            problems.push(problem(
                format!("{at}.{key}"),
                format!("probe {n} ({label}): `records` names `{key}`, which this probe does not observe"),
                help,
            ));
            continue;
        }
        match v.as_str().and_then(Records::parse) {
            Some(r) => {
                spec.records.insert(key.to_string(), r);
            }
            None => problems.push(problem(
                format!("{at}.{key}"),
                format!("probe {n} ({label}): `records.{key}` must be `fail`, `partial` or `not_verified`"),
                "a heuristic's suspicion records at most `partial`",
            )),
        }
    }
}

fn param(
    spec: &mut ProbeSpec,
    key: &str,
    value: &Value,
    n: usize,
    label: &str,
    at: &str,
    problems: &mut Vec<Problem>,
) {
    let allowed = spec.kind.params();
    match allowed.iter().find(|(k, _)| *k == key) {
        Some((_, ty)) => match typed(*ty, value) {
            Some(p) => {
                spec.params.insert(key.to_string(), p);
            }
            None => problems.push(problem(
                at,
                format!(
                    "probe {n} ({label}): `{key}` must be {}; YAML reads it as {}",
                    ty.describe(),
                    describe(value)
                ),
                match ty {
                    ParamType::Regex => {
                        "a valid regular expression, e.g. '^[a-z][a-z0-9_]*$'".to_string()
                    }
                    _ => format!("give `{key}` {}", ty.describe()),
                },
            )),
        },
        None => {
            let mut names: Vec<&str> = allowed.iter().map(|(k, _)| *k).collect();
            names.extend(["kind", "covers", "records", "cites"]);
            if spec.kind == Kind::Steps {
                names = vec!["name", "steps", "covers", "records", "cites", "transport"];
            }
            let help = crate::text::suggest::did_you_mean(key, names.iter().copied())
                .unwrap_or_else(|| {
                    format!(
                        "`{label}` takes {}",
                        names
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
            problems.push(problem(
                at,
                format!("probe {n} ({label}): unknown parameter `{key}`"),
                help,
            ));
        }
    }
}

fn typed(ty: ParamType, v: &Value) -> Option<Param> {
    match (ty, v) {
        (ParamType::Text, Value::String(s)) if !s.trim().is_empty() => Some(Param::Text(s.clone())),
        (ParamType::Regex, Value::String(s)) => {
            regex::Regex::new(s).ok().map(|_| Param::Text(s.clone()))
        }
        (ParamType::Count, Value::Number(n)) => n.as_u64().map(Param::Count),
        (ParamType::Flag, Value::Bool(b)) => Some(Param::Flag(*b)),
        (ParamType::TextList, Value::Sequence(items)) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(Param::TextList),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(s: &str) -> Value {
        serde_yaml::from_str(s).unwrap_or(Value::Null)
    }

    #[test]
    fn every_form_is_read() {
        let specs = parse(&yaml(
            "[{kind: tool-names, pattern: '^[a-z_]+$'}, tool-drift]",
        ))
        .unwrap_or_default();
        assert_eq!(specs.len(), 2);
        assert_eq!(specs[0].text("pattern"), Some("^[a-z_]+$"));
        assert_eq!(specs[1].kind, Kind::ToolDrift);
        let one = parse(&yaml("{kind: tool-errors, covers: part}")).unwrap_or_default();
        assert_eq!(one[0].covers, Covers::Part);
    }

    #[test]
    fn every_problem_is_reported_with_its_path() {
        let p = parse(&yaml(
            "[{kind: tool-nmaes}, {kind: tool-names, pattern: '(['}, {kind: tool-descriptions, min_lenght: 3}, 7]",
        ))
        .err()
        .unwrap_or_default();
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].help.contains("tool-names"));
        assert_eq!(p[1].path, "probe[1].pattern");
        assert!(p[2].help.contains("min_length"));
        assert_eq!(p[3].path, "probe[3]");
    }

    #[test]
    fn records_override_the_default_and_are_checked() {
        let s = parse(&yaml("[{kind: tool-names, records: {dotted: fail}}]")).unwrap_or_default();
        assert_eq!(s[0].records_for("dotted"), Records::Fail);
        assert_eq!(s[0].records_for("placeholder"), Records::Partial);
        let p = parse(&yaml(
            "[{kind: tool-names, records: {dotty: fail, empty: pass}}]",
        ))
        .err()
        .unwrap_or_default();
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].help.contains("dotted"), "{p:?}");
        assert!(p[1].message.contains("`fail`, `partial` or `not_verified`"));
    }

    #[test]
    fn heuristics_record_at_most_partial_by_default() {
        for k in Kind::BUILT_IN {
            for o in k.observations() {
                if o.meaning.contains("guess") || o.meaning.contains("looks like") {
                    assert_ne!(o.records, Records::Fail, "{} {}", k.as_str(), o.name);
                }
            }
        }
    }
}
