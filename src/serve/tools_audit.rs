//! The tools that judge a server: which checks apply to a profile, the audit report of a
//! profile and its results, how the score came about, and what is left for a person to do.
//! Profiles and results are given inline as JSON objects, shaped as their files are.

use super::state::State;
use super::tool::{self, args, output, Def, Done, Refusal, READ_ONLY};
use crate::audit::applicability::{self, Status as Gate};
use crate::audit::profile::Checked;
use crate::audit::report::{self, Options};
use crate::audit::verdict::Policy;
use crate::audit::{self as audit_lib, score};
use crate::diag::codes;
use crate::load::data_file::{self, DataError, DataFile};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

pub fn defs() -> Vec<Def> {
    vec![
        Def {
            name: "applicability",
            title: "Which checks apply",
            description: "Which checks of the catalogue apply to a server profile (given inline as a JSON object with the fields of a profile file, e.g. `transport`, `auth_model`, `write_capable`), each with the reason, and the counts by reason.",
            hints: READ_ONLY,
            input: tool::schema_of::<ProfileArgs>,
            output: || {
                output(
                    json!({
                        "checks": {"type": "array", "items": {"type": "object"}},
                        "summary": {"type": "object"},
                        "problems": {"type": "array"},
                    }),
                    &["checks", "summary", "problems"],
                )
            },
            run: applicability,
        },
        Def {
            name: "audit",
            title: "Audit report",
            description: "The audit report of a server profile and its results (both inline JSON objects shaped as the files are; without results it is the audit plan): verdict, score, findings, remediation. `format: \"md\"` adds the Markdown report as the text.",
            hints: READ_ONLY,
            input: tool::schema_of::<AuditArgs>,
            output: || {
                output(
                    json!({
                        "verdict": {"type": "string"},
                        "verdict_line": {"type": "string"},
                        "score": {"type": "object"},
                        "findings": {"type": "array"},
                        "problems": {"type": "array"},
                    }),
                    &["verdict", "verdict_line", "score", "findings", "problems"],
                )
            },
            run: audit,
        },
        Def {
            name: "score_explanation",
            title: "How the score was computed",
            description: "The score of a profile and its results (inline JSON objects), and line by line how it was computed, as `auditbook audit --explain-score` prints it.",
            hints: READ_ONLY,
            input: tool::schema_of::<ResultsArgs>,
            output: || {
                output(
                    json!({
                        "score": {"type": "object"},
                        "explanation": {"type": "array", "items": {"type": "string"}},
                    }),
                    &["score", "explanation"],
                )
            },
            run: score_explanation,
        },
        Def {
            name: "remaining_for_a_person",
            title: "What is left for a person",
            description: "The applicable checks of a profile that have no valid result yet (results inline, optional) and that no probe observes: the ones a person has to examine and record.",
            hints: READ_ONLY,
            input: tool::schema_of::<ResultsArgs>,
            output: || {
                output(
                    json!({
                        "count": {"type": "integer"},
                        "checks": {"type": "array", "items": {"type": "object"}},
                        "probe_observable": {"type": "array", "items": {"type": "string"}},
                    }),
                    &["count", "checks", "probe_observable"],
                )
            },
            run: remaining,
        },
    ]
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ProfileArgs {
    /// The server profile: the fields of a profile file as a JSON object
    profile: Map<String, Value>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ResultsArgs {
    /// The server profile: the fields of a profile file as a JSON object
    profile: Map<String, Value>,
    /// The results: a results file as a JSON object (`results: {CHECK: {status, evidence}}`)
    results: Option<Map<String, Value>>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy, Default)]
#[serde(rename_all = "kebab-case")]
enum PolicyName {
    /// fail and partial are findings
    #[default]
    FailOrPartial,
    /// only fail is a finding
    FailOnly,
    /// fail, partial, todo and not_verified are findings
    NeedsAttention,
}

#[derive(Deserialize, JsonSchema, Clone, Copy, Default, PartialEq)]
#[serde(rename_all = "lowercase")]
enum ReportFormat {
    #[default]
    Json,
    Md,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AuditArgs {
    /// The server profile: the fields of a profile file as a JSON object
    profile: Map<String, Value>,
    /// The results: a results file as a JSON object; without it the report is the audit plan
    results: Option<Map<String, Value>>,
    /// Which statuses are findings (default fail-or-partial)
    policy: Option<PolicyName>,
    /// `json` (default) or `md` for the Markdown report as the text content
    format: Option<ReportFormat>,
}

/// An inline object as a data file in memory, judged as a file of that kind is.
fn inline(
    what: &str,
    value: &Map<String, Value>,
    invalid: &'static crate::diag::Code,
    fix: &str,
) -> Result<DataFile, Refusal> {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    data_file::from_text(text, true, what, invalid).map_err(|e| {
        let why = match e {
            DataError::Invalid { diagnostics, .. } => diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; "),
            DataError::Unreadable(m) => m,
        };
        Refusal::new(format!("the {what} cannot be read: {why}"), fix)
    })
}

const PROFILE_FIX: &str = "give `profile` as a JSON object with the fields of a profile file (see `auditbook schema profile` or the format reference resource)";
const RESULTS_FIX: &str = "give `results` as a JSON object shaped as a results file: `{\"results\": {\"CHECK-ID\": {\"status\": \"pass\", \"evidence\": [\"…\"]}}}`";

pub fn checked(state: &State, profile: &Map<String, Value>) -> Result<Checked, Refusal> {
    let file = inline("profile", profile, &codes::PROFILE_INVALID, PROFILE_FIX)?;
    crate::audit::profile::of_file(state.catalogue(), file).map_err(|e| {
        let why = match e {
            DataError::Invalid { diagnostics, .. } => diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; "),
            DataError::Unreadable(m) => m,
        };
        Refusal::new(
            format!("the profile is not one server's profile: {why}"),
            PROFILE_FIX,
        )
    })
}

fn problems(diags: &[crate::diag::Diagnostic]) -> Value {
    json!(diags
        .iter()
        .map(|d| json!({
            "code": d.code,
            "level": d.level,
            "message": d.message,
            "id": d.id,
            "line": d.line,
        }))
        .collect::<Vec<_>>())
}

fn applicability(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: ProfileArgs = args("applicability", v)?;
    let cat = state.catalogue();
    let checked = checked(state, &a.profile)?;
    let app = applicability::compute(cat, &checked.profile);
    let checks: Vec<Value> = app.entries.iter().map(applicability::Entry::json).collect();
    Ok(Done::value(json!({
        "checks": checks,
        "summary": app.summary(cat),
        "problems": problems(&checked.diagnostics),
    })))
}

/// The audit of a profile and its results, as the `audit` command computes it.
struct Judged<'c> {
    checked: Checked,
    run: audit_lib::Run<'c>,
}

fn judged<'c>(
    state: &'c State,
    profile: &Map<String, Value>,
    results: Option<&Map<String, Value>>,
    policy: Policy,
) -> Result<Judged<'c>, Refusal> {
    let cat = state.catalogue();
    let checked = checked(state, profile)?;
    let results = results
        .map(|r| inline("results", r, &codes::RESULTS_INVALID, RESULTS_FIX))
        .transpose()?;
    let run = audit_lib::run(cat, &checked, results.as_ref(), policy);
    Ok(Judged { checked, run })
}

fn audit(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: AuditArgs = args("audit", v)?;
    let policy = match a.policy.unwrap_or_default() {
        PolicyName::FailOrPartial => Policy::FailOrPartial,
        PolicyName::FailOnly => Policy::FailOnly,
        PolicyName::NeedsAttention => Policy::NeedsAttention,
    };
    let cat = state.catalogue();
    let j = judged(state, &a.profile, a.results.as_ref(), policy)?;
    let score = score::score(cat, &j.run.audit);
    let options = Options {
        catalogue_root: state.catalogue_shown.clone(),
        check_url_base: None,
        link_prefix: state.catalogue_shown.clone(),
        previous: None,
        as_of: crate::model::date::today(),
        html: false,
    };
    let rep = report::build(cat, &j.checked, &j.run, score, &options);
    let value = serde_json::to_value(&rep).map_err(|e| {
        Refusal::new(
            format!("the report cannot be written as JSON: {e}"),
            "retry; if it persists, run `auditbook audit` on the same files",
        )
    })?;
    let text = if a.format.unwrap_or_default() == ReportFormat::Md {
        let ctx = tera::Context::from_serialize(&rep).map_err(|e| {
            Refusal::new(
                format!("the report cannot be laid out: {e}"),
                "ask for `format: \"json\"`",
            )
        })?;
        Some(
            state
                .templates
                .render("report.md.tera", &ctx)
                .map_err(|e| Refusal::new(e, "ask for `format: \"json\"`"))?,
        )
    } else {
        None
    };
    Ok(Done { value, text })
}

fn score_explanation(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: ResultsArgs = args("score_explanation", v)?;
    let j = judged(state, &a.profile, a.results.as_ref(), Policy::FailOrPartial)?;
    let score = score::score(state.catalogue(), &j.run.audit);
    let explanation = score.explain();
    Ok(Done {
        value: json!({
            "score": score,
            "explanation": explanation.lines().collect::<Vec<_>>(),
        }),
        text: Some(explanation),
    })
}

fn remaining(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: ResultsArgs = args("remaining_for_a_person", v)?;
    let cat = state.catalogue();
    let j = judged(state, &a.profile, a.results.as_ref(), Policy::FailOrPartial)?;
    let recorded = |id: &str| {
        j.run
            .results
            .as_ref()
            .is_some_and(|r| r.recorded.contains_key(id))
    };
    let mut person = Vec::new();
    let mut probe = Vec::new();
    for e in &j.run.applicability.entries {
        if e.status != Gate::Applies || recorded(&e.id) {
            continue;
        }
        let Some(c) = cat.check(&e.id) else { continue };
        if c.probes().is_empty() {
            person.push(json!({
                "id": e.id,
                "title": e.title,
                "severity": e.severity,
                "category": e.category,
                "adoption": e.adoption,
            }));
        } else {
            probe.push(e.id.clone());
        }
    }
    Ok(Done::value(json!({
        "count": person.len(),
        "checks": person,
        "probe_observable": probe,
    })))
}
