//! Reading expectation files into cases; every problem is an `AB901` with file and line.

use crate::diag::{codes, Diagnostic};
use crate::load::data_file::{self, DataError, DataFile};
use crate::model::Catalogue;
use serde_json::Value;

/// One declared expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub name: String,
    /// The expectation file, root-relative.
    pub file: String,
    pub line: usize,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Profile {
        profile: String,
        must_apply: Vec<String>,
        /// (check id, the applicability reason it must have; None: any but `applies`).
        must_not_apply: Vec<(String, Option<String>)>,
        results: Option<String>,
        verdict: Option<String>,
        /// Expected score in hundredths; `provisional` is written as a string.
        score: Option<Score>,
    },
    Document {
        document: String,
        claims: Vec<String>,
    },
    /// A source rule's sample and its clean twin (`super::scan_cases`).
    Scan {
        check: String,
        rule: String,
        matched: super::scan_cases::Sample,
        clean: super::scan_cases::Sample,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Final(i64),
    Provisional,
}

const CASE_KEYS: &[&str] = &[
    "name",
    "profile",
    "must_apply",
    "must_not_apply",
    "results",
    "verdict",
    "score",
    "document",
    "claims",
    "check",
    "rule",
    "match",
    "clean",
];
const REASONS: &[&str] = &["no-match", "baseline-mismatch", "baseline-unresolved"];
const VERDICTS: &[&str] = &["production-ready", "not-production-ready", "incomplete"];

/// Expectation files under `root/tests/` (`*.yaml`, `*.yml`, `*.json`), sorted, as
/// root-relative paths. A folder without any is no error: most catalogues declare none.
pub fn files(cat: &Catalogue) -> Vec<String> {
    let dir = cat.root.join(super::DIR);
    let fence = crate::confine::Fence::new(&cat.root);
    let mut out = Vec::new();
    data_files(&fence, &dir, super::DIR, &mut out);
    // One level of folders (`tests/scan/` holds a file per check's source rules).
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with('.') && e.file_type().is_ok_and(|t| t.is_dir()) {
                data_files(
                    &fence,
                    &e.path(),
                    &format!("{}/{name}", super::DIR),
                    &mut out,
                );
            }
        }
    }
    out.sort();
    out
}

fn data_files(
    fence: &crate::confine::Fence,
    dir: &std::path::Path,
    rel: &str,
    out: &mut Vec<String>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    out.extend(
        entries
            .flatten()
            .filter(|e| fence.contains(&e.path()) && e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let data = [".yaml", ".yml", ".json"].iter().any(|x| name.ends_with(x));
                (data && !name.starts_with('.')).then(|| format!("{rel}/{name}"))
            }),
    );
}

/// Every case of `catalogue.yaml`'s `tests:` and of every expectation file, and the problems
/// reading them.
pub fn discover(cat: &Catalogue) -> (Vec<Case>, Vec<Diagnostic>) {
    let mut cases = Vec::new();
    let mut problems = Vec::new();
    if !cat.config.tests.is_empty() {
        let rel = crate::model::config::FILE_NAME;
        // Read again as data, for the line of each entry; the loader already reported the
        // file's own problems.
        if let Ok(f) = data_file::read(&cat.root.join(rel), rel, &codes::TEST_INVALID) {
            read_cases(cat, &f, rel, false, &mut cases, &mut problems);
        }
    }
    for rel in files(cat) {
        match data_file::read(&cat.root.join(&rel), &rel, &codes::TEST_INVALID) {
            Ok(f) => {
                problems.extend(f.notes.iter().cloned());
                read_cases(cat, &f, &rel, true, &mut cases, &mut problems);
            }
            Err(DataError::Invalid { diagnostics, .. }) => problems.extend(diagnostics),
            Err(DataError::Unreadable(m)) => {
                problems.push(Diagnostic::new(&codes::TEST_INVALID, m).file(rel.clone()))
            }
        }
    }
    (cases, problems)
}

fn read_cases(
    cat: &Catalogue,
    f: &DataFile,
    rel: &str,
    whole_file: bool,
    cases: &mut Vec<Case>,
    problems: &mut Vec<Diagnostic>,
) {
    let bad = |path: &str, msg: String| f.at(&codes::TEST_INVALID, path, msg).file(rel.to_string());
    let Some(list) = f.value.get("tests").and_then(Value::as_array) else {
        problems.push(bad(
            "tests",
            "an expectation file holds a list under `tests:`".into(),
        ));
        return;
    };
    if let (true, Value::Object(top)) = (whole_file, &f.value) {
        for k in top.keys().filter(|k| *k != "tests") {
            problems.push(bad(
                k,
                format!("unknown key `{k}`; an expectation file holds `tests:`"),
            ));
        }
    }
    for (i, item) in list.iter().enumerate() {
        let at = format!("tests[{i}]");
        let Value::Object(m) = item else {
            problems.push(bad(
                &at,
                "a test is a mapping with `name:` and what it expects".into(),
            ));
            continue;
        };
        let before = problems.len();
        for (k, hint) in crate::text::suggest::unknown_keys(m.keys().map(String::as_str), CASE_KEYS)
        {
            let hint = hint.map(|s| format!(" ({s})")).unwrap_or_default();
            problems.push(bad(
                &format!("{at}.{k}"),
                format!("unknown key `{k}`{hint}"),
            ));
        }
        let text = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        let ids = |k: &str, problems: &mut Vec<Diagnostic>| -> Vec<String> {
            let mut out = Vec::new();
            match m.get(k) {
                None => {}
                Some(Value::Array(items)) => {
                    for (j, v) in items.iter().enumerate() {
                        match v.as_str() {
                            Some(id) => out.push(id.to_string()),
                            None => problems.push(bad(
                                &format!("{at}.{k}[{j}]"),
                                format!("`{k}` lists names as strings"),
                            )),
                        }
                    }
                }
                Some(_) => problems.push(bad(&format!("{at}.{k}"), format!("`{k}` is a list"))),
            }
            out
        };
        let Some(name) = text("name") else {
            problems.push(bad(&at, "a test needs a `name:`".into()));
            continue;
        };
        let kind = match (text("profile"), text("document")) {
            (None, None) if m.contains_key("check") => {
                match super::scan_cases::parse(cat, m, &at) {
                    Ok((check, rule, matched, clean)) => Kind::Scan {
                        check,
                        rule,
                        matched,
                        clean,
                    },
                    Err(found) => {
                        for (path, msg) in found {
                            problems.push(bad(&path, msg));
                        }
                        continue;
                    }
                }
            }
            (Some(profile), None) => {
                let must_apply = ids("must_apply", problems);
                let mut must_not_apply = Vec::new();
                match m.get("must_not_apply") {
                    None => {}
                    Some(Value::Array(items)) => {
                        for (j, v) in items.iter().enumerate() {
                            let here = format!("{at}.must_not_apply[{j}]");
                            match v {
                                Value::String(id) => must_not_apply.push((id.clone(), None)),
                                Value::Object(o) => {
                                    let id = o.get("id").and_then(Value::as_str);
                                    let reason = o.get("reason").and_then(Value::as_str);
                                    match (id, reason) {
                                        (Some(id), r) if r.is_none_or(|r| REASONS.contains(&r)) => {
                                            must_not_apply.push((id.to_string(), r.map(str::to_string)))
                                        }
                                        _ => problems.push(bad(&here, format!("an entry is an id, or `{{id: ID, reason: R}}` with R one of {}", REASONS.join(", ")))),
                                    }
                                }
                                _ => problems.push(bad(
                                    &here,
                                    "an entry is an id, or `{id: ID, reason: R}`".into(),
                                )),
                            }
                        }
                    }
                    Some(_) => problems.push(bad(
                        &format!("{at}.must_not_apply"),
                        "`must_not_apply` is a list".into(),
                    )),
                }
                let verdict = text("verdict");
                if let Some(v) = &verdict {
                    if !VERDICTS.contains(&v.as_str()) {
                        problems.push(bad(
                            &format!("{at}.verdict"),
                            format!(
                                "`{v}` is no verdict; expected one of {}",
                                VERDICTS.join(", ")
                            ),
                        ));
                    }
                }
                let score = match m.get("score") {
                    None => None,
                    Some(Value::Number(n)) => {
                        n.as_f64().map(|v| Score::Final((v * 100.0).round() as i64))
                    }
                    Some(Value::String(s)) if s == "provisional" => Some(Score::Provisional),
                    Some(_) => {
                        problems.push(bad(
                            &format!("{at}.score"),
                            "`score` is a number, or `provisional`".into(),
                        ));
                        None
                    }
                };
                let results = text("results");
                if results.is_none() && (verdict.is_some() || score.is_some()) {
                    problems.push(bad(
                        &at,
                        "a verdict or score is expected of a results file: add `results:`".into(),
                    ));
                }
                for id in must_apply
                    .iter()
                    .chain(must_not_apply.iter().map(|(id, _)| id))
                {
                    if cat.check(id).is_none() {
                        problems.push(bad(&at, format!("`{id}` is not a check of this catalogue")));
                    }
                }
                Kind::Profile {
                    profile,
                    must_apply,
                    must_not_apply,
                    results,
                    verdict,
                    score,
                }
            }
            (None, Some(document)) => {
                let claims = ids("claims", problems);
                for c in &claims {
                    match cat.config.claims.iter().find(|d| &d.name == c) {
                        None => problems.push(bad(
                            &format!("{at}.claims"),
                            format!("no claim named `{c}` in catalogue.yaml"),
                        )),
                        Some(d) if d.doc != document => problems.push(bad(
                            &format!("{at}.claims"),
                            format!("claim `{c}` is about `{}`, not `{document}`", d.doc),
                        )),
                        Some(_) => {}
                    }
                }
                if claims.is_empty() {
                    problems.push(bad(
                        &at,
                        "a document test names the `claims:` that must pass".into(),
                    ));
                }
                Kind::Document { document, claims }
            }
            _ => {
                problems.push(bad(
                    &at,
                    "a test names a `profile:`, a `document:`, or the `check:` of a source rule's sample".into(),
                ));
                continue;
            }
        };
        if problems.len() == before {
            cases.push(Case {
                name,
                file: rel.to_string(),
                line: f.line(&at),
                kind,
            });
        }
    }
}
