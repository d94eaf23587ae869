//! The tools that write: a check's result and a triage decision, each into a results file
//! inside the server's folder (see `confine`), through `crate::write`. Each call carries an
//! idempotency key (`idempotency`): a retried call writes nothing twice. Each answer holds what
//! the write replaced (`replaced`, `null` when nothing was there), and recording that again
//! restores it: the write's compensating action.

use super::state::State;
use super::tool::{self, args, output, Def, Done, Hints, Refusal};
use crate::audit::results::Status;
use crate::evidence::merge;
use crate::evidence::scan::triage;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Writes one entry of a file in the server's folder; the same key twice writes once, and it
/// replaces what was recorded for that entry before (the answer returns it).
const WRITES_AN_ENTRY: Hints = Hints {
    read_only: false,
    destructive: true,
    idempotent: true,
    open_world: false,
};

pub fn defs() -> Vec<Def> {
    vec![
        Def {
            name: "record_result",
            title: "Record a check's result",
            description: "Record what a person observed for one check (status and evidence lines, gaps if any) in a results file inside the server's folder, replacing that check's earlier result in the file; the answer's `replaced` is that earlier result (null if none), and recording it again restores it. Other results in the file are kept. `idempotency_key` names this write: retrying with the same key and arguments writes nothing again and answers the same.",
            hints: WRITES_AN_ENTRY,
            input: tool::schema_of::<ResultArgs>,
            output: written_schema,
            run: record_result,
        },
        Def {
            name: "record_triage",
            title: "Record a triage decision",
            description: "Decide a scan signal of a check (the finding's fingerprint as the evidence shows it, `#` and twelve hex digits): real or a false positive, and why. Written to the `triage:` list of a results file inside the server's folder; the next scan applies it. The answer's `replaced` is the earlier decision on that finding (null if none). `idempotency_key` names this write: retrying with the same key and arguments writes nothing again and answers the same.",
            hints: WRITES_AN_ENTRY,
            input: tool::schema_of::<TriageArgs>,
            output: written_schema,
            run: record_triage,
        },
    ]
}

fn written_schema() -> Map<String, Value> {
    output(
        json!({
            "file": {"type": "string"},
            "check": {"type": "string"},
            "recorded": {"type": "object"},
            "replaced": {"type": ["object", "null"]},
            "replayed": {"type": "boolean"},
        }),
        &["file", "check", "recorded", "replaced", "replayed"],
    )
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ResultArgs {
    /// Names this write (e.g. a UUID); the same key again, with the same arguments, is a retry
    /// that writes nothing twice
    idempotency_key: String,
    /// The results file, relative to the server's folder (e.g. `results.yaml`)
    file: String,
    /// The check id, e.g. `SEC-001`
    check: String,
    /// pass, fail, partial, not_verified, todo, needs_triage or n/a
    status: String,
    /// What was observed, one line each (file:line, a command and its output)
    evidence: Vec<String>,
    /// What the server lacks, one line each (for fail and partial)
    gaps: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TriageArgs {
    /// Names this write (e.g. a UUID); the same key again, with the same arguments, is a retry
    /// that writes nothing twice
    idempotency_key: String,
    /// The results file, relative to the server's folder (e.g. `results.yaml`)
    file: String,
    /// The check whose signal is decided
    check: String,
    /// The finding's fingerprint: `#` and twelve hex digits
    finding: String,
    /// true: a real defect; false: a false positive
    real: bool,
    /// Why
    reason: String,
    /// The last day the decision holds, YYYY-MM-DD
    until: Option<String>,
}

/// The results file's value as read (`null` when it does not exist yet).
fn existing(path: &Path, shown: &str) -> Result<Value, Refusal> {
    if !path.exists() {
        return Ok(Value::Null);
    }
    crate::load::data_file::read(path, shown, &crate::diag::codes::RESULTS_INVALID)
        .map(|f| f.value)
        .map_err(|_| {
            Refusal::new(
                format!("`{shown}` exists but is not a results file; it is not overwritten"),
                "name a new file or a results file written by auditbook",
            )
        })
}

fn known_check(state: &State, id: &str) -> Result<(), Refusal> {
    match state.catalogue().check(id) {
        Some(_) => Ok(()),
        None => Err(super::tools_catalogue::unknown_check(state, id)),
    }
}

fn lines(v: &[String]) -> Vec<String> {
    v.iter()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn write(state: &State, path: &Path, shown: &str, value: &Value) -> Result<(), Refusal> {
    crate::write::file(path, &merge::to_yaml(value)).map_err(|e| {
        // The operating system's words can name the machine's folders: they go to the
        // server's log, the caller learns that the write failed.
        (state.log)(&format!("auditbook mcp: cannot write `{shown}`: {e}\n"));
        Refusal::new(
            format!("cannot write `{shown}`; the server's log has the cause"),
            "name a file the server may write in its folder",
        )
    })?;
    Ok(())
}

/// The call a key stands for: the tool and its arguments as parsed (every field, in the
/// struct's order, defaults filled in), the key left out.
fn call_of(tool: &str, args: &impl Serialize) -> String {
    let mut v = serde_json::to_value(args).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("idempotency_key");
    }
    format!("{tool} {v}")
}

/// Write once per idempotency key: the first call runs `write` and its answer is kept; a retry
/// of the same call gets that answer again, marked as replayed, and writes nothing.
fn once(
    state: &State,
    call: String,
    key: &str,
    write: impl FnOnce() -> Result<Value, Refusal>,
) -> Result<Done, Refusal> {
    let (mut answer, replayed) = state
        .keys
        .once(key, call, write)
        .map_err(|u| Refusal::new(u.what, u.fix))??;
    if replayed {
        answer["replayed"] = json!(true);
    }
    Ok(Done::value(answer))
}

fn record_result(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: ResultArgs = args("record_result", v)?;
    once(state, call_of("record_result", &a), &a.idempotency_key, || {
        write_result(state, &a)
    })
}

fn write_result(state: &State, a: &ResultArgs) -> Result<Value, Refusal> {
    let path = super::confine::target(&state.fence, &a.file)?;
    known_check(state, &a.check)?;
    let Some(status) = Status::parse(a.status.trim()) else {
        return Err(Refusal::new(
            format!("`{}` is not a status a result can record", a.status),
            "give one of pass, fail, partial, not_verified, todo, needs_triage, n/a",
        ));
    };
    let evidence = lines(&a.evidence);
    let gaps = lines(a.gaps.as_deref().unwrap_or(&[]));
    if matches!(status, Status::Pass | Status::Fail | Status::Partial) && evidence.is_empty() {
        return Err(Refusal::new(
            format!("a `{}` result needs evidence", status.as_str()),
            "give `evidence` as at least one line saying what was observed (file:line, a command and its output)",
        ));
    }
    let shown = crate::confine::shown_path(&a.file);
    let _guard = state.writing.lock().unwrap_or_else(|p| p.into_inner());
    let mut top = match existing(&path, &shown)? {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    let mut results = match top.remove("results") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let entry = json!({
        "status": status.as_str(),
        "evidence": evidence,
        "gaps": gaps,
    });
    let replaced = results
        .insert(a.check.clone(), entry.clone())
        .unwrap_or(Value::Null);
    top.insert("results".into(), Value::Object(results));
    write(state, &path, &shown, &Value::Object(top))?;
    Ok(json!({
        "file": shown,
        "check": a.check,
        "recorded": entry,
        "replaced": replaced,
        "replayed": false,
    }))
}

fn record_triage(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: TriageArgs = args("record_triage", v)?;
    once(state, call_of("record_triage", &a), &a.idempotency_key, || {
        write_triage(state, &a)
    })
}

fn write_triage(state: &State, a: &TriageArgs) -> Result<Value, Refusal> {
    let path = super::confine::target(&state.fence, &a.file)?;
    known_check(state, &a.check)?;
    let finding = a.finding.trim().trim_start_matches('#').to_string();
    if finding.len() != 12 || !finding.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(Refusal::new(
            format!(
                "`{}` is not a finding's fingerprint",
                crate::confine::shown_path(&a.finding)
            ),
            "give the fingerprint as the evidence shows it: `#` and twelve hex digits",
        ));
    }
    if let Some(u) = a
        .until
        .as_deref()
        .filter(|u| !crate::model::date::is_calendar_date(u))
    {
        return Err(Refusal::new(
            format!("`until` `{}` is not a day", crate::confine::shown_path(u)),
            "write `until` as YYYY-MM-DD, or leave it out",
        ));
    }
    if a.reason.trim().is_empty() {
        return Err(Refusal::new(
            "`reason` is empty",
            "say why the signal is real or a false positive",
        ));
    }
    let shown = crate::confine::shown_path(&a.file);
    let decision = triage::Decision {
        check: a.check.clone(),
        finding,
        real: a.real,
        reason: a.reason.trim().to_string(),
        until: a.until.clone(),
        decided: crate::model::date::today(),
    };
    let _guard = state.writing.lock().unwrap_or_else(|p| p.into_inner());
    let before = existing(&path, &shown)?;
    let replaced = before
        .get("triage")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter().find(|x| {
                x.get("check").and_then(Value::as_str) == Some(decision.check.as_str())
                    && x.get("finding")
                        .and_then(Value::as_str)
                        .map(|f| f.trim_start_matches('#'))
                        == Some(decision.finding.as_str())
            })
        })
        .cloned()
        .unwrap_or(Value::Null);
    let value = triage::record(before, &decision);
    write(state, &path, &shown, &value)?;
    Ok(json!({
        "file": shown,
        "check": a.check,
        "recorded": {
            "finding": format!("#{}", decision.finding),
            "real": decision.real,
            "reason": decision.reason,
            "until": decision.until,
            "decided": decision.decided,
        },
        "replaced": replaced,
        "replayed": false,
    }))
}
