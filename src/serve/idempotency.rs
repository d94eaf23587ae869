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
    /// Run `write` once for `key`: a key not seen (or forgotten) runs it and keeps its answer
    /// (`false`: not replayed); a key used before for the same `call` gives that answer again
    /// (`true`) and writes nothing; a key used for another call is refused. The keys stay
    /// locked from the look-up to the keeping, so two concurrent calls with one new key cannot
    /// both write. A write that fails is not kept, and its retry writes.
    pub fn once<E>(
        &self,
        key: &str,
        call: String,
        write: impl FnOnce() -> Result<Value, E>,
    ) -> Result<Result<(Value, bool), E>, Unusable> {
        valid(key)?;
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        seen.retain(|_, e| e.at.elapsed() < KEPT);
        match seen.get(key) {
            None => {}
            Some(e) if e.call == call => return Ok(Ok((e.answer.clone(), true))),
            Some(_) => {
                return Err(Unusable {
                    what: format!(
                        "the idempotency key `{}` was used for another write",
                        crate::confine::shown_path(key)
                    ),
                    fix: "give each intended write a key of its own; repeat a key only to retry the very same call",
                })
            }
        }
        Ok(write().map(|answer| {
            seen.insert(
                key.to_string(),
                Entry {
                    at: Instant::now(),
                    call,
                    answer: answer.clone(),
                },
            );
            (answer, false)
        }))
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
        let mut writes = 0;
        let mut run = |key: &str, call: &str| {
            k.once(key, call.into(), || -> Result<Value, ()> {
                writes += 1;
                Ok(json!({"n": writes}))
            })
            .ok()
            .and_then(Result::ok)
        };
        assert_eq!(run("k1", "a"), Some((json!({"n": 1}), false)));
        assert_eq!(run("k1", "a"), Some((json!({"n": 1}), true)));
        assert_eq!(run("k1", "b"), None);
        assert_eq!(run("k2", "b"), Some((json!({"n": 2}), false)));
        assert_eq!(run("", "a"), None);
        assert_eq!(run("a\u{7}", "a"), None);
        assert_eq!(writes, 2);
        assert!(KEPT >= Duration::from_secs(4 * 3600) && KEPT <= Duration::from_secs(48 * 3600));
    }

    #[test]
    fn concurrent_calls_with_one_new_key_write_once() {
        let k = Keys::default();
        let writes = std::sync::atomic::AtomicUsize::new(0);
        let replays = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    let r = k.once("k", "a".into(), || -> Result<Value, ()> {
                        writes.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        // A write slow enough for the other calls to arrive meanwhile.
                        std::thread::sleep(Duration::from_millis(20));
                        Ok(json!(1))
                    });
                    if matches!(r, Ok(Ok((_, true)))) {
                        replays.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(writes.into_inner(), 1);
        assert_eq!(replays.into_inner(), 7);
    }

    #[test]
    fn a_failed_write_is_not_kept_and_its_retry_writes() {
        let k = Keys::default();
        let failed = k.once("k", "a".into(), || Err::<Value, &str>("disk full"));
        assert!(matches!(failed, Ok(Err("disk full"))));
        let retried = k.once("k", "a".into(), || Ok::<Value, &str>(json!(1)));
        assert!(matches!(retried, Ok(Ok((_, false)))));
    }
}
