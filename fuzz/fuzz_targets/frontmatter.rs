//! Arbitrary bytes as a check file: decoding, frontmatter splitting and typing, the body's
//! outline, and the lint passes over a catalogue holding that one check. Also fed to the
//! catalogue.yaml and manifest parsers, which read the same kind of text.
#![no_main]

use auditbook::graph::Graph;
use auditbook::load::markdown::IdRules;
use auditbook::load::{check, config, manifest, text};
use auditbook::model::{Catalogue, Mode};
use libfuzzer_sys::fuzz_target;

const CONFIG: &str = include_str!("../../tests/fixtures/clean/catalogue.yaml");

fuzz_target!(|data: &[u8]| {
    let (cfg, _) = config::parse(CONFIG);
    let id_re = cfg.id_regex();
    let Ok(t) = text::decode("checks/FID-009.md", data.to_vec()) else {
        return;
    };
    let _ = config::parse(&t.text);
    let _ = manifest::parse("checks/MANIFEST.txt", &t.text, &id_re);

    let severities = cfg.severities();
    let baselines = cfg.baselines();
    let vocab = check::Vocab {
        severities: &severities,
        baselines: &baselines,
        extra_fields: &cfg.extra_fields,
    };
    let text: std::sync::Arc<str> = std::sync::Arc::from(t.text.as_str());
    let Ok(mut c) = check::load("checks/FID-009.md", &text, &vocab) else {
        return;
    };
    let categories: Vec<String> = cfg.categories.iter().map(|c| c.prefix.clone()).collect();
    let ids = IdRules {
        id_pattern: &id_re,
        categories: &categories,
        checks_dir: "checks",
        checks_path: "checks",
        bases: &[],
        outlines: None,
    };
    check::attach_body(&mut c, &ids, &check::SourceRules::default());
    let mut cat = Catalogue::empty(".", Mode::Declared);
    cat.config = cfg;
    cat.categories = categories;
    cat.set_checks(vec![c]);
    let graph = Graph::build(&cat);
    let _ = auditbook::lint::run(&cat, &graph);
});
