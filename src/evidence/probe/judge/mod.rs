//! Judging an observation with one probe: a decision, the status it records, and the
//! observations it rests on, each quoting what the server showed. What each named observation
//! records comes from the probe declaration (`records:`) or the kind's default: a defect the
//! wire proves records `fail`, a heuristic's suspicion at most `partial`. A probe that had
//! nothing to look at decides nothing: it never reads as clean.

mod drift;
mod modern;
mod revisions;
mod steps;
mod tools;

use super::lock::Drift;
use super::observe::Observation;
use crate::model::declared::Records;
use crate::model::probe::{Kind, ProbeSpec};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The probe looked and found nothing wrong.
    Clean,
    /// The probe found a defect.
    Defect,
    /// The probe could not look (nothing to see, wrong transport, no answer).
    Undecided,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    pub kind: Kind,
    /// How the probe is named in evidence (`tool-names`, `steps:discover`).
    pub label: String,
    pub decision: Decision,
    /// For a defect: the worst status its observations record.
    pub records: Option<Records>,
    /// What was observed, one line each; defects first.
    pub lines: Vec<String>,
    /// The section the finding is held against.
    pub cites: String,
}

/// What a judge hands back: the defects it saw (observation name and the line that shows it)
/// and what it saw that was clean, or why it could not look.
pub(crate) enum Seen {
    Looked {
        defects: Vec<(&'static str, String)>,
        clean: Vec<String>,
        /// What was seen either way (the names listed, each opening's answer): quoted after
        /// the defects, or before the clean lines.
        context: Vec<String>,
    },
    Undecided(Vec<String>),
}

pub(crate) fn looked(defects: Vec<(&'static str, String)>, clean: Vec<String>) -> Seen {
    looked_in(defects, clean, Vec::new())
}

pub(crate) fn looked_in(
    defects: Vec<(&'static str, String)>,
    clean: Vec<String>,
    context: Vec<String>,
) -> Seen {
    Seen::Looked {
        defects,
        clean,
        context,
    }
}

pub(crate) fn undecided(why: impl Into<String>) -> Seen {
    Seen::Undecided(vec![why.into()])
}

/// What else a judge needs besides the observation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    /// The comparison with the lock file, when there is one.
    pub drift: Option<&'a Drift>,
    /// The revision the profile says the server targets (`mcp_spec_version`).
    pub revision: Option<&'a str>,
    /// The key of the check's probe in `Observation::steps` (declared probes).
    pub key: Option<&'a str>,
}

fn outcome(spec: &ProbeSpec, seen: Seen) -> Outcome {
    let base = |decision, records, lines| Outcome {
        kind: spec.kind,
        label: spec.label(),
        decision,
        records,
        lines,
        cites: spec.citation(),
    };
    match seen {
        Seen::Undecided(lines) => base(Decision::Undecided, None, lines),
        Seen::Looked {
            defects,
            clean,
            context,
        } if defects.is_empty() => {
            let mut lines = context;
            lines.extend(clean);
            base(Decision::Clean, None, lines)
        }
        Seen::Looked {
            defects, context, ..
        } => {
            let records = defects
                .iter()
                .map(|(name, _)| spec.records_for(name))
                .reduce(Records::worst);
            let mut lines: Vec<String> = defects
                .into_iter()
                .map(|(name, line)| format!("{line} ({name}: {})", spec.records_for(name).as_str()))
                .collect();
            lines.extend(context);
            base(Decision::Defect, records, lines)
        }
    }
}

/// Judge `obs` with `spec`.
pub fn judge(spec: &ProbeSpec, obs: &Observation, ctx: &Context) -> Outcome {
    let kind = spec.kind;
    if !obs.reached() {
        let why = obs
            .reach
            .as_ref()
            .map(|r| r.describe())
            .unwrap_or_else(|| "the server was not probed".into());
        return outcome(
            spec,
            undecided(format!("{}: {why}; nothing was observed", obs.target)),
        );
    }
    let seen = match kind {
        Kind::ToolNames => tools::names(spec, obs),
        Kind::ToolAnnotations => tools::annotations(spec, obs),
        Kind::ToolDescriptions => tools::descriptions(spec, obs),
        Kind::OutputSchema => tools::output_schema(spec, obs),
        Kind::ToolErrors => tools::errors(obs),
        Kind::SchemaDialect => tools::dialect(obs),
        Kind::ParamHeaders => tools::param_headers(obs),
        Kind::ProtocolVersion => revisions::protocol_version(spec, obs, ctx.revision),
        Kind::HttpOrigin => revisions::origin(obs),
        Kind::HttpVersionHeader => revisions::version_header(obs),
        Kind::ToolDrift => drift::judge(ctx.drift),
        Kind::ListOrder => modern::list_order(obs),
        Kind::Stateless
        | Kind::ResultType
        | Kind::CacheHints
        | Kind::RoutingHeaders
        | Kind::InputRequired
        | Kind::Extensions => match &obs.modern {
            None => undecided(format!(
                "the server does not serve 2026-07-28 (it answers no server/discover), so {} was not observed",
                kind.as_str()
            )),
            Some(m) => match kind {
                Kind::Stateless => modern::stateless(m, obs),
                Kind::ResultType => modern::result_type(m),
                Kind::CacheHints => modern::cache_hints(m),
                Kind::RoutingHeaders => modern::routing_headers(m, obs),
                Kind::InputRequired => modern::input_required(m),
                _ => modern::extensions(m),
            },
        },
        Kind::Steps => steps::judge(spec, obs, ctx.key),
    };
    outcome(spec, seen)
}
