//! `retire ID --merged-into ID2 --rewrite`: the retirement and every link to the id moved to
//! the successor, in one write session. Mentions in prose are history and stay; they are
//! listed for the maintainer to read.

use super::retire::{self, Request};
use super::Refused;
use crate::graph::{EdgeKind, Graph, Node};
use crate::model::Catalogue;
use crate::write::{Change, Session};
use std::collections::BTreeMap;

/// Where a reference to the retired id was, as the graph saw it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    pub file: String,
    pub line: usize,
    pub kind: &'static str,
}

#[derive(Debug, Default)]
pub struct Rewritten {
    /// Links moved to the successor.
    pub moved: Vec<Place>,
    /// Mentions left as they are (history).
    pub kept: Vec<Place>,
}

pub fn retire_rewriting(
    session: &Session,
    cat: &Catalogue,
    graph: &Graph,
    req: &Request<'_>,
) -> Result<Rewritten, Refused> {
    let Some(succ) = req.merged_into.or(req.replaced_by) else {
        return Err(Refused(
            "--rewrite moves links to the successor: name it with --merged-into or --replaced-by"
                .into(),
        ));
    };
    let mut changes = retire::plan(cat, req)?;
    let retired_file = cat.check(req.id).map(|c| c.file.to_string());
    let mut out = Rewritten::default();
    let mut by_file: BTreeMap<String, Vec<crate::fix::TextEdit>> = BTreeMap::new();
    for l in graph.incoming(&Node::Check(req.id.into())) {
        let place = Place {
            file: l.file.to_string(),
            line: l.line,
            kind: l.kind.as_str(),
        };
        if Some(l.file) == retired_file.as_deref() {
            continue;
        }
        match l.kind {
            EdgeKind::Links => {
                let raw = read(cat, l.file)?;
                let edits =
                    crate::fix::links::link_edits(&raw, l.file, l.line, l.column, req.id, succ)
                        .ok_or_else(|| {
                            Refused(format!(
                                "cannot find the link to `{}` at {}:{}; nothing was changed",
                                req.id, l.file, l.line
                            ))
                        })?;
                by_file.entry(l.file.to_string()).or_default().extend(edits);
                out.moved.push(place);
            }
            _ => out.kept.push(place),
        }
    }
    for (file, mut edits) in by_file {
        let raw = read(cat, &file)?;
        edits.sort_by_key(|e| (e.start, e.end));
        edits.dedup();
        let refs: Vec<&crate::fix::TextEdit> = edits.iter().collect();
        let text = crate::fix::apply::splice(&raw, &refs)
            .ok_or_else(|| Refused(format!("links in `{file}` overlap; nothing was changed")))?;
        changes.push(Change::Write(cat.root.join(&file), text));
    }
    session
        .apply(&format!("retire {} --rewrite", req.id), &changes)
        .map_err(|e| Refused(format!("nothing was changed: {e}")))?;
    Ok(out)
}

fn read(cat: &Catalogue, file: &str) -> Result<String, Refused> {
    crate::load::text::read_limited(&cat.root.join(file))
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(|| Refused(format!("cannot read `{file}`; nothing was changed")))
}
