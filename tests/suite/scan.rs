//! `auditbook scan`: the structural rules and file facts of `tests/fixtures/scan` over planted
//! source trees and their clean twins — every finding with file, line, column and the code;
//! a signal waits for triage, a decision follows the code; a language no rule covers is "not
//! scanned", never a pass; a bad rule is a lint finding at its line.

use crate::common;

use common::auditbook;
use serde_json::Value;
use std::path::Path;

fn catalogue() -> std::path::PathBuf {
    common::fixture_dir("scan")
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = dir.join(path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(p, text).unwrap();
    }
}

const PLANTED: &[(&str, &str)] = &[
    ("pyproject.toml", "[project]\nname = \"recs-mcp\"\nversion = \"0.4.1\"\ndependencies = [\"mcp[cli]>=1.25\", \"httpx>=0.27,<1\"]\n"),
    ("src/recs/__init__.py", "__version__ = \"0.4.0\"\n"),
    ("src/recs/server.py", "import httpx\n\nHEADERS = {'User-Agent': 'recs-mcp/0.3.9 (+https://example.org)'}\n\ndef fetch(q):\n    try:\n        return httpx.get(\"https://example.org\", headers=HEADERS).json()\n    except Exception as e:\n        return {\"error\": str(e)}\n"),
];

const CLEAN: &[(&str, &str)] = &[
    ("pyproject.toml", "[project]\nname = \"recs-mcp\"\nversion = \"0.4.1\"\ndependencies = [\"mcp[cli]>=2.3,<3\", \"httpx>=0.27,<1\"]\n"),
    ("uv.lock", "version = 1\n"),
    ("src/recs/__init__.py", "from importlib.metadata import version\n__version__ = version(\"recs-mcp\")\n"),
    ("src/recs/server.py", "import httpx\nfrom . import __version__\n\nHEADERS = {\"User-Agent\": f\"recs-mcp/{__version__}\"}\n\ndef fetch(q):\n    try:\n        return httpx.get(\"https://example.org\", headers=HEADERS).json()\n    except Exception:\n        return {\"error\": \"the source did not answer\"}\n"),
];

fn scan(dir: &Path, tree: &str, results: &str) -> (Option<i32>, Value, String) {
    std::fs::write(
        dir.join("p.yaml"),
        "transport: stdio-only\nsdk_language: Python\n",
    )
    .unwrap();
    let out = auditbook()
        .current_dir(dir)
        .arg("-C")
        .arg(catalogue())
        .args([
            "--format",
            "json",
            "scan",
            "p.yaml",
            "--source",
            tree,
            "--results",
            results,
        ])
        .output()
        .unwrap();
    (
        out.status.code(),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn check<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["checks"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["id"] == id))
        .unwrap_or_else(|| panic!("{id} not scanned: {v}"))
}

fn evidence(v: &Value, id: &str) -> String {
    check(v, id)["evidence"].to_string()
}

#[test]
fn every_planted_defect_is_found_with_file_line_column_and_code_and_the_twin_is_clean() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("planted"), PLANTED);
    write(&dir.path().join("clean"), CLEAN);
    let (code, v, err) = scan(dir.path(), "planted", "planted.yaml");
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(check(&v, "DEP-001")["status"], "fail");
    assert!(
        evidence(&v, "DEP-001").contains("pyproject.toml:4:1: `mcp[cli]>=1.25`"),
        "{}",
        evidence(&v, "DEP-001")
    );
    assert!(
        evidence(&v, "DEP-001").contains("lockfile"),
        "the missing lockfile is a partial finding too"
    );
    assert_eq!(check(&v, "IDENT-002")["status"], "partial");
    assert!(
        evidence(&v, "IDENT-002")
            .contains("src/recs/__init__.py:1:1: `__version__ = \\\"0.4.0\\\"`"),
        "{}",
        evidence(&v, "IDENT-002")
    );
    // Signals wait for a person; single-quoted literals are found like double-quoted ones.
    assert_eq!(check(&v, "IDENT-001")["status"], "needs_triage");
    assert!(
        evidence(&v, "IDENT-001")
            .contains("src/recs/server.py:3:26: `'recs-mcp/0.3.9 (+https://example.org)'`"),
        "{}",
        evidence(&v, "IDENT-001")
    );
    assert_eq!(check(&v, "OBS-001")["status"], "needs_triage");
    assert!(evidence(&v, "OBS-001").contains("src/recs/server.py:9:26: `str(e)`"));
    let results = std::fs::read_to_string(dir.path().join("planted.yaml")).unwrap();
    assert!(
        results.contains("source: scan") && results.contains("digest: sha256:"),
        "{results}"
    );

    let (code, v, err) = scan(dir.path(), "clean", "clean.yaml");
    assert_eq!(code, Some(0), "{err}: {v}");
    for c in v["checks"].as_array().into_iter().flatten() {
        assert_eq!(c["status"], "not_verified", "{c}");
    }
    assert!(evidence(&v, "DEP-001").contains("has an upper bound"));
}

#[test]
fn typescript_is_scanned_and_a_language_no_rule_covers_is_not_scanned() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("ts"),
        &[
            ("package.json", "{\"name\": \"recs\", \"dependencies\": {\"@modelcontextprotocol/sdk\": \"^1.30.0\"}}\n"),
            ("src/index.ts", "const UA: string = 'recs/1.2.0';\nexport const headers = { 'User-Agent': UA };\n"),
        ],
    );
    let (_, v, err) = scan(dir.path(), "ts", "ts.yaml");
    assert_eq!(check(&v, "IDENT-001")["status"], "needs_triage", "{err}");
    assert!(
        evidence(&v, "IDENT-001").contains("src/index.ts:1:20: `'recs/1.2.0'`"),
        "{}",
        evidence(&v, "IDENT-001")
    );
    // No Python rule matches a TypeScript tree, and IDENT-002 has no TypeScript rule.
    assert_eq!(check(&v, "IDENT-002")["status"], "not_verified");
    assert!(
        check(&v, "IDENT-002")["note"]
            .as_str()
            .unwrap_or("")
            .contains("not scanned: no rule for TypeScript"),
        "{}",
        check(&v, "IDENT-002")
    );
    write(
        &dir.path().join("cs"),
        &[(
            "Program.cs",
            "class P { static void Main() { var ua = \"recs/1.2.0\"; } }\n",
        )],
    );
    let (_, v, _) = scan(dir.path(), "cs", "cs.yaml");
    for id in ["IDENT-001", "IDENT-002", "OBS-001"] {
        assert_eq!(check(&v, id)["status"], "not_verified", "{id}");
        assert!(
            check(&v, id)["note"]
                .as_str()
                .unwrap_or("")
                .contains("not scanned: no rule for C#"),
            "{id}: {}",
            check(&v, id)
        );
    }
}

#[test]
fn a_triage_decision_follows_the_code_and_a_changed_line_reopens_it() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("planted");
    write(&tree, PLANTED);
    let (_, v, _) = scan(dir.path(), "planted", "r.yaml");
    let ev = evidence(&v, "OBS-001");
    let fp = ev
        .split('#')
        .nth(1)
        .map(|s| s.chars().take(12).collect::<String>())
        .unwrap_or_default();
    assert_eq!(fp.len(), 12, "{ev}");
    let triage = |args: &[&str]| {
        auditbook()
            .current_dir(dir.path())
            .arg("-C")
            .arg(catalogue())
            .args(["triage", "OBS-001"])
            .args(args)
            .args(["--results", "r.yaml"])
            .output()
            .unwrap()
    };
    let out = triage(&[
        &format!("#{fp}"),
        "--false-positive",
        "--reason",
        "the error is a fixed message in this branch",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, v, _) = scan(dir.path(), "planted", "r.yaml");
    assert_eq!(
        check(&v, "OBS-001")["status"],
        "not_verified",
        "{}",
        check(&v, "OBS-001")
    );
    assert!(evidence(&v, "OBS-001").contains("triaged a false positive"));
    // An unrelated edit keeps the decision; a change of the matched line reopens it.
    let server = tree.join("src/recs/server.py");
    let text = std::fs::read_to_string(&server).unwrap();
    std::fs::write(&server, format!("# a comment\n{text}")).unwrap();
    let (_, v, _) = scan(dir.path(), "planted", "r.yaml");
    assert_eq!(check(&v, "OBS-001")["status"], "not_verified");
    std::fs::write(&server, text.replace("str(e)", "str( e )")).unwrap();
    let (_, v, _) = scan(dir.path(), "planted", "r.yaml");
    assert_eq!(
        check(&v, "OBS-001")["status"],
        "not_verified",
        "whitespace is folded: {}",
        check(&v, "OBS-001")
    );
    std::fs::write(
        &server,
        text.replace("str(e)", "str(err)")
            .replace("as e:", "as err:"),
    )
    .unwrap();
    let (_, v, _) = scan(dir.path(), "planted", "r.yaml");
    assert_eq!(
        check(&v, "OBS-001")["status"],
        "needs_triage",
        "the changed line reopens: {}",
        check(&v, "OBS-001")
    );
    // Decided real: the rule's status.
    let ev = evidence(&v, "OBS-001");
    let fp = ev
        .split('#')
        .nth(1)
        .map(|s| s.chars().take(12).collect::<String>())
        .unwrap_or_default();
    let out = triage(&[
        &fp,
        "--real",
        "--reason",
        "the exception text reaches the model",
    ]);
    assert!(out.status.success());
    let (_, v, _) = scan(dir.path(), "planted", "r.yaml");
    assert_eq!(
        check(&v, "OBS-001")["status"],
        "fail",
        "{}",
        check(&v, "OBS-001")
    );
    // Refused: a fingerprint that is not one, an unknown check, no reason.
    for bad in [
        vec!["xyz", "--real", "--reason", "r"],
        vec![&fp, "--real", "--reason", " "],
    ] {
        assert_eq!(triage(&bad).status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn a_signal_waiting_for_triage_keeps_the_audit_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("planted"), PLANTED);
    scan(dir.path(), "planted", "r.yaml");
    let out = auditbook()
        .current_dir(dir.path())
        .arg("-C")
        .arg(catalogue())
        .args(["--format", "json", "audit", "p.yaml", "--results", "r.yaml"])
        .output()
        .unwrap();
    let rep: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_ne!(rep["verdict"], "production-ready", "{rep}");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("error["),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_bad_rule_is_a_lint_finding_at_its_line_and_the_fixture_is_clean() {
    let f = common::Fixture::new("scan");
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");
    let cases = [
        (
            "language: python\n    records: partial",
            "language: cobol\n    records: partial",
            "unknown language `cobol`",
        ),
        (
            "rule: {pattern: '__version__ = $V'}",
            "rule: {patern: '__version__ = $V'}",
            "unknown field `patern`",
        ),
        (
            "    records: partial\n",
            "    recrods: partial\n",
            "unknown key `recrods`",
        ),
        (
            "rule: {pattern: '__version__ = $V'}",
            "rule: {pattern: '__version__ = $V', has: 3}",
            "does not compile",
        ),
    ];
    for (from, to, says) in cases {
        let f = common::Fixture::new("scan");
        f.edit("checks/IDENT-002.md", from, to);
        let (v, code) = f.lint_json();
        assert_eq!(code, 1, "{to}: {v}");
        let d = &v["diagnostics"][0];
        assert_eq!(d["code"], "AB119", "{v}");
        assert!(
            d["message"].as_str().unwrap_or("").contains(says),
            "{to}: {v}"
        );
        let line = d["line"].as_u64().unwrap_or(0) as usize;
        let text = f.read("checks/IDENT-002.md");
        let at = text.lines().nth(line.saturating_sub(1)).unwrap_or("");
        assert!(
            !at.starts_with("scan:"),
            "the finding points into the rule, not at `scan:`: line {line} `{at}`"
        );
    }
}

#[test]
fn a_rule_that_read_no_file_is_no_observation_toward_the_evidence_a_pass_owes() {
    // IDENT-001 covering all, with a Python and a TypeScript rule, over a Python-only tree:
    // the TypeScript rule read nothing, so a pass rests on one observation.
    let fx = common::Fixture::new("scan");
    let path = fx.path("checks/IDENT-001.md");
    let text = fx
        .read("checks/IDENT-001.md")
        .replace("match: signal\n", "match: signal\n    covers: all\n");
    std::fs::write(&path, text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("clean"), CLEAN);
    let run = |owed: &str| {
        let text = fx.read("checks/IDENT-001.md");
        let text = regex::Regex::new("evidence_required: [0-9]")
            .unwrap()
            .replace(&text, format!("evidence_required: {owed}"))
            .into_owned();
        std::fs::write(&path, text).unwrap();
        std::fs::write(
            dir.path().join("p.yaml"),
            "transport: stdio-only\nsdk_language: Python\n",
        )
        .unwrap();
        let out = auditbook()
            .current_dir(dir.path())
            .arg("-C")
            .arg(fx.root())
            .args(["--format", "json", "scan", "p.yaml", "--source", "clean"])
            .args(["--results", &format!("r{owed}.yaml")])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        check(&v, "IDENT-001").clone()
    };
    let one = run("1");
    assert_eq!(one["status"], "pass", "{one}");
    let two = run("2");
    assert_eq!(two["status"], "not_verified", "{two}");
    assert!(
        two["note"]
            .as_str()
            .unwrap_or("")
            .contains("made 1 observation(s) toward a pass; the check asks for 2"),
        "{two}"
    );
    // The rule that read nothing is still shown.
    assert!(
        two["evidence"]
            .to_string()
            .contains("0 TypeScript file(s) read"),
        "{two}"
    );
}

#[test]
fn an_excluded_folder_is_neither_scanned_nor_digested_and_the_results_name_it() {
    let dir = tempfile::tempdir().unwrap();
    // The clean server, with the planted one as a test fixture beside it.
    write(&dir.path().join("repo"), CLEAN);
    let fixture: Vec<(String, &str)> = PLANTED
        .iter()
        .filter(|(p, _)| p.ends_with(".py"))
        .map(|(p, t)| (format!("tests/fixtures/{p}"), *t))
        .collect();
    let fixture: Vec<(&str, &str)> = fixture.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    write(&dir.path().join("repo"), &fixture);
    std::fs::write(
        dir.path().join("p.yaml"),
        "transport: stdio-only\nsdk_language: Python\n",
    )
    .unwrap();
    let run = |extra: &[&str], results: &str| {
        let out = auditbook()
            .current_dir(dir.path())
            .arg("-C")
            .arg(catalogue())
            .args(["--format", "json", "scan", "p.yaml", "--source", "repo"])
            .args(extra)
            .args(["--results", results])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (
            v,
            std::fs::read_to_string(dir.path().join(results)).unwrap_or_default(),
        )
    };
    // Scanned whole, the fixture's planted version literal is found.
    let (whole, _) = run(&[], "whole.yaml");
    assert_eq!(check(&whole, "IDENT-002")["status"], "partial", "{whole}");
    assert!(evidence(&whole, "IDENT-002").contains("tests/fixtures/src/recs/__init__.py"));
    // Left out, it is not, the digest is another and the results say what was left out.
    let (part, text) = run(&["--exclude", "tests/fixtures/**"], "part.yaml");
    assert_eq!(
        check(&part, "IDENT-002")["status"],
        "not_verified",
        "{part}"
    );
    assert!(!part.to_string().contains("tests/fixtures/"), "{part}");
    assert_ne!(whole["digest"], part["digest"]);
    assert!(text.contains("excluded:\n  - tests/fixtures/**"), "{text}");
    // A glob that is not one is refused with what a glob looks like.
    let out = auditbook()
        .current_dir(dir.path())
        .arg("-C")
        .arg(catalogue())
        .args(["scan", "p.yaml", "--source", "repo", "--exclude", "[bad"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`[bad` is not a glob"));
}
