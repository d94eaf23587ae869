//! A declared probe's steps against what they got: each matcher holds or does not, and a
//! matcher that does not hold quotes what was found in its place. A matcher that cannot be
//! judged (an HTTP status over stdio, no answer at all) decides nothing.

use super::{looked_in, undecided, Seen};
use crate::evidence::probe::observe::{Exchanged, Observation};
use crate::evidence::probe::steps::answer_json;
use crate::evidence::untrusted;
use crate::model::declared::Records;
use crate::model::probe::ProbeSpec;
use crate::model::probe_steps::{HeaderTest, Matcher, Test};
use serde_json::Value as Json;

/// Numbers compare by value (`1` equals `1.0`); everything else exactly.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What a matcher asks, in one line.
pub fn asks(m: &Matcher) -> String {
    if let Some(s) = &m.says {
        return s.clone();
    }
    let at = m.pointer.as_deref().map(|p| {
        if p.is_empty() {
            "the answer".to_string()
        } else {
            format!("`{p}`")
        }
    });
    let at = at.unwrap_or_default();
    match &m.test {
        Test::Exists(true) => format!("{at} exists"),
        Test::Exists(false) => format!("{at} is absent"),
        Test::Equals(v) => format!("{at} equals {v}"),
        Test::Matches(re) => format!("{at} matches `{re}`"),
        Test::In(vs) => format!(
            "{at} is one of {}",
            vs.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Test::Schema(_) => format!("{at} validates against the step's schema"),
        Test::Status(c) => format!(
            "HTTP status {}",
            c.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        ),
        Test::Header { name, test } => match test {
            HeaderTest::Present(true) => format!("header `{name}` present"),
            HeaderTest::Present(false) => format!("header `{name}` absent"),
            HeaderTest::Equals(v) => format!("header `{name}` is `{v}`"),
            HeaderTest::Matches(re) => format!("header `{name}` matches `{re}`"),
        },
    }
}

/// Whether the matcher holds: `Some(Ok)`, `Some(Err(found))` with what was found, or `None`
/// when it cannot be judged on this answer.
fn holds(m: &Matcher, e: &Exchanged) -> Option<Result<(), String>> {
    let verdict = |ok: bool, found: String| Some(if ok { Ok(()) } else { Err(found) });
    match &m.test {
        Test::Status(codes) => {
            let s = e.reply.status()?;
            verdict(codes.contains(&s), format!("HTTP {s}"))
        }
        Test::Header { name, test } => {
            e.reply.http.as_ref()?;
            let h = e.reply.header(name);
            let found = h
                .map(|v| format!("`{v}`"))
                .unwrap_or_else(|| "absent".into());
            match test {
                HeaderTest::Present(p) => verdict(h.is_some() == *p, found),
                HeaderTest::Equals(v) => verdict(h == Some(v.as_str()), found),
                HeaderTest::Matches(re) => {
                    let re = regex::Regex::new(re).ok()?;
                    verdict(h.is_some_and(|v| re.is_match(v)), found)
                }
            }
        }
        value_test => {
            let answer = answer_json(e)?;
            let p = m.pointer.as_deref().unwrap_or("");
            let v = answer.pointer(p);
            let found = v
                .map(|x| untrusted::json(x, 120))
                .unwrap_or_else(|| "nothing".into());
            match value_test {
                Test::Exists(want) => verdict(v.is_some() == *want, found),
                Test::Equals(want) => verdict(v.is_some_and(|x| same(x, want)), found),
                Test::Matches(re) => {
                    let re = regex::Regex::new(re).ok()?;
                    verdict(v.is_some_and(|x| re.is_match(&text(x))), found)
                }
                Test::In(set) => verdict(v.is_some_and(|x| set.iter().any(|s| same(x, s))), found),
                Test::Schema(schema) => {
                    let Some(x) = v else {
                        return verdict(false, found);
                    };
                    let validator = jsonschema::validator_for(schema).ok()?;
                    let errors: Vec<String> = validator
                        .iter_errors(x)
                        .take(2)
                        .map(|e| e.to_string())
                        .collect();
                    verdict(
                        errors.is_empty(),
                        format!("{found} ({})", untrusted::quote(&errors.join("; "), 200)),
                    )
                }
                _ => None,
            }
        }
    }
}

pub fn judge(spec: &ProbeSpec, obs: &Observation, key: Option<&str>) -> Seen {
    let Some(run) = key.and_then(|k| obs.steps.get(k)) else {
        return undecided("the declared steps were not run");
    };
    let mut defects: Vec<(&'static str, String)> = Vec::new();
    let mut clean = Vec::new();
    let mut open = Vec::new();
    for (i, (step, e)) in spec.steps.iter().zip(&run.exchanges).enumerate() {
        let n = i + 1;
        let shown = untrusted::cut(&e.shown(), 300);
        for m in &step.expect {
            match holds(m, e) {
                Some(Ok(())) => clean.push(format!("step {n}: {shown}: {}", asks(m))),
                Some(Err(found)) => {
                    let name = match step.records {
                        Records::Fail => "expectation",
                        Records::Partial => "expectation-partial",
                        Records::NotVerified => "expectation-open",
                    };
                    defects.push((
                        name,
                        format!("step {n}: {shown}: expected {}, found {found}", asks(m)),
                    ));
                }
                None => open.push(format!(
                    "step {n}: {shown}: {} could not be judged on this answer",
                    asks(m)
                )),
            }
        }
    }
    if let Some(why) = &run.stopped {
        open.push(why.clone());
    }
    if defects.is_empty() && !open.is_empty() {
        let mut lines = open;
        lines.extend(clean);
        return Seen::Undecided(untrusted::bounded(lines, 30));
    }
    looked_in(defects, vec![], untrusted::bounded(clean, 30))
}
