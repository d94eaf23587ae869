//! Arbitrary bytes as a results file (YAML and JSON) for the shipped example profile:
//! validation against the catalogue and applicability, the verdict and the score.
#![no_main]

#[path = "shared/inputs.rs"]
mod inputs;

use auditbook::audit::{self, profile, verdict::Policy};
use auditbook::diag::codes;
use auditbook::load::data_file;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

fuzz_target!(|data: &[u8]| {
    let cat = inputs::catalogue();
    let example =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/amtsblatt-readonly.profile.yaml");
    let read = data_file::read(&example, "profile.yaml", &codes::PROFILE_INVALID);
    let Ok(checked) = read.and_then(|f| profile::of_file(cat, f)) else {
        panic!("the example profile must load");
    };
    for (path, name) in inputs::written(data) {
        if let Ok(results) = data_file::read(&path, name, &codes::RESULTS_INVALID) {
            let run = audit::run(cat, &checked, Some(&results), Policy::NeedsAttention);
            let _ = run.audit.verdict;
        }
    }
});
