//! `auditbook lint`

use super::args::{Cli, LintArgs};
use super::common::{self, Failure};

pub fn run(cli: &Cli, args: &LintArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, &["human", "json", "github", "sarif", "junit"])?;
    let loaded = common::load_lean(cli)?;
    let mut diags = loaded.diagnostics.clone();
    let graph = crate::graph::Graph::build(&loaded.catalogue);
    diags.extend(crate::lint::run(&loaded.catalogue, &graph));
    if args.verify {
        let templates = common::templates(cli)?;
        diags.extend(crate::claims::verify(&loaded.catalogue, &graph, &templates));
    }
    crate::diag::normalise(&mut diags);
    let mut extra = serde_json::Map::new();
    extra.insert("checks".into(), loaded.catalogue.checks.len().into());
    extra.insert(
        "mode".into(),
        serde_json::to_value(loaded.catalogue.mode).unwrap_or_default(),
    );
    common::report(cli, "lint", diags, &loaded, fmt, extra)
}
