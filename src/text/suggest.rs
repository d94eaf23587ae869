//! The one "did you mean" of the engine: for a misspelt key, field, vocabulary value or
//! probe parameter, the candidate the author most likely meant, or none when nothing is close
//! enough to be a plausible typo.

/// The closest candidate: one equal but for letter case; else the fewest edits (transpositions
/// count once) within a quarter of its length (at least two); else the best Jaro–Winkler or
/// normalised edit score of at least 0.85 (a long word with a short suffix missing, such as
/// `stdio` for `stdio-only`). Ties go to the first candidate, so callers pass a sorted list.
pub fn suggest<'a>(found: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    if let Some(same) = candidates.iter().find(|c| c.eq_ignore_ascii_case(found)) {
        return Some(same);
    }
    let by_edits = candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(found, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 4) && *d < c.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c);
    by_edits.or_else(|| {
        let mut best: Option<(f64, &'a str)> = None;
        for c in &candidates {
            let score = strsim::jaro_winkler(found, c)
                .max(strsim::normalized_damerau_levenshtein(found, c));
            if score >= 0.85 && best.is_none_or(|(b, _)| score > b) {
                best = Some((score, c));
            }
        }
        best.map(|(_, c)| c)
    })
}

/// The engine's one phrasing of a suggestion, around `shown` as the finding writes it
/// (`` `key` ``, `` `#fragment` ``, a quoted value): "did you mean `x`?".
pub fn phrase(shown: &str) -> String {
    format!("did you mean {shown}?")
}

/// The nearest of `candidates` to `found`, phrased: "did you mean `x`?".
pub fn did_you_mean<'a>(
    found: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    suggest(found, candidates).map(|s| phrase(&format!("`{s}`")))
}

/// The keys outside `allowed`, in the order given, each with its "did you mean" when one of
/// `allowed` is close.
pub fn unknown_keys<'k>(
    keys: impl IntoIterator<Item = &'k str>,
    allowed: &[&str],
) -> Vec<(&'k str, Option<String>)> {
    keys.into_iter()
        .filter(|k| !allowed.contains(k))
        .map(|k| (k, did_you_mean(k, allowed.iter().copied())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_case_and_truncations_are_suggested_and_strangers_are_not() {
        let keys = ["blocking_severities", "severities", "categories"];
        assert_eq!(
            suggest("blocking_severites", keys),
            Some("blocking_severities")
        );
        assert_eq!(suggest("Severities", keys), Some("severities"));
        assert_eq!(suggest("stdio", ["dual", "stdio-only"]), Some("stdio-only"));
        assert_eq!(suggest("xyz", keys), None);
        assert_eq!(
            did_you_mean("categorys", keys).as_deref(),
            Some("did you mean `categories`?")
        );
        assert_eq!(did_you_mean("xyz", keys), None);
    }

    #[test]
    fn unknown_keys_keep_their_order_and_carry_the_nearest_allowed_key() {
        let allowed = ["status", "evidence", "notes"];
        let found = unknown_keys(["statsu", "notes", "owner"], &allowed);
        assert_eq!(
            found,
            vec![
                ("statsu", Some("did you mean `status`?".to_string())),
                ("owner", None)
            ]
        );
        assert!(unknown_keys(["status"], &allowed).is_empty());
    }
}
