//! Arbitrary bytes as a portfolio (YAML and JSON): parsing, the confinement of every path it
//! names (nothing outside the scratch folder may be opened), the results-dir lookup by server
//! name, and each member's profile.
#![no_main]

#[path = "shared/inputs.rs"]
mod inputs;

use auditbook::audit::portfolio::profile_of;
use auditbook::diag::codes;
use auditbook::load::data_file;
use auditbook::load::portfolio::Portfolio;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cat = inputs::catalogue();
    for (path, name) in inputs::written(data) {
        let Ok(file) = data_file::read(&path, name, &codes::PORTFOLIO_INVALID) else {
            continue;
        };
        let dir = path.parent().map(|d| d.to_path_buf()).unwrap_or_default();
        let mut p = Portfolio::parse(file);
        p.use_results_dir(&dir, "scratch");
        for s in p.servers.clone() {
            let _ = profile_of(cat, &p, &s, p.read_profile(&s));
        }
    }
});
