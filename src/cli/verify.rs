//! `auditbook verify`: documents against the catalogue — links, generated regions, claims.

use super::args::{Cli, VerifyArgs};
use super::common::{self, Failure};
use crate::session::{Needs, Stages};

pub fn run(cli: &Cli, args: &VerifyArgs) -> Result<u8, Failure> {
    if let Some(claims) = &args.claims {
        return super::elsewhere::verify(cli, claims, args.report.as_deref(), args.format);
    }
    let fmt = common::format(cli, args.format);
    let session = common::session(cli, Needs::FINDINGS)?;
    let findings = session.findings(Stages::VERIFY).map_err(Failure::Message)?;
    let cat = session.catalogue();
    let mut extra = serde_json::Map::new();
    extra.insert("documents".into(), cat.documents.len().into());
    extra.insert("claims".into(), cat.config.claims.len().into());
    common::report(cli, "verify", &findings, &session, fmt, extra)
}
