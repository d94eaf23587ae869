//! Property tests over every input the engine reads: arbitrary bytes, and real files with
//! random edits (the near-valid text a maintainer actually produces), as a check file,
//! catalogue.yaml, a rule file, a document, a profile and a results file. Each must give a
//! model or diagnostics: never a panic, never an error that names nothing.
//!
//! The loaders are called directly (no process per case) so the case counts can stay useful
//! while the suite stays fast.

use crate::common;

use auditbook::audit::{self, profile, report, score, verdict::Policy};
use auditbook::diag::{codes, Diagnostic};
use auditbook::graph::Graph;
use auditbook::load::data_file::{self, DataError};
use auditbook::load::{self, Loaded};
use auditbook::model::Catalogue;
use auditbook::render::templates::Templates;
use common::{fixture_dir, Fixture};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Fragments that matter to YAML, Markdown, markers and expressions: inserting them makes
/// near-valid text far more often than random bytes do.
const TOKENS: &[&str] = &[
    "---\n",
    "\n",
    ":",
    ": ",
    "'",
    "\"",
    "[",
    "]",
    "{",
    "}",
    "- ",
    "&a ",
    "*a",
    "!!str ",
    "<<: ",
    "\u{feff}",
    "\r\n",
    "\t",
    "#",
    "(",
    ")",
    "==",
    " and ",
    " or ",
    "|",
    "\\",
    "é",
    "- [ ] ",
    "## ",
    "<!-- auditbook:begin category-counts -->\n",
    "<!-- auditbook:end category-counts -->\n",
    "[FID-001](../checks/FID-001.md)",
    "FID-999",
    "~",
    "null",
    "1.10",
    "yes",
    "\u{0}",
];

#[derive(Clone, Debug)]
enum Edit {
    Insert(prop::sample::Index, &'static str),
    Delete(prop::sample::Index, usize),
    Byte(prop::sample::Index, u8),
    DuplicateLine(prop::sample::Index),
    Truncate(prop::sample::Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<prop::sample::Index>(), prop::sample::select(TOKENS)).prop_map(|(i, t)| Edit::Insert(i, t)),
        3 => (any::<prop::sample::Index>(), 1usize..40).prop_map(|(i, n)| Edit::Delete(i, n)),
        2 => (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Byte(i, b)),
        1 => any::<prop::sample::Index>().prop_map(Edit::DuplicateLine),
        1 => any::<prop::sample::Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for e in edits {
        let len = b.len().max(1);
        match e {
            Edit::Insert(i, t) => {
                let at = i.index(len + 1).min(b.len());
                b.splice(at..at, t.bytes());
            }
            Edit::Delete(i, n) => {
                let at = i.index(len).min(b.len());
                let end = (at + n).min(b.len());
                b.drain(at..end);
            }
            Edit::Byte(i, v) => {
                if !b.is_empty() {
                    let at = i.index(b.len());
                    b[at] = *v;
                }
            }
            Edit::DuplicateLine(i) => {
                let at = i.index(len).min(b.len());
                let start = b[..at]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1);
                let end = b[at..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| at + p + 1);
                let line = b[start..end].to_vec();
                b.splice(start..start, line);
            }
            Edit::Truncate(i) => {
                let at = i.index(len).min(b.len());
                b.truncate(at);
            }
        }
    }
    b
}

/// Arbitrary bytes half the time, the real file with a few edits the other half.
fn input(seed: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..1024),
        3 => prop::collection::vec(edit(), 1..8).prop_map(move |e| apply(seed, &e)),
    ]
}

fn seed(fixture: &str, rel: &str) -> &'static [u8] {
    let bytes = std::fs::read(fixture_dir(fixture).join(rel)).unwrap();
    Box::leak(bytes.into_boxed_slice())
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn repo_seed(rel: &str) -> &'static [u8] {
    Box::leak(std::fs::read(repo(rel)).unwrap().into_boxed_slice())
}

/// Load, lint and verify a catalogue directory; return everything said about it.
fn judge(root: &Path) -> (Loaded, Vec<Diagnostic>) {
    let loaded = load::load(root).expect("a directory always loads to a model");
    let graph = Graph::build(&loaded.catalogue);
    let mut all = loaded.diagnostics.clone();
    all.extend(auditbook::lint::run(&loaded.catalogue, &graph));
    all.extend(auditbook::claims::verify(
        &loaded.catalogue,
        &graph,
        templates(),
    ));
    let _ = auditbook::claims::plan_sync(&loaded.catalogue, templates());
    let _ = auditbook::snapshot::fingerprints(&loaded.catalogue);
    (loaded, all)
}

fn mentions(diags: &[Diagnostic], file: &str) -> bool {
    diags.iter().any(|d| d.file.as_deref() == Some(file))
}

fn templates() -> &'static Templates {
    static T: OnceLock<Templates> = OnceLock::new();
    T.get_or_init(|| Templates::new(None).unwrap())
}

fn shipped() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(|| load::load(&repo("catalogue")).unwrap().catalogue)
}

fn written(bytes: &[u8], name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

/// The whole audit pipeline on a checked profile, down to the rendered report.
fn audit_all(cat: &Catalogue, checked: &profile::Checked, results: Option<&data_file::DataFile>) {
    let run = audit::run(cat, checked, results, Policy::FailOrPartial);
    let s = score::score(cat, &run.audit);
    let options = report::Options {
        catalogue_root: "catalogue".into(),
        check_url_base: None,
        link_prefix: "catalogue".into(),
        previous: None,
        as_of: "2026-06-01".into(),
        html: true,
    };
    let rep = report::build(cat, checked, &run, s, &options);
    let ctx = tera::Context::from_serialize(&rep).unwrap();
    templates().render("report.md.tera", &ctx).unwrap();
    templates().render("report.html.tera", &ctx).unwrap();
    auditbook::render::audit_sarif::sarif(&rep).unwrap();
    auditbook::render::junit::audit(&rep);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_check_file_gives_a_check_or_a_diagnostic(bytes in input(seed("clean", "checks/FID-001.md"))) {
        let f = Fixture::new("clean");
        f.write_bytes("checks/FID-001.md", &bytes);
        let (loaded, diags) = judge(f.root());
        let file = "checks/FID-001.md";
        let typed = loaded.catalogue.checks.iter().any(|c| c.file == file);
        // Not a check at all is also an answer, but only for text that does not claim to be
        // one: with frontmatter or under an id's name it must be typed or reported.
        prop_assert!(typed || mentions(&diags, file), "silently dropped: {:?}", String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn any_catalogue_yaml_gives_a_config_or_a_diagnostic(bytes in input(seed("graph", "catalogue.yaml"))) {
        let f = Fixture::new("graph");
        f.write_bytes("catalogue.yaml", &bytes);
        let (loaded, diags) = judge(f.root());
        // Either the configuration was read (it names the categories it declares) or a
        // diagnostic says what is wrong with it.
        let understood = !loaded.catalogue.config.categories.is_empty();
        prop_assert!(understood || !diags.is_empty());
    }

    #[test]
    fn any_rule_file_gives_a_rule_or_a_diagnostic(bytes in input(seed("graph", "rules/FIDELITY-1.md"))) {
        let f = Fixture::new("graph");
        f.write_bytes("rules/FIDELITY-1.md", &bytes);
        let (loaded, diags) = judge(f.root());
        let file = "rules/FIDELITY-1.md";
        let is_rule = loaded
            .catalogue
            .rules
            .iter()
            .any(|r| r.mappings.iter().any(|m| m.origin.file() == file));
        let claims_to_be = bytes.starts_with(b"---");
        prop_assert!(!claims_to_be || is_rule || mentions(&diags, file));
    }

    #[test]
    fn any_document_is_read_or_reported(bytes in input(seed("graph", "skills/mcp-data-fidelity/SKILL.md"))) {
        let f = Fixture::new("graph");
        let doc = "skills/mcp-data-fidelity/SKILL.md";
        f.write_bytes(doc, &bytes);
        let (loaded, diags) = judge(f.root());
        let read = loaded.catalogue.documents.iter().any(|d| d.path == doc);
        prop_assert!(read || mentions(&diags, doc));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_profile_is_checked_or_reported(
        bytes in input(repo_seed("examples/amtsblatt-readonly.profile.yaml")),
        json in any::<bool>(),
    ) {
        let cat = shipped();
        let (_dir, path) = written(&bytes, if json { "p.json" } else { "p.yaml" });
        match data_file::read(&path, "p.yaml", &codes::PROFILE_INVALID).and_then(|f| profile::of_file(cat, f)) {
            Ok(checked) => audit_all(cat, &checked, None),
            Err(DataError::Invalid { diagnostics: d, sources }) => {
                prop_assert!(!d.is_empty());
                prop_assert!(d.iter().all(|x| x.file.is_some()), "{d:?}");
                // Each finding comes with the text it is about (never a second reading).
                prop_assert!(d.iter().all(|x| x.file.as_ref().is_some_and(|f| sources.contains_key(f))), "{d:?}");
            }
            // Only a portfolio-shaped file is refused outright.
            Err(DataError::Unreadable(m)) => prop_assert!(m.contains("portfolio"), "{m}"),
        }
    }

    #[test]
    fn any_results_file_is_validated_or_reported(
        bytes in input(repo_seed("examples/amtsblatt-readonly.results.yaml")),
    ) {
        let cat = shipped();
        let profile_path = repo("examples/amtsblatt-readonly.profile.yaml");
        let read = data_file::read(&profile_path, "p.yaml", &codes::PROFILE_INVALID);
        let checked = match read.and_then(|f| profile::of_file(cat, f)) {
            Ok(c) => c,
            Err(_) => panic!("the example profile loads"),
        };
        let (_dir, path) = written(&bytes, "r.yaml");
        match data_file::read(&path, "r.yaml", &codes::RESULTS_INVALID) {
            Ok(file) => audit_all(cat, &checked, Some(&file)),
            Err(DataError::Invalid { diagnostics: d, sources }) => {
                prop_assert!(!d.is_empty());
                prop_assert!(d.iter().all(|x| x.file.as_ref().is_some_and(|f| sources.contains_key(f))), "{d:?}");
            }
            Err(DataError::Unreadable(m)) => panic!("a regular file is readable: {m}"),
        }
    }
}
