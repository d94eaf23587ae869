//! Which revisions the server serves, held to the one the profile says it targets, and the two
//! transport probes with their positive controls: a refusal counts only when the same request
//! without the defect was served.

use super::{looked_in, undecided, Seen};
use crate::evidence::probe::client::Era;
use crate::evidence::probe::observe::{Exchanged, Observation, Opening};
use crate::evidence::untrusted;
use crate::model::probe::ProbeSpec;
use serde_json::Value as Json;

fn opening_line(o: &Opening) -> String {
    match (&o.era, &o.answered) {
        (Era::Modern, Ok(v)) => format!(
            "server/discover as a {} client → served{}",
            o.asked,
            if o.supported.is_empty() {
                format!(" ({v})")
            } else {
                format!(", supportedVersions [{}]", o.supported.join(", "))
            }
        ),
        (Era::Modern, Err(e)) => format!("as a {} client → {e}", o.asked),
        (Era::Legacy, Ok(v)) => {
            format!("initialize as a {} client → protocolVersion {v}", o.asked)
        }
        (Era::Legacy, Err(e)) => format!("as a {} client → {e}", o.asked),
    }
}

pub fn protocol_version(spec: &ProbeSpec, obs: &Observation, target: Option<&str>) -> Seen {
    let newest = spec.text("newest").unwrap_or(super::super::observe::NEWEST);
    let legacy = spec.text("legacy").unwrap_or(super::super::observe::LEGACY);
    let mut lines: Vec<String> = obs.openings.iter().map(opening_line).collect();
    let modern = obs.serves(Era::Modern);
    let old = obs
        .opening(Era::Legacy)
        .is_some_and(|o| o.answered.as_deref() == Ok(legacy));
    let mut defects = Vec::new();
    let era = match (modern, old) {
        (true, true) => format!("serves both {newest} and {legacy}"),
        (true, false) => format!("modern only: serves {newest}, not {legacy}"),
        (false, true) => format!("legacy only: serves {legacy}, not {newest}"),
        (false, false) => {
            return undecided(format!(
                "negotiates neither {newest} nor {legacy}: {}",
                lines.join("; ")
            ))
        }
    };
    let target_line = match target {
        Some(t) => format!("; the profile targets {t}"),
        None => "; the profile names no mcp_spec_version".into(),
    };
    match target {
        Some(t) if t == newest && !modern => {
            defects.push(("legacy-only", format!("{era}{target_line}")))
        }
        Some(t) if t == legacy && !old => {
            defects.push(("modern-only", format!("{era}{target_line}")))
        }
        None if !modern => defects.push(("revision-unstated", format!("{era}{target_line}"))),
        _ => lines.push(format!("{era}{target_line}")),
    }
    // An invented version must be refused: echoing it claims a revision that does not exist.
    if let Some(e) = &obs.echo {
        match &e.answered {
            Ok(v) if v == &e.asked => defects.push((
                "echo",
                format!("initialize asking for the invented version {} → the server answered {v}", e.asked),
            )),
            Ok(v) => lines.push(format!(
                "initialize asking for the invented version {} → the server answered {v}, a version it supports",
                e.asked
            )),
            Err(why) => lines.push(format!(
                "initialize asking for the invented version {} → refused ({why})",
                e.asked
            )),
        }
    }
    if let Some(u) = obs.modern.as_ref().and_then(|m| m.unsupported.as_ref()) {
        unsupported(u, obs.http, &mut defects, &mut lines);
    }
    // What each opening answered is the evidence the findings rest on, either way.
    looked_in(defects, vec![], lines)
}

/// A modern request naming an unsupported version: `-32022` with `supported` and `requested`
/// (over HTTP with status 400).
fn unsupported(
    u: &Exchanged,
    http: bool,
    defects: &mut Vec<(&'static str, String)>,
    lines: &mut Vec<String>,
) {
    let shown = u.shown();
    if u.reply.result().is_some() {
        defects.push(("echo", format!("{shown}: the invented version was served")));
        return;
    }
    let data = |p: &str| {
        u.reply
            .message
            .as_ref()
            .and_then(|m| m.pointer(&format!("/error/data/{p}")))
    };
    let mut wrong = Vec::new();
    if u.reply.error_code() != Some(-32022) {
        wrong.push("the code is not -32022".to_string());
    }
    if !data("supported").is_some_and(Json::is_array) {
        wrong.push("`data.supported` does not list the supported versions".into());
    }
    if data("requested").is_none() {
        wrong.push("`data.requested` does not echo the version asked for".into());
    }
    if http && u.reply.status() != Some(400) {
        wrong.push(format!(
            "the HTTP status is {} instead of 400",
            u.reply.status().unwrap_or(0)
        ));
    }
    if u.reply.message.is_none() {
        lines.push(format!("{shown}: no JSON-RPC answer, not judged"));
    } else if wrong.is_empty() {
        lines.push(format!("{shown}: refused as required"));
    } else {
        defects.push(("wrong-refusal", format!("{shown}: {}", wrong.join("; "))));
    }
}

fn served(e: &Exchanged) -> bool {
    e.reply.result().is_some() && e.reply.status().is_some_and(|s| (200..300).contains(&s))
}

pub fn origin(obs: &Observation) -> Seen {
    let Some(h) = &obs.http_probes else {
        return undecided("a stdio target: the Origin probe needs a Streamable HTTP URL");
    };
    let (Some(control), Some(x)) = (&h.origin_control, &h.foreign_origin) else {
        return undecided("the Origin requests were not sent");
    };
    if !served(control) {
        return undecided(format!(
            "{}: the request without Origin was not served either, so a refusal with a foreign Origin says nothing",
            control.shown()
        ));
    }
    let status = x.reply.status().unwrap_or(0);
    if served(x) {
        looked_in(
            vec![(
                "foreign-origin-accepted",
                format!("{} — a foreign Origin is accepted", x.shown()),
            )],
            vec![],
            vec![format!("control: {}", control.shown())],
        )
    } else if (400..500).contains(&status) {
        looked_in(
            vec![],
            vec![format!("{} — refused", x.shown())],
            vec![format!("control: {}", control.shown())],
        )
    } else {
        undecided(x.shown())
    }
}

pub fn version_header(obs: &Observation) -> Seen {
    let Some(h) = &obs.http_probes else {
        return undecided(
            "a stdio target: the MCP-Protocol-Version probe needs a Streamable HTTP URL",
        );
    };
    let (Some(control), Some(x)) = (&h.version_control, &h.bogus_version) else {
        return undecided("the version-header requests were not sent");
    };
    if !served(control) {
        return undecided(format!(
            "{}: the request with the supported version was not served either, so the probe has no positive control",
            control.shown()
        ));
    }
    match x.reply.status() {
        None | Some(0) => undecided(x.shown()),
        Some(400) => looked_in(
            vec![],
            vec![format!("{} — as required", x.shown())],
            vec![format!("control: {}", control.shown())],
        ),
        Some(s) => looked_in(
            vec![(
                "wrong-status",
                format!(
                    "{} — expected HTTP 400, got {s}",
                    untrusted::cut(&x.shown(), 400)
                ),
            )],
            vec![],
            vec![format!("control: {}", control.shown())],
        ),
    }
}
