//! Every registered diagnostic code is held to its explanation's examples: the bad example,
//! run through the real binary, reports the code; its clean twin does not. A code without an
//! explanation fails this test by name, so a new code cannot ship undocumented or unprovoked.

use crate::common;

use auditbook::diag::explain::{self, Content, Example, Run};
use auditbook::diag::CODES;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

#[test]
fn every_code_is_reported_by_its_example_and_not_by_its_twin() {
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    for code in CODES {
        let Some(e) = explain::lookup(code.code) else {
            missing.push(code.code);
            continue;
        };
        for (example, expected) in [(&e.bad, true), (&e.good, false)] {
            match run(code.code, example) {
                Err(m) => wrong.push(format!("{}: {m}", code.code)),
                Ok(out) if reported(code.code, &out) != expected => wrong.push(format!(
                    "{}: `{}` {} it\n--- stdout\n{}\n--- stderr\n{}",
                    code.code,
                    example.run.shown(),
                    if expected {
                        "does not report"
                    } else {
                        "reports"
                    },
                    out.0,
                    out.1
                )),
                Ok(_) => {}
            }
        }
    }
    assert!(
        missing.is_empty() && wrong.is_empty(),
        "{} code(s) without an explanation: {}\n\n{}",
        missing.len(),
        missing.join(", "),
        wrong.join("\n\n")
    );
}

#[test]
fn explain_prints_the_explanation_with_both_examples() {
    let out = common::auditbook()
        .args(["explain", "AB212"])
        .output()
        .unwrap();
    let text = common::success(&out, "explain AB212");
    assert!(
        text.starts_with("# AB212 `link-to-retired-check`"),
        "{text}"
    );
    assert!(text.contains("since 0.1.0"), "{text}");
    assert!(text.contains("**Reported:** `auditbook lint --format json`"));
    assert!(text.contains("**Not reported:**"));
    // By name, and as JSON.
    let out = common::auditbook()
        .args(["explain", "link-to-retired-check", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&common::success(&out, "explain json")).unwrap();
    assert_eq!(v["code"], "AB212");
    assert_eq!(v["since"], "0.1.0");
    assert!(v["explanation"].as_array().is_some_and(|p| p.len() >= 2));
    assert_eq!(v["bad"]["command"], "auditbook lint --format json");
}

#[test]
fn explain_an_unknown_code_fails_with_the_nearest() {
    let out = common::auditbook()
        .args(["explain", "AB2012"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no diagnostic code `AB2012`"), "{err}");
    assert!(err.contains("did you mean"), "{err}");
    let out = common::auditbook()
        .args(["explain", "link-to-retierd-check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("AB212 `link-to-retired-check`"));
}

/// Whether the run reported `code`: a diagnostic object with that code anywhere in JSON on
/// stdout, or a human diagnostic header (`error[AB212]`) on either stream.
fn reported(code: &str, (stdout, stderr): &(String, String)) -> bool {
    fn has(v: &Value, code: &str) -> bool {
        match v {
            Value::Object(m) => {
                m.get("code").and_then(Value::as_str) == Some(code)
                    || m.get("ruleId").and_then(Value::as_str) == Some(code)
                    || m.values().any(|v| has(v, code))
            }
            Value::Array(a) => a.iter().any(|v| has(v, code)),
            _ => false,
        }
    }
    let header = format!("[{code}]");
    serde_json::from_str::<Value>(stdout).is_ok_and(|v| has(&v, code))
        || stdout.contains(&header)
        || stderr.contains(&header)
}

fn write(dir: &Path, example: &Example) -> Result<(), String> {
    for (path, content) in example.materialise()? {
        let full = dir.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        match content {
            Content::Bytes(b) => std::fs::write(&full, b),
            Content::Link(target) => std::os::unix::fs::symlink(target, &full),
            Content::Fifo => {
                let c = std::ffi::CString::new(full.as_os_str().as_encoded_bytes())
                    .map_err(|e| e.to_string())?;
                // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
                match unsafe { libc::mkfifo(c.as_ptr(), 0o644) } {
                    0 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                }
            }
        }
        .map_err(|e| format!("cannot write `{path}`: {e}"))?;
    }
    Ok(())
}

/// The example's files in a fresh folder, and what running it printed (stdout, stderr).
fn run(code: &str, example: &Example) -> Result<(String, String), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    write(dir.path(), example)?;
    match &example.run {
        Run::Command { args } => {
            let out = common::auditbook()
                .current_dir(dir.path())
                .args(*args)
                .timeout(Duration::from_secs(60))
                .output()
                .map_err(|e| e.to_string())?;
            Ok((
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ))
        }
        Run::Library { .. } => library(code, dir.path()),
    }
}

/// Findings no command line can bring about, provoked through the library.
fn library(code: &str, root: &Path) -> Result<(String, String), String> {
    match code {
        // The document changes after `sync` read it and before it is rewritten.
        "AB607" => {
            let loaded = auditbook::load::load(root).map_err(|e| format!("{e:?}"))?;
            let templates =
                auditbook::render::templates::Templates::new(None).map_err(|e| e.to_string())?;
            let doc = root.join("README.md");
            let text = std::fs::read_to_string(&doc).map_err(|e| e.to_string())?;
            std::fs::write(&doc, format!("{text}\nNachtrag während des Laufs.\n"))
                .map_err(|e| e.to_string())?;
            let diags = match auditbook::claims::plan_sync(&loaded.catalogue, &templates) {
                Ok(_) => Vec::new(),
                Err(d) => d,
            };
            let json = serde_json::json!({ "diagnostics": diags });
            Ok((json.to_string(), String::new()))
        }
        other => Err(format!("{other} has no library provocation in this test")),
    }
}
