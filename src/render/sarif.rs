//! SARIF 2.1.0 for code-scanning services: one reporting descriptor per registered code, one
//! result per diagnostic. Findings about retired ids carry their live successor (a related
//! location and the fingerprint), so a baseline recorded before a rename still matches after it.

use super::diagnostics::join;
use crate::diag::{codes, Diagnostic, Level};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Retired id → (live successor id, the successor's check file relative to the root).
/// Built by the caller from the graph; rendering only lays it out.
pub type Successors = BTreeMap<String, (String, String)>;

/// The key of the one fingerprint auditbook computes; bump the version if its recipe changes.
pub const FINGERPRINT_KEY: &str = "auditbookFinding/v1";

/// Where `docs/lint-codes.md` is published: the package's repository when it declares one.
pub fn home() -> &'static str {
    match env!("CARGO_PKG_REPOSITORY") {
        "" => "https://example.invalid/auditbook",
        repo => repo,
    }
}

/// The anchor of a code in `docs/lint-codes.md` (the generator writes one per row).
pub fn help_uri(code: &str) -> String {
    format!(
        "{}/blob/main/docs/lint-codes.md#{}",
        home().trim_end_matches('/'),
        code.to_lowercase()
    )
}

/// The family a code belongs to, from its hundreds digit (the registry's ranges).
pub fn family(code: &str) -> &'static str {
    match code.as_bytes().get(2) {
        Some(b'0') => "files",
        Some(b'1') => "frontmatter-and-config",
        Some(b'2') => "manifest-references-sections",
        Some(b'3') => "applies-when",
        Some(b'4') => "rules-retired-graph",
        Some(b'5') => "profiles-results-audit",
        Some(b'6') => "documents-claims",
        Some(b'7') => "scoring",
        _ => "other",
    }
}

fn level(l: Level) -> &'static str {
    match l {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    }
}

/// A path as a URI reference: unreserved characters and `/` kept, everything else encoded.
pub fn uri_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn location(prefix: &str, file: &str) -> Value {
    json!({"uri": uri_path(&join(prefix, file)), "uriBaseId": "%SRCROOT%"})
}

fn descriptor(c: &codes::Code) -> Value {
    json!({
        "id": c.code,
        "name": c.name,
        "shortDescription": {"text": c.summary},
        "fullDescription": {"text": format!("{} {}", c.summary, c.help)},
        "help": {
            "text": c.help,
            "markdown": format!("**{}** (`{}`): {}\n\n{}", c.code, c.name, c.summary, c.help),
        },
        "helpUri": help_uri(c.code),
        "defaultConfiguration": {"level": level(c.level)},
        "properties": {"tags": ["auditbook", family(c.code)]},
    })
}

/// The subject a finding is about, for its fingerprint: a retired id counts as its live
/// successor, so the fingerprint does not change when the id is retired into it.
fn subject<'a>(d: &'a Diagnostic, successors: &'a Successors) -> &'a str {
    match &d.id {
        Some(id) => successors.get(id).map(|(s, _)| s.as_str()).unwrap_or(id),
        None => &d.message,
    }
}

/// SARIF 2.1.0: one rule per registered code, one result per diagnostic; findings the
/// ledger accepted follow as results with a `suppressions` entry carrying the reason.
pub fn document(
    diags: &[Diagnostic],
    suppressed: &[crate::diag::Suppressed],
    prefix: &str,
    successors: &Successors,
) -> Value {
    let rules: Vec<Value> = codes::CODES.iter().map(|c| descriptor(c)).collect();
    // Identical (code, file, subject) triples are told apart by their order of appearance,
    // which is deterministic because diagnostics are sorted by a total key.
    let mut seen: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    let accepted = suppressed
        .iter()
        .map(|s| (&s.diagnostic, Some(s.reason.as_str())));
    let results: Vec<Value> = diags
        .iter()
        .map(|d| (d, None))
        .chain(accepted)
        .map(|(d, reason): (&Diagnostic, Option<&str>)| {
            let mut text = d.message.clone();
            if let Some(h) = &d.help {
                text.push_str("\nhelp: ");
                text.push_str(h);
            }
            let mut r = json!({
                "ruleId": d.code,
                "level": level(d.level),
                "message": {"text": text},
            });
            if let Some(i) = codes::CODES.iter().position(|c| c.code == d.code) {
                r["ruleIndex"] = i.into();
            }
            if let Some(f) = &d.file {
                let mut region = serde_json::Map::new();
                if let Some(l) = d.line {
                    region.insert("startLine".into(), l.into());
                    if let Some(c) = d.column {
                        region.insert("startColumn".into(), c.into());
                        region.insert("endColumn".into(), (c + d.width.max(1)).into());
                    }
                }
                let mut physical = json!({"artifactLocation": location(prefix, f)});
                if !region.is_empty() {
                    physical["region"] = region.into();
                }
                r["locations"] = json!([{ "physicalLocation": physical }]);
            }
            let subject = subject(d, successors).to_string();
            let key = (
                d.code.to_string(),
                d.file.clone().unwrap_or_default(),
                subject,
            );
            let n = seen.entry(key.clone()).or_insert(0);
            *n += 1;
            let recipe = format!("{}\u{0}{}\u{0}{}\u{0}{}", key.0, key.1, key.2, n);
            r["partialFingerprints"] =
                json!({ FINGERPRINT_KEY: crate::text::digest::sha256(recipe.as_bytes()) });
            let mut props = serde_json::Map::new();
            if let Some(id) = &d.id {
                props.insert("id".into(), id.clone().into());
                if let Some((succ, file)) = successors.get(id) {
                    props.insert("successor".into(), succ.clone().into());
                    r["relatedLocations"] = json!([{
                        "id": 1,
                        "message": {"text": format!("{id} is retired; its live successor is {succ}")},
                        "physicalLocation": {"artifactLocation": location(prefix, file)},
                    }]);
                }
            }
            if !props.is_empty() {
                r["properties"] = props.into();
            }
            if let Some(reason) = reason {
                r["suppressions"] = json!([{"kind": "external", "justification": reason}]);
            }
            r
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": tool(rules),
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// The `tool` object of a SARIF run: auditbook as the driver with its rules. Shared by the
/// lint and the audit SARIF writers so both name the tool the same way.
pub(crate) fn tool(rules: Vec<Value>) -> Value {
    json!({"driver": {
        "name": "auditbook",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "informationUri": home(),
        "rules": rules,
    }})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_paths_are_encoded() {
        assert_eq!(
            uri_path("cat alogue/checks/Ä.md"),
            "cat%20alogue/checks/%C3%84.md"
        );
        assert_eq!(uri_path("checks/FID-001.md"), "checks/FID-001.md");
    }

    #[test]
    fn families_follow_the_ranges() {
        assert_eq!(family("AB212"), "manifest-references-sections");
        assert_eq!(family("AB401"), "rules-retired-graph");
    }

    #[test]
    fn retired_subject_is_the_successor() {
        let d = Diagnostic::new(&codes::LINK_RETIRED, "x").id("DRIFT-007");
        let mut s = Successors::new();
        assert_eq!(subject(&d, &s), "DRIFT-007");
        s.insert(
            "DRIFT-007".into(),
            ("FID-006".into(), "checks/FID-006.md".into()),
        );
        assert_eq!(subject(&d, &s), "FID-006");
    }
}
