//! Which check fields `verify` reads: a change of a field nothing here reads leaves every
//! finding of `verify` as it was, so the language server keeps them after such an edit.
//!
//! Whatever cannot be decided from what the catalogue declares counts as read: a region a
//! template renders, a table that lists whole checks.

use super::regions;
use crate::model::Catalogue;

/// Whether any part of `verify` may read the field `key` (`model::fields`) of some check.
/// The ids of checks are left out: this answers for an edit that keeps a check's id.
pub fn field(cat: &Catalogue, key: &str) -> bool {
    // Each check `require_coverage` selects must be linked where the rule table is.
    crate::select::coverage_may_read(cat, key)
        || cat
            .config
            .claims
            .iter()
            .any(|c| claim_reads(c, key))
        || cat.documents.iter().any(|d| {
            regions::parse(&d.text)
                .regions
                .iter()
                .any(|r| region_reads(&r.name, &r.args, key))
        })
}

/// A claim reads the fields its queries and expressions name, and some without naming them:
/// a category's membership (`categories`) is its checks' `category`, a table's `name` column
/// is a check's title, `literals(FIELD)` reads every `applies_when`.
fn claim_reads(claim: &crate::model::config::ClaimDecl, key: &str) -> bool {
    // Everything the claim declares, as one text: a field it names is in it.
    let Ok(text) = serde_json::to_string(claim) else {
        return true;
    };
    text.contains(key)
        || (key == "category" && text.contains("categories"))
        || (key == "title" && claim.table.is_some())
        || (key == "applies_when" && text.contains("literals"))
}

/// What a generated region's table reads of the checks (`render::tables::data`).
fn region_reads(name: &str, args: &[(String, String)], key: &str) -> bool {
    let narrowed = args.iter().any(|(k, v)| match k.as_str() {
        "where" => crate::select::may_read(v, key),
        "category" => key == "category",
        _ => false,
    });
    let rows: &[&str] = match name {
        "rules-table" => &["severity", "adoption", "title"],
        "category-counts" => &["category", "adoption"],
        "severity-counts" => &["severity", "adoption"],
        // Whole checks (every field), or a template's own table: anything.
        _ => return true,
    };
    narrowed || rows.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(yaml: &str) -> crate::model::config::ClaimDecl {
        serde_yaml::from_str(yaml).unwrap()
    }

    #[test]
    fn a_claim_reads_the_fields_it_names_and_those_it_reads_unnamed() {
        let plain = claim("name: n\ndoc: README.md\npattern: '(?P<n>\\d+) Prüfungen'\nexpect: {n: count(checks)}\n");
        assert!(!claim_reads(&plain, "title"));
        assert!(!claim_reads(&plain, "severity"));
        let named = claim("name: n\ndoc: README.md\npattern: '(?P<n>\\d+)'\nexpect: {n: 'count(checks where severity == \"high\")'}\n");
        assert!(claim_reads(&named, "severity"));
        assert!(!claim_reads(&named, "adoption"));
        let by_category = claim("name: n\ndoc: README.md\npattern: '(?P<n>\\d+)'\nexpect: {n: 'count(categories where adoption == \"advisory\")'}\n");
        assert!(claim_reads(&by_category, "category"));
        let table = claim("name: t\ndoc: README.md\ntable: {keys: 'ids(checks)', columns: {Titel: name}}\n");
        assert!(claim_reads(&table, "title"));
        let literals = claim("name: l\ndoc: README.md\npattern: 'eins von (?P<v>[^;]*);'\nmembers: {read: 'split(\" / \")', equals: literals(transport)}\n");
        assert!(claim_reads(&literals, "applies_when"));
        assert!(!claim_reads(&literals, "severity"));
    }

    #[test]
    fn a_count_table_reads_its_fields_and_a_listing_reads_every_field() {
        assert!(region_reads("severity-counts", &[], "severity"));
        assert!(!region_reads("severity-counts", &[], "title"));
        let narrowed = [("where".to_string(), "title contains \"TLS\"".to_string())];
        assert!(region_reads("severity-counts", &narrowed, "title"));
        assert!(region_reads("check-index", &[], "title"));
        assert!(region_reads("my-own-table", &[], "evidence_required"));
    }
}
