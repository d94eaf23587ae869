//! The language server's quick fixes are `lint --fix`'s fixes: besides a retired link (in
//! `tests/suite/lsp.rs`), a missing standard section, a bare date-like baseline and a stale generated
//! region in a document each get one action whose edit, applied, makes the finding go away —
//! and the clean twin gets none.

use crate::common;
use crate::lsp_client;

use common::Fixture;
use lsp_client::{uri, Client};
use serde_json::{json, Value};
use std::path::Path;

/// Every action the server offers for the whole of `path`.
fn actions_over(c: &mut Client, path: &Path, text: &str) -> Vec<Value> {
    let last = text.lines().count() as u32;
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(path)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": last, "character": 0}},
            "context": {"diagnostics": []}}),
    );
    r["result"].as_array().cloned().unwrap_or_default()
}

/// Byte offset of a (line, UTF-16 character) position.
fn offset(text: &str, line: u64, character: u64) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line as usize)
        .map(str::len)
        .sum();
    let rest = &text[start..];
    let mut units = 0u64;
    for (i, ch) in rest.char_indices() {
        if units >= character || ch == '\n' {
            return start + i;
        }
        units += ch.len_utf16() as u64;
    }
    text.len()
}

/// `text` with the action's edits to `path` applied (from the end, so offsets stay valid).
fn apply(text: &str, action: &Value, path: &Path) -> String {
    let edits = action["edit"]["changes"][uri(path)]
        .as_array()
        .unwrap_or_else(|| panic!("no edit of {}: {action}", path.display()));
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let s = offset(
                text,
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
            );
            let en = offset(
                text,
                r["end"]["line"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
            );
            (s, en, e["newText"].as_str().unwrap().to_string())
        })
        .collect();
    spans.sort();
    let mut out = text.to_string();
    for (s, e, new) in spans.into_iter().rev() {
        out.replace_range(s..e, &new);
    }
    out
}

/// The one quick fix offered for `code`, applied; then the finding is gone.
fn fix_once(c: &mut Client, path: &Path, text: &str, code: &str) -> String {
    c.change(path, text);
    c.sync();
    assert!(
        c.codes(path).iter().any(|x| x == code),
        "{code} not published: {:?}",
        c.codes(path)
    );
    let offered: Vec<Value> = actions_over(c, path, text)
        .into_iter()
        .filter(|a| {
            a["diagnostics"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["code"] == code))
        })
        .collect();
    assert_eq!(offered.len(), 1, "one action for {code}: {offered:?}");
    assert_eq!(offered[0]["kind"], "quickfix");
    let fixed = apply(text, &offered[0], path);
    c.change(path, &fixed);
    c.sync();
    assert!(
        !c.codes(path).iter().any(|x| x == code),
        "{code} still published after the fix: {:?}",
        c.codes(path)
    );
    fixed
}

#[test]
fn a_missing_section_is_added_and_a_bare_date_quoted() {
    let f = Fixture::shipped();
    let check = f.path("checks/DRIFT-008.md");
    let mut c = Client::start(f.root());
    let text = c.open(&check);
    c.sync();
    // The clean twin: no action anywhere in the file.
    assert_eq!(actions_over(&mut c, &check, &text), Vec::<Value>::new());

    // The `## Effort` heading and its text removed: the section is missing.
    let start = text.find("## Effort").unwrap();
    let end = text.find("## References").unwrap();
    let without = format!("{}{}", &text[..start], &text[end..]);
    let fixed = fix_once(&mut c, &check, &without, "AB220");
    assert!(fixed.contains("\n## Effort\n"), "{fixed}");

    // A dated baseline written without quotes: quoted, value unchanged.
    let dated = text.replace("spec_baseline: both", "spec_baseline: 2025-11-25");
    let fixed = fix_once(&mut c, &check, &dated, "AB123");
    assert!(fixed.contains("spec_baseline: \"2025-11-25\"\n"), "{fixed}");
    c.finish();
}

#[test]
fn a_stale_generated_region_is_regenerated() {
    let f = Fixture::shipped();
    let readme = f.path("README.md");
    let mut c = Client::start(f.root());
    let text = c.open(&readme);
    c.sync();
    assert_eq!(actions_over(&mut c, &readme, &text), Vec::<Value>::new());

    // A row of the generated rules table edited by hand.
    let begin = text.find("<!-- auditbook:begin rules-table").unwrap();
    let end = text.find("<!-- auditbook:end rules-table -->").unwrap();
    let region = &text[begin..end];
    let row = region
        .lines()
        .find(|l| l.starts_with("| FID-001"))
        .or_else(|| region.lines().filter(|l| l.starts_with("| ")).nth(2))
        .unwrap()
        .to_string();
    let stale = text.replacen(&row, &format!("{row} (von Hand ergänzt)"), 1);
    let fixed = fix_once(&mut c, &readme, &stale, "AB601");
    assert_eq!(fixed, text, "the region is back as generated");
    c.finish();
}
