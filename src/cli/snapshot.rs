//! `auditbook snapshot`

use super::args::Cli;
use super::common::{self, Failure};

pub fn run(cli: &Cli) -> Result<u8, Failure> {
    let session = common::session(cli, crate::session::Needs::BODIES)?;
    let loaded = session.loaded();
    common::warn_load_problems(cli, loaded);
    let snap = crate::snapshot::take(&loaded.catalogue);
    common::print(&(common::json_text(&snap)?))?;
    Ok(super::EXIT_OK)
}
