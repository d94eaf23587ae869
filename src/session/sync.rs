//! What `sync` may write, through the pipeline: nothing while a declared document is refused
//! or missing, a region's markers or rendering are wrong, or (over a claims file) no source can
//! render the regions — the findings verify fails on, judged by the same ledger.

use super::{ledger, Findings, Session};
use crate::claims::SyncPlan;
use crate::diag::{self, codes, Diagnostic, Level};

impl Session {
    /// The rewrite of every stale region, or the findings that keep `sync` from writing
    /// anything. `Err`: the templates could not be read.
    pub fn sync_plan(&self) -> Result<Result<SyncPlan, Findings>, String> {
        let cat = self.catalogue();
        let mut blocking: Vec<Diagnostic> = match &self.foreign {
            Some(f) => crate::claims::elsewhere::sync_blockers(cat, &f.claims)
                .into_iter()
                .chain(self.loaded.document_diagnostics.iter().cloned())
                .collect(),
            None => self.document_findings(),
        };
        let plan = crate::claims::plan_sync(cat, &self.templates()?);
        if let Err(problems) = &plan {
            blocking.extend(problems.iter().cloned());
        }
        if let Some(f) = &self.foreign {
            blocking = blocking.into_iter().map(|d| f.shown(d)).collect();
        }
        diag::normalise(&mut blocking);
        let applied = ledger::apply(cat, blocking, &self.today, ledger::Coverage::Partial);
        // An entry of the ledger that ran out is lint's and verify's to report; here only
        // what it says about these findings counts.
        let mut shown: Vec<Diagnostic> = applied
            .shown
            .into_iter()
            .filter(|d| d.code != codes::ALLOW_EXPIRED.code)
            .collect();
        diag::normalise(&mut shown);
        let refused = Findings {
            shown,
            suppressed: applied.suppressed,
        };
        Ok(match plan {
            Ok(p) if !refused.shown.iter().any(|d| d.level == Level::Error) => Ok(p),
            _ => Err(refused),
        })
    }
}
