//! The tool definitions and what sampled calls answered: names, annotations, descriptions,
//! output schemas and the structured content they promise, error reporting, the JSON Schema
//! dialect of every schema, and headers derived from parameters.

use super::{looked, looked_in, undecided, Seen};
use crate::evidence::probe::calls::{words, WRITE_VERBS};
use crate::evidence::probe::observe::{Answer, Call, Observation};
use crate::evidence::untrusted;
use crate::model::probe::ProbeSpec;
use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};

fn raw_name(t: &Json) -> &str {
    t.get("name").and_then(Json::as_str).unwrap_or("")
}

/// A tool's name, quoted for evidence.
fn name(t: &Json) -> String {
    untrusted::value(raw_name(t))
}

fn no_tools(obs: &Observation) -> Option<Seen> {
    if !obs.tools.answered {
        return Some(undecided(format!(
            "tools/list got no answer{}; nothing to judge",
            notes(obs)
        )));
    }
    if obs.tools.items.is_empty() {
        return Some(undecided(format!(
            "tools/list returned no tools{}; nothing to judge",
            notes(obs)
        )));
    }
    None
}

fn notes(obs: &Observation) -> String {
    if obs.tools.notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", obs.tools.notes.join("; "))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Style {
    Snake,
    Camel,
    Kebab,
    /// One lowercase word: fits every style.
    Neutral,
    /// PascalCase, mixed separators, upper-case words: none of the three styles.
    Other,
}

/// The style of a name; dots are namespace separators (judged apart, as a house rule), so each
/// dotted segment is styled and the segments must agree.
fn style(n: &str) -> Style {
    if n.contains('.') {
        let styles: BTreeSet<Style> = n
            .split('.')
            .filter(|s| !s.is_empty())
            .map(segment_style)
            .filter(|s| *s != Style::Neutral)
            .collect();
        return match styles.len() {
            0 => Style::Neutral,
            1 => styles.into_iter().next().unwrap_or(Style::Other),
            _ => Style::Other,
        };
    }
    segment_style(n)
}

fn segment_style(n: &str) -> Style {
    let has = |c: char| n.contains(c);
    let lower_alnum = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    };
    if !n.is_empty() && lower_alnum(n) {
        Style::Neutral
    } else if has('_') && !has('-') && n.split('_').all(|p| !p.is_empty() && lower_alnum(p)) {
        Style::Snake
    } else if has('-') && !has('_') && n.split('-').all(|p| !p.is_empty() && lower_alnum(p)) {
        Style::Kebab
    } else if n.chars().all(|c| c.is_ascii_alphanumeric())
        && n.starts_with(|c: char| c.is_ascii_lowercase())
    {
        Style::Camel
    } else {
        Style::Other
    }
}

fn style_name(s: Style) -> &'static str {
    match s {
        Style::Snake => "snake_case",
        Style::Camel => "camelCase",
        Style::Kebab => "kebab-case",
        Style::Neutral => "one lowercase word",
        Style::Other => "no single style",
    }
}

/// Names that stand for nothing: a generic word, alone or with a number.
const PLACEHOLDERS: &[&str] = &[
    "tool",
    "tools",
    "helper",
    "helpers",
    "misc",
    "util",
    "utils",
    "test",
    "foo",
    "bar",
    "baz",
    "func",
    "function",
    "untitled",
    "temp",
    "tmp",
    "example",
    "sample",
    "demo",
    "stuff",
    "thing",
    "do",
    "action",
    "handler",
    "new",
    "my",
    "placeholder",
    "todo",
];

fn placeholder(n: &str, list: &[String]) -> bool {
    let w = words(n);
    let core: Vec<&String> = w
        .iter()
        .filter(|x| !x.chars().all(|c| c.is_ascii_digit()))
        .collect();
    // `tool1` is one word with a trailing number.
    let stripped: String = n
        .to_ascii_lowercase()
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == '_' || c == '-')
        .to_string();
    list.contains(&stripped)
        || (!core.is_empty() && core.iter().all(|x| list.iter().any(|p| p == *x)))
}

/// A description that says nothing the name does not: the same words, in any case or style.
fn restates(name: &str, description: &str) -> bool {
    let d: BTreeSet<String> = words(description).into_iter().collect();
    let n: BTreeSet<String> = words(name).into_iter().collect();
    !d.is_empty() && d.is_subset(&n)
}

pub fn names(spec: &ProbeSpec, obs: &Observation) -> Seen {
    if let Some(s) = no_tools(obs) {
        return s;
    }
    let max = spec.count("max_length", 128) as usize;
    let no_dots = spec.flag("no_dots", true);
    let pattern = spec.text("pattern").and_then(|p| regex::Regex::new(p).ok());
    let list: Vec<String> = spec.list("placeholders", PLACEHOLDERS);
    let tools = &obs.tools.items;
    let mut defects: Vec<(&'static str, String)> = Vec::new();
    let mut seen = BTreeSet::new();
    for t in tools {
        let n = raw_name(t);
        let q = name(t);
        if !seen.insert(n) {
            defects.push(("duplicate", format!("tool `{q}` is listed twice")));
        }
        if n.is_empty() {
            defects.push(("empty", "a tool has an empty name".into()));
            continue;
        }
        if n.chars().count() > max {
            defects.push((
                "too-long",
                format!("tool `{q}`: the name is longer than {max} characters"),
            ));
        }
        if let Some(c) = n
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        {
            defects.push((
                "invalid-character",
                format!(
                    "tool `{q}`: the name contains `{}`, outside A-Z a-z 0-9 _ - .",
                    untrusted::value(&c.to_string())
                ),
            ));
        }
        if no_dots && n.contains('.') {
            defects.push(("dotted", format!("tool `{q}`: the name contains a dot")));
        }
        if placeholder(n, &list) {
            defects.push((
                "placeholder",
                format!("tool `{q}`: the name looks like a placeholder"),
            ));
        }
        let d = t
            .get("description")
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim();
        if !d.is_empty() && restates(n, d) {
            defects.push((
                "restated-description",
                format!(
                    "tool `{q}`: the description \"{}\" only restates the name",
                    untrusted::value(d)
                ),
            ));
        }
    }
    let shown: Vec<String> = tools.iter().map(name).collect();
    let clean_line;
    if let Some(re) = &pattern {
        for t in tools {
            if !re.is_match(raw_name(t)) {
                defects.push((
                    "pattern",
                    format!(
                        "tool `{}`: the name does not match `{}`",
                        name(t),
                        re.as_str()
                    ),
                ));
            }
        }
        clean_line = format!("every name matches `{}`", re.as_str());
    } else {
        let mut counts: BTreeMap<Style, usize> = BTreeMap::new();
        for t in tools {
            let s = style(raw_name(t));
            if !matches!(s, Style::Neutral | Style::Other) {
                *counts.entry(s).or_default() += 1;
            }
        }
        let main = counts
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(s, _)| *s);
        for t in tools {
            let s = style(raw_name(t));
            if s == Style::Other && !raw_name(t).is_empty() {
                defects.push((
                    "no-style",
                    format!(
                        "tool `{}`: follows none of camelCase, snake_case and kebab-case",
                        name(t)
                    ),
                ));
            } else if let Some(main) = main.filter(|m| s != Style::Neutral && s != *m) {
                defects.push((
                    "mixed-style",
                    format!(
                        "tool `{}`: {} among {} names ({} of {} tools are {})",
                        name(t),
                        style_name(s),
                        style_name(main),
                        counts.get(&main).copied().unwrap_or(0),
                        tools.len(),
                        style_name(main)
                    ),
                ));
            }
        }
        clean_line = format!(
            "every name follows one scheme ({})",
            main.map(style_name).unwrap_or("one lowercase word each")
        );
    }
    let context = format!(
        "tools/list: {} tool names: {}",
        tools.len(),
        shown.join(", ")
    );
    looked_in(
        defects,
        vec![clean_line],
        vec![untrusted::cut(&context, 600)],
    )
}

const READ_VERBS: &[&str] = &[
    "get", "list", "search", "find", "fetch", "read", "query", "describe", "show", "lookup",
    "count", "check", "view",
];
const HINTS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

pub fn annotations(spec: &ProbeSpec, obs: &Observation) -> Seen {
    if let Some(s) = no_tools(obs) {
        return s;
    }
    let hints = spec.list("hints", HINTS);
    let reads = spec.list("read_verbs", READ_VERBS);
    let writes = spec.list("write_verbs", WRITE_VERBS);
    let mut defects = Vec::new();
    let mut clean = Vec::new();
    for t in &obs.tools.items {
        let n = name(t);
        let Some(ann) = t.get("annotations").and_then(Json::as_object) else {
            defects.push((
                "no-annotations",
                format!("tool `{n}`: no `annotations` in its definition"),
            ));
            continue;
        };
        let missing: Vec<String> = hints
            .iter()
            .filter(|h| !matches!(ann.get(h.as_str()), Some(Json::Bool(_))))
            .map(|m| format!("`{m}`"))
            .collect();
        if !missing.is_empty() {
            defects.push((
                "unset-hint",
                format!("tool `{n}`: annotations leave {} unset", missing.join(", ")),
            ));
        }
        let flag = |k: &str| ann.get(k).and_then(Json::as_bool);
        let ws = words(raw_name(t));
        let verb = ws.first().cloned().unwrap_or_default();
        if flag("readOnlyHint") == Some(true) && flag("destructiveHint") == Some(true) {
            defects.push((
                "read-only-and-destructive",
                format!("tool `{n}`: `readOnlyHint: true` together with `destructiveHint: true`"),
            ));
        }
        if reads.contains(&verb) && flag("destructiveHint") == Some(true) {
            defects.push((
                "read-verb-destructive",
                format!("tool `{n}`: a read verb (`{verb}`) with `destructiveHint: true`"),
            ));
        }
        if writes.contains(&verb) && flag("readOnlyHint") == Some(true) {
            defects.push((
                "write-verb-read-only",
                format!("tool `{n}`: a write verb (`{verb}`) with `readOnlyHint: true`"),
            ));
        }
        let set: Vec<String> = hints
            .iter()
            .filter_map(|h| flag(h).map(|v| format!("{h}: {v}")))
            .collect();
        clean.push(format!("tool `{n}`: annotations {{{}}}", set.join(", ")));
    }
    looked_in(defects, vec![], untrusted::bounded(clean, 40))
}

pub fn descriptions(spec: &ProbeSpec, obs: &Observation) -> Seen {
    if let Some(s) = no_tools(obs) {
        return s;
    }
    let min = spec.count("min_length", 20) as usize;
    let median_min = spec.count("median_length", 100) as usize;
    let mut defects = Vec::new();
    let mut lengths = Vec::new();
    for t in &obs.tools.items {
        let n = name(t);
        let d = t
            .get("description")
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim();
        let len = d.chars().count();
        lengths.push(len);
        let q = untrusted::value(d);
        if d.is_empty() {
            defects.push(("missing", format!("tool `{n}`: no description")));
        } else if d.split_whitespace().count() < 2 || restates(raw_name(t), d) {
            defects.push((
                "one-word",
                format!("tool `{n}`: the description \"{q}\" only restates a word or the name"),
            ));
        } else if len < min {
            defects.push((
                "short",
                format!(
                    "tool `{n}`: the description has {len} characters (at least {min}): \"{q}\""
                ),
            ));
        }
    }
    lengths.sort_unstable();
    let median = lengths.get(lengths.len() / 2).copied().unwrap_or(0);
    if median < median_min {
        defects.push((
            "short-median",
            format!("tools/list: the median description has {median} characters (at least {median_min})"),
        ));
    }
    let context = vec![format!(
        "tools/list: {} descriptions, shortest {} characters, median {median}",
        lengths.len(),
        lengths.first().copied().unwrap_or(0)
    )];
    looked_in(defects, vec![], context)
}

/// The text of a tool result's content blocks, quoted.
fn result_text(value: &Json) -> String {
    let text: Vec<&str> = value
        .get("content")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|b| b.get("text").and_then(Json::as_str))
        .collect();
    untrusted::quote(&text.join(" "), 160)
}

fn is_error(value: &Json) -> bool {
    value.get("isError") == Some(&Json::Bool(true))
}

fn sent(c: &Call) -> String {
    format!(
        "tools/call `{}` with {}",
        c.tool,
        untrusted::json(&c.arguments, 120)
    )
}

/// Calls with arguments made valid from the input schema that came back `isError`: a tool that
/// fails on valid input, or arguments the probe could only guess (hence at most `partial`).
fn errors_on_valid(obs: &Observation) -> Vec<(&'static str, String)> {
    obs.samples
        .iter()
        .filter_map(|c| match &c.answer {
            Answer::Result { value } if is_error(value) => Some((
                "error-on-valid-arguments",
                format!(
                    "{} (valid under its input schema) → isError result: \"{}\"",
                    sent(c),
                    result_text(value)
                ),
            )),
            _ => None,
        })
        .collect()
}

pub fn output_schema(spec: &ProbeSpec, obs: &Observation) -> Seen {
    if let Some(s) = no_tools(obs) {
        return s;
    }
    let require = spec.flag("require", false);
    let mut defects = Vec::new();
    let mut clean: Vec<String> = Vec::new();
    let declaring: Vec<&Json> = obs
        .tools
        .items
        .iter()
        .filter(|t| t.get("outputSchema").is_some())
        .collect();
    if require {
        for t in obs
            .tools
            .items
            .iter()
            .filter(|t| t.get("outputSchema").is_none())
        {
            defects.push((
                "no-output-schema",
                format!("tool `{}`: no `outputSchema` declared", name(t)),
            ));
        }
    }
    let mut validated = 0;
    for c in &obs.samples {
        let schema = declaring
            .iter()
            .find(|t| untrusted::value(raw_name(t)) == c.tool)
            .and_then(|t| t.get("outputSchema"));
        let (Some(schema), Answer::Result { value }) = (schema, &c.answer) else {
            continue;
        };
        if is_error(value) {
            continue;
        }
        let Some(content) = value.get("structuredContent") else {
            defects.push((
                "no-structured-content",
                format!(
                    "{}: it declares `outputSchema` but returned no `structuredContent`",
                    sent(c)
                ),
            ));
            continue;
        };
        match jsonschema::validator_for(schema) {
            Err(e) => defects.push((
                "invalid-schema",
                format!(
                    "tool `{}`: its `outputSchema` is not a valid JSON Schema ({})",
                    c.tool,
                    untrusted::value(&e.to_string())
                ),
            )),
            Ok(v) => {
                let errors: Vec<String> = v
                    .iter_errors(content)
                    .take(3)
                    .map(|e| format!("{} at `{}`", e, e.instance_path()))
                    .collect();
                if errors.is_empty() {
                    validated += 1;
                    clean.push(format!(
                        "{}: `structuredContent` validates against its `outputSchema`",
                        sent(c)
                    ));
                } else {
                    defects.push((
                        "mismatch",
                        format!(
                            "{}: `structuredContent` {} does not match its `outputSchema`: {}",
                            sent(c),
                            untrusted::json(content, 120),
                            untrusted::quote(&errors.join("; "), 300)
                        ),
                    ));
                }
            }
        }
    }
    defects.extend(errors_on_valid(obs));
    if declaring.is_empty() && defects.is_empty() {
        return looked(
            vec![],
            vec!["no tool declares an `outputSchema` (optional in the specification): nothing to validate".into()],
        );
    }
    clean.insert(
        0,
        format!(
            "tools/list: {} of {} tools declare an `outputSchema`; {} sampled",
            declaring.len(),
            obs.tools.items.len(),
            obs.samples.len()
        ),
    );
    if defects.is_empty() && validated == 0 {
        let mut why = vec![format!(
            "{} tool(s) declare `outputSchema`, but no `structuredContent` could be sampled",
            declaring.len()
        )];
        why.extend(
            obs.not_called
                .iter()
                .map(|n| format!("{}: not called, {}", n.tool, n.why)),
        );
        return Seen::Undecided(untrusted::bounded(why, 20));
    }
    looked_in(defects, vec![], clean)
}

pub fn errors(obs: &Observation) -> Seen {
    let valid = errors_on_valid(obs);
    let Some(c) = &obs.bad_call else {
        let mut lines =
            vec!["no tool could be called with arguments that break its input schema".to_string()];
        lines.extend(
            obs.not_called
                .iter()
                .map(|n| format!("{}: not called, {}", n.tool, n.why)),
        );
        if valid.is_empty() {
            return Seen::Undecided(untrusted::bounded(lines, 20));
        }
        return looked(valid, vec![]);
    };
    let s = sent(c);
    let mut defects = valid;
    let mut clean = Vec::new();
    let breaks = obs
        .tools
        .items
        .iter()
        .find(|t| name(t) == c.tool)
        .map(|t| {
            let req = t
                .pointer("/inputSchema/required")
                .map(|r| untrusted::json(r, 80))
                .unwrap_or_else(|| "nothing".into());
            format!("tools/list: `{}` requires {req} in its input schema; the call left the schema's terms", c.tool)
        })
        .unwrap_or_default();
    let context = vec![breaks];
    match &c.answer {
        Answer::Result { value } => {
            let text = result_text(value);
            if is_error(value) && !text.trim().is_empty() {
                clean.push(format!("{s} → isError result: \"{text}\""));
            } else if is_error(value) {
                defects.push(("no-message", format!("{s} → isError result without a message")));
            } else {
                defects.push(("not-flagged", format!("{s} → an ordinary result, not flagged isError: \"{text}\"")));
            }
        }
        // Method not found says nothing about how errors are reported.
        Answer::RpcError { code: -32601, message } if defects.is_empty() => {
            return undecided(format!(
                "{s} → JSON-RPC -32601 (\"{}\"); not evidence either way",
                untrusted::value(message)
            ))
        }
        Answer::RpcError { code, message } => defects.push((
            "protocol-error",
            format!(
                "{s} → JSON-RPC error {code} (\"{}\"), a protocol error instead of an isError result",
                untrusted::value(message)
            ),
        )),
        Answer::NoAnswer { why } => defects.push((
            "no-answer",
            format!("{s} → no answer ({why}): the server hangs or fails on bad arguments"),
        )),
    }
    looked_in(defects, clean, context)
}

/// The dialects a schema may name, with the meta-schema the validator bundles.
const DIALECTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-04/schema",
];

fn network_refs(v: &Json, out: &mut Vec<String>) {
    match v {
        Json::Object(m) => {
            if let Some(Json::String(r)) = m.get("$ref") {
                if r.starts_with("http://") || r.starts_with("https://") {
                    out.push(r.clone());
                }
            }
            m.values().for_each(|x| network_refs(x, out));
        }
        Json::Array(a) => a.iter().for_each(|x| network_refs(x, out)),
        _ => {}
    }
}

pub fn dialect(obs: &Observation) -> Seen {
    if let Some(s) = no_tools(obs) {
        return s;
    }
    let mut defects = Vec::new();
    let mut checked = 0;
    for t in &obs.tools.items {
        for key in ["inputSchema", "outputSchema"] {
            let Some(schema) = t.get(key) else { continue };
            let n = name(t);
            let mut refs = Vec::new();
            network_refs(schema, &mut refs);
            for r in refs {
                defects.push((
                    "network-ref",
                    format!(
                        "tool `{n}`: `{key}` refers to `{}` on the network",
                        untrusted::value(&r)
                    ),
                ));
            }
            let named = schema.get("$schema").and_then(Json::as_str);
            let known = named.is_none_or(|d| DIALECTS.contains(&d.trim_end_matches('#')));
            if !known {
                defects.push((
                    "unknown-dialect",
                    format!(
                        "tool `{n}`: `{key}` names the dialect `{}`",
                        untrusted::value(named.unwrap_or(""))
                    ),
                ));
                continue;
            }
            // No `$schema` means 2020-12 (2026-07-28, JSON Schema usage).
            let mut as_declared = schema.clone();
            if named.is_none() {
                if let Json::Object(m) = &mut as_declared {
                    m.insert("$schema".into(), Json::String(DIALECTS[0].into()));
                }
            }
            checked += 1;
            if let Err(e) = jsonschema::meta::validate(&as_declared) {
                defects.push((
                    "invalid-schema",
                    format!(
                        "tool `{n}`: `{key}` is not a valid JSON Schema of {}: {} at `{}`",
                        named.unwrap_or("2020-12 (no `$schema`)"),
                        untrusted::value(&e.to_string()),
                        e.instance_path()
                    ),
                ));
            }
        }
    }
    looked_in(
        defects,
        vec![],
        vec![format!(
            "tools/list: {checked} input and output schema(s) of {} tools read under their dialect (2020-12 where none is named)",
            obs.tools.items.len()
        )],
    )
}

/// An HTTP header name: a token (RFC 9110 section 5.1).
fn token(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// Every `x-mcp-header` in a schema with the path to it, and whether that path is a chain of
/// `properties` (statically reachable) ending at a primitive.
fn headers_in(
    v: &Json,
    path: &mut Vec<String>,
    reachable: bool,
    out: &mut Vec<(String, Json, bool)>,
) {
    let Json::Object(m) = v else {
        if let Json::Array(a) = v {
            for (i, x) in a.iter().enumerate() {
                path.push(i.to_string());
                headers_in(x, path, false, out);
                path.pop();
            }
        }
        return;
    };
    if let Some(h) = m.get("x-mcp-header") {
        let primitive = matches!(
            m.get("type").and_then(Json::as_str),
            Some("string" | "integer" | "number" | "boolean")
        );
        out.push((path.join("/"), h.clone(), reachable && primitive));
    }
    for (k, x) in m {
        if k == "x-mcp-header" {
            continue;
        }
        if k == "properties" {
            if let Json::Object(props) = x {
                for (p, sub) in props {
                    path.push(format!("properties/{p}"));
                    headers_in(sub, path, reachable, out);
                    path.pop();
                }
            }
            continue;
        }
        path.push(k.clone());
        headers_in(x, path, false, out);
        path.pop();
    }
}

pub fn param_headers(obs: &Observation) -> Seen {
    if let Some(s) = no_tools(obs) {
        return s;
    }
    let mut defects = Vec::new();
    let mut count = 0;
    for t in &obs.tools.items {
        let Some(schema) = t.get("inputSchema") else {
            continue;
        };
        let mut found = Vec::new();
        headers_in(schema, &mut Vec::new(), true, &mut found);
        let n = name(t);
        let mut lower: BTreeMap<String, String> = BTreeMap::new();
        for (path, h, ok) in found {
            count += 1;
            let text = h.as_str().unwrap_or("");
            let at = untrusted::value(&path);
            if !token(text) {
                defects.push((
                    "bad-header-name",
                    format!(
                        "tool `{n}`: `x-mcp-header` {} at `{at}` is not a header name",
                        untrusted::json(&h, 80)
                    ),
                ));
                continue;
            }
            if let Some(other) = lower.insert(text.to_ascii_lowercase(), text.to_string()) {
                defects.push((
                    "duplicate-header",
                    format!("tool `{n}`: `x-mcp-header` `{}` repeats `{}` (header names are case-insensitive)", untrusted::value(text), untrusted::value(&other)),
                ));
            }
            if !ok {
                defects.push((
                    "not-primitive",
                    format!("tool `{n}`: `x-mcp-header` `{}` at `{at}` is not on a primitive parameter reachable through `properties`", untrusted::value(text)),
                ));
            }
        }
    }
    looked_in(
        defects,
        vec![],
        vec![format!(
            "tools/list: {count} `x-mcp-header` annotation(s) in the input schemas of {} tools",
            obs.tools.items.len()
        )],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_placeholders_and_restatements() {
        assert_eq!(style("search_records"), Style::Snake);
        assert_eq!(style("getRecordCount"), Style::Camel);
        assert_eq!(style("echo"), Style::Neutral);
        assert_eq!(style("get-tiny-image"), Style::Kebab);
        assert_eq!(style("GetRecords"), Style::Other);
        assert_eq!(style("records.count_all"), Style::Snake);
        assert_eq!(style("records.count"), Style::Neutral);
        let list: Vec<String> = PLACEHOLDERS.iter().map(|s| s.to_string()).collect();
        assert!(placeholder("tool1", &list));
        assert!(placeholder("helper", &list));
        assert!(placeholder("misc_2", &list));
        assert!(!placeholder("search_tools", &list));
        assert!(restates("get_record", "Get record"));
        assert!(!restates("get_record", "Get one record by its id"));
    }
}
