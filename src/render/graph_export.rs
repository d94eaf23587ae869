//! The graph as DOT, Mermaid or JSON, optionally around one node.

use crate::graph::{EdgeKind, Graph, Node};
use serde_json::json;
use std::collections::BTreeSet;

/// A DOT/Mermaid node name: ASCII letters and digits stay, every other character becomes
/// `_<hex>_`. Injective, so `ÄRCH-001` and `ARCH-001` (or `A-1` and `A_1`) never share a node.
fn node_id(n: &Node) -> String {
    let mut key = String::new();
    for c in n.key().chars() {
        if c.is_ascii_alphanumeric() {
            key.push(c);
        } else {
            key.push_str(&format!("_{:x}_", c as u32));
        }
    }
    format!("{}_{key}", n.kind())
}

fn label(n: &Node) -> String {
    n.key().replace('"', "'")
}

/// Edges between the kept nodes, with their kinds, deduplicated and sorted.
fn edges<'g>(g: &'g Graph, keep: &BTreeSet<&'g Node>) -> Vec<(&'g Node, EdgeKind, &'g Node)> {
    let mut v: Vec<_> = g
        .links()
        .into_iter()
        .filter(|l| keep.contains(l.from) && keep.contains(l.to))
        .map(|l| (l.from, l.kind, l.to))
        .collect();
    v.dedup();
    v
}

pub fn dot(g: &Graph, focus: Option<&Node>, depth: usize) -> String {
    let keep = g.neighbourhood(focus, depth);
    let mut out = String::from("digraph catalogue {\n  rankdir=LR;\n");
    for n in &keep {
        let shape = match n {
            Node::Check(_) => "box",
            Node::Rule(_) => "ellipse",
            Node::Retired(_) => "box, style=dashed",
            Node::Document(_) => "note",
            Node::Missing(_) => "box, color=red",
        };
        out.push_str(&format!(
            "  {} [label=\"{}\", shape={shape}];\n",
            node_id(n),
            label(n)
        ));
    }
    for (a, k, b) in edges(g, &keep) {
        let style = match k {
            EdgeKind::Mentions => ", style=dotted",
            EdgeKind::MergedInto | EdgeKind::ReplacedBy => ", style=dashed",
            _ => "",
        };
        out.push_str(&format!(
            "  {} -> {} [label=\"{}\"{style}];\n",
            node_id(a),
            node_id(b),
            k.as_str()
        ));
    }
    out.push_str("}\n");
    out
}

pub fn mermaid(g: &Graph, focus: Option<&Node>, depth: usize) -> String {
    let keep = g.neighbourhood(focus, depth);
    let mut out = String::from("flowchart LR\n");
    for n in &keep {
        let (open, close) = match n {
            Node::Check(_) => ("[", "]"),
            Node::Rule(_) => ("([", "])"),
            Node::Retired(_) => ("[/", "/]"),
            Node::Document(_) => ("[[", "]]"),
            Node::Missing(_) => ("{{", "}}"),
        };
        out.push_str(&format!("  {}{open}\"{}\"{close}\n", node_id(n), label(n)));
    }
    for (a, k, b) in edges(g, &keep) {
        let arrow = match k {
            EdgeKind::Mentions => "-.->",
            EdgeKind::MergedInto | EdgeKind::ReplacedBy => "==>",
            _ => "-->",
        };
        out.push_str(&format!(
            "  {} {arrow}|{}| {}\n",
            node_id(a),
            k.as_str(),
            node_id(b)
        ));
    }
    out
}

pub fn json(g: &Graph, focus: Option<&Node>, depth: usize) -> super::emit::Emitted {
    let keep = g.neighbourhood(focus, depth);
    let nodes: Vec<_> = keep
        .iter()
        .map(|n| json!({"kind": n.kind(), "id": n.key()}))
        .collect();
    let edges: Vec<_> = g
        .links()
        .into_iter()
        .filter(|l| keep.contains(l.from) && keep.contains(l.to))
        .map(|l| {
            json!({
                "from": {"kind": l.from.kind(), "id": l.from.key()},
                "to": {"kind": l.to.kind(), "id": l.to.key()},
                "kind": l.kind.as_str(),
                "file": l.file,
                "line": l.line,
            })
        })
        .collect();
    super::emit::json_document(&json!({"nodes": nodes, "edges": edges}))
}
