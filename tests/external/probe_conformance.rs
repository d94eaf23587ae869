//! The official MCP conformance suite (npm `@modelcontextprotocol/conformance`, run on the
//! Node.js the npm package `node` provides) against the scripted server, clean and with
//! planted defects: its results are imported with `probe --conformance` (`source:
//! conformance`), and on every behaviour both observe, the suite and auditbook's probe agree —
//! or the table says why not.

use crate::common;

use common::probe::{probe_json, profile, run, scripted_http, Probe};
use std::path::Path;

const SCENARIOS: &[&str] = &[
    "server-stateless",
    "caching",
    "http-header-validation",
    "sep-2164-resource-not-found",
    "dns-rebinding-protection",
    "tools-list",
];

/// Run the suite's server scenarios against `url`, results under `out`.
fn suite(url: &str, out: &Path) {
    for scenario in SCENARIOS {
        common::probe::conformance_suite(url, &["--scenario", scenario], out);
    }
}

/// The suite's verdict per catalogue check (imported), and the probe's, for one server.
fn both(defects: &str, dir: &Path) -> (Probe, Probe) {
    let (_server, url) = scripted_http(defects);
    let out = dir.join("suite");
    suite(&url, &out);
    let p = profile("modern.profile.yaml");
    let out_s = out.display().to_string();
    let imported = probe_json(
        &[&p, "--conformance", &out_s, "--results", "suite.yaml"],
        dir,
        &[],
    );
    let probed = probe_json(&[&p, "--url", &url, "--results", "probe.yaml"], dir, &[]);
    (imported, probed)
}

/// A status decides (a finding) or it does not.
fn finding(status: &str) -> bool {
    matches!(status, "fail" | "partial" | "todo")
}

/// (defects, check, the suite finds it, the probe finds it, why they differ when they do).
const AGREEMENT: &[(&str, &str, bool, bool, &str)] = &[
    ("", "SCALE-008", false, false, ""),
    ("", "ARCH-020", false, false, ""),
    ("", "ARCH-008", false, false, ""),
    ("", "SEC-024", false, false, ""),
    ("", "ARCH-012", false, false, ""),
    ("", "ARCH-016", false, false, ""),
    ("headers-ignored", "SCALE-008", true, true, ""),
    ("no-cache-hints", "ARCH-020", true, true, ""),
    ("resource-32002", "ARCH-008", true, true, ""),
    ("any-origin", "SEC-024", true, true, ""),
    (
        "host-only",
        "SEC-024",
        false,
        true,
        "the suite's rebinding test sends a foreign Host together with the foreign Origin, so a server that checks only Host passes it; the probe sends the foreign Origin alone",
    ),
];

#[test]
fn the_suite_and_the_probe_agree_on_what_both_observe_or_say_why_not() {
    let mut disagree = Vec::new();
    let mut by_defects: std::collections::BTreeMap<&str, (Probe, Probe)> = Default::default();
    for (defects, id, suite_finds, probe_finds, why) in AGREEMENT {
        if !by_defects.contains_key(defects) {
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
            let pair = both(defects, dir.path());
            // Keep the directory alive while its results are read below.
            std::mem::forget(dir);
            by_defects.insert(defects, pair);
        }
        let (imported, probed) = &by_defects[defects];
        let suite_status = imported.report["checks"]
            .as_array()
            .and_then(|a| a.iter().find(|c| c["id"] == *id))
            .and_then(|c| c["status"].as_str())
            .unwrap_or("")
            .to_string();
        let probe_status = probed.status(id);
        if finding(&suite_status) != *suite_finds || finding(&probe_status) != *probe_finds {
            disagree.push(format!(
                "{defects:?} {id}: suite {suite_status} (expected a finding: {suite_finds}), probe {probe_status} (expected: {probe_finds}); {why}\nsuite: {}\nprobe: {}",
                imported.report, probed.evidence(id)
            ));
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n\n"));
}

#[test]
fn imported_results_are_marked_and_audited() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (imported, _) = both("headers-ignored", dir.path());
    assert_eq!(imported.code, Some(1), "{}", imported.stderr);
    let text = std::fs::read_to_string(dir.path().join("suite.yaml")).unwrap_or_default();
    assert!(text.contains("source: conformance"), "{text}");
    assert!(
        text.contains("[conformance sep-2243-server-reject-invalid-headers] FAILURE"),
        "{text}"
    );
    // The audit reads them as results like any other.
    let p = profile("modern.profile.yaml");
    let out = run(
        &["--format", "json", "audit"],
        &[&p, "--results", "suite.yaml"],
        dir.path(),
        &[],
    );
    let scale = out.report["findings"]
        .as_array()
        .into_iter()
        .chain(out.report["advisory_findings"].as_array())
        .flatten()
        .find(|c| c["id"] == "SCALE-008")
        .cloned()
        .unwrap_or_default();
    assert_eq!(scale["source"], "conformance", "{}", out.report);
    assert_eq!(scale["status"], "fail");
    assert!(!out.stderr.contains("error["), "{}", out.stderr);
}
