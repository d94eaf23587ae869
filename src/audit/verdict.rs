//! From applicability and results to a verdict (catalogue format, section 5). The policy decides
//! which statuses are findings; only an enforced check of a blocking severity with status `fail`
//! blocks. Anything missing, rejected or undecidable makes the audit incomplete: never green.

use super::applicability::{Applicability, Status as Gate};
use super::results::{Recorded, Results, Status};
use super::waivers::{Waiver, Waivers};
use crate::diag::{Diagnostic, Level};
use crate::model::{Adoption, Catalogue, Check};
use serde::Serialize;
use std::collections::BTreeMap;

/// Which statuses are findings. The command line names them through `cli::inputs::PolicyArg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// fail and partial are findings (the default).
    FailOrPartial,
    /// Only fail is a finding.
    FailOnly,
    /// fail, partial, todo and not_verified are findings.
    NeedsAttention,
}

impl Policy {
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::FailOrPartial => "fail-or-partial",
            Policy::FailOnly => "fail-only",
            Policy::NeedsAttention => "needs-attention",
        }
    }

    /// The statuses this policy reports as findings.
    pub fn statuses(self) -> &'static [Status] {
        match self {
            Policy::FailOrPartial => &[Status::Fail, Status::Partial],
            Policy::FailOnly => &[Status::Fail],
            Policy::NeedsAttention => &[
                Status::Fail,
                Status::Partial,
                Status::Todo,
                Status::NeedsTriage,
                Status::NotVerified,
            ],
        }
    }

    pub fn counts(self, s: Status) -> bool {
        self.statuses().contains(&s)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    ProductionReady,
    NotProductionReady,
    Incomplete,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::ProductionReady => "production-ready",
            Verdict::NotProductionReady => "not-production-ready",
            Verdict::Incomplete => "incomplete",
        }
    }
}

/// One check in the audit.
#[derive(Clone, Debug)]
pub struct Row<'c> {
    pub check: &'c Check,
    pub gate: Gate,
    pub reason: String,
    /// `None`: the check does not apply and nothing was recorded, or its applicability is
    /// unknown and nothing was recorded.
    pub status: Option<Status>,
    pub recorded: Option<Recorded>,
    /// Why a recorded result was rejected.
    pub rejected: Option<String>,
    /// The active waiver accepting this row's fail or partial.
    pub waiver: Option<Waiver>,
}

impl Row<'_> {
    pub fn applies(&self) -> bool {
        self.gate == Gate::Applies
    }
}

#[derive(Clone, Debug)]
pub struct Audit<'c> {
    pub policy: Policy,
    /// No results file: every applicable check is `todo` (the audit plan).
    pub planned: bool,
    /// Every check of the catalogue, by id.
    pub rows: Vec<Row<'c>>,
    pub verdict: Verdict,
    /// Enforced checks of a blocking severity with status fail.
    pub blocking: Vec<String>,
    /// Enforced applicable checks whose status the policy counts; severity, then id.
    pub findings: Vec<String>,
    /// Advisory applicable checks whose status the policy counts; severity, then id.
    pub advisory: Vec<String>,
    /// Advisory checks that would have blocked if they were enforced.
    pub would_have_blocked: Vec<String>,
    /// Applicable fail or partial results accepted by an active waiver; severity, then id.
    /// They are neither findings nor blocking.
    pub accepted: Vec<String>,
    /// Every waiver read, with its state.
    pub waivers: Waivers,
    pub not_verified: Vec<String>,
    pub todo: Vec<String>,
    pub missing: Vec<String>,
    pub rejected: Vec<String>,
    pub undecided: Vec<String>,
    /// Why the audit is incomplete (empty when complete).
    pub incomplete: Vec<String>,
    /// Findings about the profile and the results file.
    pub problems: Vec<Diagnostic>,
}

impl<'c> Audit<'c> {
    /// The row of check `id`; rows follow the applicability entries, sorted by id.
    pub fn row(&self, id: &str) -> Option<&Row<'c>> {
        let i = self.rows.partition_point(|r| r.check.id.as_str() < id);
        self.rows.get(i).filter(|r| r.check.id == id)
    }

    pub fn applicable(&self) -> impl Iterator<Item = &Row<'c>> {
        self.rows.iter().filter(|r| r.applies())
    }

    /// Applicable checks with this status.
    #[cfg(any(test, feature = "internals"))]
    pub fn count(&self, s: Status) -> usize {
        self.applicable().filter(|r| r.status == Some(s)).count()
    }
}

/// Decide the audit. `results` is `None` for the plan (every applicable check `todo`).
pub fn assess<'c>(
    cat: &'c Catalogue,
    app: &Applicability,
    results: Option<&Results>,
    waivers: Waivers,
    problems: Vec<Diagnostic>,
    policy: Policy,
) -> Audit<'c> {
    let rows = rows(cat, app, results, &waivers);
    let rank = |id: &String| {
        let sev = cat.check(id).map(|c| c.severity.as_str()).unwrap_or("");
        (cat.config.severity_rank(sev), id.clone())
    };
    let blocking_sev = cat.config.blocking_severities();
    let ids = |f: &dyn Fn(&Row) -> bool| -> Vec<String> {
        let mut v: Vec<String> = rows
            .iter()
            .filter(|r| f(r))
            .map(|r| r.check.id.to_string())
            .collect();
        v.sort_by_key(|id| rank(id));
        v
    };
    let is = |r: &Row, s: Status| r.applies() && r.status == Some(s);
    let blocks = |r: &Row| {
        is(r, Status::Fail)
            && r.waiver.is_none()
            && blocking_sev.iter().any(|s| *s == r.check.severity)
    };
    let counted =
        |r: &Row| r.applies() && r.waiver.is_none() && r.status.is_some_and(|s| policy.counts(s));
    let accepted = ids(&|r| r.applies() && r.waiver.is_some());
    let blocking = ids(&|r| blocks(r) && r.check.adoption == Adoption::Enforced);
    let findings = ids(&|r| counted(r) && r.check.adoption == Adoption::Enforced);
    let advisory = ids(&|r| counted(r) && r.check.adoption == Adoption::Advisory);
    let would_have_blocked = ids(&|r| blocks(r) && r.check.adoption == Adoption::Advisory);
    let not_verified = ids(&|r| is(r, Status::NotVerified));
    // Waiting for a person's triage is waiting all the same: the audit is not done.
    let todo = ids(&|r| is(r, Status::Todo) || is(r, Status::NeedsTriage));
    let missing = ids(&|r| is(r, Status::Missing));
    let rejected = ids(&|r| r.status == Some(Status::Rejected));
    let undecided = ids(&|r| r.gate == Gate::Error);

    let mut incomplete = incomplete(
        results.is_some(),
        [&todo[..], &missing, &rejected, &undecided],
        &problems,
    );
    incomplete.extend(
        results
            .into_iter()
            .flat_map(|r| r.ungathered.iter().cloned()),
    );
    let verdict = if !blocking.is_empty() {
        Verdict::NotProductionReady
    } else if !incomplete.is_empty() {
        Verdict::Incomplete
    } else {
        Verdict::ProductionReady
    };
    Audit {
        policy,
        planned: results.is_none(),
        rows,
        verdict,
        blocking,
        findings,
        advisory,
        would_have_blocked,
        accepted,
        waivers,
        not_verified,
        todo,
        missing,
        rejected,
        undecided,
        incomplete,
        problems,
    }
}

/// One row per check of the applicability: its gate, its result or why none counts, and an
/// active waiver.
fn rows<'c>(
    cat: &'c Catalogue,
    app: &Applicability,
    results: Option<&Results>,
    waivers: &Waivers,
) -> Vec<Row<'c>> {
    let mut rows = Vec::new();
    for e in &app.entries {
        let Some(check) = cat.check(&e.id) else {
            continue;
        };
        let recorded = results.and_then(|r| r.recorded.get(&e.id)).cloned();
        let rejected = results
            .and_then(|r| r.rejected.get(&e.id))
            .map(|r| r.reason.clone());
        let status = match (e.status, &recorded, &rejected, results) {
            (_, Some(r), _, _) => Some(r.status),
            (_, None, Some(_), _) => Some(Status::Rejected),
            (Gate::Applies, None, None, None) => Some(Status::Todo),
            (Gate::Applies, None, None, Some(_)) => Some(Status::Missing),
            _ => None,
        };
        let waiver = waivers.active(&e.id).cloned();
        rows.push(Row {
            check,
            gate: e.status,
            reason: e.reason.clone(),
            status,
            recorded,
            rejected,
            waiver,
        });
    }
    rows
}

/// Why a verdict cannot be given yet: no results, checks still todo, missing, rejected or
/// undecided, and input files with errors.
fn incomplete(
    has_results: bool,
    [todo, missing, rejected, undecided]: [&[String]; 4],
    problems: &[Diagnostic],
) -> Vec<String> {
    let mut incomplete = Vec::new();
    if !has_results {
        incomplete.push(
            "no results file: this is the audit plan, nothing has been observed yet".to_string(),
        );
    } else if !todo.is_empty() {
        incomplete.push(format!("{} applicable check(s) are still todo", todo.len()));
    }
    if !missing.is_empty() {
        incomplete.push(format!(
            "{} applicable check(s) have no result",
            missing.len()
        ));
    }
    if !rejected.is_empty() {
        incomplete.push(format!("{} result(s) were rejected", rejected.len()));
    }
    if !undecided.is_empty() {
        incomplete.push(format!(
            "{} check(s) could not be decided for this profile (applicability error)",
            undecided.len()
        ));
    }
    let mut by_file: BTreeMap<String, usize> = BTreeMap::new();
    for d in problems.iter().filter(|d| d.level == Level::Error) {
        *by_file
            .entry(d.file.clone().unwrap_or_default())
            .or_default() += 1;
    }
    for (f, n) in by_file {
        incomplete.push(format!("`{f}` has {n} error(s)"));
    }
    incomplete
}
