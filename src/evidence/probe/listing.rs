//! Listing what a server offers — tools, resources, prompts, resource templates — page by page,
//! bounded: at most `max_pages` pages and `max_items` items, and a cursor the server repeats
//! stops the listing (a loop, not more data). A listing that got no answer at all is not
//! "nothing offered": it is recorded as broken, and a broken `tools/list` means the server was
//! lost after it was opened.

use super::client::{Client, Era};
use super::observe::{note_modern, Modern, Observation, Options, Reach};
use super::transport::{Reply, Trouble};
use crate::evidence::untrusted;
use serde::Serialize;
use serde_json::{json, Value as Json};

/// One listing.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Listing {
    pub items: Vec<Json>,
    /// The server answered the first page (with a result or a JSON-RPC error).
    pub answered: bool,
    /// Every page was read; `false` when a bound, a repeated cursor or a failure cut it short.
    pub complete: bool,
    pub pages: usize,
    /// What happened on the way, one line each (quoted).
    pub notes: Vec<String>,
    /// How the server was lost during the listing, when it was.
    #[serde(skip)]
    pub broke: Option<Reach>,
}

/// List `method` (`tools/list`, …), reading `key` (`tools`, …) from each page.
pub async fn list(
    client: &mut Client,
    method: &str,
    key: &str,
    opts: &Options,
    modern: &mut Modern,
) -> Listing {
    let mut out = Listing::default();
    let mut cursor: Option<String> = None;
    let mut seen = std::collections::BTreeSet::new();
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let reply = client.request(method, params).await;
        if client.era == Era::Modern {
            note_modern(modern, method, &reply);
        }
        let Some(result) = reply.result() else {
            lost(&mut out, method, &reply);
            return out;
        };
        out.answered = true;
        out.pages += 1;
        let items = result.get(key).and_then(Json::as_array);
        if items.is_none() {
            out.notes.push(format!(
                "{method}: the result has no `{key}` list: {}",
                untrusted::json(result, 160)
            ));
        }
        for item in items.into_iter().flatten() {
            if out.items.len() == opts.max_items {
                out.notes.push(format!(
                    "{method}: more than {} items; the rest were not read",
                    opts.max_items
                ));
                return out;
            }
            out.items.push(item.clone());
        }
        match result.get("nextCursor").and_then(Json::as_str) {
            None => {
                out.complete = true;
                return out;
            }
            Some(next) => {
                if !seen.insert(next.to_string()) {
                    out.notes.push(format!(
                        "{method}: the server repeated the cursor `{}`; the listing was stopped (a pagination loop)",
                        untrusted::value(next)
                    ));
                    return out;
                }
                if out.pages == opts.max_pages {
                    out.notes.push(format!(
                        "{method}: more than {} pages; the rest were not read",
                        opts.max_pages
                    ));
                    return out;
                }
                cursor = Some(next.to_string());
            }
        }
    }
}

/// A page without a result: a JSON-RPC error (the server answered; `-32601` means it offers
/// none of these), or no answer at all (the server was lost).
fn lost(out: &mut Listing, method: &str, reply: &Reply) {
    match (reply.error_code(), &reply.trouble) {
        (Some(-32601), _) => {
            out.answered = true;
            out.complete = out.pages == 0;
            out.notes.push(format!(
                "{method}: method not found (-32601), the server offers none"
            ));
        }
        (Some(code), _) => {
            out.answered = true;
            out.notes.push(format!(
                "{method}: JSON-RPC error {code}: \"{}\"",
                untrusted::value(&reply.error_message())
            ));
        }
        (None, t) => {
            let why = t
                .as_ref()
                .map(Trouble::describe)
                .unwrap_or_else(|| "no answer".into());
            out.notes.push(format!("{method}: {why}"));
            let after = format!("after it was opened, {method} got {why}");
            out.broke = Some(match t {
                Some(Trouble::TimedOut(_)) => Reach::Hung(after),
                Some(Trouble::NotJsonRpc(_) | Trouble::TooLarge(_)) => Reach::NotMcp(after),
                _ => Reach::Crashed(after),
            });
        }
    }
}

/// Every listing the observation needs, from the primary client.
pub async fn all(client: &mut Client, opts: &Options, obs: &mut Observation, modern: &mut Modern) {
    obs.tools = list(client, "tools/list", "tools", opts, modern).await;
    if obs.tools.broke.is_some() {
        return;
    }
    obs.resources = list(client, "resources/list", "resources", opts, modern).await;
    obs.prompts = list(client, "prompts/list", "prompts", opts, modern).await;
    obs.templates = list(
        client,
        "resources/templates/list",
        "resourceTemplates",
        opts,
        modern,
    )
    .await;
}

/// The tool names of a second listing, in order.
pub async fn names_again(
    client: &mut Client,
    opts: &Options,
    modern: &mut Modern,
) -> Option<Vec<String>> {
    let again = list(client, "tools/list", "tools", opts, modern).await;
    again.complete.then(|| {
        again
            .items
            .iter()
            .map(|t| untrusted::value(t.get("name").and_then(Json::as_str).unwrap_or("")))
            .collect()
    })
}
