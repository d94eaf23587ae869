//! Rule-number mentions in prose: after a keyword (`Regeln`, `Rules`), a list of numbers and
//! ranges joined by commas, `+` and conjunctions — `Rules 10–14`, `Regeln 1, 3, 4, 6 und 8–12
//! sowie 14`, `rules 2 and 5`, `Regeln 4 + 5`, `Regel 3 bis 5`. Each number comes with its byte offset, a
//! range with that of its first number.

use regex::Regex;

/// The widest range read as its members; a wider one (a year, a typo) is read as its ends.
const MAX_RANGE: u64 = 1000;

/// A number read, and the byte offset and length of the text it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    pub number: u64,
    pub offset: usize,
    pub width: usize,
}

/// Every number the mentions after `keyword` (a regular expression) name in `text`.
pub fn read(keyword: &Regex, text: &str) -> Vec<Mention> {
    let mut out = Vec::new();
    for m in keyword.find_iter(text) {
        let mut at = m.end();
        // The list must start right after the keyword (one space or a no-break space).
        let Some(first) = spaces(text, at) else {
            continue;
        };
        at = first;
        while let Some((lo, after_lo)) = number(text, at) {
            let start = at;
            let mut end = after_lo;
            let mut hi = lo;
            if let Some(next) = range_mark(text, after_lo) {
                if let Some((h, after_hi)) = number(text, next) {
                    hi = h;
                    end = after_hi;
                }
            }
            if hi >= lo && hi - lo <= MAX_RANGE {
                out.extend((lo..=hi).map(|n| Mention {
                    number: n,
                    offset: start,
                    width: end - start,
                }));
            } else {
                for n in [lo, hi] {
                    out.push(Mention {
                        number: n,
                        offset: start,
                        width: end - start,
                    });
                }
            }
            match joiner(text, end) {
                Some(next) => at = next,
                None => break,
            }
        }
    }
    out
}

fn spaces(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let trimmed = rest.trim_start_matches([' ', '\u{a0}', '\t']);
    (trimmed.len() < rest.len()).then(|| at + rest.len() - trimmed.len())
}

fn number(text: &str, at: usize) -> Option<(u64, usize)> {
    let rest = text.get(at..)?;
    let len = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if len == 0 || len > 6 {
        return None;
    }
    let n = rest.get(..len)?.parse().ok()?;
    Some((n, at + len))
}

/// After a number: `–`, `—`, `-`, `bis`, `to` (spaces around allowed), and where the next
/// number starts.
fn range_mark(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let t = rest.trim_start_matches([' ', '\u{a0}']);
    for mark in ["–", "—", "-", "bis ", "to "] {
        if let Some(r) = t.strip_prefix(mark) {
            let r = r.trim_start_matches([' ', '\u{a0}']);
            return Some(at + rest.len() - r.len());
        }
    }
    None
}

/// After a number or range: `,`, `+`, `und`, `sowie`, `oder`, `and`, `or`, `&` (also
/// `, und`), and where the next number starts.
fn joiner(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let mut t = rest.trim_start_matches([' ', '\u{a0}']);
    let mut joined = false;
    if let Some(r) = t.strip_prefix(',') {
        t = r.trim_start_matches([' ', '\u{a0}']);
        joined = true;
    }
    for word in ["und ", "sowie ", "oder ", "and ", "or ", "& ", "+"] {
        if let Some(r) = t.strip_prefix(word) {
            t = r.trim_start_matches([' ', '\u{a0}']);
            joined = true;
            break;
        }
    }
    let next = at + rest.len() - t.len();
    (joined && t.starts_with(|c: char| c.is_ascii_digit())).then_some(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<u64> {
        let kw = Regex::new(r"(?i)\b(?:Regeln?|Rules?)\b").unwrap_or_else(|e| panic!("{e}"));
        read(&kw, text).into_iter().map(|m| m.number).collect()
    }

    #[test]
    fn lists_ranges_and_conjunctions() {
        assert_eq!(numbers("Rules 10–14 apply."), [10, 11, 12, 13, 14]);
        assert_eq!(
            numbers("Regeln 1, 3, 4, 6 und 8–12 sowie 14 gelten."),
            [1, 3, 4, 6, 8, 9, 10, 11, 12, 14]
        );
        assert_eq!(numbers("see rules 2 and 5."), [2, 5]);
        assert_eq!(numbers("Regel 3 bis 5, Regel 7"), [3, 4, 5, 7]);
        assert_eq!(numbers("rules 1 - 3, and 9"), [1, 2, 3, 9]);
        assert_eq!(numbers("Rule 4 to 6 or 8"), [4, 5, 6, 8]);
        assert_eq!(numbers("Regeln 4 + 5 greifen"), [4, 5]);
        assert_eq!(numbers("Rules 4+5, 7 + 9"), [4, 5, 7, 9]);
    }

    #[test]
    fn stops_where_the_list_stops() {
        assert_eq!(numbers("Regel 2 und die Tabelle 5"), [2]);
        assert_eq!(numbers("Regelwerk 5"), Vec::<u64>::new());
        assert_eq!(numbers("Regeln: 5"), Vec::<u64>::new());
        assert_eq!(numbers("rules 2026-3030"), [2026, 3030]);
    }

    #[test]
    fn offsets_point_at_the_number() {
        let kw = Regex::new("Regeln").unwrap_or_else(|e| panic!("{e}"));
        let text = "Die Regeln 1 und 8–9.";
        let m = read(&kw, text);
        assert_eq!(m[0].offset, text.find('1').unwrap_or(0));
        assert_eq!(m[1].offset, text.find('8').unwrap_or(0));
        assert_eq!(m[1].width, "8–9".len());
    }
}
