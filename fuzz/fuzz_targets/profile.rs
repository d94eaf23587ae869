//! Arbitrary bytes as a server profile (YAML and JSON): loading, checking against the profile
//! schema, applicability of every check, the verdict and the Markdown report.
#![no_main]

#[path = "shared/inputs.rs"]
mod inputs;

use auditbook::audit::{self, profile, verdict::Policy};
use auditbook::diag::codes;
use auditbook::load::data_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cat = inputs::catalogue();
    for (path, name) in inputs::written(data) {
        let read = data_file::read(&path, name, &codes::PROFILE_INVALID);
        if let Ok(checked) = read.and_then(|f| profile::of_file(cat, f)) {
            let run = audit::run(cat, &checked, None, Policy::FailOrPartial);
            let _ = run.audit.verdict;
        }
    }
});
