//! `auditbook show ID`: one check with its sections and its references in both directions.

use super::args::{Cli, ShowArgs};
use super::common::{self, Failure};
use super::formats::TextFormat;
use super::list::effective;
use crate::graph::{EdgeKind, Graph, Link, Node, Successor};
use crate::model::fields::{self, Kind};
use crate::model::{Check, RefKind};
use serde_json::json;

/// Who refers to `id`: every link, mention and covering rule, from checks, rules and documents.
pub fn incoming<'g>(graph: &'g Graph, id: &str) -> Vec<Link<'g>> {
    graph.incoming(&Node::Check(id.into()))
}

pub fn run(cli: &Cli, args: &ShowArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let graph = session.graph();
    if cat.check(&args.id).is_none() {
        if let Some(r) = cat.retired(&args.id) {
            let text = retired(fmt, r, graph)?;
            common::print(&crate::render::excerpt::terminal_safe(&text, true))?;
            return Ok(super::EXIT_OK);
        }
    }
    let Some(c) = cat.check(&args.id) else {
        let hint =
            crate::text::suggest::did_you_mean(&args.id, cat.checks.iter().map(|c| c.id.as_str()))
                .map(|s| format!(" ({s})"))
                .unwrap_or_default();
        return Err(Failure::Message(format!(
            "no check `{}` in this catalogue{hint}",
            args.id
        )));
    };
    let incoming = incoming(graph, &c.id);
    let rules = graph.covering_rules(&c.id);
    let links = c.outgoing(RefKind::Link);
    let mentions = c.outgoing(RefKind::Mention);
    let text = match fmt {
        TextFormat::Json => {
            let doc = json!({
                "check": effective(c),
                "sections": c.sections.iter().map(|s| json!({"title": s.title, "line": s.line})).collect::<Vec<_>>(),
                "pass_criteria": c.pass_criteria,
                "links": links,
                "mentions": mentions,
                "sources": c.sources,
                "rules": rules,
                "incoming": incoming.iter().filter(|l| l.kind != EdgeKind::Covers).map(|l| json!({
                    "from": l.from.key(),
                    "from_kind": l.from.kind(),
                    "kind": match l.kind {
                        EdgeKind::Links => "link",
                        EdgeKind::Mentions => "mention",
                        other => other.as_str(),
                    },
                    "file": l.file,
                    "line": l.line,
                })).collect::<Vec<_>>(),
            });
            common::json_text(&doc)?
        }
        // Titles, sections and criteria are catalogue text: no escape sequence of theirs
        // reaches the terminal.
        _ => crate::render::excerpt::terminal_safe(
            &human(c, &links, &mentions, &rules, &incoming),
            true,
        )
        .into_owned(),
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}

/// A retired id: its record and where its chain leads.
fn retired(
    fmt: TextFormat,
    r: &crate::model::config::RetiredDecl,
    graph: &Graph,
) -> Result<String, Failure> {
    let successor = match graph.successor(&r.id) {
        Successor::Live(s) => Some(s),
        _ => None,
    };
    let still = graph.incoming(&Node::Retired(r.id.as_str().into()));
    if fmt == TextFormat::Json {
        let doc = json!({
            "retired": r,
            "successor": successor,
            "referred_to_by": still.iter().map(|l| json!({"from": l.from.key(), "kind": l.kind.as_str(), "file": l.file, "line": l.line})).collect::<Vec<_>>(),
        });
        return common::json_text(&doc);
    }
    let mut out = format!("{} — retired on {}\n", r.id, r.retired);
    if let Some(m) = &r.merged_into {
        out.push_str(&format!("  merged into   {m}\n"));
    }
    if let Some(p) = &r.replaced_by {
        out.push_str(&format!("  replaced by   {p}\n"));
    }
    if let Some(s) = &successor {
        out.push_str(&format!("  successor     {s}\n"));
    }
    if let Some(reason) = &r.reason {
        out.push_str(&format!("  reason        {reason}\n"));
    }
    out.push_str("still referred to by:\n");
    if still.is_empty() {
        out.push_str("  (none)\n");
    }
    for l in still {
        out.push_str(&format!(
            "  {} ({}, {}:{})\n",
            l.from.key(),
            l.kind.as_str(),
            l.file,
            l.line
        ));
    }
    Ok(out)
}

fn human(
    c: &Check,
    links: &[String],
    mentions: &[String],
    rules: &[&str],
    incoming: &[Link<'_>],
) -> String {
    let mut out = format!("{} — {}\n{}\n\n", c.id, c.title, c.file);
    out.push_str(&field_lines(c));
    out.push_str("\nsections:\n");
    for s in &c.sections {
        out.push_str(&format!("  {} (line {})\n", s.title, s.line));
    }
    if !c.pass_criteria.is_empty() {
        out.push_str("\npass criteria:\n");
        for p in &c.pass_criteria {
            out.push_str(&format!(
                "  [{}] {}\n",
                if p.checked { "x" } else { " " },
                p.text
            ));
        }
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "(none)".to_string()
        } else {
            v.join(", ")
        }
    };
    out.push_str(&format!(
        "\nlinks to:    {}\nmentions:    {}\n",
        list(links),
        list(mentions)
    ));
    out.push_str("sources:\n");
    if c.sources.is_empty() {
        out.push_str("  (none)\n");
    }
    for s in &c.sources {
        out.push_str(&format!("  {} <{}> (line {})\n", s.shown(), s.url, s.line));
    }
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    out.push_str(&format!("covered by:  {}\n", list(&rules)));
    out.push_str("referred to by:\n");
    let refs: Vec<_> = incoming
        .iter()
        .filter(|l| l.kind != EdgeKind::Covers)
        .collect();
    if refs.is_empty() {
        out.push_str("  (none)\n");
    }
    for l in refs {
        let k = match l.kind {
            EdgeKind::Links => "link",
            EdgeKind::Mentions => "mention",
            other => other.as_str(),
        };
        out.push_str(&format!(
            "  {} ({k}, {}:{})\n",
            l.from.key(),
            l.file,
            l.line
        ));
    }
    out
}

/// The check's fields under its heading, one a line, each marked when it took its default.
fn field_lines(c: &Check) -> String {
    let mut out = String::new();
    for f in fields::detail() {
        let value = (f.value)(c);
        if value.is_absent() {
            continue;
        }
        let mut v = value.to_text();
        if let (Kind::Baseline, Some(a)) = (f.kind, c.spec_baseline_alias()) {
            v.push_str(&format!(" (written `{a}`)"));
        }
        let d = if c.defaulted().contains(&f.key) {
            " (default)"
        } else {
            ""
        };
        out.push_str(&format!("  {:<18} {v}{d}\n", f.key));
    }
    out
}
