//! Which tools the probe calls, and the calls. Calling a tool can change things on the
//! server's side, so by default a tool is called only when it declares `readOnlyHint: true`
//! **and** nothing about it suggests a write (a write verb among the words of its name,
//! `destructiveHint: true`). Every tool not called is listed with the reason. The call with
//! arguments that break the input schema is a call too, and obeys the same rule.

use super::arguments;
use super::client::{Client, Era};
use super::observe::{note_modern, Answer, Call, Modern, NotCalled, Observation, Options};
use crate::evidence::untrusted;
use serde_json::{json, Map, Value as Json};

/// Which tools a probe may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallPolicy {
    /// No tool is called.
    None,
    /// Tools that declare `readOnlyHint: true` and are not suspected of writing.
    ReadOnly,
    /// Every tool (calls can change data on the server's side).
    All,
}

/// Verbs that name a write; the words of a tool's name are matched against them.
pub const WRITE_VERBS: &[&str] = &[
    "create",
    "add",
    "insert",
    "update",
    "set",
    "put",
    "post",
    "write",
    "delete",
    "remove",
    "drop",
    "send",
    "upload",
    "replace",
    "patch",
    "move",
    "rename",
    "destroy",
    "purge",
    "truncate",
    "erase",
    "wipe",
    "kill",
    "reset",
    "revoke",
    "grant",
    "submit",
    "publish",
    "execute",
    "exec",
    "run",
    "modify",
    "edit",
    "save",
    "store",
    "append",
    "merge",
    "approve",
    "cancel",
    "transfer",
    "pay",
    "deploy",
    "install",
    "uninstall",
    "restart",
    "shutdown",
    "disable",
    "enable",
];

/// The words of a name in any style (`delete_record`, `deleteRecord`, `Delete-Record`), lower
/// case.
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

pub fn name_of(tool: &Json) -> String {
    tool.get("name")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string()
}

fn hint(tool: &Json, h: &str) -> Option<bool> {
    tool.get("annotations")
        .and_then(|a| a.get(h))
        .and_then(Json::as_bool)
}

/// Why a tool is not called under `policy`, or `None` when it may be.
pub fn refusal(tool: &Json, policy: CallPolicy) -> Option<String> {
    match policy {
        CallPolicy::All => None,
        CallPolicy::None => Some("no tool is called (--call-tools none)".into()),
        CallPolicy::ReadOnly => {
            if hint(tool, "readOnlyHint") != Some(true) {
                return Some("it does not declare `readOnlyHint: true`".into());
            }
            if hint(tool, "destructiveHint") == Some(true) {
                return Some("it declares `destructiveHint: true`".into());
            }
            let name = name_of(tool);
            if let Some(w) = words(&name)
                .into_iter()
                .find(|w| WRITE_VERBS.contains(&w.as_str()))
            {
                return Some(format!(
                    "its name contains the write verb `{w}`, so it may write despite `readOnlyHint: true`"
                ));
            }
            None
        }
    }
}

async fn call(
    client: &mut Client,
    tool: &str,
    args: Map<String, Json>,
    modern: &mut Modern,
) -> Call {
    let params = json!({"name": tool, "arguments": Json::Object(args.clone())});
    let reply = client.request("tools/call", params).await;
    if client.era == Era::Modern {
        note_modern(modern, "tools/call", &reply);
    }
    Call {
        tool: untrusted::value(tool),
        arguments: Json::Object(args),
        answer: Answer::of(&reply),
    }
}

/// Call the tools the policy allows with arguments made from their input schema, and one of
/// them with arguments that break it.
pub async fn sample(
    client: &mut Client,
    opts: &Options,
    obs: &mut Observation,
    modern: &mut Modern,
) {
    let mut tools: Vec<Json> = obs.tools.items.clone();
    tools.sort_by_key(name_of);
    let mut samples = Vec::new();
    let mut not_called = Vec::new();
    let mut bad_target: Option<(String, Map<String, Json>)> = None;
    let mut upstream_target: Option<(String, Map<String, Json>)> = None;
    for tool in &tools {
        let name = name_of(tool);
        if let Some(why) = refusal(tool, opts.calls) {
            not_called.push(NotCalled {
                tool: untrusted::value(&name),
                why,
            });
            continue;
        }
        let schema = tool.get("inputSchema").cloned().unwrap_or(Json::Null);
        if bad_target.is_none() {
            if let Some(bad) = arguments::breaking(&schema) {
                bad_target = Some((name.clone(), bad));
            }
        }
        // Only a tool that promises a shape is sampled: its answer is held to its
        // `outputSchema`. Calling the others would show nothing the probe judges.
        if tool.get("outputSchema").is_none() {
            if opts.upstream_call && upstream_target.is_none() {
                if let Some(args) = arguments::sample(&schema) {
                    upstream_target = Some((name.clone(), args));
                    continue;
                }
            }
            not_called.push(NotCalled {
                tool: untrusted::value(&name),
                why: "it declares no `outputSchema`, so a sample would have nothing to be held to"
                    .into(),
            });
            continue;
        }
        if samples.len() == opts.max_calls {
            not_called.push(NotCalled {
                tool: untrusted::value(&name),
                why: format!("at most {} tools are sampled", opts.max_calls),
            });
            continue;
        }
        match arguments::sample(&schema) {
            Some(args) => samples.push((name, args)),
            None => not_called.push(NotCalled {
                tool: untrusted::value(&name),
                why: "no arguments could be made from its input schema".into(),
            }),
        }
    }
    let sampled = !samples.is_empty();
    for (name, args) in samples {
        let c = call(client, &name, args, modern).await;
        obs.samples.push(c);
    }
    // A sample already asked the server for something; otherwise one allowed tool is called
    // to see what the server sends upstream.
    if let Some((name, args)) = upstream_target {
        if sampled {
            not_called.push(NotCalled {
                tool: untrusted::value(&name),
                why: "it declares no `outputSchema`, so a sample would have nothing to be held to"
                    .into(),
            });
        } else {
            obs.upstream = Some(call(client, &name, args, modern).await);
        }
    }
    if let Some((name, args)) = bad_target {
        obs.bad_call = Some(call(client, &name, args, modern).await);
    }
    obs.not_called = not_called;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_only_tool_suspected_of_writing_is_not_called() {
        let ro = json!({"readOnlyHint": true, "destructiveHint": false});
        let del = json!({"name": "delete_record", "annotations": ro});
        assert!(refusal(&del, CallPolicy::ReadOnly).is_some_and(|w| w.contains("`delete`")));
        let camel = json!({"name": "purgeCache", "annotations": ro});
        assert!(refusal(&camel, CallPolicy::ReadOnly).is_some());
        let add = json!({"name": "add_numbers", "annotations": ro});
        // `add` is a write verb: a pure adder is still not called; the heuristic errs on safety.
        assert!(refusal(&add, CallPolicy::ReadOnly).is_some());
        let get = json!({"name": "get_record", "annotations": ro});
        assert_eq!(refusal(&get, CallPolicy::ReadOnly), None);
        let unhinted = json!({"name": "get_record"});
        assert!(refusal(&unhinted, CallPolicy::ReadOnly).is_some());
        assert_eq!(refusal(&del, CallPolicy::All), None);
        assert_eq!(
            words("getHTTPRecord_v2-x"),
            vec!["get", "httprecord", "v2", "x"]
        );
    }
}
