//! The stateless revision (2026-07-28) as the server showed it: requests served without a
//! handshake or session, the shape of every result (`resultType`, cache hints), the routing
//! headers, no requests of the server's own, extensions; and the order of listings.

use super::{looked_in, undecided, Seen};
use crate::evidence::probe::observe::{Exchanged, Modern, Observation};
use crate::evidence::untrusted;
use serde_json::Value as Json;
use std::collections::BTreeSet;

fn served(e: &Exchanged) -> bool {
    e.reply.result().is_some()
}

pub fn stateless(m: &Modern, obs: &Observation) -> Seen {
    let mut defects = Vec::new();
    let mut context = Vec::new();
    match &m.fresh_first {
        None => return undecided("the fresh-connection request was not sent"),
        Some(e) if served(e) => context.push(format!("{} — served", e.shown())),
        Some(e) if e.reply.message.is_some() => {
            defects.push(("needs-handshake", format!("{} — not served", e.shown())))
        }
        Some(e) => return undecided(format!("{} — no answer to judge", e.shown())),
    }
    if m.sessions_minted.is_empty() {
        if obs.http {
            context.push("no 2026-07-28 answer carried an Mcp-Session-Id".into());
        }
    } else {
        defects.push((
            "session-minted",
            format!(
                "2026-07-28 answers carried an Mcp-Session-Id: {}",
                m.sessions_minted.join(", ")
            ),
        ));
    }
    if let Some(g) = &m.get {
        match g.reply.status() {
            Some(405) => context.push(format!("{} — HTTP 405, as recommended", g.shown())),
            Some(s) => defects.push((
                "get-served",
                format!("{} — HTTP {s} instead of 405", g.shown()),
            )),
            None => context.push(format!("{} — no status", g.shown())),
        }
    }
    looked_in(defects, vec![], context)
}

const RESULT_TYPES: [&str; 2] = ["complete", "input_required"];

pub fn result_type(m: &Modern) -> Seen {
    if m.results.is_empty() {
        return undecided("no 2026-07-28 result was seen");
    }
    let mut missing = BTreeSet::new();
    let mut unknown = BTreeSet::new();
    for s in &m.results {
        match &s.result_type {
            None => {
                missing.insert(s.method.clone());
            }
            Some(Json::String(t)) if RESULT_TYPES.contains(&t.as_str()) => {}
            Some(other) => {
                unknown.insert(format!("{} ({})", s.method, untrusted::json(other, 60)));
            }
        }
    }
    let mut defects = Vec::new();
    if !missing.is_empty() {
        defects.push((
            "missing",
            format!("results without `resultType`: {}", join(&missing)),
        ));
    }
    if !unknown.is_empty() {
        defects.push((
            "unknown",
            format!("results with an unknown `resultType`: {}", join(&unknown)),
        ));
    }
    let methods: BTreeSet<String> = m.results.iter().map(|s| s.method.clone()).collect();
    looked_in(
        defects,
        vec![],
        vec![format!(
            "{} 2026-07-28 results read ({})",
            m.results.len(),
            join(&methods)
        )],
    )
}

fn join(s: &BTreeSet<String>) -> String {
    s.iter().cloned().collect::<Vec<_>>().join(", ")
}

const CACHEABLE: [&str; 6] = [
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

pub fn cache_hints(m: &Modern) -> Seen {
    let seen: Vec<_> = m
        .results
        .iter()
        .filter(|s| CACHEABLE.contains(&s.method.as_str()))
        .filter(|s| s.result_type.as_ref().and_then(Json::as_str) != Some("input_required"))
        .collect();
    if seen.is_empty() {
        return undecided("no cacheable 2026-07-28 result was seen");
    }
    let mut no_ttl = BTreeSet::new();
    let mut no_scope = BTreeSet::new();
    for s in &seen {
        let ttl_ok = s.ttl_ms.as_ref().and_then(Json::as_u64).is_some();
        if !ttl_ok {
            no_ttl.insert(match &s.ttl_ms {
                None => format!("{} (absent)", s.method),
                Some(v) => format!("{} ({})", s.method, untrusted::json(v, 40)),
            });
        }
        let scope_ok = matches!(
            s.cache_scope.as_ref().and_then(Json::as_str),
            Some("public" | "private")
        );
        if !scope_ok {
            no_scope.insert(match &s.cache_scope {
                None => format!("{} (absent)", s.method),
                Some(v) => format!("{} ({})", s.method, untrusted::json(v, 40)),
            });
        }
    }
    let mut defects = Vec::new();
    if !no_ttl.is_empty() {
        defects.push((
            "no-ttl",
            format!("`ttlMs` missing or not an integer ≥ 0: {}", join(&no_ttl)),
        ));
    }
    if !no_scope.is_empty() {
        defects.push((
            "no-scope",
            format!(
                "`cacheScope` missing or not public/private: {}",
                join(&no_scope)
            ),
        ));
    }
    let methods: BTreeSet<String> = seen.iter().map(|s| s.method.clone()).collect();
    looked_in(
        defects,
        vec![],
        vec![format!(
            "{} cacheable results read ({})",
            seen.len(),
            join(&methods)
        )],
    )
}

pub fn list_order(obs: &Observation) -> Seen {
    let Some(again) = &obs.tools_again else {
        return undecided("tools/list was not read twice in full");
    };
    let first: Vec<String> = obs
        .tools
        .items
        .iter()
        .map(|t| untrusted::value(t.get("name").and_then(Json::as_str).unwrap_or("")))
        .collect();
    if !obs.tools.complete {
        return undecided("the first tools/list was not read in full");
    }
    let context = vec![format!(
        "tools/list read twice, {} tools each time",
        first.len()
    )];
    if &first == again {
        looked_in(vec![], vec!["the same order both times".into()], context)
    } else {
        looked_in(
            vec![(
                "order-changed",
                untrusted::cut(
                    &format!("first: {}; then: {}", first.join(", "), again.join(", ")),
                    500,
                ),
            )],
            vec![],
            context,
        )
    }
}

pub fn routing_headers(m: &Modern, obs: &Observation) -> Seen {
    if !obs.http {
        return undecided("a stdio target: the routing headers exist only over Streamable HTTP");
    }
    let mut defects = Vec::new();
    let mut context = Vec::new();
    let cases = [
        (&m.no_method_header, "missing-header-served"),
        (&m.wrong_method_header, "mismatch-served"),
        (&m.wrong_name_header, "mismatch-served"),
    ];
    for (e, name) in cases {
        let Some(e) = e else { continue };
        let code = e.reply.error_code();
        let status = e.reply.status();
        let refused_for_header = code == Some(-32020);
        let http_refused = status.is_some_and(|s| (400..500).contains(&s));
        if refused_for_header && status == Some(400) {
            context.push(format!("{} — refused as required", e.shown()));
        } else if e.reply.message.is_none() {
            continue;
        } else if served(e) || (!refused_for_header && !http_refused) {
            // Served, or the body was processed (an unknown-tool error with a 2xx status).
            defects.push((name, format!("{} — the header was not checked", e.shown())));
        } else {
            defects.push((
                "wrong-code",
                format!("{} — refused, but not with HTTP 400 and -32020", e.shown()),
            ));
        }
    }
    if defects.is_empty() && context.is_empty() {
        return undecided("the routing-header requests were not sent");
    }
    looked_in(defects, vec![], context)
}

pub fn input_required(m: &Modern) -> Seen {
    let mut defects = Vec::new();
    if !m.server_requests.is_empty() {
        let methods: BTreeSet<String> = m
            .server_requests
            .iter()
            .map(|s| untrusted::value(s))
            .collect();
        defects.push((
            "server-request",
            format!("the server sent requests of its own: {}", join(&methods)),
        ));
    }
    let bare: BTreeSet<String> = m
        .results
        .iter()
        .filter(|s| !s.input_requests)
        .map(|s| s.method.clone())
        .collect();
    if !bare.is_empty() {
        defects.push((
            "no-input-requests",
            format!(
                "`input_required` results without `inputRequests`: {}",
                join(&bare)
            ),
        ));
    }
    looked_in(
        defects,
        vec![],
        vec![format!("{} 2026-07-28 results read", m.results.len())],
    )
}

/// A `_meta`-style key with a mandatory prefix: dot-separated labels, a slash, a name.
fn prefixed_id(id: &str) -> bool {
    let Some((prefix, name)) = id.split_once('/') else {
        return false;
    };
    let label = |l: &str| {
        l.starts_with(|c: char| c.is_ascii_alphabetic())
            && l.ends_with(|c: char| c.is_ascii_alphanumeric())
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    let name_ok = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    prefix.split('.').all(label) && name_ok
}

pub fn extensions(m: &Modern) -> Seen {
    let Some(d) = &m.discover else {
        return undecided("no DiscoverResult was seen");
    };
    let caps = d.get("capabilities");
    let mut defects = Vec::new();
    let mut clean = Vec::new();
    let keys: Vec<String> = caps
        .and_then(Json::as_object)
        .map(|c| c.keys().map(|k| untrusted::value(k)).collect())
        .unwrap_or_default();
    let context = vec![format!("server/discover capabilities: {}", keys.join(", "))];
    if caps.and_then(|c| c.get("tasks")).is_some() {
        defects.push(("core-tasks", "server/discover declares `capabilities.tasks` in the core capabilities; tasks are the `io.modelcontextprotocol/tasks` extension".to_string()));
    }
    let ext = caps
        .and_then(|c| c.get("extensions"))
        .and_then(Json::as_object);
    for id in ext.into_iter().flat_map(|e| e.keys()) {
        if prefixed_id(id) {
            clean.push(format!(
                "extension `{}` declared under a prefixed id",
                untrusted::value(id)
            ));
        } else {
            defects.push((
                "bad-extension-id",
                format!(
                    "extension `{}` is not a prefixed id (`com.example/name`)",
                    untrusted::value(id)
                ),
            ));
        }
    }
    if clean.is_empty() && defects.is_empty() {
        clean.push("no extensions and no core `tasks` declared".into());
    }
    looked_in(defects, clean, context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_ids_need_a_prefix() {
        assert!(prefixed_id("io.modelcontextprotocol/tasks"));
        assert!(prefixed_id("com.example-co/ui.v2"));
        assert!(!prefixed_id("tasks"));
        assert!(!prefixed_id("1io/x"));
        assert!(!prefixed_id("io.example/"));
    }
}
