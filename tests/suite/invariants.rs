//! The invariants ARCHITECTURE.md states about where I/O happens, held by reading the sources:
//! only `cli::output` prints, only `write` writes files, only `confine` turns a path read
//! from a file into one to open. (Unit-test modules at the end of a file are not scanned.)

use std::path::{Path, PathBuf};

fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
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
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, code)
        })
        .collect()
}

/// Lines of code (not comments) containing `needle`, outside the allowed files.
fn offenders(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    scan(sources(), needles, allowed)
}

fn scan(sources: Vec<(String, String)>, needles: &[&str], allowed: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (file, code) in sources {
        if allowed.iter().any(|a| file.starts_with(a)) {
            continue;
        }
        for (i, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") {
                continue;
            }
            if needles.iter().any(|n| line.contains(n)) {
                out.push(format!("{file}:{}: {}", i + 1, t));
            }
        }
    }
    out
}

#[test]
fn only_the_output_writer_prints() {
    let found = offenders(
        &["println!", "eprintln!", "print!(", "eprint!(", "dbg!("],
        &["src/cli/output.rs", "src/main.rs"],
    );
    assert!(
        found.is_empty(),
        "printing outside cli::output:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_writer_writes_files() {
    let found = offenders(
        &[
            "fs::write(",
            "fs::rename(",
            "File::create(",
            "fs::remove_file(",
            ".persist(",
        ],
        // The benchmark generator fills fresh folders with up to 100,000 files; see its comment.
        &["src/write/", "src/testgen.rs"],
    );
    assert!(
        found.is_empty(),
        "file writes outside write:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_planted_violation_is_caught_and_a_comment_is_not() {
    let planted = vec![
        (
            "src/lint/x.rs".to_string(),
            "fn f() {\n    println!(\"x\");\n}\n".to_string(),
        ),
        (
            "src/lint/y.rs".to_string(),
            "// println! in a comment\n".to_string(),
        ),
        (
            "src/cli/output.rs".to_string(),
            "fn g() { eprintln!(\"ok\"); }\n".to_string(),
        ),
    ];
    let found = scan(planted, &["println!"], &["src/cli/output.rs"]);
    assert_eq!(found, ["src/lint/x.rs:2: println!(\"x\");"]);
}
