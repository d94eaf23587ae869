//! A results file (catalogue format, section 5): what an auditor observed, validated against
//! the catalogue and the profile's applicability. A result that owes more evidence than it
//! carries is rejected, not counted; severity, category and adoption are the catalogue's.

use super::applicability::{Applicability, Status as Gate};
use super::profile::is_placeholder;
use crate::diag::{codes, Diagnostic};

/// The value of a result's `source` when a probe recorded it (reports count probed results
/// apart from those an auditor wrote).
pub const PROBE_SOURCE: &str = "probe";
use crate::load::data_file::DataFile;
use crate::model::{Catalogue, Check};
use crate::text::suggest::{did_you_mean, unknown_keys};
use serde::Serialize;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// The state of one check in an audit: the six recordable statuses, and two the engine assigns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Status {
    #[serde(rename = "pass")]
    Pass,
    #[serde(rename = "fail")]
    Fail,
    #[serde(rename = "partial")]
    Partial,
    #[serde(rename = "not_verified")]
    NotVerified,
    #[serde(rename = "todo")]
    Todo,
    /// A machine signal waits for a person's triage (`auditbook triage`).
    #[serde(rename = "needs_triage")]
    NeedsTriage,
    #[serde(rename = "n/a")]
    NotApplicable,
    /// Applicable, but no result was recorded.
    #[serde(rename = "missing")]
    Missing,
    /// A result was recorded but failed validation (evidence short, bad status).
    #[serde(rename = "rejected")]
    Rejected,
}

impl Status {
    pub const RECORDABLE: [Status; 7] = [
        Status::Pass,
        Status::Fail,
        Status::Partial,
        Status::NotVerified,
        Status::Todo,
        Status::NeedsTriage,
        Status::NotApplicable,
    ];
    pub const ALL: [Status; 9] = [
        Status::Pass,
        Status::Fail,
        Status::Partial,
        Status::NotVerified,
        Status::Todo,
        Status::NeedsTriage,
        Status::NotApplicable,
        Status::Missing,
        Status::Rejected,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Partial => "partial",
            Status::NotVerified => "not_verified",
            Status::Todo => "todo",
            Status::NeedsTriage => "needs_triage",
            Status::NotApplicable => "n/a",
            Status::Missing => "missing",
            Status::Rejected => "rejected",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::RECORDABLE.into_iter().find(|x| x.as_str() == s)
    }
}

/// Efforts in remediation order (smallest first).
pub const EFFORTS: [&str; 5] = ["XS", "S", "M", "L", "XL"];

/// Keys a result may hold.
pub const RESULT_KEYS: &[&str] = &[
    "status",
    "evidence",
    "gaps",
    "effort",
    "note",
    "notes",
    "severity",
    "category",
    "adoption",
    "title",
    "source",
    "fingerprint",
    "cites",
    "digest",
    "machine",
];
pub const TOP_KEYS: &[&str] = &[
    "audit_meta",
    "probe",
    "scan",
    "package",
    "conformance",
    "results",
    "triage",
    "waivers",
];

/// Ids named in full in the one missing-result finding; the rest are counted.
const MISSING_NAMED: usize = 12;

#[derive(Clone, Debug, Serialize)]
pub struct Recorded {
    pub id: String,
    pub status: Status,
    pub evidence: Vec<String>,
    pub gaps: Vec<String>,
    pub effort: Option<String>,
    pub note: Option<String>,
    /// Who recorded it: `probe` when `auditbook probe` did, else a person.
    pub source: Option<String>,
    /// The server definitions' digest the result was recorded against, when stated.
    pub fingerprint: Option<String>,
    /// The artifact's or source tree's digest the result was taken from (a machine's) or
    /// recorded against (a person's), when stated.
    pub digest: Option<String>,
    /// What a machine found for a check whose result a person recorded (`machine:`).
    pub machine: Option<MachineSaw>,
    /// Why a recorded result is open again (its evidence changed since), when it is; its status
    /// is then `todo`, and `was` holds what it recorded.
    pub reopened: Option<Reopened>,
    pub line: usize,
}

/// A machine's result kept beside a person's.
#[derive(Clone, Debug, Serialize)]
pub struct MachineSaw {
    pub status: String,
    pub source: String,
    pub evidence: Vec<String>,
}

/// A result reopened because what it judged has changed.
#[derive(Clone, Debug, Serialize)]
pub struct Reopened {
    pub was: Status,
    pub why: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Rejected {
    pub id: String,
    /// The status as written, when there was one.
    pub written: Option<String>,
    pub reason: String,
}

#[derive(Clone, Debug, Default)]
pub struct Results {
    pub shown: String,
    pub digest: String,
    /// `audit_meta`, as written (scalars as text).
    pub meta: Vec<(String, String)>,
    /// Valid results on catalogue checks, by id.
    pub recorded: BTreeMap<String, Recorded>,
    /// Results on catalogue checks that were rejected, by id.
    pub rejected: BTreeMap<String, Rejected>,
    /// Applicable checks with no result at all.
    pub missing: Vec<String>,
    /// The definitions digest of the latest probe (`probe.definitions`), when there was one.
    pub latest_probe: Option<String>,
    /// Results recorded against other definitions than the latest probe's, by id.
    pub stale: Vec<String>,
    /// Evidence a machine source could not gather (the probe did not reach the server): an
    /// audit over these results cannot be complete.
    pub ungathered: Vec<String>,
}

impl Results {
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn scalar(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => String::new(),
        other => other.to_string(),
    }
}

/// Validate a parsed results file against the catalogue and the applicability of its checks.
pub fn validate(
    cat: &Catalogue,
    app: &Applicability,
    file: &DataFile,
) -> (Results, Vec<Diagnostic>) {
    let mut out = Results {
        shown: file.shown.clone(),
        digest: file.digest.clone(),
        ..Results::default()
    };
    let mut diags = file.notes.clone();
    let Json::Object(top) = &file.value else {
        diags.push(file.at(
            &codes::RESULTS_INVALID,
            "",
            "a results file is a mapping with `results` (and optionally `audit_meta`)".to_string(),
        ));
        out.missing = app
            .entries
            .iter()
            .filter(|e| e.status == Gate::Applies)
            .map(|e| e.id.clone())
            .collect();
        return (out, diags);
    };
    for (k, help) in unknown_keys(top.keys().map(String::as_str), TOP_KEYS) {
        diags.push(
            file.at(
                &codes::RESULTS_UNKNOWN_KEY,
                k,
                format!("unknown key `{k}` in the results file"),
            )
            .help_if(help),
        );
    }
    audit_meta(cat, file, top, &mut out, &mut diags);
    let empty = serde_json::Map::new();
    let entries = entries_of(file, top, &mut diags).unwrap_or(&empty);
    for (id, entry) in entries {
        entry_result(cat, app, file, id, entry, &mut out, &mut diags);
    }
    stale_results(file, top, &mut out, &mut diags);
    contradictions(file, &out, &mut diags);
    ungathered(top, &mut out);
    for e in &app.entries {
        let seen = out.recorded.contains_key(&e.id) || out.rejected.contains_key(&e.id);
        if e.status == Gate::Applies && !seen {
            out.missing.push(e.id.clone());
        }
    }
    if let Some(d) = missing_finding(file, &out.missing) {
        diags.push(d);
    }
    crate::diag::normalise(&mut diags);
    (out, diags)
}

/// `audit_meta`: a mapping of scalars; a catalogue version other than the loaded one is
/// reported.
fn audit_meta(
    cat: &Catalogue,
    file: &DataFile,
    top: &serde_json::Map<String, Json>,
    out: &mut Results,
    diags: &mut Vec<Diagnostic>,
) {
    match top.get("audit_meta") {
        None => {}
        Some(Json::Object(m)) => {
            out.meta = m.iter().map(|(k, v)| (k.clone(), scalar(v))).collect();
        }
        Some(_) => diags.push(file.at(
            &codes::RESULTS_INVALID,
            "audit_meta",
            "`audit_meta` must be a mapping (server_name, audit_date, auditor, …)",
        )),
    }
    if let (Some(recorded), Some(loaded)) =
        (out.meta("catalogue_version"), cat.config.version.as_deref())
    {
        if recorded != loaded {
            diags.push(file.at(
                &codes::RESULTS_CATALOGUE_VERSION,
                "audit_meta.catalogue_version",
                format!(
                    "results were recorded against catalogue version {recorded}; the loaded catalogue is version {loaded}"
                ),
            ));
        }
    }
}

/// The `results` mapping from check id to result; `None` (reported) when it is absent or not a
/// mapping, and for an empty `results:`.
fn entries_of<'f>(
    file: &DataFile,
    top: &'f serde_json::Map<String, Json>,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'f serde_json::Map<String, Json>> {
    match top.get("results") {
        Some(Json::Object(m)) => Some(m),
        Some(Json::Null) => None,
        Some(other) => {
            diags.push(file.at(
                &codes::RESULTS_INVALID,
                "results",
                format!(
                    "`results` must be a mapping from check id to result; found {}",
                    if other.is_array() {
                        "a list"
                    } else {
                        "a single value"
                    }
                ),
            ));
            None
        }
        None => {
            diags.push(file.at(
                &codes::RESULTS_INVALID,
                "",
                "the results file has no `results` mapping".to_string(),
            ));
            None
        }
    }
}

/// A machine source's block that says it could not look: the probe did not reach the server
/// (or reached something that is not MCP). The results it wrote are `not_verified`, which
/// alone would let a gate pass with the server down; this makes the audit incomplete.
fn ungathered(top: &serde_json::Map<String, Json>, out: &mut Results) {
    for key in ["probe", "scan", "package", "conformance"] {
        let Some(block) = top.get(key) else { continue };
        if block.get("reached") == Some(&Json::Bool(false)) {
            let target = block.get("target").map(scalar).unwrap_or_default();
            let why = block.get("reach").map(scalar).unwrap_or_default();
            out.ungathered.push(crate::evidence::untrusted::quote(
                &format!("the {key} of {target} could not gather evidence: {why}"),
                400,
            ));
        }
    }
}

/// Results recorded against other server definitions than the latest probe saw, or against
/// another artifact or source tree than the latest package or scan read: what they judged has
/// changed, so each is reopened (`todo`, what it recorded kept beside) and listed by id with
/// both digests — the re-audit queue.
fn stale_results(
    file: &DataFile,
    top: &serde_json::Map<String, Json>,
    out: &mut Results,
    diags: &mut Vec<Diagnostic>,
) {
    out.latest_probe = top
        .get("probe")
        .and_then(|p| p.get("definitions"))
        .and_then(Json::as_str)
        .map(String::from);
    let latest_digests: Vec<String> = ["package", "scan"]
        .iter()
        .filter_map(|k| {
            top.get(*k)
                .and_then(|b| b.get("digest"))
                .and_then(Json::as_str)
        })
        .map(String::from)
        .collect();
    for r in out.recorded.values_mut() {
        let why = match (&out.latest_probe, r.fingerprint.as_deref()) {
            (Some(latest), Some(fp)) if fp != latest => Some((
                "fingerprint",
                format!("it was recorded against server definitions {fp}; the latest probe saw {latest}"),
            )),
            _ => None,
        };
        let why = why.or_else(|| match r.digest.as_deref() {
            Some(d) if !latest_digests.is_empty() && !latest_digests.iter().any(|l| l == d) => {
                Some((
                    "digest",
                    format!(
                        "it was recorded against {d}; the latest evidence is of {}",
                        latest_digests.join(" and ")
                    ),
                ))
            }
            _ => None,
        });
        let Some((key, why)) = why else {
            continue;
        };
        out.stale.push(r.id.clone());
        diags.push(
            file.at(
                &codes::RESULTS_STALE,
                &format!("results.{}.{key}", r.id),
                format!(
                    "{}: {why}; the result is reopened (todo) until it is looked at again",
                    r.id
                ),
            )
            .id(r.id.clone()),
        );
        r.reopened = Some(Reopened { was: r.status, why });
        r.status = Status::Todo;
    }
}

/// A person's `pass` where a machine proved `fail` (kept beside it under `machine:`): one of
/// the two is wrong, and the audit cannot be complete until a person settles it.
fn contradictions(file: &DataFile, out: &Results, diags: &mut Vec<Diagnostic>) {
    for r in out.recorded.values() {
        let Some(m) = r.machine.as_ref() else {
            continue;
        };
        if r.status != Status::Pass || m.status != "fail" {
            continue;
        }
        let first = m
            .evidence
            .first()
            .map(|e| format!(": {}", crate::evidence::untrusted::cut(e, 240)))
            .unwrap_or_default();
        diags.push(
            file.at(
                &codes::RESULTS_CONTRADICT_MACHINE,
                &format!("results.{}.status", r.id),
                format!(
                    "{}: a person recorded `pass`, but the {} proved `fail`{first}",
                    r.id,
                    if m.source.is_empty() {
                        "machine"
                    } else {
                        m.source.as_str()
                    }
                ),
            )
            .id(r.id.clone()),
        );
    }
}

/// One finding for every applicable check without a result: they share one cause (the file
/// does not record them), so a reader gets one line to act on instead of one per check.
fn missing_finding(file: &DataFile, missing: &[String]) -> Option<Diagnostic> {
    let first = missing.first()?;
    let message = if missing.len() == 1 {
        format!("{first} applies to this profile but has no result")
    } else {
        let named = missing
            .iter()
            .take(MISSING_NAMED)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        let rest = match missing.len().saturating_sub(MISSING_NAMED) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        format!(
            "{} applicable checks have no result: {named}{rest}",
            missing.len()
        )
    };
    let d = file.at(&codes::RESULT_MISSING, "results", message);
    Some(if missing.len() == 1 {
        d.id(first.clone())
    } else {
        d
    })
}

fn strings(
    file: &DataFile,
    path: &str,
    what: &str,
    v: Option<&Json>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    match v {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Array(items)) => {
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                match item {
                    Json::String(s) => out.push(s.clone()),
                    other => diags.push(file.at(
                        &codes::RESULTS_INVALID,
                        &format!("{path}[{i}]"),
                        format!(
                            "each {what} item is a line of text; item {} is {}",
                            i + 1,
                            short(other)
                        ),
                    )),
                }
            }
            out
        }
        Some(other) => {
            diags.push(file.at(
                &codes::RESULTS_INVALID,
                path,
                format!(
                    "`{what}` must be a list of text items; found {}",
                    short(other)
                ),
            ));
            match other {
                Json::String(s) => vec![s.clone()],
                _ => Vec::new(),
            }
        }
    }
}

fn short(v: &Json) -> String {
    match v {
        Json::Object(_) => "a mapping".into(),
        Json::Array(_) => "a list".into(),
        Json::String(s) => format!("the text `{s}`"),
        other => format!("`{other}`"),
    }
}

/// One entry of `results:` while it is read: where it is, and the findings about it.
struct Entry<'a> {
    file: &'a DataFile,
    id: &'a str,
    /// `results.ID`
    path: String,
    diags: &'a mut Vec<Diagnostic>,
}

impl Entry<'_> {
    /// Report a finding at a key of the entry (`""`: the entry itself).
    fn report(&mut self, code: &'static crate::diag::Code, key: &str, message: String) {
        self.diags.push(self.finding(code, key, message));
    }

    fn finding(&self, code: &'static crate::diag::Code, key: &str, message: String) -> Diagnostic {
        let path = match key {
            "" => self.path.clone(),
            k => format!("{}.{k}", self.path),
        };
        self.file.at(code, &path, message).id(self.id)
    }
}

/// Why a result is not taken: its status as written (when there is one) and the reason.
type Refusal = (Option<String>, String);

fn entry_result(
    cat: &Catalogue,
    app: &Applicability,
    file: &DataFile,
    id: &str,
    entry: &Json,
    out: &mut Results,
    diags: &mut Vec<Diagnostic>,
) {
    let mut e = Entry {
        file,
        id,
        path: format!("results.{id}"),
        diags,
    };
    let Some(check) = result_check(cat, &mut e) else {
        return;
    };
    match recorded(check, app, entry, &mut e) {
        Ok(r) => {
            out.recorded.insert(id.to_string(), r);
        }
        Err((written, reason)) => {
            let r = Rejected {
                id: id.to_string(),
                written,
                reason,
            };
            out.rejected.insert(id.to_string(), r);
        }
    }
}

/// The check an entry names. A retired id (with where its result belongs now) or an unknown
/// one is reported, and the entry is neither recorded nor rejected.
fn result_check<'c>(cat: &'c Catalogue, e: &mut Entry) -> Option<&'c Check> {
    let id = e.id;
    if let Some(r) = cat.config.retired.iter().find(|r| r.id == id) {
        let successor = r
            .merged_into
            .as_deref()
            .map(|s| format!("; it was merged into {s}: record the result there"))
            .or_else(|| {
                r.replaced_by
                    .as_deref()
                    .map(|s| format!("; it was replaced by {s}: record the result there"))
            })
            .unwrap_or_else(|| "; it has no successor".to_string());
        let message = format!("{id} was retired on {}{successor}", r.retired);
        e.report(&codes::RESULTS_RETIRED_ID, "", message);
        return None;
    }
    let check = cat.check(id);
    if check.is_none() {
        let ids: Vec<&str> = cat.checks.iter().map(|c| c.id.as_str()).collect();
        let help = did_you_mean(id, ids.iter().copied());
        let message = format!("{id} is not a check of this catalogue");
        let d = e
            .finding(&codes::RESULTS_UNKNOWN_ID, "", message)
            .help_if(help);
        e.diags.push(d);
    }
    check
}

/// An entry read into a result, each rule in turn; the first rule that refuses it rejects it.
fn recorded(
    check: &Check,
    app: &Applicability,
    entry: &Json,
    e: &mut Entry,
) -> Result<Recorded, Refusal> {
    let line = e.file.line(&e.path);
    let Json::Object(m) = entry else {
        let message = format!(
            "the result for {} must be a mapping with `status`; found {}",
            e.id,
            short(entry)
        );
        e.report(&codes::RESULTS_INVALID, "", message);
        return Err((None, "not a mapping".into()));
    };
    unknown_result_keys(m, e);
    catalogue_fields(check, m, e);
    let evidence = strings(
        e.file,
        &format!("{}.evidence", e.path),
        "evidence",
        m.get("evidence"),
        e.diags,
    );
    let gaps = strings(
        e.file,
        &format!("{}.gaps", e.path),
        "gaps",
        m.get("gaps"),
        e.diags,
    );
    let note = m.get("note").or_else(|| m.get("notes")).map(scalar);
    let effort = effort_of(m, e);
    let status = status_of(m, e)?;
    applies(app, status, e)?;
    enough_evidence(check, status, &evidence, e)?;
    Ok(Recorded {
        id: e.id.to_string(),
        status,
        evidence,
        gaps,
        effort,
        note,
        source: m.get("source").map(scalar),
        fingerprint: m.get("fingerprint").map(scalar),
        digest: m.get("digest").map(scalar).filter(|d| !d.is_empty()),
        machine: m.get("machine").and_then(machine_saw),
        reopened: None,
        line,
    })
}

fn machine_saw(v: &Json) -> Option<MachineSaw> {
    let status = v.get("status").and_then(Json::as_str)?.to_string();
    let source = v.get("source").map(scalar).unwrap_or_default();
    let evidence = v
        .get("evidence")
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Json::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    Some(MachineSaw {
        status,
        source,
        evidence,
    })
}

fn unknown_result_keys(m: &serde_json::Map<String, Json>, e: &mut Entry) {
    for (k, help) in unknown_keys(m.keys().map(String::as_str), RESULT_KEYS) {
        let message = format!("unknown key `{k}` in the result for {}", e.id);
        let d = e
            .finding(&codes::RESULTS_UNKNOWN_KEY, k, message)
            .help_if(help);
        e.diags.push(d);
    }
}

/// A result may repeat the check's severity, category or adoption; the catalogue's value is
/// used, and a different one is reported.
fn catalogue_fields(check: &Check, m: &serde_json::Map<String, Json>, e: &mut Entry) {
    for (key, catalogue_value) in [
        ("severity", check.severity.as_str()),
        ("category", check.category.as_str()),
        ("adoption", check.adoption.as_str()),
    ] {
        if let Some(v) = m.get(key) {
            let v = scalar(v);
            if v != catalogue_value {
                let message = format!(
                    "the result for {} says {key} `{v}`; the catalogue says `{catalogue_value}`, which is used",
                    e.id
                );
                e.report(&codes::RESULTS_CATALOGUE_FIELD, key, message);
            }
        }
    }
}

/// The effort to fix, one of `EFFORTS` (any case); another value is reported and dropped.
fn effort_of(m: &serde_json::Map<String, Json>, e: &mut Entry) -> Option<String> {
    let v = match m.get("effort") {
        None | Some(Json::Null) => return None,
        Some(v) => v,
    };
    let effort = scalar(v).trim().to_uppercase();
    if EFFORTS.contains(&effort.as_str()) {
        return Some(effort);
    }
    let message = format!(
        "the effort of {} is `{}`; expected one of {}",
        e.id,
        scalar(v),
        EFFORTS.join(", ")
    );
    e.report(&codes::RESULTS_EFFORT, "effort", message);
    None
}

/// The recorded status; none, or one that is not a status, rejects the entry.
fn status_of(m: &serde_json::Map<String, Json>, e: &mut Entry) -> Result<Status, Refusal> {
    let id = e.id;
    let Some(v) = m.get("status") else {
        let message = format!("the result for {id} has no `status`");
        e.report(&codes::RESULTS_INVALID, "", message);
        return Err((None, "no status".into()));
    };
    let written = scalar(v);
    if let Some(s) = Status::parse(&written).filter(|_| v.is_string()) {
        return Ok(s);
    }
    let names: Vec<&str> = Status::RECORDABLE.iter().map(|s| s.as_str()).collect();
    let help = did_you_mean(&written.replace('-', "_"), names.iter().copied())
        .or_else(|| did_you_mean(&written, names.iter().copied()));
    let message = format!(
        "the status of {id} is `{written}`; expected one of {}",
        names.join(", ")
    );
    let d = e
        .finding(&codes::RESULTS_BAD_STATUS, "status", message)
        .help_if(help);
    e.diags.push(d);
    let reason = format!("status `{written}` is not a status");
    Err((Some(written), reason))
}

/// A check that does not apply can only be n/a (anything else is rejected); a check that
/// applies may be marked n/a, which is reported and leaves it unscored.
fn applies(app: &Applicability, status: Status, e: &mut Entry) -> Result<(), Refusal> {
    let id = e.id;
    let gate = app.get(id).map(|x| x.status);
    if gate.is_some_and(|g| g != Gate::Applies && g != Gate::Error)
        && status != Status::NotApplicable
    {
        let why = app.get(id).map(|x| x.reason.as_str()).unwrap_or("");
        let message = format!(
            "{id} does not apply to this profile ({}: {why}), so its result must be n/a; found {}",
            gate.map(|g| g.as_str()).unwrap_or(""),
            status.as_str()
        );
        e.report(&codes::RESULTS_NOT_APPLICABLE, "status", message);
        return Err((
            Some(status.as_str().into()),
            "recorded on a check that does not apply".into(),
        ));
    }
    if gate == Some(Gate::Applies) && status == Status::NotApplicable {
        let message = format!(
            "{id} applies to this profile but is marked n/a; it stays unscored and unverified"
        );
        e.report(&codes::RESULTS_NA_APPLICABLE, "status", message);
    }
    Ok(())
}

/// A decided status owes the check's `evidence_required` items, `not_verified` one saying
/// what was attempted; placeholders do not count. Fewer rejects the result.
fn enough_evidence(
    check: &Check,
    status: Status,
    evidence: &[String],
    e: &mut Entry,
) -> Result<(), Refusal> {
    let owed = match status {
        Status::Pass | Status::Fail | Status::Partial => check.evidence_required as usize,
        Status::NotVerified => 1,
        _ => 0,
    };
    let counted = evidence.iter().filter(|x| !is_placeholder(x)).count();
    if counted >= owed {
        return Ok(());
    }
    let basis = if status == Status::NotVerified {
        "one item saying what was attempted".to_string()
    } else {
        format!("evidence_required: {}", check.evidence_required)
    };
    let message = format!(
        "{}: status {} owes {owed} evidence item(s) ({basis}); found {counted}; the result is rejected",
        e.id,
        status.as_str()
    );
    e.report(&codes::RESULTS_EVIDENCE_SHORT, "evidence", message);
    Err((
        Some(status.as_str().into()),
        format!(
            "{} with {counted} of {owed} evidence item(s) owed",
            status.as_str()
        ),
    ))
}
