//! Go to definition, find references and rename for check ids.

use super::world::{Occurrence, Place, CATALOGUE_FILE};
use super::Ctx;
use lsp_types as lsp;
use std::collections::BTreeMap;

pub fn definition(c: &Ctx<'_>, pos: lsp::Position) -> Option<lsp::GotoDefinitionResponse> {
    let (id, _, _) = c.id_at(pos)?;
    let d = c.world.definition(&id)?;
    let loc = c.location(&d.file, d.start, d.end)?;
    Some(lsp::GotoDefinitionResponse::Scalar(loc))
}

/// Every link and mention of the id (the definition too when the client asks for it). The
/// protocol's locations carry no kind; links come first, then mentions, each in file order,
/// and the log of the server says which is which.
pub fn references(
    c: &Ctx<'_>,
    pos: lsp::Position,
    context: &lsp::ReferenceContext,
) -> Option<Vec<lsp::Location>> {
    let (id, _, _) = c.id_at(pos)?;
    let mut found: Vec<Occurrence> = c
        .world
        .occurrences(&id)
        .into_iter()
        .filter(|o| context.include_declaration || o.place != Place::Definition)
        .collect();
    found.sort_by(|a, b| (rank(a.place), &a.file, a.start).cmp(&(rank(b.place), &b.file, b.start)));
    Some(
        found
            .iter()
            .filter_map(|o| c.location(&o.file, o.start, o.end))
            .collect(),
    )
}

fn rank(p: Place) -> u8 {
    match p {
        Place::Definition => 0,
        Place::Link => 1,
        Place::Mention => 2,
        Place::Manifest => 3,
        Place::Ledger => 4,
    }
}

pub fn prepare_rename(c: &Ctx<'_>, pos: lsp::Position) -> Option<lsp::PrepareRenameResponse> {
    let (id, s, e) = c.id_at(pos)?;
    c.world.catalogue()?.check(&id)?;
    Some(lsp::PrepareRenameResponse::Range(c.range(s, e)))
}

/// Rename a live check: every occurrence, the file itself, and a `replaced_by` entry in the
/// retired ledger (the old number is burned, as the format wants).
pub fn rename(
    c: &Ctx<'_>,
    pos: lsp::Position,
    new_id: &str,
) -> Result<Option<lsp::WorkspaceEdit>, String> {
    let Some((old, _, _)) = c.id_at(pos) else {
        return Ok(None);
    };
    let Some(cat) = c.world.catalogue() else {
        return Ok(None);
    };
    let Some(check) = cat.check(&old) else {
        return Err(format!(
            "`{old}` is retired; only a live check can be renamed"
        ));
    };
    let new_id = new_id.trim();
    if !cat.config.id_regex().is_match(new_id) {
        return Err(format!(
            "`{new_id}` does not match the catalogue's id pattern `{}`",
            cat.config.id_pattern()
        ));
    }
    if c.world.is_known(new_id) {
        return Err(format!("`{new_id}` is already a check or a retired id"));
    }
    let mut by_file: BTreeMap<String, Vec<(usize, usize, String)>> = BTreeMap::new();
    for o in c.world.occurrences(&old) {
        by_file
            .entry(o.file)
            .or_default()
            .push((o.start, o.end, new_id.to_string()));
    }
    if cat.mode == crate::model::Mode::Declared {
        let text = c.world.text_of(CATALOGUE_FILE).unwrap_or_default();
        let (at, entry) = ledger_entry(&text, &old, new_id);
        by_file
            .entry(CATALOGUE_FILE.into())
            .or_default()
            .push((at, at, entry));
    }
    let mut changes = Vec::new();
    for (file, edits) in &by_file {
        let Some(text) = c.world.text_of(file) else {
            continue;
        };
        let Some(uri) = super::uri_of(&c.world.absolute(file)) else {
            continue;
        };
        let edits = edits
            .iter()
            .map(|(s, e, t)| {
                lsp::OneOf::Left(lsp::TextEdit {
                    range: super::convert::range(&text, *s, *e, c.enc),
                    new_text: t.clone(),
                })
            })
            .collect();
        changes.push(lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
            text_document: lsp::OptionalVersionedTextDocumentIdentifier { uri, version: None },
            edits,
        }));
    }
    // The file follows its id when it is named after it.
    let old_file = c.world.absolute(&check.file);
    if old_file.file_stem().is_some_and(|s| s == old.as_str()) {
        let new_file = old_file.with_file_name(format!("{new_id}.md"));
        if let (Some(old_uri), Some(new_uri)) = (super::uri_of(&old_file), super::uri_of(&new_file))
        {
            changes.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Rename(
                lsp::RenameFile {
                    old_uri,
                    new_uri,
                    options: None,
                    annotation_id: None,
                },
            )));
        }
    }
    Ok(Some(lsp::WorkspaceEdit {
        changes: None,
        document_changes: Some(lsp::DocumentChanges::Operations(changes)),
        change_annotations: None,
    }))
}

/// Where to add the retired entry for `old` in catalogue.yaml and its text: at the end of
/// the `retired:` list, or a new list at the end of the file.
pub fn ledger_entry(text: &str, old: &str, new_id: &str) -> (usize, String) {
    let entry = format!(
        "  - id: {old}\n    retired: \"{}\"\n    replaced_by: {new_id}\n    reason: \"Renamed to {new_id}.\"\n",
        crate::model::date::today()
    );
    let mut offset = 0;
    let mut in_list = false;
    let mut end = None;
    for line in text.split_inclusive('\n') {
        let top = !line.starts_with([' ', '\t', '-', '#']) && !line.trim().is_empty();
        if in_list && top {
            break;
        }
        if line.trim_end() == "retired:" {
            in_list = true;
        } else if in_list && !line.trim().is_empty() && !line.trim_start().starts_with('#') {
            end = Some(offset + line.len());
        }
        offset += line.len();
    }
    match end {
        Some(at) if text[..at].ends_with('\n') => (at, entry),
        Some(at) => (at, format!("\n{entry}")),
        None if in_list => (text.len(), entry),
        None => {
            let sep = if text.is_empty() || text.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            (text.len(), format!("{sep}\nretired:\n{entry}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_goes_at_the_end_of_the_ledger() {
        let t = "name: x\nretired:\n  - id: A-002\n    retired: \"2026-01-01\"\n\nprofile:\n  fields: {}\n";
        let (at, e) = ledger_entry(t, "A-001", "A-009");
        assert_eq!(
            &t[..at],
            "name: x\nretired:\n  - id: A-002\n    retired: \"2026-01-01\"\n"
        );
        assert!(e.starts_with("  - id: A-001\n"));
        let (at, e) = ledger_entry("name: x\n", "A-001", "A-009");
        assert_eq!(at, 8);
        assert!(e.starts_with("\nretired:\n  - id: A-001\n"));
    }
}
