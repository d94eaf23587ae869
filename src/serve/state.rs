//! The server's state, shared by every connection and every tool: its own file so the tools
//! depend on it and not on the handler that offers them.

use std::path::Path;
use std::sync::Mutex;

/// What every call reads: the catalogue and its graph, the templates, the folder writes are
/// confined to, and the probe targets allowed.
pub struct State {
    pub session: crate::session::Session,
    pub templates: crate::render::templates::Templates,
    /// The catalogue root as it was named, for links in reports.
    pub catalogue_shown: String,
    pub fence: crate::confine::Fence,
    /// Probe targets `probe_target` may reach (empty: the tool is not offered).
    pub allow_probe: Vec<String>,
    /// Whether the writing tools are offered (`--allow-write`).
    pub allow_write: bool,
    /// Held while a writing tool reads and rewrites a file.
    pub writing: Mutex<()>,
    /// The writing tools' idempotency keys (`idempotency`).
    pub keys: super::idempotency::Keys,
    /// Where the server records what went wrong inside it (stderr, through `cli::output`):
    /// the caller is told that something failed, this log what and why.
    pub log: fn(&str),
    /// Each check's id, title and text in lower case, by id, for `search_checks`: built on
    /// start, so a search does not fold the whole catalogue's text again.
    searchable: std::collections::BTreeMap<String, String>,
}

impl State {
    pub fn new(
        session: crate::session::Session,
        templates: crate::render::templates::Templates,
        catalogue_shown: String,
        root: &Path,
        allow_probe: Vec<String>,
        allow_write: bool,
        log: fn(&str),
    ) -> State {
        // Folded at start, while no client waits, so the first search is as quick as the rest.
        let searchable = session
            .catalogue()
            .checks
            .iter()
            .map(|c| {
                let body = c.source.get().map(|t| t.as_ref()).unwrap_or("");
                let text = format!("{} {}\n{body}", c.id, c.title).to_lowercase();
                (c.id.to_string(), text)
            })
            .collect();
        State {
            session,
            templates,
            catalogue_shown,
            fence: crate::confine::Fence::new(root),
            allow_probe,
            allow_write,
            writing: Mutex::new(()),
            keys: Default::default(),
            log,
            searchable,
        }
    }

    /// The lower-case text a search matches a check's words against (empty for an id the
    /// catalogue does not have).
    pub fn searchable(&self, id: &str) -> &str {
        self.searchable.get(id).map_or("", String::as_str)
    }

    pub fn catalogue(&self) -> &crate::model::Catalogue {
        self.session.catalogue()
    }
}
