//! The members a piece of prose names, read the way the rest of the engine reads them: check
//! ids as links and mentions, category prefixes as words, rule ids as `PREFIX-N` with a known
//! rule prefix. Each with its byte offset in the text, for findings at the member.

use super::query::Set;
use crate::load::markdown;
use crate::model::Catalogue;
use std::collections::{BTreeMap, BTreeSet};

/// The members of `set` that `written` (a part of document `doc`) names, each at its first
/// byte offset.
pub fn extract(cat: &Catalogue, set: Set, doc: &str, written: &str) -> BTreeMap<String, usize> {
    let mut found = BTreeMap::new();
    if set.holds_check_ids() {
        let link_rules = markdown::LinkRules::of(cat);
        let rules = link_rules.with(&cat.categories);
        for r in markdown::outline(written, 1, doc, &rules, None).references {
            let off = written.find(r.target.as_str()).unwrap_or(0);
            found.entry(r.target.to_string()).or_insert(off);
        }
        return found;
    }
    let prefixes: BTreeSet<&str> = cat
        .rules
        .iter()
        .filter_map(|r| r.id.rsplit_once('-').map(|(p, _)| p))
        .collect();
    for (off, tok) in words(written) {
        let keep = match set {
            Set::Categories => cat.is_category(tok),
            _ => tok.rsplit_once('-').is_some_and(|(p, n)| {
                prefixes.contains(p) && !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
            }),
        };
        if keep {
            found.entry(tok.to_string()).or_insert(off);
        }
    }
    found
}

fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    std::iter::once(0)
        .chain(
            s.match_indices(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .map(|(i, d)| i + d.len()),
        )
        .filter_map(move |start| {
            let rest = s.get(start..)?;
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(rest.len());
            (end > 0).then(|| (start, &rest[..end]))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_with_offsets() {
        let w: Vec<_> = words("FID und `DRIFT`, FIDELITY-12.").collect();
        assert!(w.contains(&(0, "FID")));
        assert!(w.contains(&(9, "DRIFT")));
        assert!(w.contains(&(17, "FIDELITY-12")));
    }
}
