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

/// What the one pipeline every command uses (`Session`, `lint --verify`) shows for the
/// catalogue at `root` with `texts` laid over its files, by file as the server files them.
fn pipeline(
    root: &std::path::Path,
    texts: &std::collections::BTreeMap<std::path::PathBuf, String>,
) -> std::collections::BTreeMap<String, Vec<auditbook::diag::Diagnostic>> {
    let options = auditbook::load::Options {
        keep_check_texts: true,
        bodies: auditbook::load::Bodies::Outline,
        documents: true,
        overlay: Some(texts),
    };
    let loaded = auditbook::load::load_with(root, options).expect("the catalogue loads");
    let session = auditbook::session::Session::from_loaded(loaded);
    let shown = session
        .findings(auditbook::session::Stages::ALL)
        .expect("templates")
        .shown;
    let mut out: std::collections::BTreeMap<String, Vec<_>> = Default::default();
    for d in shown {
        let file = d
            .file
            .clone()
            .unwrap_or_else(|| auditbook::lsp::world::CATALOGUE_FILE.into());
        out.entry(file).or_default().push(d);
    }
    out
}

/// Every edge of the world's graph, written out (nodes and places), sorted.
fn edges(w: &World) -> Vec<String> {
    w.graph()
        .map(|g| {
            g.links()
                .iter()
                .map(|l| {
                    format!(
                        "{}:{} -{}-> {}:{} @ {}:{}:{}",
                        l.from.kind(),
                        l.from.key(),
                        l.kind.as_str(),
                        l.to.kind(),
                        l.to.key(),
                        l.file,
                        l.line,
                        l.column
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_sequence_of_edits_in_two_checks_equals_the_whole_pipeline_after_each() {
    let f = Fixture::shipped();
    let root = f.root().canonicalize().unwrap();
    let drift = root.join("checks/DRIFT-008.md");
    let fid = root.join("checks/FID-006.md");
    let drift_text = f.read("checks/DRIFT-008.md");
    let fid_text = f.read("checks/FID-006.md");
    let fragment_link = "\nSiehe [DRIFT-002](DRIFT-002.md) und [FID-006](FID-006.md#gegenprobe).\n";
    let heading = "\n## Gegenprobe\n\nDie Zählung wird gegen die Quelle gehalten.\n";
    let edits: Vec<(&std::path::Path, String, &str)> = vec![
        (
            &drift,
            format!("{drift_text}\nNur Prosa, kein Verweis.\n"),
            "prose in the body",
        ),
        (
            &drift,
            format!("{drift_text}{fragment_link}"),
            "a link into FID-006 with a fragment",
        ),
        (
            &fid,
            format!("{fid_text}{heading}"),
            "FID-006 grows the heading the link names",
        ),
        (&fid, fid_text.clone(), "and loses it again"),
        (
            &fid,
            format!("{fid_text}\nVorgänger: [FID-404](FID-404.md), erwähnt als FID-405.\n"),
            "a link and a mention of ids that do not exist",
        ),
        (&fid, fid_text.clone(), "and gone again"),
        (
            &fid,
            fid_text.replacen("- [DRIFT-002](../checks/DRIFT-002.md)", "- DRIFT-002", 1),
            "a link removed",
        ),
        (
            &drift,
            format!("{drift_text}{fragment_link}").replacen("severity: high", "severity: low", 1),
            "a frontmatter field changed",
        ),
        (
            &fid,
            fid_text.replacen("id: FID-006", "id: FID-099", 1),
            "FID-006 renamed: links to it lead nowhere",
        ),
        (
            &drift,
            drift_text.replacen("id: DRIFT-008", "id: DRIFT-006", 1),
            "an id declared twice",
        ),
        (
            &drift,
            "---\nid: DRIFT-008\ntitle: \"Halb\n".into(),
            "a broken frontmatter",
        ),
        (&drift, drift_text.clone(), "fixed"),
        (&fid, fid_text.clone(), "FID-006 back"),
    ];
    let mut texts = std::collections::BTreeMap::new();
    let mut w = World::new(root.clone());
    w.recheck();
    let start = w.findings();
    assert_eq!(start, pipeline(&root, &texts), "before any edit");
    let mut changed = 0;
    for (path, text, what) in edits {
        texts.insert(path.to_path_buf(), text.clone());
        w.set_text(path, text);
        w.recheck_file(path);
        let incremental = w.findings();
        assert_eq!(incremental, pipeline(&root, &texts), "after: {what}");
        let mut whole = World::new(root.clone());
        for (p, t) in &texts {
            whole.set_text(p, t.clone());
        }
        whole.recheck();
        assert_eq!(incremental, whole.findings(), "after: {what}");
        // The graph patched after a body edit is the graph built afresh.
        assert_eq!(edges(&w), edges(&whole), "after: {what}");
        changed += usize::from(incremental != start);
    }
    // Most edits changed what is shown: the comparisons are not between unchanged sets.
    assert!(changed >= 8, "{changed}");
    assert_eq!(w.findings(), start);
}

#[test]
fn a_heading_added_in_one_check_clears_a_fragment_finding_in_another() {
    let f = Fixture::shipped();
    let root = f.root().canonicalize().unwrap();
    let drift = root.join("checks/DRIFT-008.md");
    let fid = root.join("checks/FID-006.md");
    let drift_text = f.read("checks/DRIFT-008.md");
    let fid_text = f.read("checks/FID-006.md");
    let mut w = World::new(root.clone());
    w.recheck();
    w.set_text(
        &drift,
        format!("{drift_text}\nSiehe [FID-006](FID-006.md#gegenprobe).\n"),
    );
    w.recheck_file(&drift);
    let fragment = |w: &World| {
        w.findings_in("checks/DRIFT-008.md")
            .iter()
            .filter(|d| d.code == "AB215")
            .count()
    };
    assert_eq!(
        fragment(&w),
        1,
        "{:#?}",
        w.findings_in("checks/DRIFT-008.md")
    );
    w.set_text(&fid, format!("{fid_text}\n## Gegenprobe\n\nText.\n"));
    w.recheck_file(&fid);
    assert_eq!(fragment(&w), 0);
}
