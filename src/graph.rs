//! The catalogue as a graph (petgraph): checks, rules, retired ids and documents are nodes;
//! covers, links, mentions and merged_into/replaced_by are edges. Every reference finding is
//! computed here, from the edges, so no loader path can bypass it.

use crate::model::{Catalogue, RefKind, Reference, RuleOrigin};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", content = "id", rename_all = "lowercase")]
pub enum Node {
    Check(String),
    Rule(String),
    Retired(String),
    Document(String),
    /// A referenced id that is neither a check nor retired.
    Missing(String),
}

impl Node {
    pub fn key(&self) -> &str {
        match self {
            Node::Check(s)
            | Node::Rule(s)
            | Node::Retired(s)
            | Node::Document(s)
            | Node::Missing(s) => s,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Node::Check(_) => "check",
            Node::Rule(_) => "rule",
            Node::Retired(_) => "retired",
            Node::Document(_) => "document",
            Node::Missing(_) => "missing",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    Covers,
    Links,
    Mentions,
    MergedInto,
    ReplacedBy,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Covers => "covers",
            EdgeKind::Links => "links",
            EdgeKind::Mentions => "mentions",
            EdgeKind::MergedInto => "merged_into",
            EdgeKind::ReplacedBy => "replaced_by",
        }
    }
}

/// Where an edge was stated.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Edge {
    pub kind: EdgeKind,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub url: Option<String>,
}

pub struct Graph {
    pub graph: DiGraph<Node, Edge>,
    /// Lookup only (never iterated into output), so a hash map is safe and faster.
    index: HashMap<Node, NodeIndex>,
}

/// One edge, resolved to its two nodes, for queries and findings.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link<'g> {
    pub from: &'g Node,
    pub to: &'g Node,
    pub edge: &'g Edge,
}

impl Graph {
    pub fn build(cat: &Catalogue) -> Graph {
        let mut g = Graph {
            graph: DiGraph::new(),
            index: HashMap::new(),
        };
        let retired_lines = retired_lines(cat);
        let retired: BTreeSet<&str> = cat.config.retired.iter().map(|r| r.id.as_str()).collect();
        let known = cat.known_ids();
        for id in &known {
            g.node(Node::Check(id.to_string()));
        }
        for r in &cat.config.retired {
            // A retired number with a check file is a check (lint reports the reuse).
            if !known.contains(r.id.as_str()) {
                g.node(Node::Retired(r.id.clone()));
            }
        }
        let target = |id: &str| {
            if known.contains(id) {
                Node::Check(id.to_string())
            } else if retired.contains(id) {
                Node::Retired(id.to_string())
            } else {
                Node::Missing(id.to_string())
            }
        };
        for r in &cat.config.retired {
            let from = if known.contains(r.id.as_str()) {
                Node::Check(r.id.clone())
            } else {
                Node::Retired(r.id.clone())
            };
            for (kind, succ) in [
                (EdgeKind::MergedInto, &r.merged_into),
                (EdgeKind::ReplacedBy, &r.replaced_by),
            ] {
                if let Some(s) = succ {
                    let edge = Edge {
                        kind,
                        file: crate::load::config::FILE_NAME.to_string(),
                        line: retired_lines.get(r.id.as_str()).copied().unwrap_or(1),
                        column: 1,
                        url: None,
                    };
                    g.edge(from.clone(), target(s), edge);
                }
            }
        }
        for c in cat.checks_by_id() {
            for r in &c.references {
                g.edge(
                    Node::Check(c.id.clone()),
                    target(&r.target),
                    reference_edge(&c.file, r),
                );
            }
        }
        for rule in &cat.rules {
            let from = Node::Rule(rule.id.clone());
            g.node(from.clone());
            for m in &rule.mappings {
                for (i, id) in m.checks.iter().enumerate() {
                    let edge = Edge {
                        kind: EdgeKind::Covers,
                        file: m.origin.file().to_string(),
                        line: m.lines.get(i).copied().unwrap_or_else(|| m.origin.line()),
                        column: 1,
                        url: None,
                    };
                    g.edge(from.clone(), target(id), edge);
                }
            }
            let file = rule.mappings.iter().find_map(|m| match &m.origin {
                RuleOrigin::File { file, .. } => Some(file.clone()),
                RuleOrigin::Table { .. } => None,
            });
            if let Some(file) = file {
                for r in &rule.references {
                    g.edge(from.clone(), target(&r.target), reference_edge(&file, r));
                }
            }
        }
        for d in &cat.documents {
            let from = Node::Document(d.path.clone());
            g.node(from.clone());
            for r in &d.outline.references {
                g.edge(from.clone(), target(&r.target), reference_edge(&d.path, r));
            }
        }
        g
    }

    fn node(&mut self, n: Node) -> NodeIndex {
        if let Some(i) = self.index.get(&n) {
            return *i;
        }
        let i = self.graph.add_node(n.clone());
        self.index.insert(n, i);
        i
    }

    fn edge(&mut self, from: Node, to: Node, e: Edge) {
        let a = self.node(from);
        let b = self.node(to);
        self.graph.add_edge(a, b, e);
    }

    pub fn find(&self, n: &Node) -> Option<NodeIndex> {
        self.index.get(n).copied()
    }

    /// An edge resolved to its two nodes.
    fn link<'g>(&'g self, e: petgraph::graph::EdgeReference<'g, Edge>) -> Option<Link<'g>> {
        Some(Link {
            from: self.graph.node_weight(e.source())?,
            to: self.graph.node_weight(e.target())?,
            edge: e.weight(),
        })
    }

    /// Every edge, sorted by (from, edge, to): the order all output uses.
    pub fn links(&self) -> Vec<Link<'_>> {
        let mut v: Vec<Link<'_>> = self
            .graph
            .edge_references()
            .filter_map(|e| self.link(e))
            .collect();
        v.sort();
        v
    }

    /// Edges into `n`, sorted.
    pub fn incoming(&self, n: &Node) -> Vec<Link<'_>> {
        let Some(i) = self.find(n) else {
            return Vec::new();
        };
        let mut v: Vec<Link<'_>> = self
            .graph
            .edges_directed(i, Direction::Incoming)
            .filter_map(|e| self.link(e))
            .collect();
        v.sort();
        v
    }

    /// The rules that cover check `id`, sorted.
    pub fn covering_rules(&self, id: &str) -> Vec<&str> {
        let mut v: Vec<&str> = self
            .incoming(&Node::Check(id.to_string()))
            .into_iter()
            .filter(|l| l.edge.kind == EdgeKind::Covers)
            .map(|l| l.from.key())
            .collect();
        v.sort_by_key(|id| crate::model::rule::natural_key(id));
        v.dedup();
        v
    }

    /// Follow merged_into/replaced_by from a retired id to a live check.
    pub fn successor(&self, id: &str) -> Successor {
        let mut seen = BTreeSet::new();
        let mut cur = Node::Retired(id.to_string());
        loop {
            if !seen.insert(cur.clone()) {
                return Successor::Cycle(seen.into_iter().map(|n| n.key().to_string()).collect());
            }
            let Some(i) = self.find(&cur) else {
                return Successor::None;
            };
            let next = self
                .graph
                .edges_directed(i, Direction::Outgoing)
                .filter(|e| matches!(e.weight().kind, EdgeKind::MergedInto | EdgeKind::ReplacedBy))
                .filter_map(|e| self.graph.node_weight(e.target()))
                .min();
            match next {
                None => return Successor::None,
                Some(Node::Check(c)) => return Successor::Live(c.clone()),
                Some(Node::Missing(m)) => return Successor::Dangling(m.clone()),
                Some(n) => cur = n.clone(),
            }
        }
    }

    /// The nodes within `depth` steps of `focus` (either direction), or every node.
    pub fn neighbourhood(&self, focus: Option<&Node>, depth: usize) -> BTreeSet<&Node> {
        let Some(start) = focus.and_then(|f| self.find(f)) else {
            return self.graph.node_weights().collect();
        };
        let mut seen = BTreeSet::from([start]);
        let mut queue = VecDeque::from([(start, 0usize)]);
        while let Some((n, d)) = queue.pop_front() {
            if d >= depth {
                continue;
            }
            for dir in [Direction::Outgoing, Direction::Incoming] {
                for m in self.graph.neighbors_directed(n, dir) {
                    if seen.insert(m) {
                        queue.push_back((m, d + 1));
                    }
                }
            }
        }
        seen.into_iter()
            .filter_map(|i| self.graph.node_weight(i))
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Successor {
    Live(String),
    /// The chain ends at an id that is neither a check nor retired.
    Dangling(String),
    Cycle(Vec<String>),
    None,
}

fn reference_edge(file: &str, r: &Reference) -> Edge {
    Edge {
        kind: match r.kind {
            RefKind::Link => EdgeKind::Links,
            RefKind::Mention => EdgeKind::Mentions,
        },
        file: file.to_string(),
        line: r.line,
        column: r.column,
        url: r.url.clone(),
    }
}

/// The line of each retired entry's `id:` in catalogue.yaml, found in one pass (a search
/// per entry grew with the square of the ledger).
pub fn retired_lines(cat: &Catalogue) -> BTreeMap<&str, usize> {
    let mut out = BTreeMap::new();
    let Some(text) = cat.sources.get(crate::load::config::FILE_NAME) else {
        return out;
    };
    let ids: BTreeSet<&str> = cat.config.retired.iter().map(|r| r.id.as_str()).collect();
    for (i, line) in text.split('\n').enumerate() {
        let Some(pos) = line.find("id:") else {
            continue;
        };
        let rest = line
            .get(pos + 3..)
            .unwrap_or("")
            .trim_start()
            .trim_start_matches(['"', '\'']);
        let id: String = rest
            .chars()
            .take_while(|c| !matches!(c, ',' | '}' | ' ' | '#' | '"' | '\''))
            .collect();
        if let Some(known) = ids.get(id.as_str()) {
            out.entry(*known).or_insert(i + 1);
        }
    }
    out
}

/// The first line of catalogue.yaml containing `needle` (e.g. `prefix: FID`), else 1.
pub fn config_line(cat: &Catalogue, needle: &str) -> usize {
    cat.sources
        .get(crate::load::config::FILE_NAME)
        .and_then(|t| {
            t.split('\n')
                .position(|l| l.contains(needle))
                .map(|i| i + 1)
        })
        .unwrap_or(1)
}
