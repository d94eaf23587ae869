//! The language server's incremental re-check (one check file read again) finds exactly what
//! a whole load, lint and verify finds, for edits that change what other files see.

use crate::common;

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
        documents: auditbook::load::Documents::All,
        outlines: None,
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
    let fid1 = root.join("checks/FID-001.md");
    let drift_text = f.read("checks/DRIFT-008.md");
    let fid_text = f.read("checks/FID-006.md");
    let fid1_text = f.read("checks/FID-001.md");
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
        (
            &fid1,
            fid1_text.replacen("adoption: enforced", "adoption: advisory", 1),
            "FID-001 advisory: the rule that maps only it is enforced by advisory checks alone",
        ),
        (
            &fid1,
            fid1_text
                .replacen("adoption: enforced", "adoption: advisory", 1)
                .replacen("title: \"", "title: \"Kurz: ", 1),
            "and its title: the tables that list titles go stale",
        ),
        (
            &drift,
            drift_text.replacen("id: DRIFT-008", "id: DRIFT-006", 1),
            "an id declared twice, again",
        ),
        (
            &drift,
            drift_text
                .replacen("id: DRIFT-008", "id: DRIFT-006", 1)
                .replacen("---\n", "---\n# verschoben\n", 1),
            "the twice-declared id's line moves, the id stays",
        ),
        (&drift, drift_text.clone(), "fixed again"),
        (&fid1, fid1_text.clone(), "FID-001 back"),
    ];
    let mut texts = std::collections::BTreeMap::new();
    let mut w = World::new(root.clone());
    w.recheck();
    let start = w.findings();
    assert_eq!(start, pipeline(&root, &texts), "before any edit");
    let mut changed = 0;
    let mut seen = Vec::new();
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
        seen.push(incremental);
    }
    let codes = |i: usize, file: &str, code: &str| -> Vec<Option<usize>> {
        seen[i]
            .get(file)
            .into_iter()
            .flatten()
            .filter(|d| d.code == code)
            .map(|d| d.line)
            .collect()
    };
    assert!(codes(12, "rules/FIDELITY-1.md", "AB414").is_empty());
    assert_eq!(codes(13, "rules/FIDELITY-1.md", "AB414").len(), 1);
    assert_eq!(codes(15, "checks/DRIFT-008.md", "AB116"), [Some(2)]);
    assert_eq!(codes(16, "checks/DRIFT-008.md", "AB116"), [Some(3)]);
    // Most edits changed what is shown: the comparisons are not between unchanged sets.
    assert!(changed >= 12, "{changed}");
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

/// Edits of one check's frontmatter that keep its id, in a generated catalogue with claims
/// (counts, category tables with a severity profile, ranges, policies), generated count
/// regions and `require_coverage` over category and severity. Each edit reaches a different
/// set of the catalogue-wide passes (none, the rule coverage, the vocabulary, `verify`); after
/// each the findings equal the whole pipeline's.
#[test]
fn frontmatter_edits_that_keep_the_id_equal_the_whole_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    auditbook::testgen::generate(dir.path(), 90, auditbook::testgen::Body::Short).unwrap();
    auditbook::testgen::add_claims(dir.path(), 12).unwrap();
    let config = dir.path().join("catalogue.yaml");
    let declared = std::fs::read_to_string(&config).unwrap();
    let wider = declared.replacen(
        "'category == \"FID\" and severity == \"critical\"'",
        "'(category == \"FID\" and severity == \"critical\") or severity == \"low\"'",
        1,
    );
    // auth_model closed: the values no check compares (`none`, `OIDC`) are dead vocabulary.
    let wider = wider.replacen(
        "auth_model: {type: string, values: [none, API-Key, OAuth-Proxy, OIDC], open: true}",
        "auth_model: {type: string, values: [none, API-Key, OAuth-Proxy, OIDC]}",
        1,
    );
    assert_ne!(wider, declared);
    std::fs::write(&config, wider).unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut w = World::new(root.clone());
    w.recheck();
    // A check of severity high that no rule maps: made low, it falls under `require_coverage`
    // uncovered.
    let cat = w.catalogue().unwrap();
    let graph = w.graph().unwrap();
    let target = cat
        .checks
        .iter()
        .find(|c| c.severity == "high" && graph.covering_rules(&c.id).is_empty())
        .expect("an uncovered check")
        .clone();
    let check = root.join(target.file.as_str());
    let text = std::fs::read_to_string(&check).unwrap();
    let id_line = format!("id: {}\n", target.id);
    let low = text.replacen("severity: high", "severity: low", 1);
    let edits: Vec<(String, &str)> = vec![
        (
            text.replacen("title: \"", "title: \"Geänderter Titel: ", 1),
            "the title: read by no pass over the catalogue",
        ),
        (
            text.replacen("evidence_required: ", "evidence_required: 1", 1),
            "evidence_required: read by nothing",
        ),
        (
            if text.contains("adoption: enforced") {
                text.replacen("adoption: enforced", "adoption: advisory", 1)
            } else {
                text.replacen("adoption: advisory", "adoption: enforced", 1)
            },
            "adoption: read by the count regions and the rules",
        ),
        (
            text.replacen("severity: high", "severity: medium", 1),
            "severity: the severity tables, regions and claims go stale",
        ),
        (
            low.clone(),
            "severity: now uncovered under require_coverage",
        ),
        (
            low.replacen(&id_line, &format!("# Kommentar\n{id_line}"), 1),
            "a line above `id:`: the uncovered finding moves with it",
        ),
        (
            low.replacen(&id_line, &format!("# Kommentar\n{id_line}"), 1)
                .replacen("title: \"", "title: \"Zweiter Titel: ", 1),
            "the title again, with the id line moved",
        ),
        (
            text.replacen(
                "applies_when: '",
                "applies_when: 'auth_model == \"OIDC\" or ",
                1,
            ),
            "applies_when: `OIDC` compared, no longer dead vocabulary",
        ),
        (
            format!(
                "{}\n## Nachtrag\n\nNeuer Abschnitt im Text.\n",
                text.replacen("title: \"", "title: \"Beides: ", 1)
            ),
            "the title and the body at once",
        ),
        (text.clone(), "back"),
    ];
    let start = w.findings();
    let mut texts = std::collections::BTreeMap::new();
    let mut seen = Vec::new();
    for (edit, what) in edits {
        texts.insert(check.clone(), edit.clone());
        w.set_text(&check, edit);
        w.recheck_file(&check);
        let incremental = w.findings();
        assert_eq!(incremental, pipeline(&root, &texts), "after: {what}");
        let mut whole = World::new(root.clone());
        for (p, t) in &texts {
            whole.set_text(p, t.clone());
        }
        whole.recheck();
        assert_eq!(incremental, whole.findings(), "after: {what}");
        seen.push(incremental);
    }
    assert_eq!(seen.last(), Some(&start));
    // The edits that should move findings did: the comparisons are not between equal sets.
    let uncovered = |f: &std::collections::BTreeMap<String, Vec<auditbook::diag::Diagnostic>>| {
        f.get(target.file.as_str())
            .into_iter()
            .flatten()
            .filter(|d| d.code == "AB413")
            .map(|d| d.line)
            .collect::<Vec<_>>()
    };
    assert!(uncovered(&seen[3]).is_empty());
    assert_eq!(uncovered(&seen[4]).len(), 1, "{:#?}", seen[4]);
    assert_ne!(uncovered(&seen[4]), uncovered(&seen[5]));
    assert_ne!(seen[3], start, "a severity change leaves the tables stale");
    let dead = |f: &std::collections::BTreeMap<String, Vec<auditbook::diag::Diagnostic>>| {
        f.values()
            .flatten()
            .filter(|d| d.code == "AB311")
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(dead(&start).len(), 1, "{:#?}", dead(&start));
    assert_ne!(dead(&seen[7]), dead(&start));
}

/// A check file that is also a declared document (a claim reads it): an edit of it is read
/// again as a document too, as a whole re-check reads it.
#[test]
fn a_check_file_declared_as_a_document_is_read_again_as_one() {
    let f = Fixture::shipped();
    let root = f.root().canonicalize().unwrap();
    let config = root.join("catalogue.yaml");
    let declared = f.read("catalogue.yaml").replacen(
        "docs: [../README.md, README.md]",
        "docs: [../README.md, README.md, checks/FID-001.md]",
        1,
    )
    .replacen(
        "\nclaims:\n",
        "\nclaims:\n  - name: fid-001-evidence\n    doc: checks/FID-001.md\n    pattern: 'evidence_required: (?P<n>\\d+)'\n    expect:\n      n: count(checks where id == \"FID-001\")\n",
        1,
    );
    let check = root.join("checks/FID-001.md");
    let text = f.read("checks/FID-001.md");
    let mut texts = std::collections::BTreeMap::new();
    texts.insert(config.clone(), declared.clone());
    let mut w = World::new(root.clone());
    w.set_text(&config, declared);
    w.recheck();
    assert_eq!(w.findings(), pipeline(&root, &texts), "before the edit");
    let claim = |w: &World| {
        w.findings()
            .values()
            .flatten()
            .filter(|d| d.message.contains("fid-001-evidence"))
            .count()
    };
    assert_eq!(claim(&w), 1, "{:#?}", w.findings());
    let mut held = Vec::new();
    for (edit, what) in [
        (
            text.replacen("evidence_required: 3", "evidence_required: 1", 1),
            "the value the claim reads",
        ),
        (
            text.replacen("evidence_required: 3", "evidence_required: 2", 1),
            "another value",
        ),
        (text.clone(), "back"),
    ] {
        texts.insert(check.clone(), edit.clone());
        w.set_text(&check, edit);
        w.recheck_file(&check);
        assert_eq!(w.findings(), pipeline(&root, &texts), "after: {what}");
        held.push(claim(&w));
    }
    assert_eq!(held, [0, 1, 1]);
}
