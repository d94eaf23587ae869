//! Every GitHub workflow in `.github/workflows/` and the repository's `action.yml` are valid
//! against the published GitHub schemas (the ones `check-jsonschema` vendors from
//! SchemaStore). The validator lives in `target/validators` (installed on first use,
//! `common::prereq`); when it cannot be installed this test fails — it never passes unchecked.

use crate::common;
use common::validators::validator_bin;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `check-jsonschema --builtin-schema SCHEMA FILES…`; `Err` holds its report.
fn check(schema: &str, files: &[PathBuf]) -> Result<(), String> {
    let out = std::process::Command::new(validator_bin("check-jsonschema"))
        .args(["--builtin-schema", schema])
        .args(files)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn workflows() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml" || x == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_workflow_is_valid_against_the_github_workflow_schema() {
    let files = workflows();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.contains(&"auditbook.yml".to_string()) && names.contains(&"release.yml".to_string()),
        "the catalogue workflow and the release workflow: {names:?}"
    );
    if let Err(e) = check("vendor.github-workflows", &files) {
        panic!("workflow schema violations:\n{e}");
    }
}

/// The copyable workflows under `docs/workflows/` (for repositories other than this one) are
/// held to the same schema, and the drift workflow keeps its promises: one labelled issue,
/// opened or updated on drift, closed when the drift is gone, from the action's snapshot.
#[test]
fn the_copyable_workflows_are_valid_and_manage_one_drift_issue() {
    let dir = root().join("docs/workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no workflow in {}", dir.display());
    if let Err(e) = check("vendor.github-workflows", &files) {
        panic!("workflow schema violations:\n{e}");
    }
    let text = std::fs::read_to_string(dir.join("claims-elsewhere.yml")).unwrap();
    for needle in [
        "schedule:",
        "issues: write",
        "snapshot-url:",
        "steps.auditbook.outputs.snapshot",
        "verify --claims",
        "gh issue create",
        "gh issue edit",
        "gh issue close",
    ] {
        assert!(text.contains(needle), "claims-elsewhere.yml lacks {needle}");
    }
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(action.contains("snapshot-url:") && action.contains("outputs.path"));
}

#[test]
fn the_action_is_valid_against_the_github_action_schema() {
    let action = root().join("action.yml");
    if let Err(e) = check("vendor.github-actions", &[action]) {
        panic!("action schema violations:\n{e}");
    }
}

#[test]
fn the_schema_checks_are_not_vacuous() {
    let dir = tempfile::tempdir().unwrap();
    let bad_workflow = dir.path().join("bad.yml");
    std::fs::write(
        &bad_workflow,
        "name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n",
    )
    .unwrap();
    assert!(check("vendor.github-workflows", &[bad_workflow]).is_err());
    let bad_action = dir.path().join("action.yml");
    std::fs::write(
        &bad_action,
        "name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo\n",
    )
    .unwrap();
    assert!(
        check("vendor.github-actions", &[bad_action]).is_err(),
        "a composite run step needs a shell"
    );
    assert!(Path::new(&validator_bin("check-jsonschema")).is_file());
}
