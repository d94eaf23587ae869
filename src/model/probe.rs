//! The `probe:` key of a check's frontmatter: which built-in probes observe the check on a live
//! server, with their parameters. Typed here once; lint reports every problem (unknown kind,
//! unknown or ill-typed parameter) like any other field problem.

use serde::Serialize;
use serde_yaml::Value;
use std::collections::BTreeMap;

/// The built-in probe kinds. Each observes one thing a server shows over the protocol.
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
}

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

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::ToolNames,
        Kind::ToolAnnotations,
        Kind::ToolDescriptions,
        Kind::OutputSchema,
        Kind::ToolErrors,
        Kind::ProtocolVersion,
        Kind::HttpOrigin,
        Kind::HttpVersionHeader,
        Kind::ToolDrift,
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
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// What the probe observes, one line (README, `show`).
    pub fn summary(self) -> &'static str {
        match self {
            Kind::ToolNames => "every tool name follows one scheme (or `pattern`), without dots, at most `max_length` characters",
            Kind::ToolAnnotations => "every tool sets the annotation `hints`; read-only verbs are not destructive, write verbs not read-only",
            Kind::ToolDescriptions => "every tool has a description of at least `min_length` characters, the median at least `median_length`",
            Kind::OutputSchema => "every tool declares `outputSchema`; each sampled `structuredContent` validates against it",
            Kind::ToolErrors => "bad arguments come back as an `isError` result with a message, not a JSON-RPC error",
            Kind::ProtocolVersion => "the server negotiates the `newest` revision and still serves a `legacy` client",
            Kind::HttpOrigin => "a request with a foreign `Origin` is refused (Streamable HTTP)",
            Kind::HttpVersionHeader => "an unsupported `MCP-Protocol-Version` header gets HTTP 400 (Streamable HTTP)",
            Kind::ToolDrift => "tool, resource and prompt definitions equal those in the lock file",
        }
    }

    fn params(self) -> &'static [(&'static str, ParamType)] {
        match self {
            Kind::ToolNames => &[
                ("pattern", ParamType::Regex),
                ("max_length", ParamType::Count),
                ("no_dots", ParamType::Flag),
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
            Kind::ToolErrors => &[],
            Kind::ProtocolVersion => &[("newest", ParamType::Text), ("legacy", ParamType::Text)],
            Kind::HttpOrigin => &[("origin", ParamType::Text)],
            Kind::HttpVersionHeader => &[("version", ParamType::Text)],
            Kind::ToolDrift => &[],
        }
    }
}

/// How much of the check a probe decides: `all` lets a clean probe pass the check; `part`
/// means a clean probe leaves the rest to a person (the result is then `not_verified`), while
/// a defect it sees still fails the check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Covers {
    All,
    Part,
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
}

impl ProbeSpec {
    pub fn new(kind: Kind) -> ProbeSpec {
        ProbeSpec {
            kind,
            covers: Covers::All,
            params: BTreeMap::new(),
        }
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

/// A problem with the `probe:` value: the message and a help line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    pub help: String,
}

fn problem(message: String, help: impl Into<String>) -> Problem {
    Problem {
        message,
        help: help.into(),
    }
}

fn kinds_list() -> String {
    Kind::ALL
        .iter()
        .map(|k| format!("`{}`", k.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Type the value of `probe:`: a list of mappings (`{kind: tool-names, pattern: …}`) or bare
/// kind names; a single mapping or name is read as a list of one. Every problem is returned.
pub fn parse(value: &Value) -> Result<Vec<ProbeSpec>, Vec<Problem>> {
    let items: Vec<&Value> = match value {
        Value::Sequence(items) => items.iter().collect(),
        Value::Mapping(_) | Value::String(_) => vec![value],
        Value::Null => {
            return Err(vec![problem(
                "`probe` has no value; expected a list of probes".into(),
                "write `probe: [{kind: tool-names}]`, or remove the key",
            )])
        }
        other => {
            return Err(vec![problem(
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
        match parse_one(item, i + 1) {
            Ok(s) => specs.push(s),
            Err(p) => problems.extend(p),
        }
    }
    if problems.is_empty() {
        Ok(specs)
    } else {
        Err(problems)
    }
}

fn kind_of(name: &str, n: usize) -> Result<Kind, Problem> {
    Kind::parse(name).ok_or_else(|| {
        let help = crate::text::suggest::did_you_mean(name, Kind::ALL.iter().map(|k| k.as_str()))
            .unwrap_or_else(|| format!("the probe kinds are {}", kinds_list()));
        problem(format!("probe {n}: unknown probe kind `{name}`"), help)
    })
}

fn parse_one(item: &Value, n: usize) -> Result<ProbeSpec, Vec<Problem>> {
    let map = match item {
        Value::String(name) => return kind_of(name, n).map(ProbeSpec::new).map_err(|p| vec![p]),
        Value::Mapping(m) => m,
        other => {
            return Err(vec![problem(
                format!(
                    "probe {n} must be a mapping with `kind`; YAML reads it as {}",
                    crate::text::yaml_value::describe(other)
                ),
                "write `{kind: tool-names}`",
            )])
        }
    };
    let kind = match map.get("kind") {
        Some(Value::String(s)) => kind_of(s, n).map_err(|p| vec![p])?,
        Some(other) => {
            return Err(vec![problem(
                format!(
                    "probe {n}: `kind` must be a string; YAML reads it as {}",
                    crate::text::yaml_value::describe(other)
                ),
                format!("the probe kinds are {}", kinds_list()),
            )])
        }
        None => {
            return Err(vec![problem(
                format!("probe {n} has no `kind`"),
                format!("the probe kinds are {}", kinds_list()),
            )])
        }
    };
    let mut spec = ProbeSpec::new(kind);
    let mut problems = Vec::new();
    let allowed = kind.params();
    for (key, value) in map {
        let Value::String(key) = key else {
            problems.push(problem(
                format!(
                    "probe {n} ({}): parameter names must be strings",
                    kind.as_str()
                ),
                "quote the parameter name",
            ));
            continue;
        };
        match key.as_str() {
            "kind" => {}
            "covers" => match value {
                Value::String(s) if s == "all" => spec.covers = Covers::All,
                Value::String(s) if s == "part" => spec.covers = Covers::Part,
                _ => problems.push(problem(
                    format!(
                        "probe {n} ({}): `covers` must be `all` or `part`",
                        kind.as_str()
                    ),
                    "`part` when a clean probe does not decide the whole check",
                )),
            },
            _ => match allowed.iter().find(|(k, _)| k == key) {
                Some((_, ty)) => match typed(*ty, value) {
                    Some(p) => {
                        spec.params.insert(key.clone(), p);
                    }
                    None => problems.push(problem(
                        format!(
                            "probe {n} ({}): `{key}` must be {}; YAML reads it as {}",
                            kind.as_str(),
                            ty.describe(),
                            crate::text::yaml_value::describe(value)
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
                    let names: Vec<&str> = allowed
                        .iter()
                        .map(|(k, _)| *k)
                        .chain(["kind", "covers"])
                        .collect();
                    let help = crate::text::suggest::did_you_mean(key, names.iter().copied())
                        .unwrap_or_else(|| {
                            format!(
                                "`{}` takes {}",
                                kind.as_str(),
                                names
                                    .iter()
                                    .map(|k| format!("`{k}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        });
                    problems.push(problem(
                        format!("probe {n} ({}): unknown parameter `{key}`", kind.as_str()),
                        help,
                    ));
                }
            },
        }
    }
    if problems.is_empty() {
        Ok(spec)
    } else {
        Err(problems)
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
    fn every_problem_is_reported() {
        let p = parse(&yaml(
            "[{kind: tool-nmaes}, {kind: tool-names, pattern: '(['}, {kind: tool-descriptions, min_lenght: 3}, 7]",
        ))
        .err()
        .unwrap_or_default();
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].help.contains("tool-names"));
        assert!(p[2].help.contains("min_length"));
    }
}
