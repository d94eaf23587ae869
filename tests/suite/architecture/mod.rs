//! What ARCHITECTURE.md says about the code, checked on the code: the layer order of the
//! top-level modules, a ratchet on import circles inside each module, which external crates
//! each module may use, that only `write` writes files, that only `cli::output` prints, and
//! that no `pub use` forwards another module's item. Every `src/**/*.rs` is parsed with syn
//! (`tree`); each rule is a function over the parsed tree (`rules`), run here on the crate and
//! in `planted` on small trees that break it.

mod planted;
mod rules;
mod tree;

use std::collections::BTreeSet;
use std::path::Path;
use tree::Source;

/// Lowest first. A module may use modules of strictly lower layers only; modules that share a
/// layer may not use each other. A new top-level module fails `the_layers_hold` until it is
/// placed here and in ARCHITECTURE.md.
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
        "the graph, selections over the model, evidence about a server",
        &["graph", "select", "evidence"],
    ),
    ("lint passes", &["lint"]),
    ("audits of a profile and its results", &["audit"]),
    (
        "fleets: registry entries, shards, run files, buckets",
        &["fleet"],
    ),
    ("editor schemas", &["json_schema"]),
    ("renderers", &["render"]),
    ("document claims, diffs", &["claims", "diff"]),
    ("fixes as text edits", &["fix"]),
    (
        "multi-file maintenance (new, retire, rename)",
        &["maintain"],
    ),
    ("the pipeline", &["session"]),
    ("adoption and declared expectations", &["init", "expect"]),
    ("the language server", &["lsp"]),
    ("the MCP server", &["serve"]),
    (
        "commands, and the binary's entry point",
        &["cli", "testgen", "main"],
    ),
];

/// The import circles between the parts (files and folders) of a module as they stand. A new
/// circle, or a larger one, fails `no_new_circle_inside_a_module`; when one shrinks or goes,
/// the test says so and this list shrinks with it.
const CIRCLES: &[(&str, &[&str])] = &[
    (
        "cli",
        &[
            "applicability",
            "args",
            "audit",
            "collect",
            "collect_fleet",
            "common",
            "completions",
            "inputs",
            "merge",
            "portfolio",
            "probe",
            "probe_portfolio",
            "profile",
            "registry",
            "scan",
            "schema",
            "site",
        ],
    ),
    ("cli", &["elsewhere", "sync"]),
    ("dsl", &["analysis", "typeck"]),
    ("dsl", &["lexer", "parser"]),
    (
        "fix",
        &[
            "claims",
            "frontmatter",
            "links",
            "manifest",
            "mod",
            "regions",
            "sections",
        ],
    ),
    ("load", &["markdown", "outline_cache"]),
    ("load", &["mod", "phases"]),
    (
        "lsp",
        &["actions", "complete", "hover", "mod", "navigate", "symbols"],
    ),
    ("model", &["catalogue", "check", "fields"]),
    ("render", &["diagnostics", "emit", "sarif"]),
    ("session", &["claims_file", "mod"]),
];

/// The external crates each top-level module may use, as the code names them (`-` written
/// `_`); the standard library always. A module without a row may use none. `clap` is the
/// command line's alone, rayon belongs to `par`, the protocol crates to `probe`, `lsp` and `serve`.
const CRATES: &[(&str, &[&str])] = &[
    (
        "text",
        &[
            "memchr",
            "pulldown_cmark",
            "regex",
            "serde_yaml",
            "sha2",
            "strsim",
            "yaml_rust2",
        ],
    ),
    ("diag", &["serde"]),
    ("par", &["rayon"]),
    ("dsl", &["regex", "schemars", "serde"]),
    (
        "model",
        &[
            "ast_grep_config",
            "ast_grep_language",
            "compact_str",
            "globset",
            "jsonschema",
            "regex",
            "schemars",
            "serde",
            "serde_json",
            "serde_yaml",
        ],
    ),
    ("snapshot", &["serde", "serde_json", "sha2"]),
    (
        "load",
        &[
            "compact_str",
            "gray_matter",
            "libc",
            "memchr",
            "postcard",
            "pulldown_cmark",
            "regex",
            "serde",
            "serde_json",
            "serde_yaml",
            "sha2",
            "thiserror",
        ],
    ),
    ("write", &["serde", "serde_json", "tempfile", "libc"]),
    ("graph", &["compact_str", "petgraph", "serde"]),
    ("select", &[]),
    ("evidence", EVIDENCE),
    ("lint", &["regex", "memchr"]),
    ("audit", &["serde", "serde_json"]),
    ("fleet", &["serde", "serde_json", "sha2"]),
    ("json_schema", &["regex", "schemars", "serde_json"]),
    (
        "render",
        &[
            "codespan_reporting",
            "serde",
            "serde_json",
            "tera",
            "termcolor",
        ],
    ),
    (
        "claims",
        &["pulldown_cmark", "regex", "serde_json", "similar"],
    ),
    ("diff", &["serde"]),
    ("fix", &["serde", "similar"]),
    ("maintain", &["serde", "serde_json", "tera"]),
    ("init", &["regex", "serde_json"]),
    ("expect", &["serde", "serde_json", "similar"]),
    (
        "lsp",
        &[
            "lsp_server",
            "lsp_types",
            "memchr",
            "serde_json",
            "crossbeam_channel",
        ],
    ),
    (
        "serve",
        &[
            "hyper",
            "hyper_util",
            "rmcp",
            "schemars",
            "serde",
            "serde_json",
            "strsim",
            "tera",
            "tokio",
        ],
    ),
    (
        "cli",
        &[
            "clap",
            "clap_complete",
            "clap_mangen",
            "crossbeam_channel",
            "futures",
            "lsp_server",
            "serde",
            "serde_json",
            "strsim",
            "tera",
            "thiserror",
            "tokio",
        ],
    ),
    ("main", &["auditbook"]),
];

/// What observes a server (the probe today, the evidence family it grows into): the protocol
/// clients, schemas, digests and the readers of a server's own manifests and source.
const EVIDENCE: &[&str] = &[
    "tokio",
    "reqwest",
    "rustls",
    "rcgen",
    "futures",
    "jsonschema",
    "libc",
    "sha2",
    "serde",
    "serde_json",
    "serde_yaml",
    "regex",
    "ast_grep_core",
    "ast_grep_config",
    "ast_grep_language",
    "aho_corasick",
    "regex_syntax",
    "pep508_rs",
    "toml",
    "base64",
    "memchr",
    "tempfile",
    "globset",
];

/// Where files may be written: `write`, and the synthetic catalogues of the benchmarks, which
/// fill a fresh folder with up to 100,000 files and are compiled only with the `testgen`
/// feature.
const WRITERS: &[&str] = &["src/write/", "src/testgen.rs"];

/// Where stdout and stderr may be written.
const PRINTERS: &[&str] = &["src/cli/output.rs"];

fn sources() -> Vec<Source> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("src/ is readable")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    files
        .into_iter()
        .map(|p| Source {
            file: p
                .strip_prefix(root)
                .expect("under the package")
                .to_string_lossy()
                .replace('\\', "/"),
            text: std::fs::read_to_string(&p).expect("a source file is UTF-8"),
        })
        .collect()
}

/// The package's dependencies (`[dependencies]` of Cargo.toml, `-` written `_`) and itself,
/// which the binary uses.
fn crates() -> BTreeSet<String> {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .expect("Cargo.toml is readable");
    let mut out = BTreeSet::from(["auditbook".to_string()]);
    let mut inside = false;
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t == "[dependencies]";
        } else if inside {
            if let Some((name, _)) = t.split_once('=') {
                if !name.trim().is_empty() && !t.starts_with('#') {
                    out.insert(name.trim().replace('-', "_"));
                }
            }
        }
    }
    out
}

/// The crate's tree, parsed once for all the rules.
fn the_tree() -> &'static tree::Tree {
    static TREE: std::sync::OnceLock<tree::Tree> = std::sync::OnceLock::new();
    TREE.get_or_init(|| {
        let t = tree::parse(&sources(), &crates());
        assert!(t.unparsed.is_empty(), "{}", t.unparsed.join("\n"));
        assert!(
            t.modules.iter().filter(|m| m.len() == 1).count() > 15,
            "the crate's modules were found: {:?}",
            t.modules
        );
        t
    })
}

fn hold(rule: &str, found: Vec<String>) {
    assert!(found.is_empty(), "{rule}:\n{}", found.join("\n"));
}

#[test]
fn the_layers_hold() {
    hold("layering broken", rules::layering(the_tree(), LAYERS));
}

#[test]
fn no_new_circle_inside_a_module() {
    hold(
        "circles inside modules",
        rules::circle_ratchet(&rules::circles(the_tree()), CIRCLES),
    );
}

#[test]
fn each_module_uses_only_its_crates() {
    hold(
        "external crates",
        rules::external_crates(the_tree(), CRATES),
    );
}

#[test]
fn only_write_writes_files() {
    hold("file writes", rules::file_writes(the_tree(), WRITERS));
}

#[test]
fn only_the_output_writer_prints() {
    hold("printing", rules::printing(the_tree(), PRINTERS));
}

#[test]
fn no_pub_use_forwards_another_modules_item() {
    hold("forwarding re-exports", rules::forwarding(the_tree()));
}
