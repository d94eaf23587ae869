//! `auditbook graph [--focus ID] [--depth N] --format dot|mermaid|json`

use super::args::{Cli, GraphArgs};
use super::common::{self, Failure};
use super::formats::GraphFormat;
use crate::graph::Node;
use crate::render::graph_export;

pub fn run(cli: &Cli, args: &GraphArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let g = session.graph();
    let focus = match &args.focus {
        None => None,
        Some(id) => {
            let candidates = [
                Node::Check(id.as_str().into()),
                Node::Rule(id.as_str().into()),
                Node::Retired(id.as_str().into()),
                Node::Document(id.as_str().into()),
            ];
            let found = candidates.into_iter().find(|n| g.find(n).is_some());
            Some(found.ok_or_else(|| {
                Failure::Message(format!(
                    "`{id}` is not a check, rule, retired id or document of this catalogue"
                ))
            })?)
        }
    };
    let depth = args.depth;
    let text = match fmt {
        GraphFormat::Mermaid => graph_export::mermaid(g, focus.as_ref(), depth),
        GraphFormat::Json => {
            graph_export::json(g, focus.as_ref(), depth).map_err(|source| Failure::Json {
                what: "cannot write the graph as JSON".into(),
                source,
            })?
        }
        GraphFormat::Dot => graph_export::dot(g, focus.as_ref(), depth),
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}
