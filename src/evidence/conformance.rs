//! Results of the official MCP conformance suite (npm `@modelcontextprotocol/conformance`) as
//! evidence: its `checks.json` files (one per scenario run, an array of checks with `id`,
//! `status` and messages) are read and each catalogue check that lists suite ids under
//! `conformance:` gets a result with `source: conformance`.
//!
//! The suite's words are kept, its verdicts mapped: `FAILURE` records `fail`, `WARNING`
//! `partial`; a `FAILURE` that says the check was "Not testable" (the server lacks the suite's
//! diagnostic tools) and `SKIPPED` decide nothing. A check the suite saw clean is
//! `not_verified` — the suite covers part of what a check asks — and a finding with fewer
//! observations than the check owes is `todo`, as for the probe.

use super::merge::Contribution;
use super::untrusted;
use crate::model::Catalogue;
use serde::Deserialize;
use serde_json::json;
use std::path::{Path, PathBuf};

pub const SOURCE: &str = "conformance";

/// One check of the suite, as its results file writes it.
#[derive(Clone, Debug, Deserialize)]
pub struct SuiteCheck {
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub status: String,
    #[serde(default, rename = "errorMessage")]
    pub error_message: Option<String>,
}

/// Every suite check read, with the file it came from.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub files: Vec<String>,
    pub checks: Vec<(String, SuiteCheck)>,
}

/// At most this many results files are read below a folder.
const FILES: usize = 1000;

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if depth > 6 || out.len() >= FILES {
        return Ok(());
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        // No link is followed: the folder is the suite's output, read as it lies.
        let Ok(t) = e.file_type() else { continue };
        let p = e.path();
        if t.is_dir() {
            walk(&p, depth + 1, out)?;
        } else if t.is_file() && e.file_name() == "checks.json" {
            out.push(p);
        }
    }
    Ok(())
}

/// Read a `checks.json` file, or every one below a folder.
pub fn read(path: &Path) -> Result<Imported, String> {
    let mut files = Vec::new();
    if path.is_dir() {
        walk(path, 0, &mut files).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        if files.is_empty() {
            return Err(format!("no checks.json below `{}`", path.display()));
        }
    } else {
        files.push(path.to_path_buf());
    }
    let mut out = Imported::default();
    for f in files {
        let shown = f.display().to_string();
        let bytes = crate::load::text::read_limited(&f)
            .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
        let checks: Vec<SuiteCheck> = serde_json::from_slice(&bytes).map_err(|e| {
            format!("`{shown}` is not a conformance results file (an array of checks): {e}")
        })?;
        out.checks
            .extend(checks.into_iter().map(|c| (shown.clone(), c)));
        out.files.push(shown);
    }
    Ok(out)
}

fn matches(pattern: &str, id: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(start) => id.starts_with(start),
        None => pattern == id,
    }
}

fn not_testable(c: &SuiteCheck) -> bool {
    c.status == "FAILURE"
        && c.error_message
            .as_deref()
            .is_some_and(|m| m.trim_start().starts_with("Not testable"))
}

fn line(c: &SuiteCheck) -> String {
    let words = match (&c.error_message, c.description.is_empty()) {
        (Some(m), _) if !m.is_empty() => m.clone(),
        (_, false) => c.description.clone(),
        _ => c.name.clone(),
    };
    format!(
        "[conformance {}] {}: {}",
        untrusted::value(&c.id),
        c.status,
        untrusted::quote(&words, 240)
    )
}

/// The results for the checks in `ids` that list suite ids, and the block of the file.
pub fn contribution(cat: &Catalogue, ids: &[String], imported: &Imported) -> Contribution {
    let mut results = Vec::new();
    for c in ids.iter().filter_map(|id| cat.check(id)) {
        let wanted = c.conformance();
        if wanted.is_empty() {
            continue;
        }
        let seen: Vec<&SuiteCheck> = imported
            .checks
            .iter()
            .map(|(_, s)| s)
            .filter(|s| wanted.iter().any(|w| matches(w, &s.id)))
            .collect();
        let fails: Vec<&&SuiteCheck> = seen
            .iter()
            .filter(|s| s.status == "FAILURE" && !not_testable(s))
            .collect();
        let warns: Vec<&&SuiteCheck> = seen.iter().filter(|s| s.status == "WARNING").collect();
        let passed: Vec<&&SuiteCheck> = seen.iter().filter(|s| s.status == "SUCCESS").collect();
        let mut evidence: Vec<String> = fails.iter().chain(&warns).map(|s| line(s)).collect();
        evidence.extend(passed.iter().map(|s| line(s)));
        evidence.dedup();
        let evidence = untrusted::bounded(evidence, 40);
        let found = if !fails.is_empty() {
            Some("fail")
        } else if !warns.is_empty() {
            Some("partial")
        } else {
            None
        };
        let owed = c.evidence_required as usize;
        let (status, note) = match found {
            Some(s) if evidence.len() >= owed => (s, format!("the conformance suite reported a {s}")),
            Some(s) => (
                "todo",
                format!("the conformance suite reported a {s}, with {} observation(s) of the {owed} the check asks for; a person completes the evidence", evidence.len()),
            ),
            None if passed.is_empty() => (
                "not_verified",
                format!("the conformance results hold none of {} in a form that decides (not run, skipped or not testable)", wanted.join(", ")),
            ),
            None => (
                "not_verified",
                "the conformance suite saw no defect in what it covers; the rest of the check needs a person".to_string(),
            ),
        };
        let mut evidence = evidence;
        if evidence.is_empty() {
            evidence.push(format!(
                "[conformance] none of {} in the results read",
                wanted.join(", ")
            ));
        }
        results.push((
            c.id.to_string(),
            json!({
                "status": status,
                "evidence": evidence,
                "cites": ["https://github.com/modelcontextprotocol/conformance"],
                "note": note,
                "source": SOURCE,
            }),
        ));
    }
    Contribution {
        source: SOURCE,
        block: json!({
            "files": imported.files,
            "checks": imported.checks.len(),
            "reached": true,
        }),
        results,
        stamp: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_untestable_failures() {
        assert!(matches("sep-2549-*", "sep-2549-ttl-non-negative"));
        assert!(!matches("sep-2549-ttl", "sep-2549-ttl-non-negative"));
        let c = |status: &str, msg: &str| SuiteCheck {
            id: "x".into(),
            name: String::new(),
            description: String::new(),
            status: status.into(),
            error_message: Some(msg.into()),
        };
        assert!(not_testable(&c(
            "FAILURE",
            "Not testable: no diagnostic tool"
        )));
        assert!(!not_testable(&c("FAILURE", "Expected HTTP 400, got 200")));
    }
}
