//! Generated regions: the text between `<!-- auditbook:begin NAME [key=value…] -->` and
//! `<!-- auditbook:end NAME -->` belongs to the engine. This file finds the regions of a text
//! and splices fresh content into them; everything outside the markers is never touched.
//!
//! A marker is an HTML comment on a line of its own that starts with `auditbook:`. Markers in
//! fenced or indented code blocks are examples, not markers (a README documenting the syntax
//! must not be rewritten). Values with spaces are quoted: `where='severity == "high"'`.

use pulldown_cmark::{Event, Options, Parser, Tag};
use std::ops::Range;

/// One well-formed region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub name: String,
    /// Arguments as written, in order (`category=FID`).
    pub args: Vec<(String, String)>,
    /// 1-based line of the begin marker, and of the end marker.
    pub begin_line: usize,
    pub end_line: usize,
    /// Byte range of the owned content: from the line after the begin marker to the start of
    /// the end marker's line.
    pub content: Range<usize>,
}

impl Region {
    /// `category-counts base=checks/`: how messages name the region.
    pub fn label(&self) -> String {
        let mut s = self.name.clone();
        for (k, v) in &self.args {
            s.push(' ');
            s.push_str(k);
            s.push('=');
            s.push_str(v);
        }
        s
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    Unbalanced,
    Nested,
    Duplicate,
    /// Not a marker the engine understands (`auditbook:bgin`, a missing name, bad arguments).
    Malformed,
}

/// A marker problem at a line; when a text has any, nothing in it may be rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub line: usize,
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub regions: Vec<Region>,
    pub problems: Vec<Problem>,
}

/// The region being read: name, arguments, begin line, content start.
type Open = (String, Vec<(String, String)>, usize, usize);

enum Marker {
    Begin(String, Vec<(String, String)>),
    End(String),
}

/// Byte ranges of code blocks, where marker-like lines are examples.
fn code_blocks(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (ev, range) in Parser::new_ext(text, Options::all()).into_offset_iter() {
        if let Event::Start(Tag::CodeBlock(_)) = ev {
            out.push(range);
        }
    }
    out
}

/// Lines of `text` with their byte range, the line terminator (LF or CRLF) excluded.
fn lines(text: &str) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
    let mut start = 0;
    text.split_inclusive('\n').enumerate().map(move |(i, l)| {
        let s = start;
        start += l.len();
        let body = l.strip_suffix('\n').unwrap_or(l);
        let body = body.strip_suffix('\r').unwrap_or(body);
        (i + 1, s..s + body.len())
    })
}

/// Find the regions of a text and every problem with its markers.
pub fn parse(text: &str) -> Parsed {
    let code = code_blocks(text);
    let mut out = Parsed::default();
    let mut open: Option<Open> = None;
    for (n, range) in lines(text) {
        let next_line_start = text[range.end..]
            .find('\n')
            .map(|i| range.end + i + 1)
            .unwrap_or(text.len());
        let line = &text[range.clone()];
        // An indented code block's range starts after the indentation.
        let first = range.start + (line.len() - line.trim_start().len());
        if code.iter().any(|c| c.contains(&first)) {
            continue;
        }
        let trimmed = line.trim();
        let Some(comment) = trimmed.strip_prefix("<!--") else {
            continue;
        };
        let Some(body) = comment.trim_start().strip_prefix("auditbook:") else {
            continue;
        };
        let problem = |kind, message: String| Problem {
            kind,
            line: n,
            message,
        };
        let marker = match parse_marker(body) {
            Ok(m) => m,
            Err(msg) => {
                out.problems.push(problem(ProblemKind::Malformed, msg));
                continue;
            }
        };
        match (marker, open.take()) {
            (Marker::Begin(name, args), None) => open = Some((name, args, n, next_line_start)),
            (Marker::Begin(name, _), Some(o)) => {
                out.problems.push(problem(
                    ProblemKind::Nested,
                    format!("region `{name}` begins inside region `{}` (opened at line {}); regions do not nest", o.0, o.2),
                ));
                open = Some(o);
            }
            (Marker::End(name), None) => out.problems.push(problem(
                ProblemKind::Unbalanced,
                format!("end marker for `{name}` without a begin marker before it"),
            )),
            (Marker::End(name), Some((oname, args, bline, cstart))) => {
                if name != oname {
                    out.problems.push(problem(
                        ProblemKind::Unbalanced,
                        format!("end marker for `{name}`, but the open region is `{oname}` (opened at line {bline})"),
                    ));
                    continue;
                }
                let region = Region {
                    name,
                    args,
                    begin_line: bline,
                    end_line: n,
                    content: cstart..range.start,
                };
                if let Some(first) = out
                    .regions
                    .iter()
                    .find(|r| r.name == region.name && sorted(&r.args) == sorted(&region.args))
                {
                    out.problems.push(Problem {
                        kind: ProblemKind::Duplicate,
                        line: bline,
                        message: format!(
                            "region `{}` appears twice with the same arguments (first at line {})",
                            region.label(),
                            first.begin_line
                        ),
                    });
                }
                out.regions.push(region);
            }
        }
    }
    if let Some((name, _, bline, _)) = open {
        out.problems.push(Problem {
            kind: ProblemKind::Unbalanced,
            line: bline,
            message: format!(
                "region `{name}` is never closed; add `<!-- auditbook:end {name} -->`"
            ),
        });
    }
    out
}

fn sorted(args: &[(String, String)]) -> Vec<(String, String)> {
    let mut v = args.to_vec();
    v.sort();
    v
}

/// The inside of a marker after `auditbook:`, up to and including `-->`.
fn parse_marker(body: &str) -> Result<Marker, String> {
    let inner = body.trim_end().strip_suffix("-->").ok_or(
        "a marker is one HTML comment on a line of its own, closed by `-->` on the same line",
    )?;
    let mut tokens = tokenize(inner)?.into_iter();
    let kind = tokens.next().unwrap_or_default();
    let name = tokens
        .next()
        .ok_or_else(|| format!("`auditbook:{kind}` needs a region name"))?;
    if name.contains('=') {
        return Err(format!(
            "`auditbook:{kind}` needs a region name before its arguments"
        ));
    }
    match kind.as_str() {
        "begin" => {
            let args = crate::render::tables::parse_args(tokens)?;
            Ok(Marker::Begin(name, args.into_iter().collect()))
        }
        "end" => match tokens.next() {
            None => Ok(Marker::End(name)),
            Some(t) => Err(format!("an end marker names its region only; remove `{t}`")),
        },
        other => Err(format!("unknown marker `auditbook:{other}`; markers are `auditbook:begin NAME` and `auditbook:end NAME`")),
    }
}

/// Split on whitespace; a value may be quoted with ' or " to hold spaces (`where='a == "b"'`).
fn tokenize(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            None => cur.push(c),
        }
    }
    if let Some(q) = quote {
        return Err(format!("unclosed {q} in marker"));
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

/// `text` with each region's content replaced by `fresh(region)` (None: keep it). Bytes outside
/// the content ranges are copied unchanged, in order.
pub fn splice(text: &str, regions: &[Region], fresh: &dyn Fn(&Region) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut ordered: Vec<&Region> = regions.iter().collect();
    ordered.sort_by_key(|r| r.content.start);
    for r in ordered {
        if r.content.start < at || r.content.end > text.len() {
            continue;
        }
        out.push_str(&text[at..r.content.start]);
        match fresh(r) {
            Some(f) => out.push_str(&f),
            None => out.push_str(&text[r.content.clone()]),
        }
        at = r.content.end;
    }
    out.push_str(&text[at..]);
    out
}

/// What a region must hold: the rendering, ending in a line break so the end marker keeps its
/// own line, in the text's line-ending convention.
pub fn content_for(rendered: &str, crlf: bool) -> String {
    let mut s = rendered.replace("\r\n", "\n");
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    if crlf {
        s = s.replace('\n', "\r\n");
    }
    s
}

/// A unified diff of the whole text before and after one region is refreshed, so hunk line
/// numbers are the document's own.
pub fn diff(path: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(1)
        .header(path, &format!("{path} (after sync)"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# T\n\nintro\n<!-- auditbook:begin category-counts base=../checks/ -->\nold\n<!-- auditbook:end category-counts -->\ntail\n";

    #[test]
    fn finds_a_region_and_its_content() {
        let p = parse(DOC);
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        let r = &p.regions[0];
        assert_eq!(r.name, "category-counts");
        assert_eq!(r.args, vec![("base".to_string(), "../checks/".to_string())]);
        assert_eq!((r.begin_line, r.end_line), (4, 6));
        assert_eq!(&DOC[r.content.clone()], "old\n");
    }

    #[test]
    fn quoted_values_hold_spaces() {
        let p = parse("<!-- auditbook:begin check-index where='severity == \"high\"' -->\n<!-- auditbook:end check-index -->\n");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.regions[0].args[0].1, "severity == \"high\"");
        assert_eq!(p.regions[0].content.len(), 0);
    }

    #[test]
    fn markers_in_code_blocks_are_examples() {
        let t = "```markdown\n<!-- auditbook:begin category-counts -->\n```\n\n    <!-- auditbook:end x -->\n";
        assert_eq!(parse(t), Parsed::default());
    }

    #[test]
    fn problems_are_found() {
        let kinds = |t: &str| {
            parse(t)
                .problems
                .iter()
                .map(|p| (p.kind, p.line))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            kinds("<!-- auditbook:begin a -->\n"),
            vec![(ProblemKind::Unbalanced, 1)]
        );
        assert_eq!(
            kinds("x\n<!-- auditbook:end a -->\n"),
            vec![(ProblemKind::Unbalanced, 2)]
        );
        assert_eq!(
            kinds("<!-- auditbook:begin a -->\n<!-- auditbook:begin b -->\n<!-- auditbook:end a -->\n"),
            vec![(ProblemKind::Nested, 2)]
        );
        assert_eq!(
            kinds("<!-- auditbook:begin a x=1 -->\n<!-- auditbook:end a -->\n<!-- auditbook:begin a x=1 -->\n<!-- auditbook:end a -->\n"),
            vec![(ProblemKind::Duplicate, 3)]
        );
        assert_eq!(
            kinds("<!-- auditbook:bgin a -->\n"),
            vec![(ProblemKind::Malformed, 1)]
        );
        assert_eq!(
            kinds("<!-- auditbook:begin -->\n"),
            vec![(ProblemKind::Malformed, 1)]
        );
        assert_eq!(
            kinds("<!-- auditbook:begin a b -->\n"),
            vec![(ProblemKind::Malformed, 1)]
        );
        assert_eq!(
            kinds("<!-- auditbook:begin a\n"),
            vec![(ProblemKind::Malformed, 1)]
        );
        // Same name, different arguments: two regions, not a duplicate.
        assert!(kinds("<!-- auditbook:begin a x=1 -->\n<!-- auditbook:end a -->\n<!-- auditbook:begin a x=2 -->\n<!-- auditbook:end a -->\n").is_empty());
    }

    #[test]
    fn splice_changes_only_the_content() {
        let p = parse(DOC);
        let out = splice(DOC, &p.regions, &|_| Some("new\nlines\n".into()));
        assert_eq!(out, DOC.replace("old\n", "new\nlines\n"));
        assert_eq!(splice(DOC, &p.regions, &|_| None), DOC);
    }

    #[test]
    fn crlf_texts_keep_their_line_endings() {
        let t = DOC.replace('\n', "\r\n");
        let p = parse(&t);
        assert!(p.problems.is_empty());
        assert_eq!(&t[p.regions[0].content.clone()], "old\r\n");
        assert_eq!(content_for("a\nb", true), "a\r\nb\r\n");
    }
}
