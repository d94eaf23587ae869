//! The rules ARCHITECTURE.md states about the code, each a function from the parsed tree to
//! the places that break it. Every message names the file, the line and the rule.

use super::tree::{At, Target, Tree, Written};
use std::collections::{BTreeMap, BTreeSet};

/// The layer order: lowest first, each a description and its top-level modules.
pub type Layers<'a> = &'a [(&'a str, &'a [&'a str])];

fn layer_of<'a>(layers: Layers<'a>, module: &str) -> Option<(usize, &'a str)> {
    layers
        .iter()
        .enumerate()
        .find(|(_, (_, mods))| mods.contains(&module))
        .map(|(i, (name, _))| (i, *name))
}

fn top(module: &[String]) -> Option<&str> {
    module.first().map(String::as_str)
}

/// (1) A top-level module uses only modules of strictly lower layers; a module without a layer
/// must be placed.
pub fn layering(tree: &Tree, layers: Layers<'_>) -> Vec<String> {
    let mut out = BTreeSet::new();
    let tops: BTreeSet<&str> = tree.modules.iter().filter_map(|m| top(m)).collect();
    for t in tops {
        if layer_of(layers, t).is_none() {
            out.insert(format!(
                "src/{t}: module `{t}` has no layer; place it in LAYERS (tests/suite/architecture/mod.rs) and in ARCHITECTURE.md"
            ));
        }
    }
    for r in &tree.references {
        let (Some(own), Target::Crate(path)) = (top(&r.module), &r.target) else {
            continue;
        };
        let Some(used) = top(path) else { continue };
        if used == own {
            continue;
        }
        let (Some((mine, mine_name)), Some((theirs, their_name))) =
            (layer_of(layers, own), layer_of(layers, used))
        else {
            continue;
        };
        if theirs >= mine {
            out.insert(format!(
                "{}: `{own}` ({mine_name}) uses `crate::{used}` ({their_name}); a module may use only lower layers — data flows one way and no import cycle may form",
                r.at
            ));
        }
    }
    out.into_iter().collect()
}

/// A circle of imports between the parts of one top-level module (its files and folders).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circle {
    pub module: String,
    /// The parts, sorted; `mod` is the module's own file (`mod.rs`).
    pub parts: Vec<String>,
    /// One reference for each edge of the circle, where it is written.
    pub edges: Vec<(String, String, At)>,
}

/// The part of `module` a path belongs to: the child of the top-level module, or `mod`.
fn part(path: &[String]) -> String {
    path.get(1).cloned().unwrap_or_else(|| "mod".into())
}

/// Every circle of imports inside a top-level module: the strongly connected parts of the
/// graph whose nodes are a module's children (files and folders) and its own file. A module's
/// `pub use` of its own child (the façade of the module) is not an edge.
pub fn circles(tree: &Tree) -> Vec<Circle> {
    let mut edges: BTreeMap<String, BTreeMap<(String, String), At>> = BTreeMap::new();
    for r in &tree.references {
        let (Some(own), Target::Crate(path)) = (top(&r.module), &r.target) else {
            continue;
        };
        if top(path) != Some(own) {
            continue;
        }
        let module_part = module_prefix(tree, path);
        let (from, to) = (part(&r.module), part(module_part));
        let facade = matches!(r.written, Written::Use { public: true })
            && module_part.len() > r.module.len()
            && module_part.starts_with(&r.module);
        if from != to && !facade {
            edges
                .entry(own.to_string())
                .or_default()
                .entry((from, to))
                .or_insert_with(|| r.at.clone());
        }
    }
    let mut out = Vec::new();
    for (module, e) in edges {
        for scc in strongly_connected(&e) {
            let members: BTreeSet<&String> = scc.iter().collect();
            let edges = e
                .iter()
                .filter(|((a, b), _)| members.contains(a) && members.contains(b))
                .map(|((a, b), at)| (a.clone(), b.clone(), at.clone()))
                .collect();
            out.push(Circle {
                module: module.clone(),
                parts: scc,
                edges,
            });
        }
    }
    out
}

fn module_prefix<'p>(tree: &Tree, path: &'p [String]) -> &'p [String] {
    let n = (0..=path.len())
        .rev()
        .find(|n| tree.modules.contains(&path[..*n]))
        .unwrap_or(0);
    &path[..n]
}

/// The strongly connected components with more than one node, each sorted (Tarjan's).
fn strongly_connected(edges: &BTreeMap<(String, String), At>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
        next.entry(b).or_default();
    }
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(v: &'a str, next: &BTreeMap<&'a str, Vec<&'a str>>, s: &mut State<'a>) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in next.get(v).map(Vec::as_slice).unwrap_or(&[]) {
            if !s.index.contains_key(w) {
                visit(w, next, s);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                scc.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                s.out.push(scc);
            }
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in next.keys() {
        if !s.index.contains_key(v) {
            visit(v, &next, &mut s);
        }
    }
    s.out.sort();
    s.out
}

/// (2) The ratchet on circles: each circle found must lie inside one listed for its module
/// (`known`: module and parts); one that does not is new or larger and fails with its edges. A
/// listed circle that is now smaller, or gone, fails too: shrink the list to what is left.
pub fn circle_ratchet(found: &[Circle], known: &[(&str, &[&str])]) -> Vec<String> {
    let mut out = Vec::new();
    for c in found {
        let listed = known.iter().any(|(m, parts)| {
            *m == c.module && c.parts.iter().all(|p| parts.contains(&p.as_str()))
        });
        if !listed {
            let edges: Vec<String> = c
                .edges
                .iter()
                .map(|(a, b, at)| format!("{at}: `{a}` uses `{b}`"))
                .collect();
            out.push(format!(
                "{}: the parts [{}] of `{}` import each other in a circle that CIRCLES does not list (new, or larger than the one listed); break it so data flows one way inside the module:\n  {}",
                c.edges.first().map(|(_, _, at)| at.to_string()).unwrap_or_default(),
                c.parts.join(", "),
                c.module,
                edges.join("\n  ")
            ));
        }
    }
    for (m, parts) in known {
        let now: Vec<&Circle> = found
            .iter()
            .filter(|c| c.module == *m && c.parts.iter().all(|p| parts.contains(&p.as_str())))
            .collect();
        let same = now.len() == 1 && now[0].parts.len() == parts.len();
        if !same {
            let left: Vec<String> = now
                .iter()
                .map(|c| format!("[{}]", c.parts.join(", ")))
                .collect();
            out.push(format!(
                "tests/suite/architecture/mod.rs: the circle [{}] of `{m}` listed in CIRCLES is now {}; shrink CIRCLES to what is left",
                parts.join(", "),
                if left.is_empty() { "gone".to_string() } else { left.join(" and ") }
            ));
        }
    }
    out
}

/// (3) Each top-level module uses only the external crates its row of `allowed` names (the
/// standard library always). The crate roots (`lib.rs`, `main.rs`) only wire modules.
pub fn external_crates(tree: &Tree, allowed: &[(&str, &[&str])]) -> Vec<String> {
    // One finding per file and crate, at its first use.
    let mut first: BTreeMap<(&str, &str), (&At, &str)> = BTreeMap::new();
    for r in &tree.references {
        let (Some(own), Target::External { krate, .. }) = (top(&r.module), &r.target) else {
            continue;
        };
        if ["std", "core", "alloc"].contains(&krate.as_str()) {
            continue;
        }
        let row = allowed.iter().find(|(m, _)| *m == own);
        if !row.is_some_and(|(_, crates)| crates.contains(&krate.as_str())) {
            let seen = first
                .entry((r.at.file.as_str(), krate.as_str()))
                .or_insert((&r.at, own));
            if r.at.line < seen.0.line {
                *seen = (&r.at, own);
            }
        }
    }
    first
        .into_iter()
        .map(|((_, krate), (at, own))| {
            format!(
                "{at}: `{own}` uses the crate `{krate}`, which its row of CRATES does not name; a module uses only the crates its row allows (tests/suite/architecture/mod.rs)"
            )
        })
        .collect()
}

/// What writes a file, by the path of the function or type in the standard library.
const WRITES: &[&[&str]] = &[
    &["fs", "write"],
    &["fs", "rename"],
    &["fs", "copy"],
    &["fs", "create_dir"],
    &["fs", "create_dir_all"],
    &["fs", "remove_file"],
    &["fs", "remove_dir"],
    &["fs", "remove_dir_all"],
    &["fs", "hard_link"],
    &["fs", "set_permissions"],
    &["fs", "soft_link"],
    &["fs", "File", "create"],
    &["fs", "File", "create_new"],
    &["fs", "DirBuilder"],
    &["os", "unix", "fs", "symlink"],
];

/// Methods that make an `OpenOptions` write, and tempfile's way of keeping a file.
const WRITING_OPTIONS: &[&str] = &["write", "append", "create", "create_new", "truncate"];
const KEEPS_A_TEMPORARY_FILE: &[&str] = &["persist", "persist_noclobber", "keep"];

fn is_allowed(file: &str, allowed: &[&str]) -> bool {
    allowed.iter().any(|a| file.starts_with(a))
}

/// (4) No file is written outside the files `allowed` (`src/write/`, and the exceptions the
/// table names with their reason).
pub fn file_writes(tree: &Tree, allowed: &[&str]) -> Vec<String> {
    let mut out = BTreeSet::new();
    let mut opens_options: BTreeSet<&str> = BTreeSet::new();
    for r in &tree.references {
        let Target::External { krate, path } = &r.target else {
            continue;
        };
        if krate != "std" || is_allowed(&r.at.file, allowed) {
            continue;
        }
        if path.starts_with(&["fs".to_string(), "OpenOptions".to_string()]) {
            opens_options.insert(&r.at.file);
        }
        if WRITES
            .iter()
            .any(|w| path.iter().map(String::as_str).eq(w.iter().copied()))
        {
            out.insert(format!(
                "{}: `std::{}` writes a file outside src/write/; every file write goes through `write` (ARCHITECTURE.md, invariant 3)",
                r.at,
                path.join("::")
            ));
        }
    }
    for i in &tree.invocations {
        if i.macro_call || is_allowed(&i.at.file, allowed) {
            continue;
        }
        let writing_option = i.given_true
            && WRITING_OPTIONS.contains(&i.name.as_str())
            && opens_options.contains(i.at.file.as_str());
        if writing_option || KEEPS_A_TEMPORARY_FILE.contains(&i.name.as_str()) {
            out.insert(format!(
                "{}: `.{}(…)` writes a file outside src/write/; every file write goes through `write` (ARCHITECTURE.md, invariant 3)",
                i.at, i.name
            ));
        }
    }
    out.into_iter().collect()
}

const PRINTS: &[&str] = &["print", "println", "eprint", "eprintln", "dbg"];
const STREAMS: &[&[&str]] = &[&["io", "stdout"], &["io", "stderr"]];

/// (5) Nothing prints outside the files `allowed` (`src/cli/output.rs`): no print macro and no
/// handle on stdout or stderr.
pub fn printing(tree: &Tree, allowed: &[&str]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for i in &tree.invocations {
        if i.macro_call && PRINTS.contains(&i.name.as_str()) && !is_allowed(&i.at.file, allowed) {
            out.insert(format!(
                "{}: `{}!` prints outside src/cli/output.rs; every byte to stdout and stderr goes through `cli::output` (ARCHITECTURE.md, invariant 4)",
                i.at, i.name
            ));
        }
    }
    for r in &tree.references {
        let Target::External { krate, path } = &r.target else {
            continue;
        };
        if krate == "std"
            && STREAMS
                .iter()
                .any(|s| path.iter().map(String::as_str).eq(s.iter().copied()))
            && !is_allowed(&r.at.file, allowed)
        {
            out.insert(format!(
                "{}: `std::{}` opens a standard stream outside src/cli/output.rs; every byte to stdout and stderr goes through `cli::output` (ARCHITECTURE.md, invariant 4)",
                r.at,
                path.join("::")
            ));
        }
    }
    out.into_iter().collect()
}

/// (6) No `pub use` forwards an item of another top-level module: callers name the owner. The
/// crate root (`lib.rs`, the façade) is the exception.
pub fn forwarding(tree: &Tree) -> Vec<String> {
    let mut out = BTreeSet::new();
    for r in &tree.references {
        let (Some(own), Target::Crate(path), Written::Use { public: true }) =
            (top(&r.module), &r.target, r.written)
        else {
            continue;
        };
        let Some(theirs) = top(path) else { continue };
        if theirs != own {
            out.insert(format!(
                "{}: `pub use crate::{}` in `{own}` forwards an item of `{theirs}`; callers name the owner, so a move leaves no old door open",
                r.at,
                path.join("::")
            ));
        }
    }
    out.into_iter().collect()
}
