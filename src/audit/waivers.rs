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
        let at = Item {
            file,
            path: format!("waivers[{i}]"),
            n: i + 1,
        };
        if let Some(w) = waiver(cat, &at, item, &out, diags) {
            out.push(w);
        }
    }
    out
}

/// One item of `waivers:`: the file, its path (`waivers[0]`) and its number as a reader
/// counts (1).
struct Item<'a> {
    file: &'a DataFile,
    path: String,
    n: usize,
}

impl Item<'_> {
    /// A finding at one of the item's keys.
    fn at_key(&self, key: &str, message: String) -> Diagnostic {
        let path = format!("{}.{key}", self.path);
        self.file.at(&codes::WAIVER_INVALID, &path, message)
    }
}

/// One waiver, or `None` when it cannot be used (each reason reported); `taken` are the
/// waivers read before it.
fn waiver(
    cat: &Catalogue,
    at: &Item,
    item: &Json,
    taken: &[Waiver],
    diags: &mut Vec<Diagnostic>,
) -> Option<Waiver> {
    let (file, path, n) = (at.file, &at.path, at.n);
    let Json::Object(m) = item else {
        diags.push(file.at(
            &codes::WAIVER_INVALID,
            path,
            format!("waiver {n} must be a mapping (check, reason, approved_by, date, until)"),
        ));
        return None;
    };
    for (k, help) in crate::text::suggest::unknown_keys(m.keys().map(String::as_str), WAIVER_KEYS) {
        let message = format!("unknown key `{k}` in waiver {n}");
        diags.push(at.at_key(k, message).help_if(help));
    }
    let mut broken = false;
    let [check, reason, approved_by, date, until] =
        ["check", "reason", "approved_by", "date", "until"]
            .map(|k| required_text(at, m, k, &mut broken, diags));
    dates(at, &check, &date, &until, &mut broken, diags);
    named_check(cat, at, &check, taken, &mut broken, diags);
    if broken {
        return None;
    }
    Some(Waiver {
        line: file.line(path),
        file: file.shown.clone(),
        check,
        reason,
        approved_by,
        date,
        until,
    })
}

/// A key every waiver has, as text; an absent or empty one breaks the waiver.
fn required_text(
    at: &Item,
    m: &serde_json::Map<String, Json>,
    k: &str,
    broken: &mut bool,
    diags: &mut Vec<Diagnostic>,
) -> String {
    match m.get(k) {
        Some(Json::String(s)) if !s.trim().is_empty() => return s.trim().to_string(),
        Some(Json::Number(n)) => return n.to_string(),
        _ => {}
    }
    *broken = true;
    let path = if m.contains_key(k) {
        format!("{}.{k}", at.path)
    } else {
        at.path.clone()
    };
    diags.push(at.file.at(
        &codes::WAIVER_INVALID,
        &path,
        format!(
            "waiver {} has no `{k}`: a waiver names check, reason, approved_by, date and until",
            at.n
        ),
    ));
    String::new()
}

/// `date` and `until` are days (YYYY-MM-DD), and a waiver does not end before it was approved.
fn dates(
    at: &Item,
    check: &str,
    date: &str,
    until: &str,
    broken: &mut bool,
    diags: &mut Vec<Diagnostic>,
) {
    let n = at.n;
    for (k, v) in [("date", date), ("until", until)] {
        if !v.is_empty() && !is_calendar_date(v) {
            *broken = true;
            let message = format!("`{k}` of waiver {n} is `{v}`, not a day written YYYY-MM-DD");
            diags.push(at.at_key(k, message));
        }
    }
    if !*broken && until < date {
        *broken = true;
        let message =
            format!("waiver {n} for {check} ends ({until}) before it was approved ({date})");
        diags.push(at.at_key("until", message));
    }
}

/// The waiver names a check of the catalogue, and no waiver before it names the same check.
fn named_check(
    cat: &Catalogue,
    at: &Item,
    check: &str,
    taken: &[Waiver],
    broken: &mut bool,
    diags: &mut Vec<Diagnostic>,
) {
    if !check.is_empty() && cat.check(check).is_none() {
        *broken = true;
        let ids = cat.checks.iter().map(|c| c.id.as_str());
        let message = format!(
            "waiver {} names {check}, which is not a check of this catalogue",
            at.n
        );
        diags.push(
            at.at_key("check", message)
                .id(check.to_string())
                .help_if(crate::text::suggest::did_you_mean(check, ids)),
        );
    }
    if !*broken && taken.iter().any(|w| w.check == check) {
        *broken = true;
        let message = format!("{check} has a second waiver; one check has one waiver");
        diags.push(at.at_key("check", message).id(check.to_string()));
    }
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
    Waivers { entries }
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
