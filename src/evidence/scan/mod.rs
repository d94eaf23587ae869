//! The source scan: the `scan:` rules of the applicable checks run over a server's source tree
//! (`tree`), structural rules through ast-grep (`code`), file facts through parsers (`facts`).
//! Each check gets a result with `source: scan` and the tree's digest. A proof records its
//! status; a signal waits as `needs_triage` until a person decides it (`triage`, kept in the
//! results file with the match's fingerprint). A language present in the tree that no code rule
//! of the check covers leaves the check `not_verified` ("not scanned: no rule for C#"), never a
//! pass by silence.

pub mod code;
pub mod facts;
pub mod prefilter;
pub mod tree;
pub mod triage;

use super::merge::Contribution;
use super::untrusted;
use crate::model::declared::{Covers, Records};
use crate::model::scan::{Body, Language, Matching};
use crate::model::Catalogue;
use serde::Serialize;
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;
use tree::Tree;
use triage::Decisions;

pub const SOURCE: &str = "scan";

/// One match of a rule (or one violation of a fact).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub check: String,
    pub rule: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The matched code, quoted.
    pub code: String,
    pub fingerprint: String,
}

impl Finding {
    /// `file:line:column: `code` #fingerprint`; a fact about a package, which has no line,
    /// names the package alone.
    pub fn shown(&self) -> String {
        match self.line {
            0 => format!("{}: `{}` #{}", self.file, self.code, self.fingerprint),
            _ => format!(
                "{}:{}:{}: `{}` #{}",
                self.file, self.line, self.column, self.code, self.fingerprint
            ),
        }
    }
}

/// One check as the scan saw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scanned {
    pub id: String,
    /// `scan`, `package`, or both joined by `+`.
    pub source: String,
    pub status: &'static str,
    pub evidence: Vec<String>,
    pub cites: Vec<String>,
    pub note: String,
    /// Signals still waiting for a decision.
    pub open: Vec<Finding>,
}

/// A scan of one tree.
pub struct Scan {
    pub digest: String,
    /// The digest of the package whose facts were read, when one was.
    pub artifact_digest: Option<String>,
    pub root: String,
    pub files: usize,
    pub languages: Vec<(Language, usize)>,
    pub skipped: Vec<String>,
    /// The globs left out of the tree (`--exclude`).
    pub excluded: Vec<String>,
    pub checks: Vec<Scanned>,
    pub findings: Vec<Finding>,
}

/// Scan `tree` for the checks in `ids`, applying `decisions` to signals. `today` decides
/// whether a decision with `until` still holds.
pub fn scan(
    cat: &Catalogue,
    ids: &[String],
    tree: &Tree,
    decisions: &Decisions,
    today: &str,
    artifact: Option<&facts::Artifact>,
) -> Scan {
    let checks: Vec<&crate::model::Check> = ids
        .iter()
        .filter_map(|id| cat.check(id))
        .filter(|c| !c.scan().is_empty())
        .collect();
    let jobs: Vec<code::Job> = checks
        .iter()
        .flat_map(|c| {
            c.scan()
                .iter()
                .filter(|r| matches!(r.body, Body::Code { .. }))
                .map(|r| code::Job::new(c.id.as_str(), r))
        })
        .collect();
    let found = code::run(tree, &jobs);
    let present = tree.languages();
    let mut scanned = Vec::new();
    let mut all_findings = found.clone();
    for c in checks {
        let mut evidence: Vec<String> = Vec::new();
        let mut context: Vec<String> = Vec::new();
        let mut worst: Option<Records> = None;
        let mut open: Vec<Finding> = Vec::new();
        let mut undecided_fact = Vec::new();
        let mut covers_all = true;
        let mut covered: BTreeSet<Language> = BTreeSet::new();
        let mut has_code = false;
        let mut sources: BTreeSet<&'static str> = BTreeSet::new();
        let mut code_read = 0usize;
        let mut code_unread: Vec<String> = Vec::new();
        // Observations toward `evidence_required`: a match, a code rule that read at least
        // one file, a fact that had something to read. A rule for a language the tree does not
        // hold, or a fact with nothing to read, is shown but observed nothing.
        let mut observed = 0usize;
        for r in c.scan() {
            covers_all &= r.covers == Covers::All;
            let (mine, read, decided): (Vec<Finding>, Vec<String>, bool) = match &r.body {
                Body::Code { language, .. } => {
                    has_code = true;
                    sources.insert(SOURCE);
                    for l in Language::ALL {
                        if language.covers(l) {
                            covered.insert(l);
                        }
                    }
                    let n: usize = present
                        .iter()
                        .filter(|(l, _)| language.covers(**l))
                        .map(|(_, n)| n)
                        .sum();
                    let mine: Vec<Finding> = found
                        .iter()
                        .filter(|f| f.check == c.id.as_str() && f.rule == r.id)
                        .cloned()
                        .collect();
                    let read = vec![format!(
                        "[scan {}] {n} {} file(s) read, {} match(es)",
                        r.id,
                        language.label(),
                        mine.len()
                    )];
                    code_read += n;
                    if n == 0 {
                        code_unread.push(r.id.clone());
                    } else {
                        observed += 1;
                    }
                    // A rule for a language the tree does not hold has nothing to decide;
                    // whether the check's code rules read anything at all is judged below.
                    (mine, read, true)
                }
                Body::Fact(f) => {
                    if f.of_package() {
                        sources.insert("package");
                    } else {
                        sources.insert(SOURCE);
                    }
                    let looked = facts::look(tree, c.id.as_str(), &r.id, f, artifact);
                    all_findings.extend(looked.findings.iter().cloned());
                    let read: Vec<String> = looked
                        .read
                        .iter()
                        .map(|l| format!("[scan {}] {l}", r.id))
                        .collect();
                    if looked.decided {
                        observed += read.len();
                    }
                    (looked.findings, read, looked.decided)
                }
            };
            context.extend(read);
            if !decided {
                undecided_fact.push(r.id.clone());
            }
            for f in mine {
                observed += 1;
                let label = match r.matching {
                    Matching::Proof => "proof",
                    Matching::Signal => "signal",
                };
                let what = if r.message.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", untrusted::value(&r.message))
                };
                match (
                    r.matching,
                    decisions.of(c.id.as_str(), &f.fingerprint, today),
                ) {
                    (Matching::Proof, _) | (Matching::Signal, Some(true)) => {
                        worst = Some(worst.map_or(r.records, |w| w.worst(r.records)));
                        let decided = if r.matching == Matching::Signal {
                            ", triaged real"
                        } else {
                            ""
                        };
                        evidence.push(format!(
                            "[scan {}] {}{what} ({label}{decided}: {})",
                            r.id,
                            f.shown(),
                            r.records.as_str()
                        ));
                    }
                    (Matching::Signal, Some(false)) => context.push(format!(
                        "[scan {}] {} — triaged a false positive",
                        r.id,
                        f.shown()
                    )),
                    (Matching::Signal, None) => {
                        evidence.push(format!(
                            "[scan {}] {}{what} (signal: needs a person's triage)",
                            r.id,
                            f.shown()
                        ));
                        open.push(f);
                    }
                }
            }
        }
        if has_code && code_read == 0 {
            undecided_fact.extend(code_unread);
        }
        let missing: Vec<&str> = if has_code {
            present
                .keys()
                .filter(|l| !covered.contains(l))
                .map(|l| l.label())
                .collect()
        } else {
            Vec::new()
        };
        let (status, note) = if let Some(w) = worst {
            (
                w.as_str(),
                "the scan found what the check's rules look for".to_string(),
            )
        } else if !open.is_empty() {
            (
                "needs_triage",
                format!(
                    "{} signal(s) wait for a person's decision: `auditbook triage {} FINDING --real|--false-positive --reason …`",
                    open.len(),
                    c.id
                ),
            )
        } else if !missing.is_empty() {
            (
                "not_verified",
                format!("not scanned: no rule for {}", missing.join(", ")),
            )
        } else if !undecided_fact.is_empty() {
            (
                "not_verified",
                format!(
                    "the scan had nothing to read for {}",
                    undecided_fact.join(", ")
                ),
            )
        } else if covers_all {
            (
                "pass",
                "every rule of the check looked and found nothing".to_string(),
            )
        } else {
            (
                "not_verified",
                "the scan found nothing in the part it covers; the rest of the check needs a person".to_string(),
            )
        };
        if !missing.is_empty() && worst.is_none() && open.is_empty() {
            context.push(format!(
                "[scan] not scanned: no rule for {}",
                missing.join(", ")
            ));
        }
        let mut lines = evidence;
        lines.extend(context);
        let lines = untrusted::bounded(lines, 40);
        let owed = c.evidence_required as usize;
        let (status, note) = if matches!(status, "pass" | "fail" | "partial") && observed < owed {
            let next = if worst.is_some() {
                "todo"
            } else {
                "not_verified"
            };
            (
                next,
                format!("the scan made {observed} observation(s) toward a {status}; the check asks for {owed}, so a person completes the evidence ({note})"),
            )
        } else {
            (status, note)
        };
        let cites = c
            .sources
            .iter()
            .map(|s| format!("{} <{}>", s.label, s.url))
            .collect();
        let source = crate::evidence::merge::SOURCES
            .iter()
            .filter(|s| sources.contains(*s))
            .copied()
            .collect::<Vec<_>>()
            .join("+");
        scanned.push(Scanned {
            source,
            id: c.id.to_string(),
            status,
            evidence: lines,
            cites,
            note,
            open,
        });
    }
    all_findings.sort_by(|a, b| {
        (&a.check, &a.rule, &a.file, a.line, a.column)
            .cmp(&(&b.check, &b.rule, &b.file, b.line, b.column))
    });
    all_findings.dedup();
    Scan {
        digest: tree.digest.clone(),
        artifact_digest: artifact.map(|a| a.digest.clone()),
        root: untrusted::quote(&tree.root.display().to_string(), 300),
        files: tree.files.len(),
        languages: present.into_iter().collect(),
        skipped: tree.skipped.clone(),
        excluded: tree.excluded.clone(),
        checks: scanned,
        findings: all_findings,
    }
}

/// The scan's contribution to a results file.
pub fn contribution(s: &Scan) -> Contribution {
    let results = s
        .checks
        .iter()
        .map(|c| {
            (
                c.id.clone(),
                json!({
                    "status": c.status,
                    "evidence": c.evidence,
                    "cites": c.cites,
                    "note": c.note,
                    "source": c.source,
                    // A result of package facts alone was taken from the artifact.
                    "digest": match (&s.artifact_digest, c.source.as_str()) {
                        (Some(a), "package") => a,
                        _ => &s.digest,
                    },
                }),
            )
        })
        .collect();
    let languages: serde_json::Map<String, Json> = s
        .languages
        .iter()
        .map(|(l, n)| (l.as_str().to_string(), json!(n)))
        .collect();
    let mut block = json!({
        "target": s.root,
        "reached": true,
        "digest": s.digest,
        "files": s.files,
        "languages": languages,
    });
    if !s.excluded.is_empty() {
        block["excluded"] = json!(s.excluded);
    }
    Contribution {
        source: SOURCE,
        block,
        results,
        stamp: None,
    }
}
