//! `auditbook verify`: documents against the catalogue — links, generated regions, claims.

use super::args::{Cli, VerifyArgs};
use super::common::{self, Failure};

pub fn run(cli: &Cli, args: &VerifyArgs) -> Result<u8, Failure> {
    if let Some(claims) = &args.claims {
        return super::elsewhere::verify(cli, claims, args.report.as_deref());
    }
    let fmt = common::format(cli, &["human", "json", "github", "sarif", "junit"])?;
    let loaded = common::load_lean(cli)?;
    let cat = &loaded.catalogue;
    let graph = crate::graph::Graph::build(cat);
    let templates = common::templates(cli)?;
    // Problems reading the documents themselves belong to verify (a refused or unreadable
    // document must fail verify, never pass it silently); the rest is lint's. A refused path
    // is reported against catalogue.yaml, where it is written.
    let docs = crate::load::docs::declared(&cat.config);
    let mut diags: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.file.as_ref().is_some_and(|f| docs.contains(f)))
        .chain(&loaded.document_diagnostics)
        .cloned()
        .collect();
    diags.extend(crate::claims::verify(cat, &graph, &templates));
    crate::diag::normalise(&mut diags);
    let mut extra = serde_json::Map::new();
    extra.insert("documents".into(), cat.documents.len().into());
    extra.insert("claims".into(), cat.config.claims.len().into());
    common::report(cli, "verify", diags, &loaded, fmt, extra)
}
