//! Snapshots and fingerprints of a catalogue. The byte fingerprint changes with any edit; the
//! semantic one only with what an audit depends on (effective frontmatter, pass criteria,
//! retired ids, rule mappings), so a typo fix in prose does not make two audits incomparable.

use crate::dsl::Schema;
use crate::model::config::{BaselineConfig, CategoryDecl, RetiredDecl};
use crate::model::Catalogue;
use crate::text::digest::{hex, sha256};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprints {
    /// sha256 over every file read (root-relative path and text, in path order).
    pub bytes: String,
    /// sha256 over the normalised frontmatter and pass criteria of every check, the retired
    /// ledger and the rules.
    pub semantic: String,
}

/// An expression in canonical form when it parses (so `a=="x"` and `a == 'x'` agree).
pub fn canonical_expression(src: &str) -> String {
    crate::dsl::parse(src)
        .map(|e| e.to_string())
        .unwrap_or_else(|_| src.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRecord {
    pub id: String,
    pub title: String,
    pub category: String,
    pub severity: String,
    pub applies_when: String,
    pub spec_baseline: String,
    pub adoption: String,
    pub evidence_required: u32,
    pub pass_criteria: Vec<String>,
    /// sha256 of the body text.
    pub body_digest: String,
    /// The check file, relative to the catalogue root (format 2): where a document's link to
    /// the check must lead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// `pdf_ref` and `spec_ref` (format 2), so `where` expressions over them are answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdf_ref: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_ref: Option<String>,
}

impl CheckRecord {
    pub fn of(c: &crate::model::Check) -> Self {
        CheckRecord {
            id: c.id.to_string(),
            title: c.title.clone(),
            category: c.category.to_string(),
            severity: c.severity.to_string(),
            applies_when: canonical_expression(&c.applies_when),
            spec_baseline: c.spec_baseline.to_string(),
            adoption: c.adoption.as_str().to_string(),
            evidence_required: c.evidence_required,
            pass_criteria: c
                .pass_criteria
                .iter()
                .map(|p| p.text.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect(),
            body_digest: sha256(c.body().as_bytes()),
            file: Some(c.file.to_string()),
            pdf_ref: c.pdf_ref().map(String::from),
            spec_ref: c.spec_ref().map(String::from),
        }
    }

    /// The fields an audit depends on (not the title, not the body's prose).
    fn semantic(&self) -> serde_json::Value {
        json!([
            self.id,
            self.category,
            self.severity,
            self.applies_when,
            self.spec_baseline,
            self.adoption,
            self.evidence_required,
            self.pass_criteria
        ])
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleRecord {
    pub id: String,
    pub title: Option<String>,
    pub coverage: Option<String>,
    pub checks: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Version of this snapshot format.
    pub snapshot_format: u32,
    pub engine_version: String,
    pub name: String,
    pub version: Option<String>,
    pub fingerprints: Fingerprints,
    pub severities: Vec<String>,
    pub profile_schema: Option<Schema>,
    pub checks: Vec<CheckRecord>,
    pub retired: Vec<RetiredDecl>,
    pub rules: Vec<RuleRecord>,
    /// What documents in other repositories need to be verified against this snapshot
    /// (format 2); a format-1 snapshot has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarations: Option<Declarations>,
}

/// The parts of `catalogue.yaml` that claims, rule tables and generated regions read: which
/// words are categories and ids, how links to checks are written, what `where` may select.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Declarations {
    pub categories: Vec<CategoryDecl>,
    pub id_pattern: String,
    pub checks_dir: String,
    pub spec_baselines: BaselineConfig,
    pub blocking_severities: Vec<String>,
    pub require_coverage: Vec<String>,
    pub link_bases: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retired_mentions: Option<String>,
}

impl Declarations {
    pub fn of(cat: &Catalogue) -> Declarations {
        let c = &cat.config;
        Declarations {
            categories: c.categories.clone(),
            id_pattern: c.id_pattern().to_string(),
            checks_dir: c.checks_dir().to_string(),
            spec_baselines: c.baselines(),
            blocking_severities: c.blocking_severities(),
            require_coverage: c.require_coverage.clone(),
            link_bases: c.link_bases(),
            retired_mentions: c.lint.as_ref().and_then(|l| l.retired_mentions.clone()),
        }
    }
}

/// The snapshot format `take` writes; format 1 lacked check files and declarations.
pub const FORMAT: u32 = 2;

/// The retired ledger sorted by id, and the rules as records.
fn ledger_and_rules(cat: &Catalogue) -> (Vec<RetiredDecl>, Vec<RuleRecord>) {
    let mut retired = cat.config.retired.clone();
    retired.sort_by(|a, b| a.id.cmp(&b.id));
    let rules: Vec<RuleRecord> = cat
        .rules
        .iter()
        .map(|r| RuleRecord {
            id: r.id.clone(),
            title: r.title.clone(),
            coverage: r.coverage.map(|c| c.as_str().to_string()),
            checks: r.checks().into_iter().map(String::from).collect(),
        })
        .collect();
    (retired, rules)
}

pub fn take(cat: &Catalogue) -> Snapshot {
    let checks: Vec<CheckRecord> = cat
        .checks_by_id()
        .into_iter()
        .map(CheckRecord::of)
        .collect();
    let (retired, rules) = ledger_and_rules(cat);
    let fingerprints = fingerprints_of(
        cat,
        checks.iter().map(CheckRecord::semantic),
        &retired,
        &rules,
    );
    Snapshot {
        snapshot_format: FORMAT,
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        name: cat.name().to_string(),
        version: cat.config.version.clone(),
        fingerprints,
        severities: cat.config.severities(),
        profile_schema: cat.config.profile_schema(),
        checks,
        retired,
        rules,
        declarations: Some(Declarations::of(cat)),
    }
}

/// What of a retired entry an audit depends on.
fn retired_semantic(r: &RetiredDecl) -> serde_json::Value {
    json!([r.id, r.merged_into, r.replaced_by])
}

impl RuleRecord {
    /// What of a rule an audit depends on (not its title).
    fn semantic(&self) -> serde_json::Value {
        json!([self.id, self.coverage, self.checks])
    }
}

/// The semantic digest is the sha256 of the compact JSON document
/// `{"checks":[…],"retired":[…],"rules":[…]}`; it is fed to the hasher one check at a time,
/// so a large catalogue never holds the whole document (or every record) at once.
fn fingerprints_of(
    cat: &Catalogue,
    checks: impl Iterator<Item = serde_json::Value>,
    retired: &[RetiredDecl],
    rules: &[RuleRecord],
) -> Fingerprints {
    let mut bytes = Sha256::new();
    for (path, text) in cat.texts() {
        bytes.update(path.as_bytes());
        bytes.update([0]);
        bytes.update(text.as_bytes());
        bytes.update([0]);
    }
    let mut semantic = Sha256::new();
    semantic_into(&mut semantic, checks, retired, rules);
    Fingerprints {
        bytes: hex(&bytes.finalize()),
        semantic: hex(&semantic.finalize()),
    }
}

/// Feed the semantic document to `semantic`.
fn semantic_into(
    semantic: &mut Sha256,
    mut checks: impl Iterator<Item = serde_json::Value>,
    retired: &[RetiredDecl],
    rules: &[RuleRecord],
) {
    let mut array = |key: &str, first: bool, items: &mut dyn Iterator<Item = serde_json::Value>| {
        semantic.update(if first { "{\"" } else { "],\"" });
        semantic.update(key);
        semantic.update("\":[");
        for (i, item) in items.enumerate() {
            if i > 0 {
                semantic.update(",");
            }
            semantic.update(item.to_string());
        }
    };
    array("checks", true, &mut checks);
    array("retired", false, &mut retired.iter().map(retired_semantic));
    array("rules", false, &mut rules.iter().map(RuleRecord::semantic));
    semantic.update("]}");
}

/// What of a check an audit depends on, straight from the model (as `CheckRecord::semantic`
/// gives it from a record), without building the record's body digest.
fn semantic_of(c: &crate::model::Check) -> serde_json::Value {
    json!([
        c.id.as_str(),
        c.category.as_str(),
        c.severity.as_str(),
        canonical_expression(&c.applies_when),
        c.spec_baseline.as_str(),
        c.adoption.as_str(),
        c.evidence_required,
        c.pass_criteria
            .iter()
            .map(|p| p.text.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
    ])
}

pub fn fingerprints(cat: &Catalogue) -> Fingerprints {
    let (retired, rules) = ledger_and_rules(cat);
    let checks = cat.checks_by_id().into_iter().map(semantic_of);
    fingerprints_of(cat, checks, &retired, &rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streamed semantic digest is the digest of the whole document written at once.
    #[test]
    fn the_streamed_digest_is_that_of_the_whole_document() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph");
        let cat = crate::load::load(&root).unwrap().catalogue;
        let snap = take(&cat);
        let doc = json!({
            "checks": snap.checks.iter().map(CheckRecord::semantic).collect::<Vec<_>>(),
            "retired": snap.retired.iter().map(retired_semantic).collect::<Vec<_>>(),
            "rules": snap.rules.iter().map(RuleRecord::semantic).collect::<Vec<_>>(),
        });
        assert!(!snap.retired.is_empty() && !snap.rules.is_empty());
        assert_eq!(
            snap.fingerprints.semantic,
            sha256(doc.to_string().as_bytes())
        );
        assert_eq!(fingerprints(&cat), snap.fingerprints);
    }
}
