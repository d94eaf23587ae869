//! How a set claim reads what a document enumerates: numbered headings, the items of a
//! numbered or bulleted list, rule-number mentions in prose (in the whole part read, or only
//! inside the matches of the claim's pattern), a list split at a separator. Each member comes
//! with its byte offset in the document, for findings at the member.

use super::locate::Place;
use crate::model::config::SkipRegion;
use regex::Regex;

/// How a document is read.
#[derive(Debug)]
pub enum Read {
    /// Headings whose text matches; the first group (else the match) is the member.
    Headings(Regex),
    /// The numbers of a numbered list's items (`1.`, `2)`).
    List,
    /// Numbers after a keyword, with ranges and conjunctions (`Regeln 1, 3 und 8–12`).
    Mentions(Regex),
    /// The items of a bullet list: an item's code span, else its text up to a dash or colon.
    Bullets,
    /// The claim's pattern's first group, split at the separator.
    Split(String),
}

impl Read {
    /// Whether the members read are numbers.
    pub fn numeric(&self) -> bool {
        matches!(self, Read::List | Read::Mentions(_))
    }

    /// Whether the reading reads the claim's `pattern`: `split` always, `mentions` when there
    /// is one (only inside its matches).
    pub fn reads_pattern(&self) -> bool {
        matches!(self, Read::Split(_) | Read::Mentions(_))
    }
}

/// One member a document names: its text and where it was read.
#[derive(Clone, Debug)]
pub struct Item {
    pub value: String,
    pub offset: usize,
    pub width: usize,
}

/// What a reading found: the members, and where each match of the claim's pattern starts
/// (for `matches:`), both as offsets in the document.
#[derive(Debug, Default)]
pub struct Reading {
    pub items: Vec<Item>,
    pub matches: Vec<usize>,
}

/// Parse a read form: `headings("RE")`, `list`, `mentions("RE")`, `bullets`, `split("SEP")`.
pub fn parse(src: &str) -> Result<Read, String> {
    let src = src.trim();
    match src {
        "list" => return Ok(Read::List),
        "bullets" => return Ok(Read::Bullets),
        _ => {}
    }
    let (name, arg) = call(src).ok_or_else(|| {
        format!("`{src}` is no reading; write headings(\"REGEX\"), list, mentions(\"REGEX\"), bullets or split(\"SEPARATOR\")")
    })?;
    let regex = |a: &str| {
        Regex::new(a).map_err(|e| format!("`{src}`: not a valid regular expression: {e}"))
    };
    match name {
        "headings" => Ok(Read::Headings(regex(&arg)?)),
        "mentions" => Ok(Read::Mentions(regex(&arg)?)),
        "split" if !arg.is_empty() => Ok(Read::Split(arg)),
        "split" => Err(format!("`{src}`: the separator is empty")),
        _ => Err(format!(
            "`{src}`: unknown reading `{name}`; readings are headings, list, mentions, bullets, split"
        )),
    }
}

/// `name("ARG")` (double or single quotes, `\"` and `\\` escaped) → (name, ARG).
fn call(src: &str) -> Option<(&str, String)> {
    let open = src.find('(')?;
    let name = src.get(..open)?.trim();
    let inner = src.get(open + 1..)?.trim().strip_suffix(')')?.trim();
    let q = inner.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = inner.strip_prefix(q)?.strip_suffix(q)?;
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n) if n == q || n == '\\' => out.push(n),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Some((name, out))
}

/// A number without leading zeros; any other text as it is.
pub fn normal(v: &str) -> String {
    match v.parse::<u64>() {
        Ok(n) if v.chars().all(|c| c.is_ascii_digit()) => n.to_string(),
        _ => v.to_string(),
    }
}

/// Trim a list piece of space, code and emphasis marks and closing punctuation.
fn clean(piece: &str) -> (&str, usize) {
    let trimmed = piece.trim_start_matches([' ', '\t', '\u{a0}', '`', '*', '_']);
    let lead = piece.len() - trimmed.len();
    let t = trimmed.trim_end_matches([' ', '\t', '\u{a0}', '`', '*', '_', '.', ';', ',', ':']);
    (t, lead)
}

/// The part of a match a reading reads: the pattern's first named group, else its first
/// group, else the whole match.
fn matched_part<'h>(pattern: &Regex, c: &regex::Captures<'h>) -> Option<regex::Match<'h>> {
    pattern
        .capture_names()
        .flatten()
        .next()
        .and_then(|n| c.name(n))
        .or_else(|| c.get(1))
        .or_else(|| c.get(0))
}

/// Read `place` as `how` says, `skip` left out; `pattern` is the claim's, when it has one.
pub fn read(place: &Place<'_>, how: &Read, skip: &[SkipRegion], pattern: Option<&Regex>) -> Reading {
    let text = &place.doc.text;
    let section = place.text();
    let base = place.range.start;
    let mut out = Reading::default();
    let mut item = |value: String, offset: usize, width: usize| {
        out.items.push(Item {
            value,
            offset,
            width,
        })
    };
    let mut with_code = skip.to_vec();
    with_code.push(SkipRegion::Code);
    match how {
        Read::Headings(re) => {
            for h in &place.doc.outline.headings {
                if !place.range.contains(&h.range.start) {
                    continue;
                }
                let Some(c) = re.captures(&h.text) else {
                    continue;
                };
                let Some(m) = c.get(1).or_else(|| c.get(0)) else {
                    continue;
                };
                let raw = text.get(h.range.clone()).unwrap_or("");
                let at = raw.find(m.as_str()).unwrap_or(0);
                item(normal(m.as_str()), h.range.start + at, m.as_str().len());
            }
        }
        Read::List | Read::Bullets => {
            let hay = super::locate::blank(section, &with_code);
            let numbered = Regex::new(r"(?m)^[ ]{0,3}(\d{1,6})[.)][ \t]");
            let bullet = Regex::new(r"(?m)^[ ]{0,3}[-*+][ \t]+(.+)$");
            let (Ok(numbered), Ok(bullet)) = (numbered, bullet) else {
                return out;
            };
            if matches!(how, Read::List) {
                for c in numbered.captures_iter(&hay) {
                    if let Some(m) = c.get(1) {
                        item(normal(m.as_str()), base + m.start(), m.len());
                    }
                }
            } else {
                for c in bullet.captures_iter(&hay) {
                    let Some(m) = c.get(1) else { continue };
                    let (v, off) = bullet_value(m.as_str());
                    if !v.is_empty() {
                        item(v.to_string(), base + m.start() + off, v.len());
                    }
                }
            }
        }
        Read::Mentions(re) => {
            let hay = place.hay(&with_code);
            // With a pattern, only inside its matches: the mentions of one sentence.
            let parts: Vec<(usize, usize)> = match pattern {
                None => vec![(0, hay.len())],
                Some(p) => p
                    .captures_iter(&hay)
                    .filter_map(|c| {
                        out.matches.push(base + c.get(0)?.start());
                        matched_part(p, &c).map(|m| (m.start(), m.end()))
                    })
                    .collect(),
            };
            for (start, end) in parts {
                let Some(part) = hay.get(start..end) else { continue };
                for m in super::mentions::read(re, part) {
                    out.items.push(Item {
                        value: m.number.to_string(),
                        offset: base + start + m.offset,
                        width: m.width,
                    });
                }
            }
        }
        Read::Split(sep) => {
            let Some(p) = pattern else { return out };
            let hay = place.hay(skip);
            for c in p.captures_iter(&hay) {
                let Some(whole) = c.get(0) else { continue };
                out.matches.push(base + whole.start());
                let Some(g) = matched_part(p, &c) else { continue };
                let mut start = 0;
                for piece in g.as_str().split(sep.as_str()) {
                    let (v, lead) = clean(piece);
                    if !v.is_empty() {
                        out.items.push(Item {
                            value: v.to_string(),
                            offset: base + g.start() + start + lead,
                            width: v.len(),
                        });
                    }
                    start += piece.len() + sep.len();
                }
            }
        }
    }
    out
}

/// A bullet item's member: its leading code span, else its text up to ` — `, ` – `, ` - `
/// or `: `, marks trimmed.
fn bullet_value(line: &str) -> (&str, usize) {
    let l = line.trim_start_matches(['*', '_']);
    let lead = line.len() - l.len();
    if let Some(rest) = l.strip_prefix('`') {
        if let Some(end) = rest.find('`') {
            return (rest.get(..end).unwrap_or("").trim(), lead + 1);
        }
    }
    let end = [" — ", " – ", " - ", ": ", " ("]
        .iter()
        .filter_map(|s| line.find(s))
        .min()
        .unwrap_or(line.len());
    let (v, off) = clean(line.get(..end).unwrap_or(""));
    (v, off)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_forms_parse() {
        assert!(matches!(parse("list"), Ok(Read::List)));
        assert!(matches!(
            parse(r#"headings("^Regel (\d+)$")"#),
            Ok(Read::Headings(_))
        ));
        assert!(matches!(parse("split(' / ')"), Ok(Read::Split(s)) if s == " / "));
        assert!(parse("split('')").is_err());
        assert!(parse("headings(\"(\")").is_err());
        assert!(parse("absaetze").is_err());
    }

    #[test]
    fn bullet_members() {
        assert_eq!(bullet_value("`stdio` — lokal").0, "stdio");
        assert_eq!(bullet_value("**http**: entfernt").0, "http");
        assert_eq!(bullet_value("sse (veraltet)").0, "sse");
        assert_eq!(bullet_value("dual").0, "dual");
    }

    #[test]
    fn pieces_are_cleaned() {
        assert_eq!(clean(" `stdio` ").0, "stdio");
        assert_eq!(clean("**sse**.").0, "sse");
        assert_eq!(normal("007"), "7");
        assert_eq!(normal("FID-001"), "FID-001");
    }
}
