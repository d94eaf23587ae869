//! The fleet's scheduling examples hold: the copyable GitHub workflow (`docs/workflows/
//! fleet.yml`, validated against the workflow schema with the other copyable workflows in
//! `workflows.rs`) runs a matrix over the shards and merges their run files, and the Kubernetes
//! Indexed Job (`examples/kubernetes/fleet-indexed-job.yaml`) is valid against the Kubernetes
//! API's schema (`kubernetes-validate`, strict: an unknown field fails) and turns
//! `JOB_COMPLETION_INDEX` into the shard. A planted unknown field shows the validator rejects.

use crate::common::prereq;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn validate(file: &Path) -> Result<String, String> {
    let out = Command::new(prereq::kubernetes_validate())
        .args(["--strict", "-k", "1.33.0"])
        .arg(file)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(text)
    }
}

#[test]
fn the_indexed_job_is_valid_kubernetes_and_maps_the_index_to_a_shard() {
    let file = root().join("examples/kubernetes/fleet-indexed-job.yaml");
    let report = validate(&file).unwrap_or_else(|e| panic!("Kubernetes schema violations:\n{e}"));
    assert!(report.contains("passed"), "{report}");
    let text = std::fs::read_to_string(&file).unwrap();
    for needle in [
        "completionMode: Indexed",
        "completions: 4",
        "--shard \"$((JOB_COMPLETION_INDEX + 1))/4\"",
        "--run \"/fleet/runs/shard-$((JOB_COMPLETION_INDEX + 1)).jsonl\"",
        "--contact ",
        "--opt-out ",
    ] {
        assert!(
            text.contains(needle),
            "{needle} missing from the Indexed Job"
        );
    }
    // The planted twin: a misspelt field is refused, so the pass above means something.
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("job.yaml");
    std::fs::write(&bad, text.replace("completionMode:", "completionModus:")).unwrap();
    let e = validate(&bad).expect_err("a misspelt field must fail");
    assert!(e.contains("completionModus"), "{e}");
}

#[test]
fn the_fleet_workflow_runs_a_matrix_of_shards_and_one_merge() {
    let text = std::fs::read_to_string(root().join("docs/workflows/fleet.yml")).unwrap();
    let v: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let shards = &v["jobs"]["collect"]["strategy"]["matrix"]["shard"];
    assert_eq!(
        shards.as_sequence().map(Vec::len),
        Some(4),
        "a matrix of four shards: {shards:?}"
    );
    assert_eq!(v["env"]["SHARDS"].as_u64(), Some(4));
    assert_eq!(v["jobs"]["merge"]["needs"].as_str(), Some("collect"));
    for needle in [
        "--shard \"${{ matrix.shard }}/$SHARDS\"",
        "auditbook merge runs/*.jsonl",
        "pattern: fleet-run-*",
        "--state-of state-of.md",
        "--since",
        "--contact",
    ] {
        assert!(
            text.contains(needle),
            "{needle} missing from the fleet workflow"
        );
    }
}
