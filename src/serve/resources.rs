//! The resources: each check as its Markdown file (`auditbook://check/ID`), the rule table
//! and the reference of the catalogue format.

use super::state::State;
use rmcp::model::{Resource, ResourceContents, ResourceTemplate};

pub const RULES_TABLE: &str = "auditbook://rules-table";
pub const FORMAT_REFERENCE: &str = "auditbook://format-reference";
const CHECK_PREFIX: &str = "auditbook://check/";
const MARKDOWN: &str = "text/markdown";

/// The format reference, as the repository documents it.
const FORMAT_DOC: &str = include_str!("../../docs/catalogue-format.md");

/// Every resource, in a stable order: the two documents, then the checks by id.
pub fn list(state: &State) -> Vec<Resource> {
    let mut out = vec![
        Resource::new(FORMAT_REFERENCE, "format-reference")
            .with_title("The catalogue format")
            .with_description(
                "How a catalogue is laid out: catalogue.yaml, check files, profiles, results",
            )
            .with_mime_type(MARKDOWN),
        Resource::new(RULES_TABLE, "rules-table")
            .with_title("Rule table")
            .with_description("Which rules cover which checks")
            .with_mime_type(MARKDOWN),
    ];
    for c in state.catalogue().checks_by_id() {
        out.push(
            Resource::new(format!("{CHECK_PREFIX}{}", c.id), c.id.to_string())
                .with_title(format!("{} — {}", c.id, c.title))
                .with_mime_type(MARKDOWN),
        );
    }
    out
}

/// The template of the check resources, for clients that complete an id.
pub fn check_template() -> ResourceTemplate {
    ResourceTemplate::new(format!("{CHECK_PREFIX}{{id}}"), "check")
        .with_title("One check")
        .with_description("A check of the catalogue by id, as its Markdown file")
        .with_mime_type(MARKDOWN)
}

/// A resource's text, or why there is none.
pub fn read(state: &State, uri: &str) -> Result<ResourceContents, String> {
    let text = if uri == FORMAT_REFERENCE {
        FORMAT_DOC.to_string()
    } else if uri == RULES_TABLE {
        crate::render::tables::render(
            &state.templates,
            state.catalogue(),
            "rules-table",
            &Default::default(),
            "md",
        )?
    } else if let Some(id) = uri.strip_prefix(CHECK_PREFIX) {
        let Some(c) = state.catalogue().check(id) else {
            return Err(format!(
                "no check `{}` in this catalogue; resources/list names every check",
                crate::confine::shown_path(id)
            ));
        };
        match c.source.get() {
            Some(t) => t.to_string(),
            None => return Err(format!("the text of `{id}` was not kept when loading")),
        }
    } else {
        return Err(format!(
            "no resource `{}`; resources/list names them ({CHECK_PREFIX}ID, {RULES_TABLE}, {FORMAT_REFERENCE})",
            crate::confine::shown_path(uri)
        ));
    };
    Ok(ResourceContents::text(text, uri).with_mime_type(MARKDOWN))
}
