//! JUnit XML (the dialect of the Jenkins xUnit plugin's `junit-10.xsd`, which GitLab, Azure
//! DevOps and the common test dashboards read) for audits and for lint/verify findings.
//!
//! Test names are stable across runs so a dashboard can follow one over time: an audit has one
//! test case per applicable check; lint and verify have one per registered diagnostic code,
//! which passes when no finding of that code remains. No times or timestamps: the output is
//! byte-identical across runs.

use super::xml::escape;
use crate::audit::report::Report;
use crate::diag::{codes, Diagnostic, Level};
use std::fmt::Write;

struct Case {
    classname: String,
    name: String,
    /// `failure`, `error` or `skipped`, with its message and body.
    outcome: Option<(&'static str, String, String)>,
    out: String,
}

fn document(suite: &str, cases: &[Case]) -> String {
    let count = |kind: &str| {
        cases
            .iter()
            .filter(|c| c.outcome.as_ref().is_some_and(|(k, _, _)| *k == kind))
            .count()
    };
    let (failures, errors, skipped) = (count("failure"), count("error"), count("skipped"));
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\">",
        escape(suite),
        cases.len()
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\">",
        escape(suite),
        cases.len()
    );
    for c in cases {
        let _ = write!(
            x,
            "    <testcase classname=\"{}\" name=\"{}\"",
            escape(&c.classname),
            escape(&c.name)
        );
        if c.outcome.is_none() && c.out.is_empty() {
            x.push_str("/>\n");
            continue;
        }
        x.push_str(">\n");
        if let Some((kind, message, body)) = &c.outcome {
            let _ = writeln!(
                x,
                "      <{kind} message=\"{}\">{}</{kind}>",
                escape(message),
                escape(body)
            );
        }
        if !c.out.is_empty() {
            let _ = writeln!(x, "      <system-out>{}</system-out>", escape(&c.out));
        }
        x.push_str("    </testcase>\n");
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

/// One test case per applicable check: a fail or partial fails it, a rejected result is an
/// error, and what is not decided (todo, missing, not verified, n/a) or accepted by a waiver
/// is skipped with the reason.
pub fn audit(rep: &Report) -> String {
    let mut cases = Vec::new();
    let detail = |id: &str| rep.details.iter().find(|d| d.finding.id == id);
    for line in rep
        .checks
        .iter()
        .filter(|c| c.applicability == crate::audit::applicability::Status::Applies)
    {
        let status = line.status.map(|s| s.as_str()).unwrap_or("missing");
        let d = detail(&line.id);
        let (category, title, severity) = (&line.category, &line.title, &line.severity);
        let outcome = match (status, d) {
            ("pass", _) => None,
            ("fail" | "partial", Some(d)) if d.waived_until.is_some() => Some((
                "skipped",
                format!(
                    "accepted risk: {status}, waived until {}",
                    d.waived_until.clone().unwrap_or_default()
                ),
                String::new(),
            )),
            ("fail" | "partial", Some(d)) => {
                let mut body = String::new();
                for g in &d.gaps {
                    let _ = writeln!(body, "gap: {g}");
                }
                for e in &d.evidence {
                    let _ = writeln!(body, "evidence: {e}");
                }
                if let Some(r) = &d.remediation {
                    let _ = write!(body, "remediation:\n{r}\n");
                }
                Some((
                    "failure",
                    format!(
                        "{} {status}{}",
                        d.finding.severity,
                        if d.finding.blocking {
                            " (blocking)"
                        } else {
                            ""
                        }
                    ),
                    body,
                ))
            }
            ("rejected", _) => Some((
                "error",
                format!(
                    "result rejected: {}",
                    rep.rejected
                        .iter()
                        .find(|i| i.id == line.id)
                        .map(|i| i.note.as_str())
                        .unwrap_or("")
                ),
                String::new(),
            )),
            (other, _) => Some((
                "skipped",
                format!("{other}: no decided result"),
                String::new(),
            )),
        };
        cases.push(Case {
            classname: format!("auditbook.{}.{category}", rep.server),
            name: format!("{} {title} ({severity})", line.id),
            outcome,
            out: String::new(),
        });
    }
    document(&format!("auditbook audit {}", rep.server), &cases)
}

/// Whether `command` can report `code`: audit inputs (AB5xx) are never lint's or verify's,
/// and verify and sync report only files (AB0xx) and documents (AB6xx). A finding of another
/// code still gets its case, so nothing is dropped.
fn in_scope(command: &str, code: &str, diags: &[Diagnostic]) -> bool {
    let family = code.as_bytes().get(2).copied();
    let usual = match command {
        "verify" | "sync" => matches!(family, Some(b'0' | b'6')),
        _ => family != Some(b'5'),
    };
    usual || diags.iter().any(|d| d.code == code)
}

/// One test case per code the command reports: errors fail it (warnings too under `--deny
/// warnings`); other findings are listed in its output.
pub fn diagnostics(command: &str, diags: &[Diagnostic], deny_warnings: bool) -> String {
    let mut cases = Vec::new();
    for c in codes::CODES
        .iter()
        .filter(|c| in_scope(command, c.code, diags))
    {
        let of: Vec<&Diagnostic> = diags.iter().filter(|d| d.code == c.code).collect();
        let line = |d: &Diagnostic| {
            let at = match (&d.file, d.line) {
                (Some(f), Some(l)) => format!("{f}:{l}: "),
                (Some(f), None) => format!("{f}: "),
                _ => String::new(),
            };
            format!("{at}{} {}: {}", d.level.as_str(), d.code, d.message)
        };
        let failing: Vec<String> = of
            .iter()
            .filter(|d| d.level == Level::Error || (deny_warnings && d.level == Level::Warning))
            .map(|d| line(d))
            .collect();
        let others: Vec<String> = of
            .iter()
            .filter(|d| !(d.level == Level::Error || (deny_warnings && d.level == Level::Warning)))
            .map(|d| line(d))
            .collect();
        cases.push(Case {
            classname: format!("auditbook.{command}"),
            name: format!("{} {}", c.code, c.name),
            outcome: (!failing.is_empty()).then(|| {
                (
                    "failure",
                    format!("{} finding(s): {}", failing.len(), c.summary),
                    failing.join("\n"),
                )
            }),
            out: others.join("\n"),
        });
    }
    document(&format!("auditbook {command}"), &cases)
}
