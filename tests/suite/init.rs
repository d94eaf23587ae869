//! `auditbook init`: a starter that lints clean, and a catalogue.yaml inferred from the
//! German compatibility layout that lints without errors and catches more than compatibility
//! mode. Neither ever overwrites a file.

use crate::common;

use common::{auditbook, tree, Fixture};

#[test]
fn init_in_an_empty_folder_lints_and_verifies_clean() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("neu");
    std::fs::create_dir(&root).unwrap();
    auditbook()
        .arg("-C")
        .arg(&root)
        .arg("init")
        .assert()
        .code(0);
    let out = auditbook()
        .arg("-C")
        .arg(&root)
        .args(["lint", "--verify", "--deny", "warnings"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let config = std::fs::read_to_string(root.join("catalogue.yaml")).unwrap();
    // Commented line by line: every key line of the starter says what it does.
    let uncommented: Vec<&str> = config
        .lines()
        .filter(|l| {
            !l.trim().is_empty() && !l.trim_start().starts_with('-') && !l.starts_with("    ")
        })
        .filter(|l| !l.contains('#'))
        .collect();
    assert!(uncommented.len() <= 4, "{uncommented:?}");
    assert!(std::fs::read_to_string(root.join("README.md"))
        .unwrap()
        .contains("| CORE |"));

    // A second run refuses and changes nothing.
    let before = tree(&root);
    let out = auditbook()
        .arg("-C")
        .arg(&root)
        .arg("init")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("never overwrites"));
    assert_eq!(tree(&root), before);
}

#[test]
fn init_refuses_a_folder_with_checks_but_offers_from_existing() {
    let f = Fixture::new("compat-de");
    let before = tree(f.root());
    let out = f.cmd().arg("init").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--from-existing"));
    assert_eq!(tree(f.root()), before);
}

/// The German fixture with one more check whose expression compares strings and lists, as
/// the real catalogue's do.
fn german() -> Fixture {
    let f = Fixture::new("compat-de");
    f.write(
        "checks/SEC-007.md",
        "---\nid: SEC-007\ntitle: \"Ausgehende HTTP-Verbindungen nur über TLS\"\ncategory: SEC\nseverity: high\napplies_when: 'transport == \"dual\" or transport == \"HTTP/SSE\" or deployment.includes(\"Railway\")'\nspec_baseline: beide\n---\n\n# SEC-007 — Ausgehende HTTP-Verbindungen nur über TLS\n\n## Description\n\nKlartext verlässt den Server nicht.\n\n## Pass Criteria\n\n- [ ] Jede ausgehende URL beginnt mit `https://`.\n",
    );
    f.edit("checks/MANIFEST.txt", "SEC-004\n", "SEC-004\nSEC-007\n");
    f
}

#[test]
fn from_existing_infers_schema_vocabularies_aliases_and_retired_candidates() {
    let f = german();
    let before = tree(f.root());
    let printed = f.stdout(&["init", "--from-existing", "--dry-run"]);
    assert_eq!(tree(f.root()), before, "--dry-run writes nothing");
    for expected in [
        // The profile schema, typed by use, with closed and open vocabularies.
        "\"tools_make_external_requests\":    # read by FID-003, FID-006, SEC-004\n      type: bool\n",
        "\"transport\":    # read by SEC-007\n      type: string\n      values: [\"HTTP/SSE\", \"dual\"]\n      # closed:",
        "\"deployment\":    # read by SEC-007\n      type: list\n      values: [\"Railway\"]\n      open: true",
        // Closed vocabularies and the German alias.
        "severities: [\"critical\", \"high\", \"medium\", \"low\"]   # closed",
        "\"beide\": both    # German for `both`, written in 3 check(s)",
        // Categories with counts.
        "  - prefix: \"SEC\"\n    name: \"SEC\"    # 2 check(s)",
        // Ids mentioned but never defined, to confirm; hash-like tokens are not ids.
        "#  - {id: DRIFT-007, retired: \"YYYY-MM-DD\"",
        "required_sections:                # the sections all 4 checks have\n  - \"Description\"\n  - \"Pass Criteria\"\n",
    ] {
        assert!(printed.contains(expected), "missing {expected:?} in\n{printed}");
    }
    assert!(
        !printed.contains("SHA-256") && !printed.contains("FID-999"),
        "{printed}"
    );

    f.cmd().args(["init", "--from-existing"]).assert().code(0);
    assert_eq!(f.read("catalogue.yaml"), printed);
    // The inferred file lints with no errors.
    let (v, code) = f.lint_json();
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["summary"]["mode"], "declared");
    // A re-run refuses to overwrite.
    let out = f.cmd().args(["init", "--from-existing"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(f.read("catalogue.yaml"), printed);
}

#[test]
fn the_inferred_file_catches_more_than_compatibility_mode() {
    // The same planted mistakes in two copies: one read in compatibility mode, one with the
    // inferred catalogue.yaml.
    let plant = |f: &Fixture| {
        // A boolean field compared to a string, a value outside the closed vocabulary, and a
        // check without a section every other check has.
        f.edit(
            "checks/FID-006.md",
            "applies_when: \"tools_make_external_requests == true\"",
            "applies_when: 'tools_make_external_requests == \"ja\"'",
        );
        f.edit(
            "checks/SEC-007.md",
            "transport == \"dual\"",
            "transport == \"Dual\"",
        );
        f.edit("checks/FID-003.md", "## Description\n", "## Beschreibung\n");
    };
    let compat = german();
    plant(&compat);
    let declared = german();
    declared
        .cmd()
        .args(["init", "--from-existing"])
        .assert()
        .code(0);
    plant(&declared);

    let loud = |f: &Fixture| {
        let (v, _) = f.lint_json();
        let mut c: Vec<String> = common::loud_in(&v)
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect();
        c.sort();
        c.dedup();
        c
    };
    let in_compat = loud(&compat);
    let in_declared = loud(&declared);
    for code in ["AB303", "AB304", "AB220"] {
        assert!(
            !in_compat.contains(&code.to_string()),
            "compatibility mode found {code}: {in_compat:?}"
        );
        assert!(
            in_declared.contains(&code.to_string()),
            "declared mode missed {code}: {in_declared:?}"
        );
    }
}
