//! Who gathered the evidence of each applicable check: a machine (probe, scan, package,
//! conformance — `evidence::merge::is_machine`), a person, or nobody yet; what a machine found
//! where a person's result was kept; which results were reopened. The report's "Evidence"
//! section, present when any result came from a machine.

use super::results::Status;
use super::verdict::Row;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct EvidenceLine {
    pub id: String,
    pub title: String,
    pub link: String,
    pub status: &'static str,
    /// `machine`, `person` or `nobody`.
    pub by: &'static str,
    /// The result's `source` as written (`scan+package`, `probe`, …; `None` for a person).
    pub source: Option<String>,
    /// What a machine found where a person's result was kept: `fail (scan)`.
    pub machine: Option<String>,
    /// Why the result is open again, when it was reopened.
    pub reopened: Option<String>,
    /// Whether the check still waits for a person (its status decides nothing yet).
    pub waits: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct EvidenceSummary {
    pub applicable: usize,
    /// Checks a machine decided (pass, fail or partial from a machine source).
    pub machine: usize,
    /// Checks a person decided.
    pub person: usize,
    /// Checks that still wait for a person.
    pub waiting: usize,
    pub lines: Vec<EvidenceLine>,
}

fn decided(s: Option<Status>) -> bool {
    matches!(
        s,
        Some(Status::Pass | Status::Fail | Status::Partial | Status::NotApplicable)
    )
}

/// The summary over the applicable rows, `None` when no result came from a machine.
pub fn summarise(applicable: &[&Row], link: &dyn Fn(&Row) -> String) -> Option<EvidenceSummary> {
    let machine_source = |r: &Row| {
        r.recorded
            .as_ref()
            .is_some_and(|x| crate::evidence::merge::is_machine(x.source.as_deref()))
    };
    if !applicable
        .iter()
        .any(|r| machine_source(r) || r.recorded.as_ref().is_some_and(|x| x.machine.is_some()))
    {
        return None;
    }
    let mut out = EvidenceSummary {
        applicable: applicable.len(),
        machine: 0,
        person: 0,
        waiting: 0,
        lines: Vec::new(),
    };
    for r in applicable {
        let by = match (&r.recorded, machine_source(r)) {
            (None, _) => "nobody",
            (Some(_), true) => "machine",
            (Some(_), false) => "person",
        };
        let waits = !decided(r.status);
        match (by, waits) {
            (_, true) => out.waiting += 1,
            ("machine", false) => out.machine += 1,
            _ => out.person += 1,
        }
        let rec = r.recorded.as_ref();
        out.lines.push(EvidenceLine {
            id: r.check.id.to_string(),
            title: r.check.title.clone(),
            link: link(r),
            status: r.status.map(Status::as_str).unwrap_or(""),
            by,
            source: rec
                .and_then(|x| x.source.clone())
                .filter(|_| by == "machine"),
            machine: rec.and_then(|x| x.machine.as_ref()).map(|m| {
                if m.source.is_empty() {
                    m.status.clone()
                } else {
                    format!("{} ({})", m.status, m.source)
                }
            }),
            reopened: rec
                .and_then(|x| x.reopened.as_ref())
                .map(|o| format!("was {}: {}", o.was.as_str(), o.why)),
            waits,
        });
    }
    Some(out)
}
