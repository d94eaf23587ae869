//! Arbitrary bytes as the files an auditor hands auditbook: a server profile, a results file
//! and a portfolio (YAML and JSON), each through loading, profile checking, applicability,
//! results validation, the verdict and the Markdown report, against the shipped catalogue.
//! Also through the confinement of a portfolio's paths: whatever the bytes, nothing outside
//! the scratch folder may be opened.
#![no_main]

use auditbook::audit::{self, portfolio::Portfolio, profile, verdict::Policy};
use auditbook::diag::codes;
use auditbook::load::data_file;
use auditbook::model::Catalogue;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn catalogue() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../catalogue");
        match auditbook::load::load(&root) {
            Ok(l) => l.catalogue,
            Err(e) => panic!("the shipped catalogue must load: {e}"),
        }
    })
}

fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("auditbook-fuzz-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&d);
        d
    })
}

fuzz_target!(|data: &[u8]| {
    let cat = catalogue();
    for name in ["input.yaml", "input.json"] {
        let path = scratch().join(name);
        if std::fs::write(&path, data).is_err() {
            return;
        }
        // As a profile, with itself as results.
        if let Ok(checked) = profile::load(cat, &path, name, None) {
            let results = data_file::read(&path, name, &codes::RESULTS_INVALID).ok();
            let run = audit::run(cat, &checked, results.as_ref(), Policy::FailOrPartial);
            let _ = run.audit.verdict;
        }
        // As a portfolio.
        if let Ok(file) = data_file::read(&path, name, &codes::PORTFOLIO_INVALID) {
            let mut p = Portfolio::parse(file);
            p.use_results_dir(scratch(), "scratch");
            for s in p.servers.clone() {
                let _ = p.profile_of(cat, &s);
            }
        }
    }
});
