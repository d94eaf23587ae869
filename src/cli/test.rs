//! `auditbook test`: the catalogue's declared expectations (`tests/*.yaml`), each a pass or a
//! failure with the diff of what it expects against what the catalogue decides.

use super::args::Cli;
use super::common::{self, Failure};
use super::formats::TextFormat;
use crate::expect;

pub fn run(cli: &Cli, args: &super::args::TestArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, crate::session::Needs::FINDINGS)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let cat = &loaded.catalogue;
    let templates = common::templates(cli)?;
    let (cases, mut problems) = expect::discover(cat);
    crate::diag::normalise(&mut problems);
    let outcomes = expect::evaluate(cat, session.graph(), &templates, &cases);
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    let bad_files = problems
        .iter()
        .any(|d| d.level == crate::diag::Level::Error);
    let prefix = common::prefix(cli);
    let text = if fmt == TextFormat::Json {
        let cases: Vec<serde_json::Value> = outcomes
            .iter()
            .map(|o| {
                serde_json::json!({
                    "name": o.name,
                    "file": crate::render::diagnostics::join(&prefix, &o.file),
                    "line": o.line,
                    "passed": o.passed(),
                    "expected": o.expected,
                    "actual": o.actual,
                    "problems": o.problems,
                })
            })
            .collect();
        // Each failing case is also an `AB902` finding, so a CI job reading the JSON sees the
        // failures where it sees every other finding.
        let mut diagnostics = problems.clone();
        diagnostics.extend(expect::report::findings(&outcomes));
        crate::diag::normalise(&mut diagnostics);
        common::json_text(&serde_json::json!({
            "tests": cases,
            "diagnostics": diagnostics,
            "summary": {"tests": outcomes.len(), "passed": outcomes.len() - failed, "failed": failed},
        }))?
    } else {
        let mut t = String::new();
        if !problems.is_empty() {
            t.push_str(&common::human(cli, &problems, cat, &prefix));
        }
        if outcomes.is_empty() && problems.is_empty() {
            t.push_str(&format!(
                "no tests: this catalogue declares none (add {}/*.yaml under its root)\n",
                expect::DIR
            ));
        } else if cli.quiet {
            // Failures only.
            let failing: Vec<_> = outcomes.iter().filter(|o| !o.passed()).cloned().collect();
            if !failing.is_empty() {
                t.push_str(&expect::report::human(&failing, &prefix));
            }
        } else {
            t.push_str(&expect::report::human(&outcomes, &prefix));
        }
        t
    };
    common::print(&text)?;
    Ok(if failed > 0 || bad_files {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}
