//! Definitions against the lock file: every added, removed or changed tool, resource and
//! prompt, with the old and the new text of what changed.

use super::{looked, undecided, Seen};
use crate::evidence::probe::lock::Drift;

pub fn judge(drift: Option<&Drift>) -> Seen {
    let Some(d) = drift else {
        return undecided("no lock file to compare with; `auditbook probe --lock` records one");
    };
    if d.changes.is_empty() {
        looked(
            vec![],
            vec![format!(
                "definitions equal the lock file `{}` ({} definitions, {})",
                d.lock_file, d.compared, d.locked_digest
            )],
        )
    } else {
        looked(
            d.changes
                .iter()
                .map(|c| ("changed", format!("{c} since the lock file `{}`", d.lock_file)))
                .collect(),
            vec![],
        )
    }
}
