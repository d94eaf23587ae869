//! Arbitrary bytes as a server profile (YAML and JSON): loading, checking against the profile
//! schema, applicability of every check, the verdict and the Markdown report.
#![no_main]

#[path = "shared/inputs.rs"]
mod inputs;

use auditbook::audit::{self, profile, verdict::Policy};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cat = inputs::catalogue();
    for (path, name) in inputs::written(data) {
        if let Ok(checked) = profile::load(cat, &path, name, None) {
            let run = audit::run(cat, &checked, None, Policy::FailOrPartial);
            let _ = run.audit.verdict;
        }
    }
});
