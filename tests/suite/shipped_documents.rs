//! The project's own documents (README.md and catalogue/README.md) are held to the shipped
//! catalogue: no stale generated region, no failing claim, no dead link. And the splice that
//! `sync` performs keeps every byte outside the markers, whatever surrounds them.

use assert_cmd::Command;
use auditbook::claims::regions;
use proptest::prelude::*;

#[test]
fn shipped_documents_are_current() {
    let out = Command::cargo_bin("auditbook")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(["-C", "catalogue", "verify"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "a document is stale; run `cargo run -- -C catalogue sync`:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Text without markers, fences or HTML: what may surround a region in any document.
fn prose() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 #|*\\-.:\n\t]{0,200}").unwrap()
}

proptest! {
    #[test]
    fn nothing_outside_the_markers_changes(before in prose(), old in prose(), fresh in prose(), after in prose()) {
        let old = regions::content_for(&old, false);
        let fresh = regions::content_for(&fresh, false);
        let begin = "<!-- auditbook:begin category-counts base=../checks/ -->\n";
        let end = "<!-- auditbook:end category-counts -->\n";
        let text = format!("{before}\n{begin}{old}{end}{after}");
        let parsed = regions::parse(&text);
        prop_assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        prop_assert_eq!(parsed.regions.len(), 1);
        let once = regions::splice(&text, &parsed.regions, &|_| Some(fresh.clone()));
        prop_assert_eq!(&once, &format!("{before}\n{begin}{fresh}{end}{after}"));
        // Idempotent: the refreshed text parses to one region holding exactly the fresh text.
        let again = regions::parse(&once);
        prop_assert_eq!(again.regions.len(), 1);
        prop_assert_eq!(&once[again.regions[0].content.clone()], fresh.as_str());
        let twice = regions::splice(&once, &again.regions, &|_| Some(fresh.clone()));
        prop_assert_eq!(twice, once);
    }
}
