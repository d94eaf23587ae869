//! Reference findings, read off the graph's edges: a link must reach a live check, a mention
//! of an unknown id is suspicious, a retired id is history (named with its live successor),
//! and a rule may only cover live checks.

use crate::diag::{codes, Diagnostic, Level};
use crate::graph::{EdgeKind, Graph, Link, Node, Successor};
use crate::model::Catalogue;

/// Findings for every edge whose source `from` passes `include` (lint: checks and rules;
/// verify: documents).
pub fn findings(
    cat: &Catalogue,
    graph: &Graph,
    include: &dyn Fn(&Node) -> bool,
) -> Vec<Diagnostic> {
    // Only edges into retired or unknown ids can yield a finding.
    let suspect = |l: &Link<'_>| matches!(l.to, Node::Retired(_) | Node::Missing(_));
    graph
        .links_where(|l| suspect(l) && include(l.from))
        .into_iter()
        .filter_map(|l| judge(cat, graph, &l))
        .collect()
}

/// "… and merged into `X`" — the live end of the retired id's chain, if there is one.
pub fn successor_phrase(cat: &Catalogue, graph: &Graph, id: &str) -> (String, Option<String>) {
    let date = cat
        .retired(id)
        .map(|r| r.retired.clone())
        .unwrap_or_default();
    let verb = match cat.retired(id) {
        Some(r) if r.replaced_by.is_some() => "replaced by",
        _ => "merged into",
    };
    match graph.successor(id) {
        Successor::Live(s) => (format!("retired on {date} and {verb} `{s}`"), Some(s)),
        _ => (format!("retired on {date}"), None),
    }
}

fn judge(cat: &Catalogue, graph: &Graph, l: &Link<'_>) -> Option<Diagnostic> {
    let id = l.to.key();
    let here = |code, msg: String| {
        Diagnostic::new(code, msg)
            .file(l.file)
            .at(l.line, l.column)
            .width(id.chars().count())
            .id(id)
    };
    let subject = match l.from {
        Node::Rule(r) => format!("rule `{r}`"),
        _ => String::new(),
    };
    match l.to {
        Node::Retired(_) => to_retired(cat, graph, l, &here, &subject),
        Node::Missing(_) => to_missing(cat, l, &here, &subject),
        _ => None,
    }
}

type At<'a> = dyn Fn(&'static crate::diag::Code, String) -> Diagnostic + 'a;

/// A link, mention or rule mapping to a retired id, with its successor.
fn to_retired(
    cat: &Catalogue,
    graph: &Graph,
    l: &Link<'_>,
    here: &At<'_>,
    subject: &str,
) -> Option<Diagnostic> {
    let id = l.to.key();
    match l.kind {
        EdgeKind::Links => {
            let (phrase, succ) = successor_phrase(cat, graph, id);
            Some(
                here(&codes::LINK_RETIRED, format!("link to `{id}`, {phrase}")).help(
                    succ.map(|s| format!("link `{s}` instead"))
                        .unwrap_or_else(|| codes::LINK_RETIRED.help.into()),
                ),
            )
        }
        EdgeKind::Mentions => {
            let (phrase, _) = successor_phrase(cat, graph, id);
            let level = match cat
                .config
                .lint
                .as_ref()
                .and_then(|l| l.retired_mentions.as_deref())
            {
                Some("error") => Level::Error,
                Some("warning") => Level::Warning,
                _ => Level::Note,
            };
            Some(
                here(
                    &codes::MENTION_RETIRED,
                    format!("mentions `{id}`, {phrase}"),
                )
                .level(level),
            )
        }
        EdgeKind::Covers => {
            let (phrase, succ) = successor_phrase(cat, graph, id);
            Some(
                here(
                    &codes::RULE_RETIRED_CHECK,
                    format!("{subject} maps to `{id}`, {phrase}"),
                )
                .help(
                    succ.map(|s| format!("map the rule to `{s}` instead"))
                        .unwrap_or_else(|| codes::RULE_RETIRED_CHECK.help.into()),
                ),
            )
        }
        _ => None,
    }
}

/// A link, mention or rule mapping to an id that is neither a check nor retired.
fn to_missing(cat: &Catalogue, l: &Link<'_>, here: &At<'_>, subject: &str) -> Option<Diagnostic> {
    let id = l.to.key();
    match l.kind {
        EdgeKind::Links => Some(
            here(
                &codes::LINK_UNKNOWN,
                format!(
                    "link to `{id}` ({}), but no such check exists",
                    link_url(cat, l).unwrap_or("")
                ),
            )
            .help(missing_help(id)),
        ),
        EdgeKind::Mentions => Some(
            here(
                &codes::MENTION_UNKNOWN,
                format!("mentions `{id}`, but no such check exists"),
            )
            .help(missing_help(id)),
        ),
        EdgeKind::Covers => Some(
            here(
                &codes::RULE_UNKNOWN_CHECK,
                format!("{subject} maps to `{id}`, but no such check exists"),
            )
            .help(missing_help(id)),
        ),
        _ => None,
    }
}

/// The destination of the link an edge was read from, as written (the graph does not copy it).
fn link_url<'c>(cat: &'c Catalogue, l: &Link<'_>) -> Option<&'c str> {
    let refs: &[crate::model::Reference] = match l.from {
        Node::Check(id) => &cat.check(id)?.references,
        Node::Rule(id) => &cat.rules.iter().find(|r| r.id == id.as_str())?.references,
        Node::Document(path) => {
            &cat.documents
                .iter()
                .find(|d| d.path == path.as_str())?
                .outline
                .references
        }
        Node::Retired(_) | Node::Missing(_) => return None,
    };
    refs.iter()
        .find(|r| r.line == l.line && r.column == l.column && r.target == l.to.key())
        .and_then(|r| r.url.as_deref())
}

/// Ids differ by a digit, so "did you mean" would point at an arbitrary neighbour; say what
/// is missing instead.
fn missing_help(id: &str) -> String {
    format!("there is no check file for `{id}`; correct the id, or drop the reference if it is deliberate")
}

/// Lint's share: references written in checks and rules.
pub fn check(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    findings(cat, graph, &|n| matches!(n, Node::Check(_) | Node::Rule(_)))
}
