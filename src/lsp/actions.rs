//! Code actions: the fixes of `crate::fix` for the findings in the requested range, as
//! quick fixes with workspace edits.

use super::Ctx;
use lsp_types as lsp;
use std::collections::BTreeMap;

pub fn actions(c: &Ctx<'_>, p: &lsp::CodeActionParams) -> Option<lsp::CodeActionResponse> {
    let cat = c.world.catalogue()?;
    let first = p.range.start.line as usize + 1;
    let last = p.range.end.line as usize + 1;
    let here: Vec<crate::diag::Diagnostic> = c
        .world
        .findings_in(&c.rel)
        .iter()
        .filter(|d| d.line.is_some_and(|l| (first..=last).contains(&l)))
        .cloned()
        .collect();
    let text_of = |f: &str| c.world.text_of(f);
    let graph = c.world.graph()?;
    let out = crate::fix::fixes(cat, graph, &here, &text_of)
        .into_iter()
        .filter_map(|fix| action(c, fix, &here))
        .map(lsp::CodeActionOrCommand::CodeAction)
        .collect();
    Some(out)
}

// The protocol's map of edits is keyed by URI; lsp_types' `Uri` caches its parsed parts
// inside, which clippy takes for a mutable key, though its hash and equality never change.
#[allow(clippy::mutable_key_type)]
fn action(
    c: &Ctx<'_>,
    fix: crate::fix::Fix,
    here: &[crate::diag::Diagnostic],
) -> Option<lsp::CodeAction> {
    let mut by_file: BTreeMap<String, Vec<crate::fix::TextEdit>> = BTreeMap::new();
    for e in fix.edits {
        by_file.entry(e.file.clone()).or_default().push(e);
    }
    let mut changes = std::collections::HashMap::new();
    for (file, edits) in by_file {
        let text = c.world.text_of(&file)?;
        let uri = super::uri_of(&c.world.absolute(&file))?;
        let edits = edits
            .into_iter()
            .map(|e| lsp::TextEdit {
                range: super::convert::range(&text, e.start, e.end, c.enc),
                new_text: e.replacement,
            })
            .collect();
        changes.insert(uri, edits);
    }
    let diagnostics = here
        .iter()
        .filter(|d| d.code == fix.code)
        .map(|d| super::convert::diagnostic(&c.text, d, c.enc))
        .collect();
    Some(lsp::CodeAction {
        title: fix.title,
        kind: Some(lsp::CodeActionKind::QUICKFIX),
        diagnostics: Some(diagnostics),
        edit: Some(lsp::WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        }),
        is_preferred: Some(fix.safety == crate::fix::Safety::Safe),
        ..Default::default()
    })
}
