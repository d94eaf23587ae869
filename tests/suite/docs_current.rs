//! Generated documentation stays current: the lint-codes table is rendered from the registry.

use std::path::Path;

#[test]
fn lint_codes_doc_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lint-codes.md");
    let fresh = auditbook::render::codes_doc::render();
    if std::env::var_os("AUDITBOOK_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(on_disk == fresh, "docs/lint-codes.md is stale; regenerate with AUDITBOOK_UPDATE_DOCS=1 cargo test --test suite docs_current");
}
