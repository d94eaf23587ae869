//! `auditbook schema check|profile|results|config`: the shipped catalogue's own files validate
//! against the schemas generated for it, and a known-bad file of each kind does not.

use crate::common;
use common::{auditbook, fixture_dir, success};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schema(root: &Path, kind: &str) -> Value {
    let out = auditbook()
        .arg("-C")
        .arg(root)
        .args(["schema", kind])
        .output()
        .unwrap();
    serde_json::from_str(&success(&out, ("schema", kind))).unwrap()
}

fn validator(schema: &Value) -> jsonschema::Validator {
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("not a valid JSON Schema: {e}"))
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

fn yaml(text: &str) -> Value {
    serde_yaml::from_str(text).unwrap()
}

fn frontmatter(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let split = auditbook::load::frontmatter::split(&text).unwrap();
    yaml(split.yaml)
}

fn check_files(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root.join("checks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    v.sort();
    v
}

#[test]
fn shipped_check_frontmatter_validates() {
    let root = repo().join("catalogue");
    let v = validator(&schema(&root, "check"));
    let files = check_files(&root);
    assert_eq!(files.len(), 120);
    for f in &files {
        let e = errors(&v, &frontmatter(f));
        assert!(e.is_empty(), "{}: {}", f.display(), e.join("; "));
    }
}

#[test]
fn bad_check_frontmatter_is_rejected() {
    let root = repo().join("catalogue");
    let v = validator(&schema(&root, "check"));
    let good = frontmatter(&root.join("checks/FID-006.md"));
    assert!(v.is_valid(&good));
    let bad = |key: &str, value: Value| {
        let mut doc = good.clone();
        doc[key] = value;
        doc
    };
    // A misspelt key, a value outside each vocabulary, a wrong type, an id of another category.
    let cases = [
        bad("adoptoin", "advisory".into()),
        bad("adoption", "advisroy".into()),
        bad("severity", "hgh".into()),
        bad("spec_baseline", "2024-01-01".into()),
        bad("evidence_required", "2".into()),
        bad("category", "NOPE".into()),
        bad("id", "SEC-006".into()),
        bad("id", "FID-6".into()),
    ];
    for doc in &cases {
        assert!(!v.is_valid(doc), "accepted: {doc}");
    }
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("applies_when");
    assert!(!v.is_valid(&missing));
    // The alias the loader accepts is accepted here too.
    assert!(v.is_valid(&bad("spec_baseline", "beide".into())));
}

#[test]
fn compatibility_catalogue_check_schema_accepts_its_checks() {
    let root = fixture_dir("compat-de");
    let v = validator(&schema(&root, "check"));
    for f in check_files(&root) {
        let e = errors(&v, &frontmatter(&f));
        assert!(e.is_empty(), "{}: {}", f.display(), e.join("; "));
    }
}

#[test]
fn catalogue_yaml_validates_against_the_config_schema() {
    let v = validator(&schema(&repo().join("catalogue"), "config"));
    for path in [
        repo().join("catalogue/catalogue.yaml"),
        fixture_dir("clean").join("catalogue.yaml"),
    ] {
        let doc = yaml(&std::fs::read_to_string(&path).unwrap());
        let e = errors(&v, &doc);
        assert!(e.is_empty(), "{}: {}", path.display(), e.join("; "));
    }
    let shipped = yaml(&std::fs::read_to_string(repo().join("catalogue/catalogue.yaml")).unwrap());
    let mut unknown = shipped.clone();
    unknown["categoriez"] = Value::Array(vec![]);
    assert!(!v.is_valid(&unknown));
    let mut wrong = shipped.clone();
    wrong["retired"][0]["merged_into"] = Value::Array(vec![]);
    assert!(!v.is_valid(&wrong));
    let mut field = shipped;
    field["profile"]["fields"]["transport"]["type"] = "number".into();
    assert!(!v.is_valid(&field));
}

fn examples(suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

#[test]
fn example_profiles_validate_and_a_bad_one_does_not() {
    let v = validator(&schema(&repo().join("catalogue"), "profile"));
    let files = examples(".profile.yaml");
    assert_eq!(files.len(), 4);
    for f in &files {
        let e = errors(&v, &yaml(&std::fs::read_to_string(f).unwrap()));
        assert!(e.is_empty(), "{}: {}", f.display(), e.join("; "));
    }
    let good = yaml(&std::fs::read_to_string(&files[0]).unwrap());
    let edits: [(&str, Value); 4] = [
        ("transport", "HTTP".into()),
        ("write_capable", "false".into()),
        ("deploymnet", Value::Array(vec!["local-stdio".into()])),
        ("sdk_language", "...".into()),
    ];
    for (key, value) in edits {
        let mut doc = good.clone();
        doc[key] = value;
        assert!(!v.is_valid(&doc), "accepted {key}");
    }
    let mut nested = good.clone();
    nested["data_source"]["is_swiss_open_data"] = "yes".into();
    assert!(!v.is_valid(&nested));
    let mut missing = good;
    missing.as_object_mut().unwrap().remove("transport");
    assert!(!v.is_valid(&missing));
}

#[test]
fn example_results_validate_and_bad_ones_do_not() {
    let v = validator(&schema(&repo().join("catalogue"), "results"));
    let files = examples(".results.yaml");
    assert!(!files.is_empty());
    for f in &files {
        let e = errors(&v, &yaml(&std::fs::read_to_string(f).unwrap()));
        assert!(e.is_empty(), "{}: {}", f.display(), e.join("; "));
    }
    let good = yaml(&std::fs::read_to_string(&files[0]).unwrap());
    let first = good["results"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut doc = good.clone();
        f(&mut doc);
        doc
    };
    let cases = [
        with(&|d| d["results"][first.as_str()]["status"] = "passed".into()),
        with(&|d| d["results"]["FID-999"] = serde_json::json!({"status": "pass"})),
        // Retired: the result belongs on the successor.
        with(&|d| d["results"]["DRIFT-007"] = serde_json::json!({"status": "n/a"})),
        with(&|d| d["results"][first.as_str()]["evidance"] = Value::Array(vec![])),
        with(&|d| d["results"][first.as_str()]["effort"] = "huge".into()),
        // FID-006 owes two evidence items for a pass.
        with(&|d| {
            d["results"]["FID-006"] = serde_json::json!({"status": "pass", "evidence": ["one"]})
        }),
        with(&|d| d["results"]["FID-006"] = serde_json::json!({"status": "not_verified"})),
        with(&|d| d["verdict"] = "production-ready".into()),
    ];
    for doc in &cases {
        assert!(!v.is_valid(doc), "accepted a bad results file");
    }
    let ok = with(&|d| {
        d["results"]["FID-006"] =
            serde_json::json!({"status": "pass", "evidence": ["one", "two"], "effort": "s"})
    });
    assert!(v.is_valid(&ok), "{}", errors(&v, &ok).join("; "));
}

#[test]
fn profile_schema_needs_a_declared_profile() {
    let out = auditbook()
        .arg("-C")
        .arg(fixture_dir("compat-de"))
        .args(["schema", "profile"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no profile schema"));
}

#[test]
fn schemas_are_byte_identical_across_runs() {
    let root = repo().join("catalogue");
    for kind in ["check", "profile", "results", "config"] {
        assert_eq!(schema(&root, kind), schema(&root, kind));
    }
}
