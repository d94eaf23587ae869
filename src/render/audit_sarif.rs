//! An audit as SARIF 2.1.0, for code scanning: each fail or partial result of an applicable
//! check is one result whose rule is the check, with the check's Remediation and sources as
//! the rule's help, located at the result's line in the results file. A result accepted by a
//! waiver carries the waiver as an accepted suppression, so the scanning view shows it as
//! accepted, with its approver, instead of dropping it.

use super::sarif::{uri_path, FINGERPRINT_KEY};
use crate::audit::report::{Detail, Report};
use serde_json::{json, Value};

/// GitHub's numeric `security-severity` for the default severities (its bands: ≥ 9 critical,
/// ≥ 7 high, ≥ 4 medium, else low).
fn security_severity(severity: &str) -> Option<&'static str> {
    match severity {
        "critical" => Some("9.5"),
        "high" => Some("8.0"),
        "medium" => Some("5.5"),
        "low" => Some("3.0"),
        _ => None,
    }
}

fn is_url(s: &str) -> bool {
    s.starts_with("https://") || s.starts_with("http://")
}

fn rule(d: &Detail) -> Value {
    let f = &d.finding;
    let sources: Vec<String> = f
        .sources
        .external
        .iter()
        .map(|s| format!("- [{}]({})", s.label.replace(['[', ']'], ""), s.url))
        .collect();
    let remediation = d
        .remediation
        .clone()
        .unwrap_or_else(|| "The check gives no Remediation section.".into());
    let mut text = format!("{remediation}\n");
    let mut markdown = format!("**{} — {}**\n\n{remediation}\n", f.id, f.title);
    if !sources.is_empty() {
        text.push_str("\nSources:\n");
        markdown.push_str("\n**Sources**\n\n");
        for (s, e) in sources.iter().zip(&f.sources.external) {
            text.push_str(&format!("- {}: {}\n", e.label, e.url));
            markdown.push_str(s);
            markdown.push('\n');
        }
    }
    let mut props = json!({"tags": ["auditbook", "audit", f.category, f.severity]});
    if let Some(s) = security_severity(&f.severity) {
        props["security-severity"] = s.into();
    }
    let mut r = json!({
        "id": f.id,
        "name": f.id,
        "shortDescription": {"text": f.title},
        "fullDescription": {"text": format!("{} ({} {}, {})", f.title, f.severity, f.adoption, f.category)},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": "error"},
        "properties": props,
    });
    let help_uri = if is_url(&f.sources.link) {
        Some(f.sources.link.clone())
    } else {
        f.sources.external.first().map(|s| s.url.clone())
    };
    if let Some(u) = help_uri {
        r["helpUri"] = u.into();
    }
    r
}

/// SARIF 2.1.0 of one audit report.
pub fn sarif(rep: &Report) -> super::emit::Emitted {
    let rules: Vec<Value> = rep.details.iter().map(rule).collect();
    let results_file = rep.meta.results.as_ref().map(|r| r.file.clone());
    let results: Vec<Value> = rep
        .details
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let f = &d.finding;
            let level = match (f.status, f.adoption) {
                ("fail", "enforced") => "error",
                _ => "warning",
            };
            let mut message = format!(
                "{} {}: {} ({} {}, {})",
                f.id, f.title, f.status, f.severity, f.adoption, f.category
            );
            if f.blocking {
                message.push_str("; blocks production readiness");
            }
            for g in &d.gaps {
                message.push_str(&format!("\ngap: {g}"));
            }
            let mut r = json!({
                "ruleId": f.id,
                "ruleIndex": i,
                "level": level,
                "message": {"text": message},
                "partialFingerprints": {
                    FINGERPRINT_KEY: crate::text::digest::sha256(format!("{}\u{0}{}", rep.server, f.id).as_bytes()),
                },
                "properties": {"status": f.status, "server": rep.server},
            });
            if let Some(file) = &results_file {
                let mut physical = json!({"artifactLocation": {"uri": uri_path(file), "uriBaseId": "%SRCROOT%"}});
                if let Some(l) = d.line {
                    physical["region"] = json!({"startLine": l});
                }
                r["locations"] = json!([{ "physicalLocation": physical }]);
            }
            if let Some(a) = rep.accepted_risks.iter().find(|a| a.finding.id == f.id) {
                r["suppressions"] = json!([{
                    "kind": "external",
                    "status": "accepted",
                    "justification": format!(
                        "{} — approved by {} on {}, until {}",
                        a.reason, a.approved_by, a.date, a.until
                    ),
                }]);
            }
            r
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": super::sarif::tool(rules),
            "automationDetails": {"id": format!("auditbook-audit/{}/", rep.server)},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    super::emit::json_document(&doc)
}
