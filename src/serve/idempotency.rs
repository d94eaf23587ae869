//! The writing tools' idempotency keys. A key names one intended write: the first call with it
//! writes and its answer is kept; a repeat with the same arguments (a client retrying after a
//! lost answer) gets that answer again and writes nothing; a repeat with other arguments is
//! refused, since the key would otherwise stand for two different writes. Keys are kept for
//! `KEPT` in the server's memory, so a restarted server has forgotten them; a retry then writes
//! the same entry once more, which leaves the file as it was.

use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a key is remembered: a day, inside the four to forty-eight hours a retrying
/// client can be expected to need.
pub const KEPT: Duration = Duration::from_secs(24 * 60 * 60);

/// The longest key accepted.
const LONGEST: usize = 128;

/// Why a key cannot be used: what is wrong and how to fix the call (the tool turns it into
/// its refusal; this module stays below the tools, which depend on the state that holds it).
pub struct Unusable {
    pub what: String,
    pub fix: &'static str,
}

struct Entry {
    at: Instant,
    /// The tool and its arguments without the key, as one string.
    call: String,
    answer: Value,
}

/// The keys seen, by key.
#[derive(Default)]
pub struct Keys {
    seen: Mutex<BTreeMap<String, Entry>>,
}

impl Keys {
    /// The answer to give again for `key`, when it was used before for the same `call`; a
    /// refusal when it was used for another call; `None` for a key not seen (or forgotten).
    pub fn replay(&self, key: &str, call: &str) -> Result<Option<Value>, Unusable> {
        valid(key)?;
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        seen.retain(|_, e| e.at.elapsed() < KEPT);
        match seen.get(key) {
            None => Ok(None),
            Some(e) if e.call == call => Ok(Some(e.answer.clone())),
            Some(_) => Err(Unusable {
                what: format!(
                    "the idempotency key `{}` was used for another write",
                    crate::confine::shown_path(key)
                ),
                fix: "give each intended write a key of its own; repeat a key only to retry the very same call",
            }),
        }
    }

    /// Remember the answer of the call `key` names.
    pub fn remember(&self, key: &str, call: String, answer: Value) {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        seen.insert(
            key.to_string(),
            Entry {
                at: Instant::now(),
                call,
                answer,
            },
        );
    }
}

fn valid(key: &str) -> Result<(), Unusable> {
    let k = key.trim();
    if k.is_empty() || k.len() > LONGEST || k.chars().any(char::is_control) {
        return Err(Unusable {
            what: "`idempotency_key` must be 1 to 128 printable characters".into(),
            fix: "give a key that names this one write, e.g. a UUID, and the same key when you retry it",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_key_replays_its_own_call_and_refuses_another() {
        let k = Keys::default();
        assert_eq!(k.replay("k1", "a").ok().flatten(), None);
        k.remember("k1", "a".into(), json!({"n": 1}));
        assert_eq!(k.replay("k1", "a").ok().flatten(), Some(json!({"n": 1})));
        assert!(k.replay("k1", "b").is_err());
        assert_eq!(k.replay("k2", "b").ok().flatten(), None);
        assert!(k.replay("", "a").is_err());
        assert!(k.replay("a\u{7}", "a").is_err());
        assert!(KEPT >= Duration::from_secs(4 * 3600) && KEPT <= Duration::from_secs(48 * 3600));
    }
}
