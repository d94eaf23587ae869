//! Definitions against the lock file: every added, removed or changed tool, resource and
//! prompt, with the old and the new text of what changed.

use super::{looked_in, undecided, Seen};
use crate::evidence::probe::lock::Drift;

pub fn judge(drift: Option<&Drift>) -> Seen {
    let Some(d) = drift else {
        return undecided("no lock file to compare with; `auditbook probe --lock` records one");
    };
    let context = vec![format!(
        "{} definitions compared with the lock file `{}` ({})",
        d.compared, d.lock_file, d.locked_digest
    )];
    looked_in(
        d.changes
            .iter()
            .map(|c| {
                (
                    "changed",
                    format!("{c} since the lock file `{}`", d.lock_file),
                )
            })
            .collect(),
        vec![],
        context,
    )
}
