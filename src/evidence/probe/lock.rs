//! Definitions bound to the server: the canonical form of its tool, resource and prompt
//! definitions, their digest (the fingerprint results are recorded against), the lock file
//! `mcp-tools.lock` and the drift between a lock and what the server shows now.

use super::observe::Observation;
use serde::Serialize;
use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The lock file's name when none is given.
pub const LOCK_FILE: &str = "mcp-tools.lock";

/// Keys of objects sorted at every level, so equal definitions have equal bytes.
pub fn canonical(v: &Json) -> Json {
    match v {
        Json::Object(m) => {
            let sorted: BTreeMap<&String, Json> =
                m.iter().map(|(k, v)| (k, canonical(v))).collect();
            Json::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Json::Array(a) => Json::Array(a.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

fn keyed(items: &[Json], key: &str) -> BTreeMap<String, Json> {
    items
        .iter()
        .map(|i| {
            (
                i.get(key).and_then(Json::as_str).unwrap_or("").to_string(),
                canonical(i),
            )
        })
        .collect()
}

/// The definitions as the lock holds them: `tools`, `resources`, `prompts`, each by name
/// (resources by URI), canonicalised.
pub fn definitions(obs: &Observation) -> Json {
    let section = |m: BTreeMap<String, Json>| Json::Object(m.into_iter().collect::<Map<_, _>>());
    serde_json::json!({
        "tools": section(keyed(&obs.tools.items, "name")),
        "resources": section(keyed(&obs.resources.items, "uri")),
        "prompts": section(keyed(&obs.prompts.items, "name")),
    })
}

pub fn digest(v: &Json) -> String {
    let bytes = serde_json::to_vec(&canonical(v)).unwrap_or_default();
    let hash = Sha256::digest(&bytes);
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// What a probe run records about the server it saw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fingerprint {
    pub server_name: String,
    pub server_version: String,
    pub protocol_version: String,
    /// Digest of the canonical definitions.
    pub definitions: String,
}

impl Fingerprint {
    /// The fingerprint of what a server showed, when it showed it whole: a server that was not
    /// reached, or whose listing broke off, has none (a digest of empty definitions would
    /// make every result recorded against the real server read as stale).
    pub fn of(obs: &Observation) -> Option<Fingerprint> {
        obs.complete().then(|| Fingerprint {
            server_name: obs.server_name.clone(),
            server_version: obs.server_version.clone(),
            protocol_version: obs.protocol_version.clone(),
            definitions: digest(&definitions(obs)),
        })
    }
}

/// The lock file's text: the server, the digest and the definitions (pretty JSON, keys sorted).
pub fn lock_text(obs: &Observation) -> String {
    let defs = definitions(obs);
    let lock = serde_json::json!({
        "lock_version": 1,
        "server": {"name": obs.server_name, "version": obs.server_version},
        "digest": digest(&defs),
        "definitions": defs,
    });
    // A `serde_json::Value` always serialises (its map keys are strings): no error to lose.
    let mut text = serde_json::to_string_pretty(&canonical(&lock)).unwrap_or_default();
    text.push('\n');
    text
}

/// The difference between a lock and the definitions seen now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Drift {
    pub lock_file: String,
    pub locked_digest: String,
    /// How many definitions were compared.
    pub compared: usize,
    /// One line per added, removed or changed definition, sorted.
    pub changes: Vec<String>,
}

/// Compare `obs` with a lock file's text. `Err` when the text is not a lock file.
pub fn drift(lock_file: &str, lock: &str, obs: &Observation) -> Result<Drift, String> {
    let parsed: Json = serde_json::from_str(lock)
        .map_err(|e| format!("`{lock_file}` is not a lock file (not JSON: {e})"))?;
    let Some(locked) = parsed.get("definitions").and_then(Json::as_object) else {
        return Err(format!("`{lock_file}` has no `definitions`"));
    };
    let now = definitions(obs);
    let mut changes = Vec::new();
    let mut compared = 0;
    for (section, singular) in [
        ("tools", "tool"),
        ("resources", "resource"),
        ("prompts", "prompt"),
    ] {
        let empty = Map::new();
        let old = locked
            .get(section)
            .and_then(Json::as_object)
            .unwrap_or(&empty);
        let new = now.get(section).and_then(Json::as_object).unwrap_or(&empty);
        compared += new.len();
        for (k, v) in new {
            match old.get(k) {
                None => changes.push(format!(
                    "{singular} `{}` added",
                    crate::evidence::untrusted::value(k)
                )),
                Some(o) if canonical(o) != *v => {
                    let fields = changed_fields(o, v);
                    changes.push(format!(
                        "{singular} `{}` changed: {}",
                        crate::evidence::untrusted::value(k),
                        fields.join("; ")
                    ));
                }
                Some(_) => {}
            }
        }
        for k in old.keys() {
            if !new.contains_key(k) {
                changes.push(format!(
                    "{singular} `{}` removed",
                    crate::evidence::untrusted::value(k)
                ));
            }
        }
    }
    changes.sort();
    Ok(Drift {
        lock_file: lock_file.to_string(),
        locked_digest: parsed
            .get("digest")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string(),
        compared,
        changes,
    })
}

/// Each changed field with its old and new value (quoted, bounded): a reviewer sees what
/// changed, not only where.
fn changed_fields(old: &Json, new: &Json) -> Vec<String> {
    let empty = Map::new();
    let o = old.as_object().unwrap_or(&empty);
    let n = new.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
    keys.sort();
    keys.dedup();
    let shown = |v: Option<&Json>| match v {
        None => "(absent)".to_string(),
        Some(Json::String(s)) => format!("\"{}\"", crate::evidence::untrusted::quote(s, 120)),
        Some(v) => crate::evidence::untrusted::json(v, 120),
    };
    keys.into_iter()
        .filter(|k| o.get(*k).map(canonical) != n.get(*k).map(canonical))
        .map(|k| format!("`{k}` {} → {}", shown(o.get(k)), shown(n.get(k))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_change_is_named() {
        let listing = |items: Vec<Json>| crate::evidence::probe::listing::Listing {
            items,
            answered: true,
            complete: true,
            ..Default::default()
        };
        let before = Observation {
            tools: listing(vec![
                json!({"name": "a", "description": "x"}),
                json!({"name": "b"}),
            ]),
            reach: Some(crate::evidence::probe::observe::Reach::Reached),
            ..Observation::default()
        };
        let lock = lock_text(&before);
        let same = drift("l", &lock, &before).unwrap_or_else(|e| panic!("{e}"));
        assert!(same.changes.is_empty());
        let mut after = before.clone();
        after.tools = listing(vec![
            json!({"description": "y", "name": "a"}),
            json!({"name": "c"}),
        ]);
        let d = drift("l", &lock, &after).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            d.changes,
            vec![
                "tool `a` changed: `description` \"x\" → \"y\"",
                "tool `b` removed",
                "tool `c` added"
            ]
        );
        // Key order does not change the digest.
        let mut reordered = before.clone();
        reordered.tools = listing(vec![
            json!({"description": "x", "name": "a"}),
            json!({"name": "b"}),
        ]);
        assert_eq!(Fingerprint::of(&before), Fingerprint::of(&reordered));
    }
}
