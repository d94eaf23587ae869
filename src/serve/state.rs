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
    /// Held while a writing tool reads and rewrites a file.
    pub writing: Mutex<()>,
}

impl State {
    pub fn new(
        session: crate::session::Session,
        templates: crate::render::templates::Templates,
        catalogue_shown: String,
        root: &Path,
        allow_probe: Vec<String>,
    ) -> State {
        State {
            session,
            templates,
            catalogue_shown,
            fence: crate::confine::Fence::new(root),
            allow_probe,
            writing: Mutex::new(()),
        }
    }

    pub fn catalogue(&self) -> &crate::model::Catalogue {
        self.session.catalogue()
    }
}
