//! Cases for source rules (`scan:`): a sample tree a rule must match and a clean twin it must
//! not, given as file texts in an expectation file, so a rule that drifts — matches nothing
//! any more, or starts matching clean code — fails the catalogue's own tests. Every code rule
//! and every fact about a tree is owed a case; facts about an installed package are held by
//! the planted-package tests instead, since no sample tree can install a package.

use super::outcome::Outcome;
use crate::evidence::scan::{code, facts, tree, Finding};
use crate::model::scan::{Body, ScanRule};
use crate::model::Catalogue;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A sample tree: (path, text), in the order written.
pub type Sample = Vec<(String, String)>;

/// Whether a rule can be held by a sample tree.
pub fn sampled(rule: &ScanRule) -> bool {
    match &rule.body {
        Body::Code { .. } => true,
        Body::Fact(f) => !f.of_package(),
    }
}

/// A case as read: check, rule, the sample that must match and its clean twin.
pub type Case = (String, String, Sample, Sample);

/// Read `check`, `rule`, `match` and `clean` of one case; problems as (key path, message).
pub fn parse(
    cat: &Catalogue,
    m: &Map<String, Value>,
    at: &str,
) -> Result<Case, Vec<(String, String)>> {
    let mut problems = Vec::new();
    let text = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
    let check = text("check").unwrap_or_default();
    let rule = match text("rule") {
        Some(r) => r,
        None => {
            problems.push((
                at.to_string(),
                "a scan case names the `rule:` it holds".into(),
            ));
            String::new()
        }
    };
    match cat.check(&check) {
        None => problems.push((
            format!("{at}.check"),
            format!("`{check}` is not a check of this catalogue"),
        )),
        Some(c) if !rule.is_empty() => match c.scan().iter().find(|r| r.id == rule) {
            None => {
                let ids: Vec<&str> = c.scan().iter().map(|r| r.id.as_str()).collect();
                problems.push((
                    format!("{at}.rule"),
                    match ids.is_empty() {
                        true => format!("`{check}` declares no `scan:` rule"),
                        false => format!(
                            "`{check}` has no scan rule `{rule}`; its rules: {}",
                            ids.join(", ")
                        ),
                    },
                ));
            }
            Some(r) if !sampled(r) => problems.push((
                format!("{at}.rule"),
                format!(
                    "rule `{rule}` is a fact about an installed package; no sample tree can hold it"
                ),
            )),
            Some(_) => {}
        },
        Some(_) => {}
    }
    let mut sample = |k: &str| -> Sample {
        match m.get(k) {
            Some(Value::Object(files)) if !files.is_empty() => {
                let mut out = Vec::new();
                for (path, v) in files {
                    match v.as_str() {
                        Some(t) => out.push((path.clone(), t.to_string())),
                        None => problems.push((
                            format!("{at}.{k}.{path}"),
                            "a sample maps a file path to the file's text".into(),
                        )),
                    }
                }
                out
            }
            _ => {
                problems.push((
                    format!("{at}.{k}"),
                    format!(
                        "a scan case needs `{k}:`, a mapping of file path to text (e.g. `{k}: {{src/app.py: \"…\"}}`)"
                    ),
                ));
                Vec::new()
            }
        }
    };
    let matched = sample("match");
    let clean = sample("clean");
    if problems.is_empty() {
        Ok((check, rule, matched, clean))
    } else {
        Err(problems)
    }
}

/// What the rule finds in a sample, and why it decided nothing when it did not.
fn run(cat: &Catalogue, check: &str, rule: &ScanRule, sample: &Sample) -> (Vec<Finding>, bool) {
    let t = tree::of_texts(&cat.root, sample);
    match &rule.body {
        Body::Code { .. } => (code::run(&t, &[code::Job::new(check, rule)]), true),
        Body::Fact(f) => {
            let looked = facts::look(&t, check, &rule.id, f, None);
            (looked.findings, looked.decided)
        }
    }
}

fn shown(found: &[Finding]) -> String {
    let mut parts: Vec<String> = found.iter().take(3).map(Finding::shown).collect();
    if found.len() > 3 {
        parts.push(format!("and {} more", found.len() - 3));
    }
    parts.join("; ")
}

/// Evaluate one case into `o`: the match sample is found, the clean twin is not.
pub fn evaluate(
    cat: &Catalogue,
    check: &str,
    rule_id: &str,
    matched: &Sample,
    clean: &Sample,
    o: &mut Outcome,
) {
    let Some(rule) = cat
        .check(check)
        .and_then(|c| c.scan().iter().find(|r| r.id == rule_id))
    else {
        o.problems
            .push(format!("`{check}` has no scan rule `{rule_id}`"));
        return;
    };
    let (found, _) = run(cat, check, rule, matched);
    o.expected
        .push(format!("{rule_id}: the match sample is found"));
    o.actual.push(match found.is_empty() {
        false => format!("{rule_id}: the match sample is found"),
        true => format!("{rule_id}: the match sample is not found"),
    });
    let (found, decided) = run(cat, check, rule, clean);
    o.expected
        .push(format!("{rule_id}: the clean twin is clean"));
    o.actual.push(match (found.is_empty(), decided) {
        (true, true) => format!("{rule_id}: the clean twin is clean"),
        (true, false) => {
            format!("{rule_id}: the clean twin decides nothing (the fact had nothing to read)")
        }
        (false, _) => format!("{rule_id}: the clean twin is found: {}", shown(&found)),
    });
}

/// One failing outcome for each rule a sample can hold that no case holds, at the check's
/// `scan:` line; nothing when every such rule has its case.
pub fn uncovered(cat: &Catalogue, held: &BTreeSet<(String, String)>) -> Vec<Outcome> {
    let mut out = Vec::new();
    for c in cat.checks_by_id() {
        for r in c.scan().iter().filter(|r| sampled(r)) {
            if held.contains(&(c.id.to_string(), r.id.clone())) {
                continue;
            }
            let want = format!(
                "{} {}: held by a case (a match sample and a clean twin)",
                c.id, r.id
            );
            out.push(Outcome {
                name: format!("{} scan rule {}", c.id, r.id),
                file: c.file.to_string(),
                line: c.field_line("scan"),
                expected: vec![want],
                actual: vec![format!(
                    "{} {}: no case under `{}/` holds it",
                    c.id,
                    r.id,
                    super::DIR
                )],
                problems: Vec::new(),
            });
        }
    }
    out
}
