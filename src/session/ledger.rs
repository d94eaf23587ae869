//! The suppression ledger: `lint.allow` in `catalogue.yaml`. One place decides which findings
//! the maintainers accepted, for every stage alike (a CRLF warning from loading, a lint
//! finding, a stale claim from verify), and says when an acceptance has lapsed or outlived
//! what it accepted.

use crate::diag::{codes, Diagnostic, Suppressed};
use crate::model::config::AllowDecl;
use crate::model::Catalogue;

/// What applying the ledger leaves: the findings still shown, the accepted ones, and the
/// ledger's own findings about its entries (already among `shown`).
#[derive(Debug, Default)]
pub struct Applied {
    pub shown: Vec<Diagnostic>,
    pub suppressed: Vec<Suppressed>,
}

/// Whether the stages that ran saw every finding an entry could accept: only then is an
/// entry that matched nothing stale (a `lint` run cannot know what `verify` would report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    Complete,
    Partial,
}

fn matches(a: &AllowDecl, d: &Diagnostic) -> bool {
    if a.code != d.code {
        return false;
    }
    let id_ok = a.id.as_deref().is_none_or(|id| d.id.as_deref() == Some(id));
    let file_ok = a
        .file
        .as_deref()
        .is_none_or(|f| d.file.as_deref() == Some(f));
    // An entry with neither key is refused when the configuration is read; it accepts nothing.
    (a.id.is_some() || a.file.is_some()) && id_ok && file_ok
}

fn describe(a: &AllowDecl) -> String {
    match (&a.id, &a.file) {
        (Some(id), Some(f)) => format!("{} for {id} in {f}", a.code),
        (Some(id), None) => format!("{} for {id}", a.code),
        (None, Some(f)) => format!("{} in {f}", a.code),
        (None, None) => a.code.clone(),
    }
}

/// Apply the ledger to `found` as of `today` (`YYYY-MM-DD`).
pub fn apply(cat: &Catalogue, found: Vec<Diagnostic>, today: &str, coverage: Coverage) -> Applied {
    let entries: &[AllowDecl] = cat
        .config
        .lint
        .as_ref()
        .map(|l| l.allow.as_slice())
        .unwrap_or(&[]);
    let mut used = vec![false; entries.len()];
    let mut out = Applied::default();
    for d in found {
        let live = entries
            .iter()
            .enumerate()
            .find(|(_, a)| matches(a, &d) && a.until.as_deref().is_none_or(|u| today <= u));
        let any = entries.iter().position(|a| matches(a, &d));
        if let Some(i) = any {
            used[i] = true;
        }
        match live {
            Some((i, a)) => {
                used[i] = true;
                out.suppressed.push(Suppressed {
                    diagnostic: d,
                    reason: a.reason.clone(),
                });
            }
            None => out.shown.push(d),
        }
    }
    for (i, a) in entries.iter().enumerate() {
        let line = cat
            .config
            .positions
            .line_of(&format!("lint.allow[{i}]"))
            .unwrap_or(1);
        // The entry's `-`, not the indentation before it.
        let column = cat
            .sources
            .get(crate::model::config::FILE_NAME)
            .and_then(|t| t.lines().nth(line.saturating_sub(1)))
            .map(|l| l.chars().take_while(|c| c.is_whitespace()).count() + 1)
            .unwrap_or(1);
        let at = |d: Diagnostic| d.file(crate::model::config::FILE_NAME).at(line, column);
        if let Some(until) = a.until.as_deref().filter(|u| today > *u) {
            out.shown.push(at(Diagnostic::new(
                &codes::ALLOW_EXPIRED,
                format!(
                    "the acceptance of {} ran out on {until} (today is {today}); the finding counts again",
                    describe(a)
                ),
            )));
        } else if !used[i] && coverage == Coverage::Complete {
            out.shown.push(at(Diagnostic::new(
                &codes::ALLOW_STALE,
                format!(
                    "`lint.allow` accepts {}, which no longer occurs",
                    describe(a)
                ),
            )));
        }
    }
    out
}
