//! Strict list groups (`strict: [GROUP, …]`): a group that lists ids or categories must list
//! nothing else, and each member once. `(12 Kategorien: ARCH, SDK, … SUPPLY;` then reports the
//! `… SUPPLY` it cannot read instead of reading past it.
//!
//! The group's text is split at commas, semicolons, `/`, `|`, `·`, line breaks and the
//! conjunctions `und`, `sowie`, `oder`, `and`, `or`, `&` (a conjunction right after a comma or
//! line break belongs to that separator; a Markdown link is never split); each piece, once backticks, emphasis
//! and surrounding space are trimmed, must be one member (or one Markdown link to one check).

use regex::Regex;
use std::sync::LazyLock;

/// One piece of a strict list that is not a member by itself, or names one twice.
#[derive(Debug, PartialEq, Eq)]
pub enum Problem {
    /// The piece's text, trimmed.
    Unknown(String),
    /// The member named again, and the piece's text.
    Repeated(String),
}

static SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    // A literal pattern: it compiles, and a test below runs it.
    Regex::new(r"\s+(?:und|sowie|oder|and|or|&)\s+|[,;/|·\n](?:\s*(?:und|sowie|oder|and|or|&)\s+)?")
        .unwrap_or_else(|_| unreachable!())
});

static LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])|<[^>\s]+>")
        .unwrap_or_else(|_| unreachable!("the link pattern is valid"))
});

/// The pieces of `text` as (byte offset, trimmed text), empty pieces left out. A Markdown
/// link is one piece whatever its destination holds (`../checks/FID-003.md` has slashes).
pub fn pieces(text: &str) -> Vec<(usize, &str)> {
    let mut masked = text.to_string();
    for m in LINK.find_iter(text) {
        let blank: String = m
            .as_str()
            .chars()
            .map(|c| "x".repeat(c.len_utf8()))
            .collect();
        masked.replace_range(m.range(), &blank);
    }
    let mut out = Vec::new();
    let mut start = 0;
    let bounds = SEPARATOR
        .find_iter(&masked)
        .map(|m| (m.start(), m.end()))
        .chain(std::iter::once((text.len(), text.len())));
    for (end, next) in bounds {
        let raw = text.get(start..end).unwrap_or("");
        let trimmed = raw.trim_matches(|c: char| c.is_whitespace() || matches!(c, '`' | '*' | '_'));
        if !trimmed.is_empty() {
            let lead = raw.find(trimmed).unwrap_or(0);
            out.push((start + lead, trimmed));
        }
        start = next;
    }
    out
}

/// Check each piece with `members`, which gives the members one piece names (the same reader
/// the group's whole text is read with). A piece is fine when it names exactly one member and
/// is that member's text or a link (`[…](…)`, `<…>`).
pub fn check(text: &str, members: impl Fn(&str) -> Vec<String>) -> Vec<(usize, &str, Problem)> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (off, piece) in pieces(text) {
        let named = members(piece);
        let single = match named.as_slice() {
            [one] if piece == one || piece.starts_with('[') || piece.starts_with('<') => {
                Some(one.clone())
            }
            _ => None,
        };
        match single {
            None => out.push((off, piece, Problem::Unknown(piece.to_string()))),
            Some(id) if !seen.insert(id.clone()) => out.push((off, piece, Problem::Repeated(id))),
            Some(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cats(piece: &str) -> Vec<String> {
        piece
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| ["ARCH", "SDK", "SUPPLY", "FID"].contains(w))
            .map(String::from)
            .collect()
    }

    #[test]
    fn splits_at_separators_and_conjunctions() {
        let p: Vec<&str> = pieces("`ARCH`, SDK / FID und SUPPLY sowie X; Y | Z or W")
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(p, ["ARCH", "SDK", "FID", "SUPPLY", "X", "Y", "Z", "W"]);
        // Offsets point at the piece itself, past backticks and space.
        assert_eq!(pieces(" , `FID`")[0], (4, "FID"));
        // A link is one piece, slashes and all.
        let p: Vec<&str> = pieces("[FID-003](../checks/FID-003.md) / <https://x.org/a/b>")
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(
            p,
            ["[FID-003](../checks/FID-003.md)", "<https://x.org/a/b>"]
        );
        // A conjunction after a comma or a line break belongs to the separator.
        let p: Vec<&str> = pieces("A, und B\nor C,\nand D")
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(p, ["A", "B", "C", "D"]);
        // A word that merely contains a conjunction is one piece.
        assert_eq!(pieces("Sound, Order").len(), 2);
    }

    #[test]
    fn unknown_and_repeated_pieces() {
        let found = check("ARCH, SDK, … SUPPLY, FID, SDK, Weitere", cats);
        assert_eq!(
            found,
            [
                (11, "… SUPPLY", Problem::Unknown("… SUPPLY".into())),
                (28, "SDK", Problem::Repeated("SDK".into())),
                (33, "Weitere", Problem::Unknown("Weitere".into())),
            ]
        );
        assert_eq!(check("ARCH, SDK und FID", cats), []);
    }
}
