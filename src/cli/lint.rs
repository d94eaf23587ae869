//! `auditbook lint`

use super::args::{Cli, LintArgs};
use super::common::{self, Failure};
use crate::session::{Needs, Stages};

pub fn run(cli: &Cli, args: &LintArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, Needs::FINDINGS)?;
    let stages = if args.verify {
        Stages::ALL
    } else {
        Stages::LINT
    };
    let findings = session.findings(stages).map_err(Failure::Message)?;
    let cat = session.catalogue();
    let mut extra = serde_json::Map::new();
    extra.insert("checks".into(), cat.checks.len().into());
    extra.insert(
        "mode".into(),
        serde_json::to_value(cat.mode).unwrap_or_default(),
    );
    common::report(cli, "lint", &findings, &session, fmt, extra)
}
