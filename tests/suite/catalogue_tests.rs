//! `auditbook test`: the shipped catalogue's declared expectations pass, and a planted
//! widening of one applies_when fails them with a diff naming the check.

use crate::common;

use common::auditbook;
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of the repository's catalogue, examples and README, as laid out in the repository.
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["catalogue", "examples"] {
        copy_dir(&repo().join(sub), &dir.path().join(sub));
    }
    std::fs::copy(repo().join("README.md"), dir.path().join("README.md")).unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn the_shipped_catalogue_passes_its_own_tests() {
    let out = auditbook()
        .current_dir(repo())
        .args(["-C", "catalogue", "test"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains(" passed, 0 failed"), "{text}");
}

#[test]
fn a_widened_applies_when_fails_with_a_diff() {
    let dir = copy();
    let check = dir.path().join("catalogue/checks/SEC-015.md");
    let text = std::fs::read_to_string(&check).unwrap();
    let widened = text.replace(
        "applies_when: 'enterprise_context == true or stadt_zuerich_context == true or is_cloud_deployed == true'",
        "applies_when: 'enterprise_context == true or stadt_zuerich_context == true or is_cloud_deployed == true or tools_make_external_requests == true'",
    );
    assert_ne!(text, widened, "the plant must change the expression");
    std::fs::write(&check, widened).unwrap();
    let out = auditbook()
        .current_dir(dir.path())
        .args(["-C", "catalogue", "test"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL  amtsblatt-readonly applicability"),
        "{text}"
    );
    assert!(
        text.contains("-SEC-015: does not apply (no-match)"),
        "{text}"
    );
    assert!(text.contains("+SEC-015: applies ("), "{text}");
    // The other profiles already had SEC-015 applying: they still pass.
    assert!(
        text.contains("ok    cloud-http-apikey applicability"),
        "{text}"
    );
    // As JSON, each failing test is also an AB902 finding at its line: the applicability test,
    // and the results test, whose verdict is incomplete without a result for SEC-015.
    let out = auditbook()
        .current_dir(dir.path())
        .args(["-C", "catalogue", "test", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(&str, &str, u64)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["file"].as_str().unwrap(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("AB902", "tests/amtsblatt-readonly.yaml", 7),
            ("AB902", "tests/amtsblatt-readonly.yaml", 66)
        ],
        "{v:#}"
    );
}

#[test]
fn an_invalid_expectation_file_is_reported_with_its_line() {
    let dir = copy();
    std::fs::write(
        dir.path().join("catalogue/tests/broken.yaml"),
        "tests:\n  - name: typo\n    profile: ../examples/amtsblatt-readonly.profile.yaml\n    must_aply: [SEC-004]\n  - name: unknown id\n    profile: ../examples/amtsblatt-readonly.profile.yaml\n    must_apply: [SEC-999]\n",
    )
    .unwrap();
    let out = auditbook()
        .current_dir(dir.path())
        .args(["-C", "catalogue", "test", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(String, u64)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, [("AB901".to_string(), 4), ("AB901".to_string(), 5)]);
    assert!(v["diagnostics"][0]["help"].is_string());
}

#[test]
fn a_results_expectation_pins_verdict_and_score() {
    let dir = copy();
    let results = dir.path().join("examples/amtsblatt-readonly.results.yaml");
    let text = std::fs::read_to_string(&results).unwrap();
    // One more failing result changes the score the test pins.
    let (v, _) = (text.clone(), ());
    assert!(v.contains("SDK-002"));
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("SDK-002:"))
        .unwrap();
    let status = lines[at + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with("status:"))
        .unwrap()
        + at
        + 1;
    lines[status] = lines[status].replace("partial", "fail");
    std::fs::write(&results, lines.join("\n") + "\n").unwrap();
    let out = auditbook()
        .current_dir(dir.path())
        .args(["-C", "catalogue", "test"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("-score: 82.5\n+score: 80"), "{text}");
}

#[test]
fn tests_can_live_under_a_tests_key_in_catalogue_yaml() {
    let dir = copy();
    let config = dir.path().join("catalogue/catalogue.yaml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(
        "\ntests:\n  - name: inline\n    profile: ../examples/cloud-http-apikey.profile.yaml\n    must_not_apply: [{id: CH-001, reason: no-match}]\n    must_apply: [SEC-002]\n",
    );
    std::fs::write(&config, text).unwrap();
    let run = |args: &[&str]| {
        auditbook()
            .current_dir(dir.path())
            .args(["-C", "catalogue"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["test"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("ok    inline (catalogue/catalogue.yaml:"),
        "{stdout}"
    );
    // One case more than the shipped catalogue declares, and all of them pass.
    let shipped = auditbook()
        .current_dir(repo())
        .args(["-C", "catalogue", "test"])
        .output()
        .unwrap();
    let total = |text: &str| -> usize {
        text.lines()
            .find_map(|l| l.split_once(" test(s): "))
            .and_then(|(n, _)| n.trim().parse().ok())
            .unwrap_or(0)
    };
    let before = total(&String::from_utf8_lossy(&shipped.stdout));
    assert!(before > 0);
    assert!(
        stdout.contains(&format!(
            "{} test(s): {} passed, 0 failed",
            before + 1,
            before + 1
        )),
        "{stdout}"
    );
    // The key is part of the format: lint accepts it.
    assert_eq!(
        run(&["lint", "--deny", "warnings", "-q"]).status.code(),
        Some(0)
    );

    // The failing twin: an inline expectation the catalogue does not meet.
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("must_apply: [SEC-002]", "must_apply: [CH-001]");
    std::fs::write(&config, text).unwrap();
    let out = run(&["test"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("+CH-001: no-match"));
}
