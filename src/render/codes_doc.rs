//! `docs/lint-codes.md`, generated from the code registry so the two cannot disagree.

use crate::diag::CODES;

pub fn render() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         Every finding auditbook reports carries one of these codes. A code keeps its meaning \
         for good; new findings get new codes. Levels are the defaults (`lint.allow` in \
         `catalogue.yaml` accepts a reviewed finding by code and id; `--deny warnings` makes \
         warnings fail the run).\n\n\
         This file is generated from `src/diag/codes.rs`; the test suite fails when it is stale \
         (regenerate with `AUDITBOOK_UPDATE_DOCS=1 cargo test --test docs_current`).\n\n\
         | code | name | level | meaning | what to do |\n|---|---|---|---|---|\n",
    );
    for c in CODES {
        out.push_str(&format!(
            // The anchor is what SARIF's helpUri points at.
            "| <a id=\"{}\"></a>{} | `{}` | {} | {} | {} |\n",
            c.code.to_lowercase(),
            c.code,
            c.name,
            c.level.as_str(),
            c.summary.replace('|', "\\|"),
            c.help.replace('|', "\\|")
        ));
    }
    out
}
