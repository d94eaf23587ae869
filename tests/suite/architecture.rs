//! The layering of the crate, enforced: every module may use only modules of lower layers, so
//! data flows one way (read → model → judge → render → commands) and no import cycle can
//! form. The order is ARCHITECTURE.md's; a module added to the crate must be placed here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Lowest first. A module may use modules of strictly lower layers only; modules that share a
/// layer may not use each other.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "leaves: text helpers, the diagnostic type, when to work in parallel, the path fence",
        &["text", "diag", "par", "confine"],
    ),
    ("the applies_when language", &["dsl"]),
    ("the model and the facts of the format", &["model"]),
    ("snapshot records of a model", &["snapshot"]),
    ("loading files into the model", &["load"]),
    ("writing files", &["write"]),
    (
        "the graph and selections over the model",
        &["graph", "select"],
    ),
    ("lint passes", &["lint"]),
    ("audits of a profile and its results", &["audit"]),
    ("editor schemas", &["json_schema"]),
    ("renderers", &["render"]),
    (
        "document claims, probes, diffs",
        &["claims", "probe", "diff"],
    ),
    ("fixes as text edits", &["fix"]),
    (
        "multi-file maintenance (new, retire, rename)",
        &["maintain"],
    ),
    ("the pipeline", &["session"]),
    ("adoption and declared expectations", &["init", "expect"]),
    ("the language server", &["lsp"]),
    ("commands", &["cli", "testgen"]),
];

fn layer_of(module: &str) -> Option<(usize, &'static str)> {
    LAYERS
        .iter()
        .enumerate()
        .find(|(_, (_, mods))| mods.contains(&module))
        .map(|(i, (name, _))| (i, *name))
}

/// The source without its unit-test module (tests may reach anywhere).
fn without_tests(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// Every `crate::NAME` a source uses, with its 1-based line, `use crate::{a, b}` included.
fn uses(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in without_tests(text).lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    let name: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push((i + 1, name));
                    }
                }
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push((i + 1, name));
                }
            }
            rest = after;
        }
    }
    out
}

/// The violations in one source file of module `module`.
fn violations(file: &str, module: &str, text: &str) -> Vec<String> {
    let Some((own, own_name)) = layer_of(module) else {
        return vec![format!(
            "{file}: module `{module}` has no layer; place it in tests/suite/architecture.rs and ARCHITECTURE.md"
        )];
    };
    let mut out = Vec::new();
    for (line, used) in uses(text) {
        if used == module || used == "self" || used == "super" {
            continue;
        }
        let Some((theirs, their_name)) = layer_of(&used) else {
            continue;
        };
        if theirs >= own {
            out.push(format!(
                "{file}:{line}: `{module}` ({own_name}) uses `crate::{used}` ({their_name}); \
                 a module may use only lower layers — data flows one way and no import cycle may form"
            ));
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut found = Vec::new();
    let mut modules: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "lib.rs" || rel == "main.rs" {
            continue;
        }
        let module = rel
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        *modules.entry(module.clone()).or_default() += 1;
        let text = std::fs::read_to_string(f).unwrap();
        found.extend(violations(&format!("src/{rel}"), &module, &text));
    }
    assert!(
        modules.len() > 10,
        "the crate's modules were found: {modules:?}"
    );
    assert!(found.is_empty(), "layering broken:\n{}", found.join("\n"));
}

#[test]
fn a_planted_backward_import_is_caught_and_named() {
    let planted = "use crate::diag::Diagnostic;\nfn f() { crate::render::templates::Templates::new(None); }\n";
    let found = violations("src/model/planted.rs", "model", planted);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("src/model/planted.rs:2: `model`"),
        "{}",
        found[0]
    );
    assert!(found[0].contains("uses `crate::render`"), "{}", found[0]);
    // Grouped imports and same-layer use are caught too; tests inside a module are not.
    let grouped = "use crate::{diag, lint::run};\n";
    assert_eq!(violations("src/graph.rs", "graph", grouped).len(), 1);
    assert_eq!(
        violations("src/graph.rs", "graph", "use crate::select::x;\n").len(),
        1
    );
    let in_tests = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::cli::x;\n}\n";
    assert!(violations("src/graph.rs", "graph", in_tests).is_empty());
    // A new module must be placed.
    assert_eq!(violations("src/brand_new.rs", "brand_new", "").len(), 1);
}
