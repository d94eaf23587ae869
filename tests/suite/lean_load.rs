//! A lean load (what `lint` and `verify` use) drops check texts once they are read: it must
//! find exactly what a full load finds, show a finding's source line by reading the file
//! again, and show no source line when the file changed in between.

use crate::common;

use auditbook::load::{self, Options};
use auditbook::model::Catalogue;
use auditbook::render::diagnostics;
use common::{fixture_dir, Fixture};
use std::path::Path;

const LEAN: Options = Options {
    keep_check_texts: false,
    bodies: load::Bodies::Outline,
    documents: auditbook::load::Documents::All,
    outlines: None,
    overlay: None,
};

/// What applicability, audit, list and stats read: frontmatter and named sections.
const SECTIONS: Options = Options {
    keep_check_texts: true,
    bodies: load::Bodies::Sections,
    documents: auditbook::load::Documents::All,
    outlines: None,
    overlay: None,
};

fn findings(cat: &Catalogue, load_diags: &[auditbook::diag::Diagnostic]) -> String {
    let graph = auditbook::graph::Graph::build(cat);
    let mut diags = load_diags.to_vec();
    diags.extend(auditbook::lint::run(cat, &graph));
    auditbook::diag::normalise(&mut diags);
    diagnostics::human(&diags, cat, ".", false)
}

fn both(root: &Path) -> (String, String) {
    let full = load::load(root).unwrap();
    let lean = load::load_with(root, LEAN).unwrap();
    (
        findings(&full.catalogue, &full.diagnostics),
        findings(&lean.catalogue, &lean.diagnostics),
    )
}

#[test]
fn lean_and_full_loads_report_the_same_findings_with_the_same_source_lines() {
    let drifted = Fixture::new("graph");
    drifted.edit(
        "checks/FID-004.md",
        "adoption: enforced",
        "adoption: enforced\nseverity_typo: high",
    );
    for root in [
        fixture_dir("clean"),
        fixture_dir("graph"),
        fixture_dir("compat-de"),
        drifted.root().to_path_buf(),
    ] {
        let (full, lean) = both(&root);
        assert_eq!(full, lean, "{}", root.display());
    }
    let (_, lean) = both(drifted.root());
    assert!(
        lean.contains("AB121") || lean.contains("unknown field"),
        "{lean}"
    );
    assert!(
        lean.contains("severity_typo: high"),
        "the finding shows its source line: {lean}"
    );
}

#[test]
fn a_lean_load_keeps_the_model_and_drops_the_text() {
    let root = fixture_dir("clean");
    let full = load::load(&root).unwrap().catalogue;
    let lean = load::load_with(&root, LEAN).unwrap().catalogue;
    assert_eq!(full.checks.len(), lean.checks.len());
    for (f, l) in full.checks.iter().zip(&lean.checks) {
        assert!(f.text().is_some());
        assert!(l.text().is_none(), "{} keeps its text", l.id);
        assert_eq!(f.sections, l.sections);
        assert_eq!(f.pass_criteria, l.pass_criteria);
        assert_eq!(f.references, l.references);
        assert_eq!(f.field_line("applies_when"), l.field_line("applies_when"));
        assert_eq!(f.applies_when_column, l.applies_when_column);
    }
}

#[test]
fn a_released_text_is_read_again_only_while_the_file_is_unchanged() {
    let f = Fixture::new("clean");
    let cat = load::load_with(f.root(), LEAN).unwrap().catalogue;
    let file = "checks/FID-001.md";
    let text = load::source(&cat, file).expect("an unchanged file is read again");
    assert_eq!(&*text, f.read(file));

    f.edit(file, "Scope parameters", "Scope  parameters");
    assert!(
        load::source(&cat, file).is_none(),
        "an edited file is not shown"
    );
    // The finding is still reported, with its place, just without the source line.
    let d = auditbook::diag::Diagnostic::new(
        &auditbook::diag::codes::LINK_UNKNOWN,
        "link to `FID-999`".to_string(),
    )
    .file(file)
    .at(3, 1);
    let shown = diagnostics::human(&[d], &cat, ".", false);
    assert!(shown.contains("in checks/FID-001.md:3:1"), "{shown}");
}

/// The section scan that frontmatter-only commands use finds the same sections (titles,
/// lines, content ranges), external sources and house-practice lines as the full outline, on
/// every fixture and on the shipped catalogue.
#[test]
fn a_sections_load_reads_the_same_sections_and_sources_as_a_full_load() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue");
    for root in [
        fixture_dir("clean"),
        fixture_dir("graph"),
        fixture_dir("compat-de"),
        fixture_dir("sources"),
        shipped,
    ] {
        let full = load::load(&root).unwrap().catalogue;
        let light = load::load_with(&root, SECTIONS).unwrap().catalogue;
        assert_eq!(full.checks.len(), light.checks.len(), "{}", root.display());
        for (f, l) in full.checks.iter().zip(&light.checks) {
            assert_eq!(f.sections, l.sections, "{} in {}", f.id, root.display());
            assert_eq!(f.sources, l.sources, "{} in {}", f.id, root.display());
            assert_eq!(f.pass_criteria, l.pass_criteria, "{}", f.id);
            assert_eq!(f.house_practice_line, l.house_practice_line, "{}", f.id);
            for s in f.sections.iter() {
                assert_eq!(
                    f.section_text(s.title.as_str()),
                    l.section_text(s.title.as_str())
                );
            }
        }
        assert_eq!(full.rules, light.rules, "{}", root.display());
        assert_eq!(
            auditbook::snapshot::fingerprints(&full),
            auditbook::snapshot::fingerprints(&light),
            "audit reports carry the fingerprint: {}",
            root.display()
        );
    }
}
