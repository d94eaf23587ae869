//! The catalogue as a graph (petgraph): checks, rules, retired ids and documents are nodes;
//! covers, links, mentions and merged_into/replaced_by are edges. Every reference finding is
//! computed here, from the edges, so no loader path can bypass it.

use crate::model::{Catalogue, RefKind, Reference, RuleOrigin};
use compact_str::CompactString;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", content = "id", rename_all = "lowercase")]
// Ids are stored inline (CompactString): the graph holds a node per check and the index a
// second copy of each, which as heap strings was a large share of the memory of big catalogues.
pub enum Node {
    Check(CompactString),
    Rule(CompactString),
    Retired(CompactString),
    Document(CompactString),
    /// A referenced id that is neither a check nor retired.
    Missing(CompactString),
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

/// Where an edge was stated. Kept small (the graph holds one per reference: several per check
/// in a large catalogue): the file is an index into the graph's file table, and the link
/// destination is not copied (`link_url` finds it in the model when a finding needs it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub kind: EdgeKind,
    file: u32,
    line: u32,
    column: u32,
}

pub struct Graph {
    graph: DiGraph<Node, Edge>,
    /// Every node index, sorted by node: lookups are binary searches (a hash map keyed by a
    /// second copy of every id cost more memory than the nodes themselves).
    order: Vec<NodeIndex>,
    /// The files edges were stated in, by `Edge::file` (inline strings: one per check file).
    files: Vec<CompactString>,
}

/// One edge, resolved to its two nodes and its place, for queries and findings. Ordered by
/// (from, to, kind, file, line, column): the order all output uses.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link<'g> {
    pub from: &'g Node,
    pub to: &'g Node,
    pub kind: EdgeKind,
    pub file: &'g str,
    pub line: usize,
    pub column: usize,
}

/// What `build` needs while adding nodes and edges; dropped when the graph is done.
struct Builder<'c> {
    graph: DiGraph<Node, Edge>,
    /// Ids with a check file, sorted: the check node of `known[i]` is node `i` (checks are
    /// added first), so checks need no hash map entry.
    known: Vec<&'c str>,
    /// The other nodes (rules, retired and missing ids, documents).
    index: HashMap<Node, NodeIndex>,
    files: Vec<CompactString>,
    /// Files stated more than once (rule files, documents, catalogue.yaml); a check's file is
    /// added once, with its check.
    file_index: HashMap<&'c str, u32>,
}

impl<'c> Builder<'c> {
    fn is_check(&self, id: &str) -> bool {
        self.known.binary_search(&id).is_ok()
    }

    fn node(&mut self, n: Node) -> NodeIndex {
        if let Node::Check(id) = &n {
            if let Ok(i) = self.known.binary_search(&id.as_str()) {
                return NodeIndex::new(i);
            }
        }
        if let Some(i) = self.index.get(&n) {
            return *i;
        }
        let i = self.graph.add_node(n.clone());
        self.index.insert(n, i);
        i
    }

    fn new_file(&mut self, file: &str) -> u32 {
        let i = u32::try_from(self.files.len()).unwrap_or(u32::MAX);
        self.files.push(file.into());
        i
    }

    fn file(&mut self, file: &'c str) -> u32 {
        if let Some(i) = self.file_index.get(file) {
            return *i;
        }
        let i = self.new_file(file);
        self.file_index.insert(file, i);
        i
    }

    fn edge(&mut self, from: Node, to: Node, kind: EdgeKind, file: u32, at: (usize, usize)) {
        let a = self.node(from);
        let b = self.node(to);
        let narrow = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        let edge = Edge {
            kind,
            file,
            line: narrow(at.0),
            column: narrow(at.1),
        };
        self.graph.add_edge(a, b, edge);
    }
}

fn edge_kind(r: &Reference) -> EdgeKind {
    match r.kind {
        RefKind::Link => EdgeKind::Links,
        RefKind::Mention => EdgeKind::Mentions,
    }
}

impl Graph {
    pub fn build(cat: &Catalogue) -> Graph {
        // Sorted and without repeats, as the set iterates.
        let known: Vec<&str> = cat.known_ids().into_iter().collect();
        // Sized up front: growing by doubling left up to half of the edge list unused.
        let edges: usize = cat.checks.iter().map(|c| c.references.len()).sum::<usize>()
            + cat
                .rules
                .iter()
                .map(|r| {
                    r.references.len() + r.mappings.iter().map(|m| m.checks.len()).sum::<usize>()
                })
                .sum::<usize>()
            + cat
                .documents
                .iter()
                .map(|d| d.outline.references.len())
                .sum::<usize>()
            + 2 * cat.config.retired.len();
        let others = cat.rules.len() + cat.config.retired.len() + cat.documents.len();
        let mut graph = DiGraph::with_capacity(known.len() + others, edges);
        for id in &known {
            graph.add_node(Node::Check((*id).into()));
        }
        let mut g = Builder {
            graph,
            known,
            index: HashMap::with_capacity(others),
            files: Vec::new(),
            file_index: HashMap::new(),
        };
        let retired_lines = retired_lines(cat);
        let retired: BTreeSet<&str> = cat.config.retired.iter().map(|r| r.id.as_str()).collect();
        for r in &cat.config.retired {
            // A retired number with a check file is a check (lint reports the reuse).
            if !g.is_check(&r.id) {
                g.node(Node::Retired(r.id.as_str().into()));
            }
        }
        let target = |g: &Builder<'_>, id: &str| {
            if g.is_check(id) {
                Node::Check(id.into())
            } else if retired.contains(id) {
                Node::Retired(id.into())
            } else {
                Node::Missing(id.into())
            }
        };
        for r in &cat.config.retired {
            let from = if g.is_check(&r.id) {
                Node::Check(r.id.as_str().into())
            } else {
                Node::Retired(r.id.as_str().into())
            };
            let line = retired_lines.get(r.id.as_str()).copied().unwrap_or(1);
            for (kind, succ) in [
                (EdgeKind::MergedInto, &r.merged_into),
                (EdgeKind::ReplacedBy, &r.replaced_by),
            ] {
                if let Some(s) = succ {
                    let (to, config) = (target(&g, s), g.file(crate::model::config::FILE_NAME));
                    g.edge(from.clone(), to, kind, config, (line, 1));
                }
            }
        }
        for c in cat.checks_by_id() {
            if c.references.is_empty() {
                continue;
            }
            let file = g.new_file(&c.file);
            for r in &c.references {
                let (from, to) = (Node::Check(c.id.clone()), target(&g, &r.target));
                g.edge(from, to, edge_kind(r), file, (r.line, r.column));
            }
        }
        for rule in &cat.rules {
            let from = Node::Rule(rule.id.as_str().into());
            g.node(from.clone());
            for m in &rule.mappings {
                let file = g.file(m.origin.file());
                for (i, id) in m.checks.iter().enumerate() {
                    let line = m.lines.get(i).copied().unwrap_or_else(|| m.origin.line());
                    let to = target(&g, id);
                    g.edge(from.clone(), to, EdgeKind::Covers, file, (line, 1));
                }
            }
            let file = rule.mappings.iter().find_map(|m| match &m.origin {
                RuleOrigin::File { file, .. } => Some(file.as_str()),
                RuleOrigin::Table { .. } => None,
            });
            if let Some(file) = file {
                let file = g.file(file);
                for r in &rule.references {
                    let to = target(&g, &r.target);
                    g.edge(from.clone(), to, edge_kind(r), file, (r.line, r.column));
                }
            }
        }
        for d in &cat.documents {
            let from = Node::Document(d.path.as_str().into());
            g.node(from.clone());
            let file = g.file(&d.path);
            for r in &d.outline.references {
                let to = target(&g, &r.target);
                g.edge(from.clone(), to, edge_kind(r), file, (r.line, r.column));
            }
        }
        let Builder { graph, files, .. } = g;
        let mut order: Vec<NodeIndex> = graph.node_indices().collect();
        order.sort_by(|a, b| graph.node_weight(*a).cmp(&graph.node_weight(*b)));
        Graph {
            graph,
            order,
            files,
        }
    }

    /// The graph after an edit of `check`'s file that kept its id (the body or any other
    /// field): the links and mentions written in its file replace those it had; every other
    /// edge stands. Only for an edit that left every id, the ledger, the rules and the
    /// documents as they were (any other edit builds the graph again). The result has the edges and nodes [`Graph::build`] makes of the same
    /// catalogue (a missing id no edge names any more is dropped).
    pub fn replace_references(&mut self, cat: &Catalogue, check: &crate::model::Check) {
        let Some(from) = self.find(&Node::Check(check.id.clone())) else {
            *self = Graph::build(cat);
            return;
        };
        let file = match self.files.iter().position(|f| *f == check.file) {
            Some(i) => u32::try_from(i).unwrap_or(u32::MAX),
            None => {
                self.files.push(check.file.clone());
                u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
            }
        };
        let mut targets = BTreeSet::new();
        while let Some((e, to)) = self
            .graph
            .edges_directed(from, Direction::Outgoing)
            .find(|e| {
                e.weight().file == file
                    && matches!(e.weight().kind, EdgeKind::Links | EdgeKind::Mentions)
            })
            .map(|e| (e.id(), e.target()))
        {
            self.graph.remove_edge(e);
            targets.insert(to);
        }
        for r in &check.references {
            let to = [
                Node::Check(r.target.clone()),
                Node::Retired(r.target.clone()),
            ]
            .iter()
            .find_map(|n| self.find(n))
            .unwrap_or_else(|| self.add_missing(Node::Missing(r.target.clone())));
            let narrow = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
            let edge = Edge {
                kind: edge_kind(r),
                file,
                line: narrow(r.line),
                column: narrow(r.column),
            };
            self.graph.add_edge(from, to, edge);
            targets.remove(&to);
        }
        // Highest index first: removing a node moves the last one into its place.
        for gone in targets.into_iter().rev() {
            let orphan = matches!(self.graph.node_weight(gone), Some(Node::Missing(_)))
                && self
                    .graph
                    .edges_directed(gone, Direction::Incoming)
                    .next()
                    .is_none();
            if orphan {
                self.remove_node(gone);
            }
        }
    }

    /// The node of a missing id, added when no edge named it yet.
    fn add_missing(&mut self, n: Node) -> NodeIndex {
        if let Some(i) = self.find(&n) {
            return i;
        }
        let at = self
            .order
            .partition_point(|i| self.graph.node_weight(*i).is_some_and(|w| *w < n));
        let i = self.graph.add_node(n);
        self.order.insert(at, i);
        i
    }

    /// Drop node `i` (one without edges), keeping `order` sorted and pointing at the node
    /// petgraph moves from the last index into `i`.
    fn remove_node(&mut self, i: NodeIndex) {
        let last = NodeIndex::new(self.graph.node_count().saturating_sub(1));
        if self.graph.remove_node(i).is_none() {
            return;
        }
        self.order.retain(|x| *x != i);
        if last != i {
            if let Some(slot) = self.order.iter_mut().find(|x| **x == last) {
                *slot = i;
            }
        }
    }

    pub fn find(&self, n: &Node) -> Option<NodeIndex> {
        let at = self
            .order
            .binary_search_by(|i| match self.graph.node_weight(*i) {
                Some(w) => w.cmp(n),
                None => std::cmp::Ordering::Less,
            })
            .ok()?;
        self.order.get(at).copied()
    }

    /// An edge resolved to its two nodes.
    fn link<'g>(&'g self, e: petgraph::graph::EdgeReference<'g, Edge>) -> Option<Link<'g>> {
        let w = e.weight();
        Some(Link {
            from: self.graph.node_weight(e.source())?,
            to: self.graph.node_weight(e.target())?,
            kind: w.kind,
            file: self.files.get(w.file as usize).map(|f| &**f).unwrap_or(""),
            line: w.line as usize,
            column: w.column as usize,
        })
    }

    /// Every edge, sorted (see `Link`).
    pub fn links(&self) -> Vec<Link<'_>> {
        self.links_where(|_| true)
    }

    /// The edges `keep` accepts, sorted (see `Link`). Filtering before collecting keeps a
    /// large catalogue from sorting every edge to report a handful.
    pub fn links_where(&self, keep: impl Fn(&Link<'_>) -> bool) -> Vec<Link<'_>> {
        let mut v: Vec<Link<'_>> = self
            .graph
            .edge_references()
            .filter_map(|e| self.link(e))
            .filter(|l| keep(l))
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
            .incoming(&Node::Check(id.into()))
            .into_iter()
            .filter(|l| l.kind == EdgeKind::Covers)
            .map(|l| l.from.key())
            .collect();
        v.sort_by_key(|id| crate::model::rule::natural_key(id));
        v.dedup();
        v
    }

    /// Follow merged_into/replaced_by from a retired id to a live check.
    pub fn successor(&self, id: &str) -> Successor {
        let mut seen = BTreeSet::new();
        let mut cur = Node::Retired(id.into());
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
                Some(Node::Check(c)) => return Successor::Live(c.to_string()),
                Some(Node::Missing(m)) => return Successor::Dangling(m.to_string()),
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

/// The line of each retired entry's `id` in catalogue.yaml, from the position table (by
/// key path, so a comment that names the id, or an earlier entry's successor, is never
/// taken for the entry).
pub fn retired_lines(cat: &Catalogue) -> BTreeMap<&str, usize> {
    let mut out = BTreeMap::new();
    for (i, r) in cat.config.retired.iter().enumerate() {
        let path = format!("{}.id", cat.config.item_path("retired", i));
        if let Some(line) = cat.config.positions.line_of(&path) {
            out.entry(r.id.as_str()).or_insert(line);
        }
    }
    out
}
