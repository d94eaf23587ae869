//! Validators for the formats auditbook writes, as the tests use them.
//!
//! SARIF: the official 2.1.0 schema that the `serde-sarif` dev-dependency ships, found through
//! `cargo metadata`. JUnit XML and GitHub workflow files: Python validators (`xmlschema`,
//! `check-jsonschema` with its vendored GitHub schemas) in a virtual environment created on first
//! use at `target/validators` (or where `AUDITBOOK_VALIDATORS` points; `prereq`). A validator
//! that cannot be installed fails the test: a format check must never pass because nothing
//! checked.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The SARIF 2.1.0 schema file inside the `serde-sarif` package, found through cargo metadata.
fn sarif_schema_path() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let out = std::process::Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(&manifest)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{cargo} metadata`: {e}"));
    assert!(
        out.status.success(),
        "`cargo metadata` failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let package = meta["packages"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "serde-sarif"))
        .expect(
            "the `serde-sarif` package is not in `cargo metadata`; it is the dev-dependency that \
             ships the SARIF 2.1.0 schema this test validates against",
        );
    let manifest_path = PathBuf::from(package["manifest_path"].as_str().unwrap());
    let schema = manifest_path.parent().unwrap().join("src/schema.json");
    assert!(
        schema.is_file(),
        "the SARIF 2.1.0 schema is not at {} (did serde-sarif move it?)",
        schema.display()
    );
    schema
}

pub fn sarif_validator() -> jsonschema::Validator {
    let path = sarif_schema_path();
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        schema["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema",
        "{} is not the SARIF 2.1.0 schema",
        path.display()
    );
    // The official schema's `language` patterns have a stray `]`, which ECMA-262 reads as a
    // literal but the validator's strict check of the schema itself rejects; escape that one
    // character in memory (the pattern keeps its meaning) so every format is still checked.
    let mut schema = schema;
    let mut fixed = 0;
    escape_stray_bracket(&mut schema, &mut fixed);
    assert!(fixed <= 2, "unexpected patterns rewritten: {fixed}");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn escape_stray_bracket(v: &mut Value, fixed: &mut usize) {
    const STRAY: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "pattern" && x == STRAY {
                    *x = STRAY.replace("}]?", "}\\]?").into();
                    *fixed += 1;
                } else {
                    escape_stray_bracket(x, fixed);
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|x| escape_stray_bracket(x, fixed)),
        _ => {}
    }
}

pub fn assert_valid(validator: &jsonschema::Validator, doc: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF schema violations:\n{}",
        errors.join("\n")
    );
}

/// A program of the validators' environment, installed on first use (`prereq::validators`).
pub fn validator_bin(name: &str) -> PathBuf {
    let bin = super::prereq::validators().join("bin").join(name);
    assert!(
        bin.is_file(),
        "the validator `{}` is missing",
        bin.display()
    );
    bin
}

/// The JUnit XML schema this repository validates against (see tests/schemas/README.md).
pub fn junit_xsd() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/junit-10.xsd")
}

/// Validate XML text against the JUnit schema; `Err` holds the validator's complaint.
pub fn junit_check(xml: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("junit.xml");
    std::fs::write(&doc, xml).unwrap();
    let out = std::process::Command::new(validator_bin("python"))
        .args([
            "-c",
            "import sys, xmlschema; xmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2])",
        ])
        .arg(junit_xsd())
        .arg(&doc)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[track_caller]
pub fn assert_junit_valid(xml: &str) {
    if let Err(e) = junit_check(xml) {
        panic!("JUnit schema violations:\n{e}\n{xml}");
    }
}
