//! The language server's incremental re-check (one check file read again) finds exactly what
//! a whole load, lint and verify finds, for edits that change what other files see.

mod common;

use auditbook::lsp::world::World;
use common::Fixture;

fn whole(root: &std::path::Path, edits: &[(std::path::PathBuf, String)]) -> World {
    let mut w = World::new(root.to_path_buf());
    for (p, t) in edits {
        w.set_text(p, t.clone());
    }
    w.recheck();
    w
}

#[test]
fn one_file_read_again_equals_a_whole_check() {
    let f = Fixture::shipped();
    let root = f.root().canonicalize().unwrap();
    let check = root.join("checks/DRIFT-008.md");
    let text = f.read("checks/DRIFT-008.md");
    let edits = [
        // A link to a retired id.
        format!("{text}\nSiehe [DRIFT-007](DRIFT-007.md).\n"),
        // Another severity: the README's generated counts go stale.
        text.replacen("severity: medium", "severity: critical", 1)
            .replacen("severity: high", "severity: critical", 1)
            .replacen("severity: low", "severity: critical", 1),
        // Another id: the file name no longer matches; links to DRIFT-008 now point nowhere.
        text.replacen("id: DRIFT-008", "id: DRIFT-099", 1),
        // A half-typed frontmatter: the check is broken, its id still exists.
        "---\nid: DRIFT-008\ntitle: \"Halb\n".to_string(),
        // And back.
        text.clone(),
    ];
    let mut w = World::new(root.clone());
    w.recheck();
    let mut seen = Vec::new();
    for (i, edit) in edits.iter().enumerate() {
        w.set_text(&check, edit.clone());
        w.recheck_file(&check);
        let fresh = whole(&root, &[(check.clone(), edit.clone())]);
        assert_eq!(w.findings(), fresh.findings(), "edit {i}");
        seen.push(w.findings());
    }
    // The edits did change the findings (the comparison above is not between two empties).
    assert_ne!(seen[0], seen[4]);
    assert_ne!(seen[1], seen[4]);
    assert_ne!(seen[2], seen[4]);
    assert_ne!(seen[3], seen[4]);
}

#[test]
fn an_edit_outside_the_checks_is_a_whole_check() {
    let f = Fixture::shipped();
    let root = f.root().canonicalize().unwrap();
    let config = root.join("catalogue.yaml");
    let text = f
        .read("catalogue.yaml")
        .replacen("merged_into: FID-006", "merged_into: FID-999", 1);
    let mut w = World::new(root.clone());
    w.recheck();
    w.set_text(&config, text.clone());
    w.recheck_file(&config);
    assert_eq!(w.findings(), whole(&root, &[(config, text)]).findings());
    assert!(w
        .findings_in("catalogue.yaml")
        .iter()
        .any(|d| d.code == "AB402"));
}
