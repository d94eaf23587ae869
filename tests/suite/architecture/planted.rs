//! Each rule on a small tree that breaks it, and on its clean twin: the violation is found and
//! named (file, line, rule); what the rule allows is not.

use super::rules::{self, Circle};
use super::tree::{self, Source, Tree};
use super::{CRATES, LAYERS, PRINTERS, WRITERS};
use std::collections::BTreeSet;

fn planted(files: &[(&str, &str)]) -> Tree {
    let sources: Vec<Source> = files
        .iter()
        .map(|(f, t)| Source {
            file: f.to_string(),
            text: t.to_string(),
        })
        .collect();
    let crates: BTreeSet<String> = ["clap", "regex", "serde", "tokio"]
        .iter()
        .map(|c| c.to_string())
        .collect();
    let t = tree::parse(&sources, &crates);
    assert!(t.unparsed.is_empty(), "{:?}", t.unparsed);
    t
}

#[test]
fn a_backward_import_is_found_however_it_is_written() {
    let t = planted(&[
        (
            "src/model/planted.rs",
            "use crate::diag::Diagnostic;\n\
             fn f() {\n    crate::render::templates::Templates::new(None);\n}\n",
        ),
        // A wrapped and nested group.
        (
            "src/graph.rs",
            "use crate::{\n    diag,\n    lint::{run, Head},\n};\n",
        ),
        // `super::super` from a nested file, and a path inside a macro's tokens.
        (
            "src/load/a/b.rs",
            "use super::super::super::audit::Run;\n\
             fn g() -> String {\n    format!(\"{}\", crate::cli::name())\n}\n",
        ),
        // Unit tests may reach anywhere.
        (
            "src/text/x.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::cli::Cli;\n}\n",
        ),
        ("src/brand_new.rs", "fn f() {}\n"),
    ]);
    let found = rules::layering(&t, LAYERS);
    assert_eq!(
        found,
        [
            "src/brand_new: module `brand_new` has no layer; place it in LAYERS (tests/suite/architecture/mod.rs) and in ARCHITECTURE.md",
            "src/graph.rs:3: `graph` (the graph, selections over the model, evidence about a server) uses `crate::lint` (lint passes); a module may use only lower layers — data flows one way and no import cycle may form",
            "src/load/a/b.rs:1: `load` (loading files into the model) uses `crate::audit` (audits of a profile and its results); a module may use only lower layers — data flows one way and no import cycle may form",
            "src/load/a/b.rs:3: `load` (loading files into the model) uses `crate::cli` (commands, and the binary's entry point); a module may use only lower layers — data flows one way and no import cycle may form",
            "src/model/planted.rs:3: `model` (the model and the facts of the format) uses `crate::render` (renderers); a module may use only lower layers — data flows one way and no import cycle may form",
        ]
    );
    // The clean twin: only lower layers, through every way of writing a path.
    let clean = planted(&[
        (
            "src/lint/ok.rs",
            "use crate::{\n    diag::{self, Diagnostic},\n    model::Check,\n};\n\
             use super::super::graph::Graph;\nfn f() { crate::text::suggest::suggest(\"a\", []); }\n",
        ),
        ("src/lint/mod.rs", "mod ok;\n"),
    ]);
    assert_eq!(rules::layering(&clean, LAYERS), Vec::<String>::new());
}

fn circle_tree() -> Tree {
    planted(&[
        ("src/m/mod.rs", "mod a;\nmod b;\nmod c;\npub use a::A;\n"),
        ("src/m/a.rs", "use super::b::B;\npub struct A;\n"),
        (
            "src/m/b.rs",
            "pub struct B;\nfn f() -> super::A { super::A }\n",
        ),
        ("src/m/c.rs", "use super::a::A;\n"),
    ])
}

#[test]
fn a_new_circle_fails_a_listed_one_passes_and_a_shrunk_one_asks_for_the_list_to_shrink() {
    let t = circle_tree();
    let found = rules::circles(&t);
    // `super::A` is `a::A` through the module's own re-export, which is no edge itself.
    assert_eq!(
        found,
        [Circle {
            module: "m".into(),
            parts: vec!["a".into(), "b".into()],
            edges: vec![
                ("a".into(), "b".into(), at("src/m/a.rs", 1)),
                ("b".into(), "a".into(), at("src/m/b.rs", 2)),
            ],
        }]
    );
    assert_eq!(
        rules::circle_ratchet(&found, &[]),
        ["src/m/a.rs:1: the parts [a, b] of `m` import each other in a circle that CIRCLES does not list (new, or larger than the one listed); break it so data flows one way inside the module:\n  src/m/a.rs:1: `a` uses `b`\n  src/m/b.rs:2: `b` uses `a`"]
    );
    assert!(rules::circle_ratchet(&found, &[("m", &["a", "b"])]).is_empty());
    assert_eq!(
        rules::circle_ratchet(&found, &[("m", &["a", "b", "c"])]),
        ["tests/suite/architecture/mod.rs: the circle [a, b, c] of `m` listed in CIRCLES is now [a, b]; shrink CIRCLES to what is left"]
    );
    // A larger circle than the one listed fails like a new one.
    let larger = planted(&[
        ("src/m/mod.rs", "mod a;\nmod b;\nmod c;\n"),
        ("src/m/a.rs", "use super::b::B;\n"),
        ("src/m/b.rs", "use super::c::C;\n"),
        ("src/m/c.rs", "use super::a::A;\n"),
    ]);
    let found = rules::circles(&larger);
    assert_eq!(
        rules::circle_ratchet(&found, &[("m", &["a", "b"])]).len(),
        2
    );
    // One direction is no circle.
    let clean = planted(&[
        ("src/m/mod.rs", "mod a;\nmod b;\n"),
        ("src/m/a.rs", "use super::b::B;\n"),
        ("src/m/b.rs", "pub struct B;\n"),
    ]);
    assert!(rules::circles(&clean).is_empty());
}

fn at(file: &str, line: usize) -> tree::At {
    tree::At {
        file: file.into(),
        line,
    }
}

#[test]
fn a_crate_outside_a_modules_row_is_found() {
    let t = planted(&[
        (
            "src/audit/verdict.rs",
            "#[derive(Clone, Copy, clap::ValueEnum)]\npub enum Policy { FailOnly }\n",
        ),
        (
            "src/diag/x.rs",
            "fn f() {\n    let _ = regex::Regex::new(\"a\");\n}\n",
        ),
        ("src/cli/args.rs", "use clap::Parser;\n"),
        (
            "src/evidence/probe/observe.rs",
            "async fn f() { tokio::task::yield_now().await }\n",
        ),
    ]);
    assert_eq!(
        rules::external_crates(&t, CRATES),
        [
            "src/audit/verdict.rs:1: `audit` uses the crate `clap`, which its row of CRATES does not name; a module uses only the crates its row allows (tests/suite/architecture/mod.rs)",
            "src/diag/x.rs:2: `diag` uses the crate `regex`, which its row of CRATES does not name; a module uses only the crates its row allows (tests/suite/architecture/mod.rs)",
        ]
    );
}

#[test]
fn a_file_write_outside_write_is_found() {
    let t = planted(&[
        (
            "src/lint/x.rs",
            "use std::fs;\n\
             fn f(p: &std::path::Path) {\n\
             \x20   std::fs::write(p, \"x\").ok();\n\
             \x20   fs::create_dir_all(p).ok();\n\
             \x20   let mut o = std::fs::OpenOptions::new();\n\
             \x20   o.write(true);\n\
             }\n",
        ),
        (
            "src/load/y.rs",
            "fn f() { let mut o = std::fs::OpenOptions::new(); o.read(true); }\n",
        ),
        (
            "src/write/ok.rs",
            "fn f() { std::fs::rename(\"a\", \"b\").ok(); }\n",
        ),
    ]);
    assert_eq!(
        rules::file_writes(&t, WRITERS),
        [
            "src/lint/x.rs:3: `std::fs::write` writes a file outside src/write/; every file write goes through `write` (ARCHITECTURE.md, invariant 3)",
            "src/lint/x.rs:4: `std::fs::create_dir_all` writes a file outside src/write/; every file write goes through `write` (ARCHITECTURE.md, invariant 3)",
            "src/lint/x.rs:6: `.write(…)` writes a file outside src/write/; every file write goes through `write` (ARCHITECTURE.md, invariant 3)",
        ]
    );
}

#[test]
fn printing_outside_the_output_writer_is_found_and_a_comment_is_not() {
    let t = planted(&[
        (
            "src/lint/x.rs",
            "use std::io;\n\
             // println!(\"in a comment\");\n\
             fn f() {\n\
             \x20   println!(\"x\");\n\
             \x20   let _ = io::stdout();\n\
             \x20   let _ = std::io::stderr();\n\
             }\n",
        ),
        ("src/cli/output.rs", "fn g() { eprintln!(\"ok\"); }\n"),
    ]);
    assert_eq!(
        rules::printing(&t, PRINTERS),
        [
            "src/lint/x.rs:4: `println!` prints outside src/cli/output.rs; every byte to stdout and stderr goes through `cli::output` (ARCHITECTURE.md, invariant 4)",
            "src/lint/x.rs:5: `std::io::stdout` opens a standard stream outside src/cli/output.rs; every byte to stdout and stderr goes through `cli::output` (ARCHITECTURE.md, invariant 4)",
            "src/lint/x.rs:6: `std::io::stderr` opens a standard stream outside src/cli/output.rs; every byte to stdout and stderr goes through `cli::output` (ARCHITECTURE.md, invariant 4)",
        ]
    );
}

#[test]
fn a_pub_use_of_another_modules_item_is_found() {
    let t = planted(&[
        (
            "src/load/check.rs",
            "pub use crate::text::suggest::suggest;\n\
             pub(crate) use crate::model::{\n    Check,\n};\n\
             pub use super::markdown::Outline;\n\
             use crate::diag::Diagnostic;\n",
        ),
        ("src/load/mod.rs", "mod check;\nmod markdown;\n"),
        (
            "src/lib.rs",
            "pub mod session;\npub use session::Session;\n",
        ),
    ]);
    assert_eq!(
        rules::forwarding(&t),
        [
            "src/load/check.rs:1: `pub use crate::text::suggest::suggest` in `load` forwards an item of `text`; callers name the owner, so a move leaves no old door open",
            "src/load/check.rs:3: `pub use crate::model::Check` in `load` forwards an item of `model`; callers name the owner, so a move leaves no old door open",
        ]
    );
}
