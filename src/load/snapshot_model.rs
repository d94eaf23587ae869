//! A catalogue model from a snapshot written by `auditbook snapshot`, for documents verified
//! in another repository without a checkout of the catalogue: checks with their fields and
//! files, the retired ledger, the rules and the declarations of `catalogue.yaml` that claims
//! read. Bodies are not in a snapshot, so a check's headings are unknown here; the findings
//! that would need them say so (`claims::elsewhere`), they never pass unchecked.

use crate::model::config::{LinksConfig, LintConfig, RulesConfig};
use crate::model::rule::Mapping;
use crate::model::{Adoption, Catalogue, Check, CheckText, Config, Criterion, Mode, Rule};
use crate::model::{Coverage, RuleOrigin};
use crate::snapshot::Snapshot;
use compact_str::CompactString;
use std::path::Path;

/// Why a snapshot cannot stand in for its catalogue.
#[derive(Debug, PartialEq, Eq)]
pub struct TooOld(pub u32);

/// The catalogue a snapshot describes, rooted at `root` (where the documents are). A format-1
/// snapshot lacks the declarations (categories, id pattern, link bases): `Err`.
pub fn catalogue(snap: &Snapshot, root: &Path) -> Result<Catalogue, TooOld> {
    let decl = snap
        .declarations
        .as_ref()
        .ok_or(TooOld(snap.snapshot_format))?;
    let config = Config {
        name: Some(snap.name.clone()),
        version: snap.version.clone(),
        checks_dir: Some(decl.checks_dir.clone()),
        id_pattern: Some(decl.id_pattern.clone()),
        categories: decl.categories.clone(),
        severities: Some(snap.severities.clone()),
        blocking_severities: Some(decl.blocking_severities.clone()),
        spec_baselines: Some(decl.spec_baselines.clone()),
        retired: snap.retired.clone(),
        rules: Some(RulesConfig::default()),
        require_coverage: decl.require_coverage.clone(),
        links: Some(LinksConfig {
            bases: decl.link_bases.clone(),
        }),
        lint: decl.retired_mentions.clone().map(|m| LintConfig {
            retired_mentions: Some(m),
            ..LintConfig::default()
        }),
        ..Config::default()
    };
    let checks_dir = decl.checks_dir.trim_end_matches('/');
    let mut checks: Vec<Check> = snap
        .checks
        .iter()
        .map(|r| check_of(r, checks_dir))
        .collect();
    checks.sort_by(|a, b| a.file.cmp(&b.file));
    let rules = snap
        .rules
        .iter()
        .map(|r| Rule {
            id: r.id.clone(),
            title: r.title.clone(),
            coverage: r.coverage.as_deref().and_then(Coverage::parse),
            source: None,
            mappings: vec![Mapping {
                origin: RuleOrigin::File {
                    file: format!("rules/{}.md", r.id),
                    line: 1,
                },
                checks: r.checks.clone(),
                lines: vec![1; r.checks.len()],
            }],
            references: Vec::new(),
            links: Vec::new(),
            body: String::new(),
        })
        .collect();
    let mut cat = Catalogue::empty(root, Mode::Declared);
    cat.categories = config.categories.iter().map(|c| c.prefix.clone()).collect();
    cat.config = config;
    cat.rules = rules;
    cat.set_checks(checks);
    Ok(cat)
}

fn check_of(r: &crate::snapshot::CheckRecord, checks_dir: &str) -> Check {
    let file = r
        .file
        .clone()
        .unwrap_or_else(|| format!("{checks_dir}/{}.md", r.id));
    let head = crate::model::check::Frontmatter {
        id: r.id.as_str().into(),
        title: r.title.clone(),
        category: r.category.as_str().into(),
        severity: r.severity.as_str().into(),
        applies_when: r.applies_when.as_str().into(),
        spec_baseline: r.spec_baseline.as_str().into(),
        adoption: Adoption::parse(&r.adoption).unwrap_or(Adoption::Enforced),
        evidence_required: r.evidence_required,
        rare: crate::model::check::Rare {
            pdf_ref: r.pdf_ref.clone(),
            spec_ref: r.spec_ref.clone(),
            ..Default::default()
        },
    };
    // No text: a stamp no file matches, so nothing reads a stranger's file as the check's body.
    let text = CheckText::Released(crate::model::check_text::Stamp::of(
        "\u{0}no body in a snapshot\u{0}",
    ));
    let mut c = Check::new(head, CompactString::from(file), text);
    c.pass_criteria = r
        .pass_criteria
        .iter()
        .map(|t| Criterion {
            text: t.as_str().into(),
            checked: false,
            line: 0,
        })
        .collect();
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_is_the_catalogue_it_was_taken_of() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph");
        let cat = crate::load::load(&root).unwrap().catalogue;
        let snap = crate::snapshot::take(&cat);
        let back = catalogue(&snap, &root).unwrap();
        assert_eq!(back.checks.len(), cat.checks.len());
        assert_eq!(back.categories, cat.categories);
        assert_eq!(back.config.retired, cat.config.retired);
        assert_eq!(back.rules.len(), cat.rules.len());
        for c in &cat.checks {
            let b = back.check(&c.id).unwrap();
            assert_eq!(
                (&b.file, b.adoption, &b.severity, &b.category),
                (&c.file, c.adoption, &c.severity, &c.category)
            );
        }
        // The snapshot of the rebuilt model has the same semantic fingerprint.
        assert_eq!(
            crate::snapshot::fingerprints(&back).semantic,
            snap.fingerprints.semantic
        );
        let mut old = snap.clone();
        old.declarations = None;
        old.snapshot_format = 1;
        assert_eq!(catalogue(&old, &root).err(), Some(TooOld(1)));
    }
}
