//! `auditbook retire ID --date D --reason R [--merged-into ID2]`

use super::args::{Cli, RetireArgs};
use super::common::{self, Failure};
use super::formats::TextFormat;
use crate::graph::Node;
use crate::maintain::retire::{self, Request};

pub fn run(cli: &Cli, args: &RetireArgs) -> Result<u8, Failure> {
    // Checked before anything is written: a bad `--format` must not retire the id.
    let fmt = common::format(cli, args.format);
    let writing = common::write_session(cli)?;
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    let req = Request {
        id: &args.id,
        date: &args.date,
        reason: &args.reason,
        merged_into: args.merged_into.as_deref(),
        replaced_by: args.replaced_by.as_deref(),
    };
    if args.rewrite {
        let done = crate::maintain::rewrite::retire_rewriting(
            &writing,
            &loaded.catalogue,
            session.graph(),
            &req,
        )
        .map_err(|e| Failure::Message(e.0))?;
        return rewritten(cli, args, fmt, &done);
    }
    retire::retire(&writing, &loaded.catalogue, &req).map_err(|e| Failure::Message(e.0))?;
    // Read the catalogue again: what still refers to the id is now a finding to fix.
    let after = common::session(cli, crate::session::Needs::BODIES)?;
    let graph = after.graph();
    let remaining = graph.incoming(&Node::Retired(args.id.as_str().into()));
    let prefix = common::prefix(cli);
    if fmt == TextFormat::Json {
        let doc = serde_json::json!({
            "retired": args.id,
            "date": args.date,
            "referred_to_by": remaining
                .iter()
                .map(|l| serde_json::json!({
                    "from": l.from.key(),
                    "kind": l.kind.as_str(),
                    "file": crate::render::diagnostics::join(&prefix, l.file),
                    "line": l.line,
                }))
                .collect::<Vec<_>>(),
        });
        common::print(&common::json_text(&doc)?)?;
        return Ok(super::EXIT_OK);
    }
    let mut text = format!(
        "retired {} on {} and removed its file\n",
        args.id, args.date
    );
    if remaining.is_empty() {
        text.push_str("nothing links, mentions or maps it any more\n");
    } else {
        text.push_str(&format!(
            "{} place(s) still refer to it:\n",
            remaining.len()
        ));
        for l in &remaining {
            text.push_str(&format!(
                "  {}:{}  {} ({} {})\n",
                crate::render::diagnostics::join(&prefix, l.file),
                l.line,
                l.kind.as_str(),
                l.from.kind(),
                l.from.key()
            ));
        }
        text.push_str("run `auditbook lint` to see each as a finding\n");
    }
    common::print(&text)?;
    Ok(super::EXIT_OK)
}

/// What `--rewrite` moved and what it left, by place.
fn rewritten(
    cli: &Cli,
    args: &RetireArgs,
    fmt: TextFormat,
    done: &crate::maintain::rewrite::Rewritten,
) -> Result<u8, Failure> {
    let prefix = common::prefix(cli);
    let succ = args
        .merged_into
        .as_deref()
        .or(args.replaced_by.as_deref())
        .unwrap_or("");
    let shown = |p: &crate::maintain::rewrite::Place| serde_json::json!({"file": crate::render::diagnostics::join(&prefix, &p.file), "line": p.line, "kind": p.kind});
    let text = if fmt == TextFormat::Json {
        common::json_text(&serde_json::json!({
            "retired": args.id,
            "date": args.date,
            "successor": succ,
            "links_moved": done.moved.iter().map(shown).collect::<Vec<_>>(),
            "left_as_history": done.kept.iter().map(shown).collect::<Vec<_>>(),
        }))?
    } else {
        let mut t = format!(
            "retired {} on {}, removed its file and moved {} link(s) to {succ}\n",
            args.id,
            args.date,
            done.moved.len()
        );
        if !done.kept.is_empty() {
            t.push_str(&format!(
                "{} place(s) still name it and were left as history:\n",
                done.kept.len()
            ));
            for p in &done.kept {
                t.push_str(&format!(
                    "  {}:{}  {}\n",
                    crate::render::diagnostics::join(&prefix, &p.file),
                    p.line,
                    p.kind
                ));
            }
        }
        t
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
