//! Reading a tally as a table cell writes it: `2 critical · 8 high · 12 medium`, buckets in any
//! order, `high 8` and `high: 8` as well, a bucket left out or a cell of `—` meaning zero. A
//! bucket word outside the declared vocabulary is a problem of its own, never skipped: a
//! misspelt `hihg` would otherwise read as "no high checks".

use super::numbers;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

static SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    // A literal pattern: it compiles, and the tests below run it.
    Regex::new(r"\s*[·,;/+]\s*|\s+(?:und|and)\s+").unwrap_or_else(|_| unreachable!())
});

/// A piece of a tally that cannot be read.
#[derive(Debug, PartialEq, Eq)]
pub enum Problem {
    /// A bucket word not in the vocabulary (the piece, the word).
    UnknownBucket(String, String),
    /// A bucket named twice.
    Repeated(String),
    /// A piece that is not `NUMBER WORD` or `WORD NUMBER`.
    Unreadable(String),
}

/// What a cell says: the count per bucket (in vocabulary spelling), and the problems with their
/// byte offset in the cell.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub counts: BTreeMap<String, u64>,
    pub problems: Vec<(usize, Problem)>,
}

fn is_dash(s: &str) -> bool {
    matches!(s, "" | "—" | "–" | "-" | "0")
}

/// Read `cell` against `vocabulary` (compared without case).
pub fn read(cell: &str, vocabulary: &[String]) -> Tally {
    let mut out = Tally::default();
    let text = cell.trim();
    if is_dash(text) {
        return out;
    }
    let mut start = 0;
    let bounds = SEPARATOR
        .find_iter(cell)
        .map(|m| (m.start(), m.end()))
        .chain(std::iter::once((cell.len(), cell.len())));
    for (end, next) in bounds {
        let raw = cell.get(start..end).unwrap_or("");
        let piece = raw.trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '`'));
        let off = start + raw.find(piece).unwrap_or(0);
        start = next;
        if is_dash(piece) {
            continue;
        }
        let Some((a, b)) = piece.split_once(char::is_whitespace) else {
            out.problems
                .push((off, Problem::Unreadable(piece.to_string())));
            continue;
        };
        let (a, b) = (a.trim_end_matches(':'), b.trim());
        let (n, word) = match (numbers::read(a), numbers::read(b)) {
            (Ok(n), _) => (n, b),
            (_, Ok(n)) => (n, a),
            _ => {
                out.problems
                    .push((off, Problem::Unreadable(piece.to_string())));
                continue;
            }
        };
        let Some(bucket) = vocabulary.iter().find(|v| v.eq_ignore_ascii_case(word)) else {
            out.problems.push((
                off,
                Problem::UnknownBucket(piece.to_string(), word.to_string()),
            ));
            continue;
        };
        if out.counts.insert(bucket.clone(), n).is_some() {
            out.problems.push((off, Problem::Repeated(bucket.clone())));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vec<String> {
        ["critical", "high", "medium", "low"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn any_order_and_absent_buckets() {
        let t = read("12 medium · 2 critical · **8** high", &vocab());
        assert_eq!(t.problems, []);
        assert_eq!(
            t.counts,
            BTreeMap::from([
                ("critical".to_string(), 2),
                ("high".to_string(), 8),
                ("medium".to_string(), 12)
            ])
        );
        assert_eq!(read("—", &vocab()), Tally::default());
        assert_eq!(read("high: 3, Low 1", &vocab()).counts.len(), 2);
        assert_eq!(read("zwei high", &vocab()).counts["high"], 2);
    }

    #[test]
    fn unknown_repeated_and_unreadable_pieces() {
        let t = read("2 critical · 8 hihg · 1 critical · viele", &vocab());
        assert_eq!(
            t.problems,
            [
                (14, Problem::UnknownBucket("8 hihg".into(), "hihg".into())),
                (24, Problem::Repeated("critical".into())),
                (38, Problem::Unreadable("viele".into())),
            ]
        );
    }
}
