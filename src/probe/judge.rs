//! Judging an observation with one probe: a decision and the observations it rests on, each
//! quoting what the server showed (tool name, the offending field, the response excerpt).
//! A probe that had nothing to look at decides nothing: it never reads as clean.

use super::lock::Drift;
use super::observe::{Answer, Observation};
use crate::model::probe::{Kind, ProbeSpec};
use serde_json::Value as Json;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The probe looked and found nothing wrong.
    Clean,
    /// The probe found a defect.
    Defect,
    /// The probe could not look (nothing to see, wrong transport, no answer).
    Undecided,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    pub kind: Kind,
    pub decision: Decision,
    /// What was observed, one line each; defects first.
    pub lines: Vec<String>,
}

fn outcome(kind: Kind, defects: Vec<String>, clean: Vec<String>) -> Outcome {
    if defects.is_empty() {
        Outcome {
            kind,
            decision: Decision::Clean,
            lines: clean,
        }
    } else {
        Outcome {
            kind,
            decision: Decision::Defect,
            lines: defects,
        }
    }
}

fn undecided(kind: Kind, why: impl Into<String>) -> Outcome {
    Outcome {
        kind,
        decision: Decision::Undecided,
        lines: vec![why.into()],
    }
}

fn name(t: &Json) -> &str {
    t.get("name").and_then(Json::as_str).unwrap_or("")
}

/// Judge `obs` with `spec`. `drift` is the comparison with the lock file, when there is one.
pub fn judge(spec: &ProbeSpec, obs: &Observation, drift: Option<&Drift>) -> Outcome {
    let kind = spec.kind;
    if !obs.reached() {
        let why = obs
            .reach
            .as_ref()
            .map(|r| r.describe())
            .unwrap_or_else(|| "the server was not probed".into());
        return undecided(kind, format!("{}: {why}; nothing was observed", obs.target));
    }
    let needs_tools = matches!(
        kind,
        Kind::ToolNames | Kind::ToolAnnotations | Kind::ToolDescriptions | Kind::OutputSchema
    );
    if needs_tools && obs.tools.is_empty() {
        let notes = if obs.listing_notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", obs.listing_notes.join("; "))
        };
        return undecided(
            kind,
            format!("tools/list returned no tools{notes}; nothing to judge"),
        );
    }
    match kind {
        Kind::ToolNames => tool_names(spec, obs),
        Kind::ToolAnnotations => annotations(spec, obs),
        Kind::ToolDescriptions => descriptions(spec, obs),
        Kind::OutputSchema => output_schema(spec, obs),
        Kind::ToolErrors => tool_errors(obs),
        Kind::ProtocolVersion => protocol_version(spec, obs),
        Kind::HttpOrigin => http_origin(obs),
        Kind::HttpVersionHeader => http_version_header(obs),
        Kind::ToolDrift => tool_drift(drift),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Style {
    Snake,
    Camel,
    Kebab,
    Pascal,
    /// One lowercase word: fits every style.
    Neutral,
    Other,
}

fn style(n: &str) -> Style {
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
    } else if n.chars().all(|c| c.is_ascii_alphanumeric()) {
        if n.starts_with(|c: char| c.is_ascii_lowercase()) {
            Style::Camel
        } else {
            Style::Pascal
        }
    } else {
        Style::Other
    }
}

fn style_name(s: Style) -> &'static str {
    match s {
        Style::Snake => "snake_case",
        Style::Camel => "camelCase",
        Style::Kebab => "kebab-case",
        Style::Pascal => "PascalCase",
        Style::Neutral => "one lowercase word",
        Style::Other => "no single style",
    }
}

fn tool_names(spec: &ProbeSpec, obs: &Observation) -> Outcome {
    let max = spec.count("max_length", 128) as usize;
    let no_dots = spec.flag("no_dots", true);
    let pattern = spec.text("pattern").and_then(|p| regex::Regex::new(p).ok());
    let names: Vec<&str> = obs.tools.iter().map(name).collect();
    let mut defects = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for n in &names {
        if !seen.insert(*n) {
            defects.push(format!("tool `{n}` is listed twice"));
        }
        if n.is_empty() {
            defects.push("a tool has an empty name".into());
        }
        if n.chars().count() > max {
            defects.push(format!(
                "tool `{n}`: the name is longer than {max} characters"
            ));
        }
        if let Some(c) = n
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        {
            defects.push(format!(
                "tool `{n}`: the name contains `{c}`, outside A-Z a-z 0-9 _ - ."
            ));
        }
        if no_dots && n.contains('.') {
            defects.push(format!("tool `{n}`: the name contains a dot"));
        }
    }
    let clean_line;
    if let Some(re) = &pattern {
        for n in &names {
            if !re.is_match(n) {
                defects.push(format!(
                    "tool `{n}`: the name does not match `{}`",
                    re.as_str()
                ));
            }
        }
        clean_line = format!(
            "tools/list: all {} tool names match `{}` ({})",
            names.len(),
            re.as_str(),
            names.join(", ")
        );
    } else {
        // The scheme is the one most names follow; the rest are the finding.
        let mut counts: std::collections::BTreeMap<Style, usize> = Default::default();
        for n in &names {
            let s = style(n);
            if s != Style::Neutral {
                *counts.entry(s).or_default() += 1;
            }
        }
        let main = counts
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(s, _)| *s);
        if let Some(main) = main {
            for n in &names {
                let s = style(n);
                if s != Style::Neutral && s != main {
                    defects.push(format!(
                        "tool `{n}`: {} among {} names ({} of {} tools are {})",
                        style_name(s),
                        style_name(main),
                        counts.get(&main).copied().unwrap_or(0),
                        names.len(),
                        style_name(main)
                    ));
                }
            }
        }
        clean_line = format!(
            "tools/list: all {} tool names follow one scheme ({}): {}",
            names.len(),
            main.map(style_name).unwrap_or("one lowercase word each"),
            names.join(", ")
        );
    }
    outcome(Kind::ToolNames, defects, vec![clean_line])
}

const READ_VERBS: &[&str] = &[
    "get", "list", "search", "find", "fetch", "read", "query", "describe", "show", "lookup",
    "count", "check", "view",
];
const WRITE_VERBS: &[&str] = &[
    "create", "add", "insert", "update", "set", "put", "post", "write", "delete", "remove", "drop",
    "send", "upload", "replace", "patch", "move", "rename",
];
const HINTS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// The leading verb of a tool name in any style (`get_x`, `getX`, `get-x`).
fn leading_word(n: &str) -> String {
    n.split(['_', '-', '.'])
        .next()
        .unwrap_or("")
        .chars()
        .enumerate()
        .take_while(|(i, c)| *i == 0 || !c.is_ascii_uppercase())
        .map(|(_, c)| c.to_ascii_lowercase())
        .collect()
}

fn annotations(spec: &ProbeSpec, obs: &Observation) -> Outcome {
    let hints = spec.list("hints", HINTS);
    let reads = spec.list("read_verbs", READ_VERBS);
    let writes = spec.list("write_verbs", WRITE_VERBS);
    let mut defects = Vec::new();
    let mut clean = Vec::new();
    for t in &obs.tools {
        let n = name(t);
        let ann = t.get("annotations").and_then(Json::as_object);
        let Some(ann) = ann else {
            defects.push(format!("tool `{n}`: no `annotations` in its definition"));
            continue;
        };
        let missing: Vec<&str> = hints
            .iter()
            .filter(|h| !matches!(ann.get(h.as_str()), Some(Json::Bool(_))))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            defects.push(format!(
                "tool `{n}`: annotations leave {} unset",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let flag = |k: &str| ann.get(k).and_then(Json::as_bool);
        let verb = leading_word(n);
        if flag("readOnlyHint") == Some(true) && flag("destructiveHint") == Some(true) {
            defects.push(format!(
                "tool `{n}`: `readOnlyHint: true` together with `destructiveHint: true`"
            ));
        }
        if reads.contains(&verb) && flag("destructiveHint") == Some(true) {
            defects.push(format!(
                "tool `{n}`: a read verb (`{verb}`) with `destructiveHint: true`"
            ));
        }
        if writes.contains(&verb) && flag("readOnlyHint") == Some(true) {
            defects.push(format!(
                "tool `{n}`: a write verb (`{verb}`) with `readOnlyHint: true`"
            ));
        }
        let set: Vec<String> = hints
            .iter()
            .filter_map(|h| flag(h).map(|v| format!("{h}: {v}")))
            .collect();
        clean.push(format!("tool `{n}`: annotations {{{}}}", set.join(", ")));
    }
    outcome(Kind::ToolAnnotations, defects, clean)
}

fn descriptions(spec: &ProbeSpec, obs: &Observation) -> Outcome {
    let min = spec.count("min_length", 20) as usize;
    let median_min = spec.count("median_length", 100) as usize;
    let mut defects = Vec::new();
    let mut lengths = Vec::new();
    for t in &obs.tools {
        let n = name(t);
        let d = t
            .get("description")
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim();
        let len = d.chars().count();
        lengths.push(len);
        if d.is_empty() {
            defects.push(format!("tool `{n}`: no description"));
        } else if d.eq_ignore_ascii_case(n) || d.split_whitespace().count() < 2 {
            defects.push(format!(
                "tool `{n}`: the description \"{d}\" only restates a word"
            ));
        } else if len < min {
            defects.push(format!(
                "tool `{n}`: the description has {len} characters (at least {min}): \"{d}\""
            ));
        }
    }
    lengths.sort_unstable();
    let median = lengths.get(lengths.len() / 2).copied().unwrap_or(0);
    if median < median_min {
        defects.push(format!(
            "tools/list: the median description has {median} characters (at least {median_min})"
        ));
    }
    let clean = vec![format!(
        "tools/list: {} descriptions, shortest {} characters, median {median}",
        lengths.len(),
        lengths.first().copied().unwrap_or(0)
    )];
    outcome(Kind::ToolDescriptions, defects, clean)
}

fn output_schema(spec: &ProbeSpec, obs: &Observation) -> Outcome {
    let require = spec.flag("require", true);
    let mut defects = Vec::new();
    let mut clean = Vec::new();
    for t in &obs.tools {
        if t.get("outputSchema").is_none() && require {
            defects.push(format!("tool `{}`: no `outputSchema` declared", name(t)));
        }
    }
    let mut validated = 0;
    for c in &obs.samples {
        let schema = obs
            .tools
            .iter()
            .find(|t| name(t) == c.tool)
            .and_then(|t| t.get("outputSchema"));
        let (Some(schema), Answer::Result { value }) = (schema, &c.answer) else {
            continue;
        };
        if value.get("isError") == Some(&Json::Bool(true)) {
            clean.push(format!(
                "tool `{}` called with {}: an isError result, nothing to validate",
                c.tool, c.arguments
            ));
            continue;
        }
        let Some(content) = value.get("structuredContent") else {
            defects.push(format!(
                "tool `{}` called with {}: it declares `outputSchema` but returned no `structuredContent`",
                c.tool, c.arguments
            ));
            continue;
        };
        match jsonschema::validator_for(schema) {
            Err(e) => defects.push(format!(
                "tool `{}`: its `outputSchema` is not a valid JSON Schema ({e})",
                c.tool
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
                        "tool `{}` called with {}: `structuredContent` validates against its `outputSchema`",
                        c.tool, c.arguments
                    ));
                } else {
                    defects.push(format!(
                        "tool `{}` called with {}: `structuredContent` {} does not match its `outputSchema`: {}",
                        c.tool,
                        c.arguments,
                        super::observe::excerpt(&content.to_string(), 120),
                        errors.join("; ")
                    ));
                }
            }
        }
    }
    if defects.is_empty() && validated == 0 && require {
        let mut why = vec![
            "every tool declares `outputSchema`, but no `structuredContent` could be sampled"
                .to_string(),
        ];
        why.extend(obs.not_called.iter().cloned());
        return Outcome {
            kind: Kind::OutputSchema,
            decision: Decision::Undecided,
            lines: why,
        };
    }
    outcome(Kind::OutputSchema, defects, clean)
}

fn tool_errors(obs: &Observation) -> Outcome {
    let Some(c) = &obs.bad_call else {
        let mut lines =
            vec!["no tool could be called with arguments that break its input schema".to_string()];
        lines.extend(obs.not_called.iter().cloned());
        return Outcome {
            kind: Kind::ToolErrors,
            decision: Decision::Undecided,
            lines,
        };
    };
    let sent = format!("tools/call `{}` with {}", c.tool, c.arguments);
    match &c.answer {
        Answer::Result { value } => {
            let is_error = value.get("isError") == Some(&Json::Bool(true));
            let text: String = value
                .get("content")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .filter_map(|b| b.get("text").and_then(Json::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            let quoted = super::observe::excerpt(&text, 160);
            if is_error && !text.trim().is_empty() {
                outcome(
                    Kind::ToolErrors,
                    vec![],
                    vec![format!("{sent} → isError result: \"{quoted}\"")],
                )
            } else if is_error {
                outcome(
                    Kind::ToolErrors,
                    vec![format!("{sent} → isError result without a message")],
                    vec![],
                )
            } else {
                outcome(
                    Kind::ToolErrors,
                    vec![format!(
                        "{sent} → an ordinary result, not flagged isError: \"{quoted}\""
                    )],
                    vec![],
                )
            }
        }
        // Method not found says nothing about how errors are reported.
        Answer::RpcError { code: -32601, message } => undecided(
            Kind::ToolErrors,
            format!("{sent} → JSON-RPC -32601 ({message}); not evidence either way"),
        ),
        Answer::RpcError { code, message } => outcome(
            Kind::ToolErrors,
            vec![format!(
                "{sent} → JSON-RPC error {code} (\"{}\"), a protocol error instead of an isError result",
                super::observe::excerpt(message, 160)
            )],
            vec![],
        ),
        Answer::NoAnswer { why } => outcome(
            Kind::ToolErrors,
            vec![format!("{sent} → no answer ({why}): the server hangs or fails on bad arguments")],
            vec![],
        ),
    }
}

fn protocol_version(spec: &ProbeSpec, obs: &Observation) -> Outcome {
    let newest = spec.text("newest").unwrap_or(super::observe::NEWEST);
    let legacy = spec.text("legacy").unwrap_or(super::observe::LEGACY);
    let answered = |asked: &str| {
        obs.openings
            .iter()
            .find(|o| o.asked == asked)
            .map(|o| o.answered.clone())
    };
    let line = |asked: &str| match answered(asked) {
        Some(Ok(v)) => {
            format!("initialize as a {asked} client → the server answered protocolVersion {v}")
        }
        Some(Err(e)) => format!("initialize as a {asked} client → {e}"),
        None => format!("initialize as a {asked} client → not tried"),
    };
    let lines = vec![line(newest), line(legacy)];
    let serves_newest = answered(newest) == Some(Ok(newest.to_string()));
    let serves_legacy = answered(legacy) == Some(Ok(legacy.to_string()));
    let mut lines_out = lines.clone();
    if serves_newest && serves_legacy {
        lines_out.push(format!("serves both {newest} and {legacy}"));
        outcome(Kind::ProtocolVersion, vec![], lines_out)
    } else if serves_newest {
        lines_out.push(format!("serves {newest}; refuses the legacy client"));
        outcome(Kind::ProtocolVersion, vec![], lines_out)
    } else if serves_legacy {
        let mut d = lines;
        d.push(format!("legacy only: serves {legacy}, not {newest}"));
        outcome(Kind::ProtocolVersion, d, vec![])
    } else {
        let mut d = lines;
        d.push(format!("negotiates neither {newest} nor {legacy}"));
        outcome(Kind::ProtocolVersion, d, vec![])
    }
}

fn http_origin(obs: &Observation) -> Outcome {
    let Some(h) = &obs.http_probes else {
        return undecided(
            Kind::HttpOrigin,
            "a stdio target: the Origin probe needs a Streamable HTTP URL",
        );
    };
    let Some(x) = &h.foreign_origin else {
        return undecided(Kind::HttpOrigin, "the foreign-Origin request was not sent");
    };
    if x.failure.is_some() {
        return undecided(Kind::HttpOrigin, x.shown());
    }
    let control = h.control.as_ref().map(|c| c.shown()).unwrap_or_default();
    if (200..300).contains(&x.status) {
        outcome(
            Kind::HttpOrigin,
            vec![
                format!("{} — a foreign Origin is accepted", x.shown()),
                control,
            ],
            vec![],
        )
    } else if (400..500).contains(&x.status) {
        outcome(
            Kind::HttpOrigin,
            vec![],
            vec![format!("{} — refused", x.shown()), control],
        )
    } else {
        undecided(Kind::HttpOrigin, x.shown())
    }
}

fn http_version_header(obs: &Observation) -> Outcome {
    let Some(h) = &obs.http_probes else {
        return undecided(
            Kind::HttpVersionHeader,
            "a stdio target: the MCP-Protocol-Version probe needs a Streamable HTTP URL",
        );
    };
    let Some(x) = &h.bogus_version else {
        return undecided(Kind::HttpVersionHeader, "the request was not sent");
    };
    match x.status {
        0 => undecided(Kind::HttpVersionHeader, x.shown()),
        400 => outcome(
            Kind::HttpVersionHeader,
            vec![],
            vec![format!("{} — as required", x.shown())],
        ),
        s => outcome(
            Kind::HttpVersionHeader,
            vec![format!("{} — expected HTTP 400, got {s}", x.shown())],
            vec![],
        ),
    }
}

fn tool_drift(drift: Option<&Drift>) -> Outcome {
    let Some(d) = drift else {
        return undecided(
            Kind::ToolDrift,
            "no lock file to compare with; `auditbook probe --lock` records one",
        );
    };
    if d.changes.is_empty() {
        outcome(
            Kind::ToolDrift,
            vec![],
            vec![format!(
                "definitions equal the lock file `{}` ({} definitions, {})",
                d.lock_file, d.compared, d.locked_digest
            )],
        )
    } else {
        outcome(
            Kind::ToolDrift,
            d.changes
                .iter()
                .map(|c| format!("{c} since the lock file `{}`", d.lock_file))
                .collect(),
            vec![],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_and_verbs() {
        assert_eq!(style("search_records"), Style::Snake);
        assert_eq!(style("getRecordCount"), Style::Camel);
        assert_eq!(style("echo"), Style::Neutral);
        assert_eq!(style("get-tiny-image"), Style::Kebab);
        assert_eq!(leading_word("getRecordCount"), "get");
        assert_eq!(leading_word("delete_file"), "delete");
    }
}
