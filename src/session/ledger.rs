//! The suppression ledger: `lint.allow` and `lint.levels` in `catalogue.yaml`. One place
//! decides the level of each code the maintainers set one for and which findings they
//! accepted — by id, by file, or for a whole selection of checks — for every stage alike (a
//! CRLF warning from loading, a lint finding, a stale claim from verify), and says when an
//! acceptance has lapsed or outlived what it accepted.

use crate::diag::{codes, Diagnostic, Level, Suppressed};
use crate::model::config::{AllowDecl, LevelDecl};
use crate::model::Catalogue;
use std::collections::BTreeSet;

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

/// The checks an entry's `where` selects: their ids and their files.
#[derive(Default)]
struct Selected {
    ids: BTreeSet<String>,
    files: BTreeSet<String>,
}

/// What each entry's `where` selects (`None`: the entry has none, or it does not compile —
/// then it accepts nothing, and the finding about it says why).
fn selections(cat: &Catalogue, entries: &[AllowDecl]) -> (Vec<Option<Selected>>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, a) in entries.iter().enumerate() {
        let Some(src) = a.selection.as_deref() else {
            out.push(None);
            continue;
        };
        let chosen = crate::select::compile(cat, src, "lint.allow where")
            .map_err(|ds| ds.into_iter().map(|d| d.message).collect::<Vec<_>>())
            .and_then(|e| crate::select::select(cat, &e).map_err(|d| vec![d.message]));
        match chosen {
            Ok(checks) => out.push(Some(Selected {
                ids: checks.iter().map(|c| c.id.to_string()).collect(),
                files: checks.iter().map(|c| c.file.to_string()).collect(),
            })),
            Err(messages) => {
                out.push(Some(Selected::default()));
                problems.push(
                    Diagnostic::new(
                        &codes::CONFIG_BAD_VALUE,
                        format!(
                            "the `lint.allow` entry for {} accepts nothing: {}",
                            a.code,
                            messages.join("; ")
                        ),
                    )
                    .file(crate::model::config::FILE_NAME)
                    .line(
                        cat.config
                            .positions
                            .line_of(&format!("lint.allow[{i}].where"))
                            .unwrap_or(1),
                    ),
                );
            }
        }
    }
    (out, problems)
}

fn matches(a: &AllowDecl, selected: Option<&Selected>, d: &Diagnostic) -> bool {
    if a.code != d.code {
        return false;
    }
    let id_ok = a.id.as_deref().is_none_or(|id| d.id.as_deref() == Some(id));
    let file_ok = a
        .file
        .as_deref()
        .is_none_or(|f| d.file.as_deref() == Some(f));
    let selection_ok = selected.is_none_or(|s| {
        d.id.as_ref().is_some_and(|id| s.ids.contains(id))
            || d.file.as_ref().is_some_and(|f| s.files.contains(f))
    });
    // An entry with no key is refused when the configuration is read; it accepts nothing.
    (a.id.is_some() || a.file.is_some() || a.selection.is_some())
        && id_ok
        && file_ok
        && selection_ok
}

/// The level `lint.levels` sets for `d`'s code, if it sets one.
fn level_of(cat: &Catalogue, d: &Diagnostic) -> Option<Level> {
    let lint = cat.config.lint.as_ref()?;
    lint.levels.get(d.code).map(|l| match l {
        LevelDecl::Error => Level::Error,
        LevelDecl::Warning => Level::Warning,
        LevelDecl::Note => Level::Note,
    })
}

fn describe(a: &AllowDecl) -> String {
    let whom = match (&a.id, &a.file) {
        (Some(id), Some(f)) => format!("{} for {id} in {f}", a.code),
        (Some(id), None) => format!("{} for {id}", a.code),
        (None, Some(f)) => format!("{} in {f}", a.code),
        (None, None) => a.code.clone(),
    };
    match &a.selection {
        Some(w) => format!("{whom} for the checks `where {w}` selects"),
        None => whom,
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
    let (selected, problems) = selections(cat, entries);
    out.shown.extend(problems);
    let matching = |i: usize, a: &AllowDecl, d: &Diagnostic| {
        matches(a, selected.get(i).and_then(Option::as_ref), d)
    };
    for mut d in found {
        if let Some(level) = level_of(cat, &d) {
            d.level = level;
        }
        let live = entries
            .iter()
            .enumerate()
            .find(|(i, a)| matching(*i, a, &d) && a.until.as_deref().is_none_or(|u| today <= u));
        let any = entries
            .iter()
            .enumerate()
            .position(|(i, a)| matching(i, a, &d));
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
