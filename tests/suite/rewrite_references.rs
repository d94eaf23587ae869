//! `retire --rewrite` moves links to the successor and leaves mentions as history;
//! `rename OLD NEW` renames the file, every link, mention, table cell and manifest line, and
//! records OLD as replaced by NEW. Both write every file or none.

use crate::common;

use common::{tree, Fixture};

fn with_references() -> Fixture {
    let f = Fixture::new("clean");
    f.edit(
        "checks/ARCH-001.md",
        "## References\n",
        "## References\n\nFrüher stand hier DRIFT-001 allein.\n\n| Regel | Checks |\n|---|---|\n| 1 | [DRIFT-001](../checks/DRIFT-001.md) |\n",
    );
    f
}

#[test]
fn retire_rewrite_moves_links_and_lists_mentions() {
    let f = with_references();
    let out = f.stdout(&[
        "retire",
        "DRIFT-001",
        "--date",
        "2026-11-30",
        "--reason",
        "aufgegangen in FID-001",
        "--merged-into",
        "FID-001",
        "--rewrite",
    ]);
    assert!(out.contains("moved 2 link(s) to FID-001"), "{out}");
    assert!(out.contains("checks/ARCH-001.md:30  mentions"), "{out}");
    let arch = f.read("checks/ARCH-001.md");
    assert!(
        arch.contains("| 1 | [FID-001](../checks/FID-001.md) |"),
        "{arch}"
    );
    assert!(
        arch.contains("Früher stand hier DRIFT-001 allein."),
        "{arch}"
    );
    assert!(!f.read("checks/FID-001.md").contains("DRIFT-001"));
    // No link to the retired id is left: lint finds no AB212.
    assert!(f.findings("AB212").is_empty());
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");

    // The twin without --rewrite leaves the links, and lint reports them.
    let g = with_references();
    g.stdout(&[
        "retire",
        "DRIFT-001",
        "--date",
        "2026-11-30",
        "--reason",
        "x",
        "--merged-into",
        "FID-001",
    ]);
    assert_eq!(g.findings("AB212").len(), 2);
}

#[test]
fn retire_rewrite_needs_a_successor() {
    let f = with_references();
    let before = tree(f.root());
    let out = f
        .cmd()
        .args([
            "retire",
            "DRIFT-001",
            "--date",
            "2026-11-30",
            "--reason",
            "x",
            "--rewrite",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(tree(f.root()), before);
}

#[test]
fn rename_moves_the_file_and_every_reference() {
    let f = with_references();
    let out = f.stdout(&["rename", "DRIFT-001", "DRIFT-003", "--date", "2026-11-30"]);
    assert!(
        out.contains("recorded DRIFT-001 as replaced by DRIFT-003"),
        "{out}"
    );
    assert!(!f.path("checks/DRIFT-001.md").exists());
    let moved = f.read("checks/DRIFT-003.md");
    assert!(
        moved.contains("id: DRIFT-003\n") && moved.contains("# DRIFT-003 —"),
        "{moved}"
    );
    let arch = f.read("checks/ARCH-001.md");
    assert!(
        arch.contains("Früher stand hier DRIFT-003 allein."),
        "{arch}"
    );
    assert!(
        arch.contains("| 1 | [DRIFT-003](../checks/DRIFT-003.md) |"),
        "{arch}"
    );
    assert!(f.read("checks/FID-001.md").contains("checks/DRIFT-003.md"));
    assert!(f.read("checks/MANIFEST.txt").contains("\nDRIFT-003\n"));
    let config = f.read("catalogue.yaml");
    assert!(
        config.contains(
            "  - id: DRIFT-001\n    retired: \"2026-11-30\"\n    replaced_by: DRIFT-003\n"
        ),
        "{config}"
    );
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");
    assert!(common::loud_in(&v).is_empty(), "{v}");
}

#[test]
fn rename_refuses_a_taken_id_and_a_failed_write_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let f = with_references();
    let before = tree(f.root());
    for taken in ["FID-002", "DRIFT-002"] {
        let out = f
            .cmd()
            .args(["rename", "DRIFT-001", taken])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{taken}");
    }
    assert_eq!(tree(f.root()), before);
    std::fs::set_permissions(
        f.path("checks/FID-001.md"),
        std::fs::Permissions::from_mode(0o444),
    )
    .unwrap();
    let out = f
        .cmd()
        .args(["rename", "DRIFT-001", "DRIFT-003"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was changed"));
    assert_eq!(tree(f.root()), before);
}
