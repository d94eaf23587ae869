//! Ids with non-ASCII letters (an `id_pattern` such as `^[A-ZÄÖÜ]{2,6}-\d{3}$`) are found in
//! prose and links like any other, and never share a node with an ASCII id in graph exports.

use crate::common;
use common::{findings_in, Fixture};

fn umlaut_catalogue() -> Fixture {
    let f = Fixture::new("clean");
    f.edit(
        "catalogue.yaml",
        "name: fixture",
        "name: fixture\nid_pattern: '^[A-ZÄÖÜ]{2,6}-\\d{3}$'",
    );
    f.edit(
        "catalogue.yaml",
        "  - {prefix: ARCH, name: Architecture}",
        "  - {prefix: ARCH, name: Architecture}\n  - {prefix: ÄRCH, name: Ärchitektur}",
    );
    let arch = f.read("checks/ARCH-001.md");
    f.write(
        "checks/ÄRCH-001.md",
        &arch
            .replace("id: ARCH-001", "id: ÄRCH-001")
            .replace("category: ARCH", "category: ÄRCH")
            .replace("# ARCH-001", "# ÄRCH-001"),
    );
    let manifest = f.read("checks/MANIFEST.txt") + "ÄRCH-001\n";
    f.write("checks/MANIFEST.txt", &manifest);
    f
}

#[test]
fn references_to_unicode_ids_are_seen() {
    let f = umlaut_catalogue();
    // The clean twin first: a live Unicode id linked and mentioned draws no reference finding.
    f.edit(
        "checks/FID-001.md",
        "A source's default scope is not the caller's scope.",
        "A source's default scope is not the caller's scope. Compare ÄRCH-001 and [ÄRCH-001](../checks/ÄRCH-001.md).",
    );
    let (v, _) = f.lint_json();
    let loud: Vec<_> = common::loud_in(&v);
    assert!(loud.is_empty(), "{v:#}");
    let shown = f.json(&["show", "FID-001", "--format", "json"]);
    assert!(shown.to_string().contains("ÄRCH-001"), "{shown:#}");

    // A mention and a link of an id that does not exist are found.
    f.edit(
        "checks/FID-001.md",
        "Compare ÄRCH-001",
        "Compare ÖRCH-009 ÄRCH-009",
    );
    f.edit(
        "checks/FID-001.md",
        "[ÄRCH-001](../checks/ÄRCH-001.md)",
        "[x](../checks/ÄRCH-002.md)",
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 1, "{v:#}");
    let text = v.to_string();
    assert!(
        text.contains("ÄRCH-009"),
        "unknown mention not found: {v:#}"
    );
    assert!(text.contains("ÄRCH-002"), "dead link not found: {v:#}");
    // ÖRCH is not a category: not a reference, as for `SHA-256`.
    assert!(!text.contains("ÖRCH-009"), "{v:#}");
    assert_eq!(findings_in(&v, "AB210").len(), 1, "{v:#}");
    assert_eq!(findings_in(&v, "AB211").len(), 1, "{v:#}");
}

#[test]
fn graph_exports_never_merge_distinct_ids() {
    let f = umlaut_catalogue();
    for format in ["dot", "mermaid"] {
        let out = f.stdout(&["graph", "--format", format]);
        let names: std::collections::BTreeSet<&str> = out
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with("check_"))
            .collect();
        let checks = 5; // ARCH-001, ÄRCH-001, DRIFT-001, FID-001, FID-002
        assert_eq!(names.len(), checks, "{format}: {names:?}\n{out}");
    }
}
