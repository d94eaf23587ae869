//! The README's second example on real ground: `auditbook collect
//! examples/amtsblatt-readonly.profile.yaml --package pypi:amtsblatt-mcp` installs the published
//! server from the index pip is configured for (PyPI), scans its files, starts it in the
//! sandbox and probes it. At least 40 of its applicable checks carry machine evidence, every
//! one names its source and the artifact's digest, and the server ran sandboxed.

use crate::common;

use common::auditbook;
use common::probe::root;
use serde_json::Value;

#[test]
fn the_readme_collect_example_gives_machine_evidence_for_forty_checks_sandboxed() {
    common::prereq::bwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap_or_default();
    let command = "collect examples/amtsblatt-readonly.profile.yaml --package pypi:amtsblatt-mcp";
    assert!(readme.contains(command), "the README shows `{command}`");
    let d = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let results = d.path().join("r.yaml");
    let out = auditbook()
        .current_dir(root())
        .args(["-C", "catalogue", "--format", "json"])
        .args(command.split(' '))
        .args(["--sandbox", "require", "--results"])
        .arg(&results)
        .env("AUDITBOOK_CACHE_DIR", d.path().join("cache"))
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot run auditbook: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("collect printed no JSON ({e}); is PyPI reachable? {stdout}\n{stderr}")
    });
    let text = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let r: Value = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let pkg = &r["package"];
    assert_eq!(pkg["name"], "amtsblatt-mcp", "{pkg}");
    assert!(
        pkg["sandbox"]
            .as_str()
            .is_some_and(|s| s.starts_with("sandboxed (bubblewrap")),
        "{pkg}"
    );
    let applicable = json["applicable"].as_u64().unwrap_or(0);
    let evidenced = json["machine_evidence"].as_u64().unwrap_or(0);
    assert!(
        evidenced >= 40,
        "{evidenced} of {applicable} applicable checks carry machine evidence: {}",
        json["checks"]
    );
    // Every machine result says where it came from, what it was taken from, and what it saw.
    let mut machine = 0;
    for c in json["checks"].as_array().into_iter().flatten() {
        if c["by"] != "machine" {
            continue;
        }
        machine += 1;
        let id = c["id"].as_str().unwrap_or("");
        let one = &r["results"][id];
        assert!(
            one["source"].as_str().is_some_and(|s| !s.is_empty()),
            "{id}: {one}"
        );
        assert!(
            one["digest"]
                .as_str()
                .is_some_and(|s| s.starts_with("sha256:")),
            "{id}: {one}"
        );
        assert!(
            one["evidence"].as_array().is_some_and(|e| !e.is_empty()),
            "{id}: {one}"
        );
    }
    assert!(machine >= 40, "{machine}");
}
