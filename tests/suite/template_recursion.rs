//! User templates (`--templates DIR`) that recurse: a macro calling itself (directly or through
//! another) or a template including itself used to overflow the stack and abort the process.
//! They are refused before rendering, with a message naming the cycle; recursion-free reuse of
//! macros renders as before.

use crate::common;

use common::auditbook;
use std::path::Path;

fn templates(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// `table NAME` on the shipped catalogue with the given template folder.
fn table(dir: &Path, name: &str) -> std::process::Output {
    auditbook()
        .args(["-C", "catalogue", "--templates"])
        .arg(dir)
        .args(["table", name])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

#[test]
fn a_macro_that_calls_itself_is_refused_not_a_crash() {
    let dir = templates(&[
        (
            "zeilen.tera",
            "{% macro zeile(n) %}- {{ n }}\n{{ self::zeile(n=n + 1) }}{% endmacro zeile %}",
        ),
        (
            "zaehler.md.tera",
            "{% import \"zeilen.tera\" as z %}# Zähler\n{{ z::zeile(n=1) }}",
        ),
    ]);
    let out = table(dir.path(), "zaehler");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("macro `zeile` in `zeilen.tera` calls itself"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn mutual_recursion_and_self_inclusion_are_refused() {
    let dir = templates(&[
        (
            "m.tera",
            "{% macro ping(n) %}{% if n > 0 %}{{ self::pong(n=n - 1) }}{% endif %}{% endmacro ping %}\
             {% macro pong(n) %}{{ self::ping(n=n) }}{% endmacro pong %}",
        ),
        ("wechsel.md.tera", "{% import \"m.tera\" as m %}{{ m::ping(n=3) }}"),
        ("spiegel.md.tera", "Spiegel {% include \"spiegel.md.tera\" %}"),
    ]);
    for name in ["wechsel", "spiegel"] {
        let out = table(dir.path(), name);
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("recursive macros and includes are refused"),
            "{err}"
        );
    }
}

/// The clean twin: a macro used many times, from several templates, renders.
#[test]
fn reused_macros_without_recursion_render() {
    let dir = templates(&[
        (
            "m.tera",
            "{% macro fett(t) %}**{{ t }}**{% endmacro fett %}\
             {% macro zwei(t) %}{{ self::fett(t=t) }} {{ self::fett(t=t) }}{% endmacro zwei %}",
        ),
        (
            "doppelt.md.tera",
            "{% import \"m.tera\" as m %}{{ m::zwei(t=\"Prüfung\") }}\n{% include \"fuss.md.tera\" %}",
        ),
        ("fuss.md.tera", "{% import \"m.tera\" as m %}{{ m::fett(t=\"Ende\") }}"),
    ]);
    let out = table(dir.path(), "doppelt");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim_end(),
        "**Prüfung** **Prüfung**\n**Ende**"
    );
}

/// In `verify`, a region rendered with a recursive template is a finding on the region's line.
#[test]
fn verify_reports_a_recursive_region_template_as_a_finding() {
    let dir = templates(&[(
        "rules-table.md.tera",
        "{% macro f() %}{{ self::f() }}{% endmacro f %}{{ self::f() }}",
    )]);
    let out = auditbook()
        .args(["-C", "tests/fixtures/graph", "--templates"])
        .arg(dir.path())
        .args(["verify", "--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = common::findings_in(&v, "AB606");
    assert!(!found.is_empty(), "{v:#}");
    assert!(v
        .to_string()
        .contains("macro `f` in `rules-table.md.tera` calls itself"));
}
