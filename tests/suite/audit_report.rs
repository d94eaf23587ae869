//! The full audit report of the example server (examples/amtsblatt-readonly.*) against the
//! shipped catalogue, as Markdown and json snapshots. The catalogue's digests are redacted:
//! they change with every edit of any catalogue file, and a test checks them separately.

use crate::common;
use common::auditbook;
use serde_json::Value;

fn run(args: &[&str]) -> (String, i32) {
    let out = auditbook()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-C", "catalogue"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "the example inputs are clean: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

const AUDIT: &[&str] = &[
    "audit",
    "examples/amtsblatt-readonly.profile.yaml",
    "--results",
    "examples/amtsblatt-readonly.results.yaml",
];

fn redact(text: &str, fingerprints: &Value) -> String {
    let mut t = text.to_string();
    for key in ["files_digest", "semantic_fingerprint"] {
        let fp = fingerprints[key].as_str().unwrap();
        t = t.replace(fp, &format!("[catalogue {key}]"));
    }
    t
}

fn fingerprints() -> Value {
    let (json, _) = run(&[AUDIT, &["--format", "json"]].concat());
    let v: Value = serde_json::from_str(&json).unwrap();
    v["meta"]["catalogue"].clone()
}

#[test]
fn markdown_report_of_the_example() {
    let (md, code) = run(AUDIT);
    assert_eq!(code, 0, "the example is production-ready");
    insta::assert_snapshot!("amtsblatt_report_md", redact(&md, &fingerprints()));
}

#[test]
fn json_report_of_the_example() {
    let (json, code) = run(&[AUDIT, &["--format", "json"]].concat());
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"], "production-ready");
    insta::assert_snapshot!(
        "amtsblatt_report_json",
        redact(&json, &v["meta"]["catalogue"])
    );
}

#[test]
fn the_report_names_the_digests_of_the_catalogue_snapshot() {
    let (snap, _) = run(&["snapshot"]);
    let snap: Value = serde_json::from_str(&snap).unwrap();
    let meta = fingerprints();
    let text = snap.to_string();
    assert_eq!(meta["files_digest"].as_str().unwrap().len(), 64);
    assert!(
        text.contains(meta["files_digest"].as_str().unwrap()),
        "bytes digest as in `snapshot`"
    );
    assert!(
        text.contains(meta["semantic_fingerprint"].as_str().unwrap()),
        "semantic as in `snapshot`"
    );
}

#[test]
fn the_example_profiles_are_valid() {
    for p in [
        "examples/amtsblatt-readonly.profile.yaml",
        "examples/cloud-http-apikey.profile.yaml",
        "examples/personal-data-writer.profile.yaml",
    ] {
        let (_, code) = run(&["profile", "check", p, "-q"]);
        assert_eq!(code, 0, "{p}");
    }
}
