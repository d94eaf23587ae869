//! The tools that read the catalogue: search, one check, a diagnostic code, the rule table,
//! a neighbourhood of the reference graph.

use super::state::State;
use super::tool::{self, args, output, Def, Done, Refusal, READ_ONLY};
use crate::graph::{EdgeKind, Node};
use crate::model::{fields, Check, RefKind};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// The most checks one search returns unless the call asks for fewer.
const SEARCH_LIMIT: usize = 50;

pub fn defs() -> Vec<Def> {
    vec![
        Def {
            name: "search_checks",
            title: "Search checks",
            description: "Find checks of the loaded catalogue by a `where` expression over their fields (the language of `auditbook list --where`, e.g. `severity == \"critical\" and category == \"SEC\"`) and/or words that must all occur in a check's id, title or text. Returns the matching checks in id order with their main fields.",
            hints: READ_ONLY,
            input: tool::schema_of::<SearchArgs>,
            output: || {
                output(
                    json!({
                        "count": {"type": "integer"},
                        "truncated": {"type": "boolean"},
                        "checks": {"type": "array", "items": {"type": "object"}},
                    }),
                    &["count", "truncated", "checks"],
                )
            },
            run: search,
        },
        Def {
            name: "show_check",
            title: "Show one check",
            description: "One check by id: its effective fields, sections, pass criteria, links and mentions, the rules that cover it and who refers to it. A retired id answers with its successor.",
            hints: READ_ONLY,
            input: tool::schema_of::<IdArgs>,
            output: || {
                output(
                    json!({
                        "id": {"type": "string"},
                        "retired": {"type": "boolean"},
                        "check": {"type": ["object", "null"]},
                        "sections": {"type": "array"},
                        "pass_criteria": {"type": "array"},
                        "links": {"type": "array"},
                        "mentions": {"type": "array"},
                        "rules": {"type": "array"},
                        "incoming": {"type": "array"},
                        "successor": {"type": ["string", "null"]},
                    }),
                    &["id", "retired"],
                )
            },
            run: show,
        },
        Def {
            name: "explain_code",
            title: "Explain a diagnostic code",
            description: "A diagnostic code of auditbook (`AB212`, or its name such as `link-to-retired-check`) at length: level, summary, what to do about it, since which version, and the explanation's paragraphs.",
            hints: READ_ONLY,
            input: tool::schema_of::<CodeArgs>,
            output: || {
                output(
                    json!({
                        "code": {"type": "string"},
                        "name": {"type": "string"},
                        "level": {"type": "string"},
                        "summary": {"type": "string"},
                        "help": {"type": "string"},
                        "since": {"type": ["string", "null"]},
                        "explanation": {"type": "array", "items": {"type": "string"}},
                    }),
                    &["code", "name", "level", "summary", "help", "explanation"],
                )
            },
            run: explain,
        },
        Def {
            name: "rules_table",
            title: "Rule table",
            description: "The catalogue's rule table (which rules cover which checks), as Markdown and as data; `category` or `where` narrows the checks it shows.",
            hints: READ_ONLY,
            input: tool::schema_of::<TableArgs>,
            output: || {
                output(
                    json!({
                        "markdown": {"type": "string"},
                        "data": {"type": "object"},
                    }),
                    &["markdown", "data"],
                )
            },
            run: rules_table,
        },
        Def {
            name: "graph_neighbourhood",
            title: "Graph neighbourhood",
            description: "The part of the catalogue's reference graph within `depth` steps (default 1) of a check, rule, retired id or document: its nodes and the links between them.",
            hints: READ_ONLY,
            input: tool::schema_of::<GraphArgs>,
            output: || {
                output(
                    json!({
                        "focus": {"type": "object"},
                        "depth": {"type": "integer"},
                        "nodes": {"type": "array"},
                        "edges": {"type": "array"},
                    }),
                    &["focus", "depth", "nodes", "edges"],
                )
            },
            run: graph,
        },
    ]
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    /// A `where` expression over check fields, as `auditbook list --where` takes it
    #[serde(rename = "where")]
    expr: Option<String>,
    /// Words that must all occur (any case) in a check's id, title or text
    text: Option<String>,
    /// The most checks returned (default 50)
    limit: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct IdArgs {
    /// A check id of the catalogue, e.g. `SEC-001`
    id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CodeArgs {
    /// A code (`AB212`, any case) or its name (`link-to-retired-check`)
    code: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TableArgs {
    /// Only the checks of this category prefix, e.g. `SEC`
    category: Option<String>,
    /// Only the checks this `where` expression selects
    #[serde(rename = "where")]
    expr: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GraphArgs {
    /// A check id, rule name, retired id or document path of the catalogue
    id: String,
    /// How many steps from it (default 1, at most 5)
    depth: Option<usize>,
}

/// A check in a list: the fields a reader chooses by.
pub fn summary(c: &Check) -> Value {
    json!({
        "id": c.id.as_str(),
        "title": c.title,
        "category": c.category.as_str(),
        "severity": c.severity.as_str(),
        "adoption": fields::json(c).get("adoption").cloned().unwrap_or(Value::Null),
        "applies_when": c.applies_when.as_str(),
    })
}

/// A `where` expression's findings as one sentence.
pub fn where_refusal(src: &str, diags: &[crate::diag::Diagnostic]) -> Refusal {
    let why: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
    Refusal::new(
        format!("the `where` expression `{src}` is not valid: {}", why.join("; ")),
        "write it as `auditbook list --where` takes it, e.g. `severity == \"high\"` or `category == \"SEC\" and adoption == \"enforced\"`; field names are those `show_check` returns under `check`",
    )
}

fn search(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: SearchArgs = args("search_checks", v)?;
    let cat = state.catalogue();
    let mut checks = match a.expr.as_deref().filter(|s| !s.trim().is_empty()) {
        None => cat.checks_by_id(),
        Some(src) => {
            let expr =
                crate::select::compile(cat, src, "where").map_err(|d| where_refusal(src, &d))?;
            crate::select::select(cat, &expr)
                .map_err(|d| where_refusal(src, std::slice::from_ref(&d)))?
        }
    };
    if let Some(text) = a.text.as_deref() {
        let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
        checks.retain(|c| {
            let text = state.searchable(&c.id);
            words.iter().all(|w| text.contains(w.as_str()))
        });
    }
    let limit = a.limit.unwrap_or(SEARCH_LIMIT);
    let count = checks.len();
    let shown: Vec<Value> = checks.iter().take(limit).map(|c| summary(c)).collect();
    Ok(Done::value(json!({
        "count": count,
        "truncated": count > shown.len(),
        "checks": shown,
    })))
}

/// A check's effective fields as JSON, with its extra fields, defaulted fields and file.
pub fn effective(c: &Check) -> Value {
    let mut v = fields::json(c);
    v.insert("extra".into(), json!(c.extra()));
    v.insert("defaulted".into(), json!(c.defaulted()));
    v.insert("file".into(), json!(c.file.as_str()));
    Value::Object(v)
}

/// A refusal for an id the catalogue does not have, with the nearest one.
pub fn unknown_check(state: &State, id: &str) -> Refusal {
    let cat = state.catalogue();
    let near = crate::text::suggest::did_you_mean(id, cat.checks.iter().map(|c| c.id.as_str()));
    Refusal::new(
        format!("no check `{id}` in this catalogue"),
        match near {
            Some(s) => format!("{s}; `search_checks` lists the ids"),
            None => "`search_checks` lists the ids".to_string(),
        },
    )
}

fn show(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: IdArgs = args("show_check", v)?;
    let cat = state.catalogue();
    let graph = state.session.graph();
    let Some(c) = cat.check(&a.id) else {
        if cat.retired(&a.id).is_some() {
            let successor = match graph.successor(&a.id) {
                crate::graph::Successor::Live(s) => Some(s),
                _ => None,
            };
            return Ok(Done::value(json!({
                "id": a.id,
                "retired": true,
                "check": null,
                "successor": successor,
            })));
        }
        return Err(unknown_check(state, &a.id));
    };
    let incoming: Vec<Value> = graph
        .incoming(&Node::Check(c.id.as_str().into()))
        .iter()
        .filter(|l| l.kind != EdgeKind::Covers)
        .map(|l| {
            json!({
                "from": l.from.key(),
                "from_kind": l.from.kind(),
                "kind": match l.kind {
                    EdgeKind::Links => "link",
                    EdgeKind::Mentions => "mention",
                    other => other.as_str(),
                },
                "file": l.file,
                "line": l.line,
            })
        })
        .collect();
    Ok(Done::value(json!({
        "id": c.id.as_str(),
        "retired": false,
        "check": effective(c),
        "sections": c.sections.iter().map(|s| json!({"title": s.title, "line": s.line})).collect::<Vec<_>>(),
        "pass_criteria": c.pass_criteria,
        "links": c.outgoing(RefKind::Link),
        "mentions": c.outgoing(RefKind::Mention),
        "rules": graph.covering_rules(&c.id),
        "incoming": incoming,
        "successor": null,
    })))
}

fn explain(_state: &State, v: Value) -> Result<Done, Refusal> {
    use crate::diag::{explain, CODES};
    let a: CodeArgs = args("explain_code", v)?;
    let wanted = a.code.trim();
    let Some(code) = CODES
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(wanted) || c.name == wanted)
    else {
        let nearest = CODES
            .iter()
            .map(|c| {
                let by_code = strsim_like(&c.code.to_lowercase(), &wanted.to_lowercase());
                let by_name = strsim_like(c.name, wanted);
                (by_code.min(by_name), *c)
            })
            .min_by_key(|(d, c)| (*d, c.code));
        let fix = match nearest {
            Some((d, c)) if d <= 3 => format!("did you mean {} `{}`?", c.code, c.name),
            _ => "give a code such as `AB212` or a name such as `link-to-retired-check`; docs/lint-codes.md lists every code".to_string(),
        };
        return Err(Refusal::new(format!("no diagnostic code `{wanted}`"), fix));
    };
    let e = explain::lookup(code.code);
    Ok(Done::value(json!({
        "code": code.code,
        "name": code.name,
        "level": code.level,
        "summary": code.summary,
        "help": code.help,
        "since": e.map(|e| e.since),
        "explanation": e.map(|e| e.paragraphs().collect::<Vec<_>>()).unwrap_or_default(),
    })))
}

/// Edit distance, for the nearest code's hint.
fn strsim_like(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

fn rules_table(state: &State, v: Value) -> Result<Done, Refusal> {
    use crate::render::tables;
    let a: TableArgs = args("rules_table", v)?;
    let mut targs = tables::Args::new();
    if let Some(c) = a.category {
        targs.insert("category".into(), c);
    }
    if let Some(w) = a.expr {
        targs.insert("where".into(), w);
    }
    let fix = "give `category` as a category prefix of the catalogue (e.g. `SEC`) and `where` as `search_checks` takes it, or leave both out";
    let cat = state.catalogue();
    let data = tables::data(cat, "rules-table", &targs).map_err(|e| Refusal::new(e, fix))?;
    let markdown = tables::render(&state.templates, cat, "rules-table", &targs, "md")
        .map_err(|e| Refusal::new(e, fix))?;
    Ok(Done {
        value: json!({"markdown": markdown, "data": data}),
        text: Some(markdown),
    })
}

/// The deepest neighbourhood served: a catalogue is small-world, five steps is all of it.
const MAX_DEPTH: usize = 5;

fn graph(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: GraphArgs = args("graph_neighbourhood", v)?;
    let depth = a.depth.unwrap_or(1);
    if depth > MAX_DEPTH {
        return Err(Refusal::new(
            format!("depth {depth} is more than {MAX_DEPTH}"),
            format!("give a depth from 0 to {MAX_DEPTH}"),
        ));
    }
    let g = state.session.graph();
    let id = a.id.as_str();
    let candidates = [
        Node::Check(id.into()),
        Node::Rule(id.into()),
        Node::Retired(id.into()),
        Node::Document(id.into()),
    ];
    let Some(focus) = candidates.into_iter().find(|n| g.find(n).is_some()) else {
        return Err(Refusal::new(
            format!("`{id}` is not a check, rule, retired id or document of this catalogue"),
            "give a check id (`search_checks` lists them), a rule name as `rules_table` shows it, or a retired id",
        ));
    };
    let text = crate::render::graph_export::json(g, Some(&focus), depth).map_err(|e| {
        Refusal::new(
            format!("the graph cannot be written: {e}"),
            "retry with a smaller depth",
        )
    })?;
    let parsed: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    Ok(Done::value(json!({
        "focus": {"kind": focus.kind(), "id": focus.key()},
        "depth": depth,
        "nodes": parsed.get("nodes").cloned().unwrap_or_else(|| json!([])),
        "edges": parsed.get("edges").cloned().unwrap_or_else(|| json!([])),
    })))
}
