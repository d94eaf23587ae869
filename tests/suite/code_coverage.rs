//! Every registered diagnostic code is held to its explanation's examples: the bad example,
//! run through the real binary, reports the code; its clean twin does not. A code without an
//! explanation fails this test by name, so a new code cannot ship undocumented or unprovoked.
//! What each bad example reports — code, file, line, column, message — is one reviewed
//! snapshot, so a finding that moves off its defect shows in review.

use crate::common;

use auditbook::diag::explain::{self, Content, Example, Run};
use auditbook::diag::CODES;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// What one example printed (stdout, stderr), with the folder it ran in written `<dir>`.
type Ran = Result<(String, String), String>;

/// Every code's bad and good example, each run once for all the tests here.
fn runs() -> &'static BTreeMap<&'static str, (Ran, Ran)> {
    static RUNS: OnceLock<BTreeMap<&'static str, (Ran, Ran)>> = OnceLock::new();
    RUNS.get_or_init(|| {
        CODES
            .iter()
            .filter_map(|c| {
                let e = explain::lookup(c.code)?;
                Some((c.code, (run(c.code, &e.bad), run(c.code, &e.good))))
            })
            .collect()
    })
}

#[test]
fn every_code_is_reported_by_its_example_and_not_by_its_twin() {
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    for code in CODES {
        let Some(e) = explain::lookup(code.code) else {
            missing.push(code.code);
            continue;
        };
        let (bad, good) = &runs()[code.code];
        for (example, expected, ran) in [(&e.bad, true, bad), (&e.good, false, good)] {
            match ran {
                Err(m) => wrong.push(format!("{}: {m}", code.code)),
                Ok(out) if reported(code.code, out) != expected => wrong.push(format!(
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

/// Where each bad example's finding points, one line per finding of its own code, sorted by
/// code: `CODE file:line:column message` (`-` where a finding names no file). Human output
/// always shows a column, 1 when the finding gives none.
#[test]
fn every_bad_example_points_at_its_defect() {
    let mut lines = Vec::new();
    for (code, (bad, _)) in runs() {
        let Ok(out) = bad else { continue };
        let found = findings(code, out);
        if found.is_empty() {
            lines.push(format!(
                "{code} (reported without a place: no JSON finding or human header)"
            ));
        }
        for f in found {
            // One line per finding: a message of several lines is written with `\n`.
            lines.push(format!("{code} {}", f.replace('\n', "\\n")));
        }
    }
    // A finding that names the day it was judged on is the same finding tomorrow.
    let today = auditbook::model::date::today();
    insta::assert_snapshot!("bad_examples", lines.join("\n").replace(&today, "<today>"));
}

/// The findings of `code` in a run's output, as `file:line:column message`: the diagnostic
/// objects of JSON on stdout (SARIF results included), else the human headers
/// (`error[AB212]: …` and the `┌─ file:line:column` under them) on either stream.
fn findings(code: &str, (stdout, stderr): &(String, String)) -> Vec<String> {
    fn place(file: Option<&str>, line: Option<u64>, column: Option<u64>) -> String {
        match (file, line, column) {
            (Some(f), Some(l), Some(c)) => format!("{f}:{l}:{c}"),
            (Some(f), Some(l), None) => format!("{f}:{l}"),
            (Some(f), None, _) => f.to_string(),
            (None, _, _) => "-".to_string(),
        }
    }
    fn collect(v: &Value, code: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(m) if m.get("code").and_then(Value::as_str) == Some(code) => {
                out.push(format!(
                    "{} {}",
                    place(
                        m.get("file").and_then(Value::as_str),
                        m.get("line").and_then(Value::as_u64),
                        m.get("column").and_then(Value::as_u64)
                    ),
                    m.get("message").and_then(Value::as_str).unwrap_or("")
                ));
            }
            Value::Object(m) if m.get("ruleId").and_then(Value::as_str) == Some(code) => {
                let loc = &m["locations"][0]["physicalLocation"];
                out.push(format!(
                    "{} {}",
                    place(
                        loc["artifactLocation"]["uri"].as_str(),
                        loc["region"]["startLine"].as_u64(),
                        loc["region"]["startColumn"].as_u64()
                    ),
                    m["message"]["text"].as_str().unwrap_or("")
                ));
            }
            Value::Object(m) => m.values().for_each(|v| collect(v, code, out)),
            Value::Array(a) => a.iter().for_each(|v| collect(v, code, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Ok(v) = serde_json::from_str::<Value>(stdout) {
        collect(&v, code, &mut out);
    }
    if out.is_empty() {
        let header = format!("[{code}]: ");
        for text in [stdout, stderr] {
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                let Some((_, message)) = l.split_once(&header) else {
                    continue;
                };
                // `┌─ file:line:column` over an excerpt, `= in file` for a whole file.
                let next = lines.get(i + 1).map(|n| n.trim_start()).unwrap_or("");
                let at = next
                    .strip_prefix("┌─ ")
                    .or_else(|| next.strip_prefix("= in "))
                    .unwrap_or("-");
                out.push(format!("{at} {message}"));
            }
        }
    }
    out
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
            let here = |b: &[u8]| {
                let text = String::from_utf8_lossy(b);
                match dir.path().canonicalize() {
                    Ok(real) => text.replace(&*real.to_string_lossy(), "<dir>"),
                    Err(_) => text.into_owned(),
                }
                .replace(&*dir.path().to_string_lossy(), "<dir>")
            };
            Ok((here(&out.stdout), here(&out.stderr)))
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
