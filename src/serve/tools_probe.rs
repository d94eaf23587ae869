//! `probe_target`: the probe of a server the command line allowed (`--allow-probe TARGET…`),
//! for the checks a profile makes applicable. Offered only when targets are allowed; a target
//! not on the list is refused before anything is started or contacted. Nothing is written:
//! the observations come back as the result.

use super::state::State;
use super::tool::{self, args, output, Def, Done, Hints, Refusal};
use crate::evidence::probe::{self, client::Target, observe::Options};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// Starts or contacts a server outside this one, which may do anything its tools do with
/// read-only calls; it changes nothing here, and the same server may answer differently.
const PROBES: Hints = Hints {
    read_only: true,
    destructive: false,
    idempotent: false,
    open_world: true,
};

pub fn defs() -> Vec<Def> {
    vec![Def {
        name: "probe_target",
        title: "Probe an allowed server",
        description: "Probe one of the MCP servers this server was started to allow (a stdio command line or an http(s) URL, exactly as allowed) for the checks a profile makes applicable: how it was reached and each observed check's status and evidence. Read-only tools of the target may be called to sample their results; nothing is written.",
        hints: PROBES,
        input: tool::schema_of::<ProbeArgs>,
        output: || {
            output(
                json!({
                    "target": {"type": "string"},
                    "reached": {"type": "boolean"},
                    "reach": {},
                    "checks": {"type": "array", "items": {"type": "object"}},
                }),
                &["target", "reached", "checks"],
            )
        },
        run: probe_target,
    }]
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ProbeArgs {
    /// The target, exactly as the server allows it (see the tool's refusal for the list)
    target: String,
    /// The target server's profile: the fields of a profile file as a JSON object
    profile: Map<String, Value>,
}

fn probe_target(state: &State, v: Value) -> Result<Done, Refusal> {
    let a: ProbeArgs = args("probe_target", v)?;
    if !state.allow_probe.iter().any(|t| t == &a.target) {
        return Err(Refusal::new(
            format!(
                "`{}` is not a target this server may probe",
                crate::confine::shown_path(&a.target)
            ),
            format!(
                "give one of the allowed targets exactly: {}",
                state.allow_probe.join(" | ")
            ),
        ));
    }
    let target = if a.target.starts_with("http://") || a.target.starts_with("https://") {
        Target::Http(a.target.clone())
    } else {
        Target::Stdio(a.target.clone())
    };
    let cat = state.catalogue();
    let checked = super::tools_audit::checked(state, &a.profile)?;
    let app = crate::audit::applicability::compute(cat, &checked.profile);
    let ids: Vec<String> = app
        .entries
        .iter()
        .filter(|e| e.status == crate::audit::applicability::Status::Applies)
        .map(|e| e.id.clone())
        .collect();
    let field = cat.config.baselines().profile_field;
    let revision = match checked.profile.values.get(&field) {
        Some(crate::dsl::Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    let mut opts = Options::default();
    let (kinds, declared) = probe::plan(cat, &ids);
    opts.wanted = Some(kinds);
    opts.declared = declared;
    // The probe runs its own runtime; it gets a thread outside this server's.
    let observed = std::thread::scope(|s| {
        s.spawn(|| probe::observe::observe_blocking(&target, &opts))
            .join()
    });
    let obs = match observed {
        Ok(Ok(obs)) => obs,
        Ok(Err(e)) => {
            return Err(Refusal::new(
                format!("the probe could not start: {e}"),
                "retry; the machine may be short of threads or descriptors",
            ))
        }
        Err(_) => {
            return Err(Refusal::new(
                "the probe stopped unexpectedly",
                "retry, or probe the target with `auditbook probe`",
            ))
        }
    };
    let no_lock = std::path::Path::new("");
    let run = probe::assess(cat, &ids, obs, no_lock, revision.as_deref());
    Ok(Done::value(json!({
        "target": a.target,
        "reached": run.observation.reached(),
        "reach": run.observation.reach,
        "checks": run.probed,
    })))
}
