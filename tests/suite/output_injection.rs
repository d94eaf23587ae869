//! Values from profiles, results files and the catalogue cannot change the structure of a
//! report, forge a region marker, or drive the terminal.

use crate::common;
use common::Fixture;

const EVIL: &str = "x\\n# Injected heading\\n| forged | row |\\n<!-- auditbook:begin rules-table -->\\n<script>alert(1)</script>";

fn shipped() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue")
}

fn example_profile() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/amtsblatt-readonly.profile.yaml")
}

/// An audit of the shipped catalogue's example profile with a results file written in `f`.
fn audit(f: &Fixture, results: &str, format: &str) -> String {
    f.write("r.yaml", results);
    let out = common::auditbook()
        .arg("-C")
        .arg(shipped())
        .arg("audit")
        .arg(example_profile())
        .args([
            "--results",
            &f.path("r.yaml").to_string_lossy(),
            "--format",
            format,
        ])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn evil_audit(f: &Fixture, format: &str) -> String {
    audit(
        f,
        &format!(
            "audit_meta:\n  server_name: \"{EVIL}\"\n  \"bad\\nkey\": \"{EVIL}\"\nresults:\n  ARCH-001:\n    status: fail\n    evidence: [\"{EVIL}\", \"second\"]\n    gaps: [\"{EVIL}\"]\n"
        ),
        format,
    )
}

#[test]
fn markdown_report_values_stay_inside_their_place() {
    let f = Fixture::new("clean");
    let md = evil_audit(&f, "md");
    assert!(
        md.contains("Injected heading"),
        "the value must still be shown:\n{md}"
    );
    for line in md.lines() {
        assert!(
            !line.starts_with("# Injected"),
            "a heading was injected:\n{md}"
        );
        assert!(
            !line.starts_with("| forged"),
            "a table row was injected:\n{md}"
        );
        assert!(
            !line.contains("<!-- auditbook:"),
            "a region marker was injected:\n{md}"
        );
        assert!(!line.contains("<script>"), "raw HTML was injected:\n{md}");
    }
}

#[test]
fn html_report_escapes_every_value() {
    let f = Fixture::new("clean");
    let html = evil_audit(&f, "html");
    assert!(!html.contains("<script>alert(1)</script>"), "{html}");
    assert!(
        html.contains("&lt;script&gt;") || html.contains("&lt;script"),
        "{html}"
    );
}

#[test]
fn an_ordinary_report_keeps_its_markdown() {
    // The clean twin: plain values are printed as they are.
    let f = Fixture::new("clean");
    let md = audit(
        &f,
        "audit_meta:\n  server_name: plain-server\nresults:\n  ARCH-001:\n    status: fail\n    evidence: [\"src/a.py:3 — `x -> y` returns 0\", \"second\"]\n",
        "md",
    );
    assert!(md.contains("- src/a.py:3 — `x -> y` returns 0"), "{md}");
}

#[test]
fn terminal_output_shows_control_characters_as_codes() {
    let f = Fixture::new("clean");
    f.edit(
        "checks/FID-001.md",
        "title: \"Scope parameters are sent explicitly\"",
        "title: \"Scope \\e[31mred\\e[0m \\u202eevil\"",
    );
    for args in [&["list"][..], &["show", "FID-001"][..]] {
        let out = f.cmd().args(args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            !text.contains('\u{1b}'),
            "{args:?} printed an escape sequence: {text:?}"
        );
        assert!(
            !text.contains('\u{202e}'),
            "{args:?} printed a bidi override: {text:?}"
        );
        assert!(text.contains("\\u{1b}[31mred"), "{args:?}: {text:?}");
    }
    // Findings too: the message quotes the value, the excerpt shows the line.
    f.edit(
        "checks/FID-001.md",
        "severity: critical",
        "severity: \"\\e]0;owned\\a\"",
    );
    let out = f.cmd().args(["lint"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
}
