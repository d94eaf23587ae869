//! Waivers: accepted risks with an owner and an end date. A waiver names a check, why its fail
//! or partial is accepted, who approved it, when, and until when. It lives under `waivers:` in
//! the results file, or in a file of its own (`audit --waivers FILE`, or `waivers:` on a
//! portfolio server).
//!
//! A waiver is *active* on an applicable check whose result is fail or partial while the audit
//! date (`--as-of`, default today) is on or before `until`: the finding is then an accepted
//! risk, never a blocking failure. An *expired* waiver is ignored and reported; one on a check
//! that does not apply or passes is *stale* and reported, so the list of accepted risks never
//! outlives the risks themselves. A waiver on a check without a decided result yet is *pending*.

use super::applicability::{Applicability, Status as Gate};
use super::did_you_mean;
use super::results::{Results, Status};
use crate::diag::{codes, Diagnostic};
use crate::load::data_file::DataFile;
use crate::model::date::is_calendar_date;
use crate::model::Catalogue;
use serde::Serialize;
use serde_json::Value as Json;

/// Keys one waiver holds.
pub const WAIVER_KEYS: &[&str] = &["check", "reason", "approved_by", "date", "until"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Accepts a fail or partial result.
    Active,
    /// `until` lies before the audit date: ignored.
    Expired,
    /// The check does not apply, passes or is marked n/a: nothing to accept.
    Stale,
    /// The check applies but has no decided result yet.
    Pending,
}

#[derive(Clone, Debug, Serialize)]
pub struct Waiver {
    pub check: String,
    pub reason: String,
    pub approved_by: String,
    pub date: String,
    pub until: String,
    /// Where it was written.
    pub file: String,
    pub line: usize,
}

/// The waivers of one audit, each with its state.
#[derive(Clone, Debug, Default)]
pub struct Waivers {
    /// The date waivers are judged against (`YYYY-MM-DD`).
    pub as_of: String,
    /// Sorted by check id.
    pub entries: Vec<(Waiver, State)>,
}

impl Waivers {
    /// The active waiver of check `id`.
    pub fn active(&self, id: &str) -> Option<&Waiver> {
        self.entries
            .iter()
            .find(|(w, s)| *s == State::Active && w.check == id)
            .map(|(w, _)| w)
    }
}

pub use crate::model::date::today;

/// Read the `waivers:` list of `file` (a results file or a waivers file). Entries that cannot
/// be used are reported and left out.
pub fn read(cat: &Catalogue, file: &DataFile, diags: &mut Vec<Diagnostic>) -> Vec<Waiver> {
    let items = match file.value.get("waivers") {
        None | Some(Json::Null) => return Vec::new(),
        Some(Json::Array(items)) => items,
        Some(_) => {
            diags.push(file.at(
                &codes::WAIVER_INVALID,
                "waivers",
                "`waivers` must be a list of waivers (check, reason, approved_by, date, until)",
            ));
            return Vec::new();
        }
    };
    let mut out: Vec<Waiver> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("waivers[{i}]");
        let Json::Object(m) = item else {
            diags.push(file.at(
                &codes::WAIVER_INVALID,
                &path,
                format!(
                    "waiver {} must be a mapping (check, reason, approved_by, date, until)",
                    i + 1
                ),
            ));
            continue;
        };
        for (k, help) in super::unknown_keys(m, WAIVER_KEYS, codes::WAIVER_INVALID.help) {
            diags.push(
                file.at(
                    &codes::WAIVER_INVALID,
                    &format!("{path}.{k}"),
                    format!("unknown key `{k}` in waiver {}", i + 1),
                )
                .help(help),
            );
        }
        let text = |k: &str| -> Option<String> {
            match m.get(k) {
                Some(Json::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
                Some(Json::Number(n)) => Some(n.to_string()),
                _ => None,
            }
        };
        let mut broken = false;
        let mut field = |k: &str, diags: &mut Vec<Diagnostic>| -> String {
            match text(k) {
                Some(v) => v,
                None => {
                    broken = true;
                    diags.push(file.at(
                        &codes::WAIVER_INVALID,
                        if m.contains_key(k) { format!("{path}.{k}") } else { path.clone() }
                            .as_str(),
                        format!("waiver {} has no `{k}`: a waiver names check, reason, approved_by, date and until", i + 1),
                    ));
                    String::new()
                }
            }
        };
        let check = field("check", diags);
        let reason = field("reason", diags);
        let approved_by = field("approved_by", diags);
        let date = field("date", diags);
        let until = field("until", diags);
        for (k, v) in [("date", &date), ("until", &until)] {
            if !v.is_empty() && !is_calendar_date(v) {
                broken = true;
                diags.push(file.at(
                    &codes::WAIVER_INVALID,
                    &format!("{path}.{k}"),
                    format!(
                        "`{k}` of waiver {} is `{v}`, not a day written YYYY-MM-DD",
                        i + 1
                    ),
                ));
            }
        }
        if !broken && until < date {
            broken = true;
            diags.push(file.at(
                &codes::WAIVER_INVALID,
                &format!("{path}.until"),
                format!(
                    "waiver {} for {check} ends ({until}) before it was approved ({date})",
                    i + 1
                ),
            ));
        }
        if !check.is_empty() && cat.check(&check).is_none() {
            broken = true;
            let ids = cat.checks.iter().map(|c| c.id.as_str());
            diags.push(
                file.at(
                    &codes::WAIVER_INVALID,
                    &format!("{path}.check"),
                    format!(
                        "waiver {} names {check}, which is not a check of this catalogue",
                        i + 1
                    ),
                )
                .id(check.clone())
                .help(did_you_mean(&check, ids, codes::WAIVER_INVALID.help)),
            );
        }
        if !broken && out.iter().any(|w| w.check == check) {
            broken = true;
            diags.push(
                file.at(
                    &codes::WAIVER_INVALID,
                    &format!("{path}.check"),
                    format!("{check} has a second waiver; one check has one waiver"),
                )
                .id(check.clone()),
            );
        }
        if broken {
            continue;
        }
        out.push(Waiver {
            line: file.line(&path),
            file: file.shown.clone(),
            check,
            reason,
            approved_by,
            date,
            until,
        });
    }
    out
}

/// Judge each waiver against the applicability, the results and the audit date; report
/// expired and stale ones.
pub fn judge(
    waivers: Vec<Waiver>,
    app: &Applicability,
    results: Option<&Results>,
    as_of: &str,
    diags: &mut Vec<Diagnostic>,
) -> Waivers {
    let mut entries = Vec::new();
    for w in waivers {
        let applies = app
            .entries
            .iter()
            .any(|e| e.id == w.check && e.status == Gate::Applies);
        let status = results
            .and_then(|r| r.recorded.get(&w.check))
            .map(|r| r.status);
        let at = |code: &'static crate::diag::codes::Code, msg: String| {
            Diagnostic::new(code, msg)
                .id(w.check.clone())
                .file(w.file.clone())
                .line(w.line)
                .help(code.help)
        };
        let state = if w.until.as_str() < as_of {
            diags.push(at(
                &codes::WAIVER_EXPIRED,
                format!(
                    "the waiver for {} (approved by {}) expired on {}; it is ignored",
                    w.check, w.approved_by, w.until
                ),
            ));
            State::Expired
        } else if !applies {
            diags.push(at(
                &codes::WAIVER_STALE,
                format!(
                    "the waiver for {} is stale: the check does not apply to this profile",
                    w.check
                ),
            ));
            State::Stale
        } else {
            match status {
                Some(Status::Fail | Status::Partial) => State::Active,
                Some(s @ (Status::Pass | Status::NotApplicable)) => {
                    diags.push(at(
                        &codes::WAIVER_STALE,
                        format!(
                            "the waiver for {} is stale: its result is {}, there is no risk to accept",
                            w.check,
                            s.as_str()
                        ),
                    ));
                    State::Stale
                }
                _ => State::Pending,
            }
        };
        entries.push((w, state));
    }
    entries.sort_by(|a, b| a.0.check.cmp(&b.0.check));
    Waivers {
        as_of: as_of.to_string(),
        entries,
    }
}

#[cfg(test)]
mod tests {
    use crate::model::date::civil_date;

    #[test]
    fn days_become_calendar_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(19_782), "2024-02-29");
        assert_eq!(civil_date(20_513), "2026-03-01");
    }
}
