//! One pass of pulldown-cmark over a Markdown text, yielding everything the engine reads from
//! Markdown: headings (for sections), task-list items (pass criteria), tables (rule mappings) and
//! references to checks (links and mentions). Checks, rules and documents all go through here,
//! so a link means the same thing wherever it is written.

use super::link_dest::{self, Dest};
use super::outline_cache::Place;
use crate::model::outline::{Cell, ExternalLink, Heading, Outline, Row, Table, TaskItem};
use crate::model::{LocalLink, RefKind, Reference};
use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};
use regex::Regex;

/// What decides whether a token or a link target is a check id.
pub struct IdRules<'a> {
    /// The catalogue's id pattern (anchored).
    pub id_pattern: &'a Regex,
    /// Category prefixes: a mention counts only if its prefix is one of these.
    pub categories: &'a [String],
    /// The last path component of the checks directory (`checks`).
    pub checks_dir: &'a str,
    /// The checks directory relative to the catalogue root, lexical (`checks`, `src/checks`).
    pub checks_path: &'a str,
    /// URLs under which the catalogue root is published (`links.bases`).
    pub bases: &'a [String],
    /// Outlines of earlier runs, when the command keeps them (`session`).
    pub outlines: Option<&'a super::outline_cache::OutlineCache>,
}

impl IdRules<'_> {
    fn is_mention(&self, token: &str) -> bool {
        // Cheap shape test first: an id starts with a letter.
        token.starts_with(char::is_alphabetic)
            && self.id_pattern.is_match(token)
            && token
                .split('-')
                .next()
                .is_some_and(|p| self.categories.iter().any(|c| c == p))
    }

    fn has_category_prefix(&self, id: &str) -> bool {
        id.split('-')
            .next()
            .is_some_and(|p| self.categories.iter().any(|c| c == p))
    }

    /// The check id a link destination written in `file` (relative to the catalogue root)
    /// names: its file name is `<ID>.md`, and it is written under a directory named like the
    /// checks directory (`../checks/FID-003.md`, `https://…/checks/FID-003.md`), or it
    /// resolves into the checks directory (`FID-006.md` beside the check, `./FID-006.md`, a
    /// URL under a configured base), or the id's prefix is a category (`FID-042.md` written
    /// anywhere still means FID-042, and a wrong path to it is reported, not ignored).
    pub fn link_target(&self, dest: &str, file: &str) -> Option<String> {
        let written = dest.split(['#', '?']).next().unwrap_or(dest);
        let mut parts = written.rsplit('/');
        let name = link_dest::percent_decode(parts.next()?);
        let stem = name.strip_suffix(".md")?;
        if !stem.starts_with(char::is_alphabetic) || !self.id_pattern.is_match(stem) {
            return None;
        }
        if parts.next() == Some(self.checks_dir) {
            return Some(stem.to_string());
        }
        match link_dest::resolve(dest, file, self.bases) {
            Dest::Local { path, .. } => {
                let parent = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
                (parent == self.checks_path || self.has_category_prefix(stem))
                    .then(|| stem.to_string())
            }
            _ => None,
        }
    }
}

/// What `IdRules` borrows, owned: for the stages after loading (lint, the site) that resolve
/// links with a loaded catalogue's rules. Built once per run, not per link.
pub struct LinkRules {
    id_pattern: Regex,
    checks_dir: String,
    checks_path: String,
    bases: Vec<String>,
}

impl LinkRules {
    pub fn of(cat: &crate::model::Catalogue) -> LinkRules {
        LinkRules {
            id_pattern: cat.config.id_regex(),
            checks_dir: std::path::Path::new(cat.config.checks_dir())
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| crate::model::config::DEFAULT_CHECKS_DIR.into()),
            checks_path: link_dest::lexical("", cat.config.checks_dir()),
            bases: cat.config.link_bases(),
        }
    }

    /// The rules, with the categories whose prefixes make mentions.
    pub fn with<'a>(&'a self, categories: &'a [String]) -> IdRules<'a> {
        IdRules {
            id_pattern: &self.id_pattern,
            categories,
            checks_dir: &self.checks_dir,
            checks_path: &self.checks_path,
            bases: &self.bases,
            outlines: None,
        }
    }
}

/// Hyphen-joined words that contain a hyphen (`FID-003`, `SHA-256`, `ÄRCH-001`), as
/// (byte offset, token): only those can be check ids. The scan jumps from hyphen to hyphen
/// and widens each to its token, so prose without hyphens costs almost nothing; this runs
/// over every word of every body, where a regex dominated the load time. Word characters are
/// Unicode letters, digits and `_`, so an id pattern with non-ASCII letters finds its ids.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    // Hyphen positions and the widened ends are always char boundaries.
    let before = move |i: usize| text.get(..i).and_then(|s| s.chars().next_back());
    let after = move |i: usize| text.get(i..).and_then(|s| s.chars().next());
    // A hyphen joins two words.
    let joins = move |i: usize| {
        bytes.get(i) == Some(&b'-')
            && before(i).is_some_and(is_word)
            && after(i + 1).is_some_and(is_word)
    };
    let mut next = 0usize;
    std::iter::from_fn(move || loop {
        let rel = memchr::memchr(b'-', bytes.get(next..)?)?;
        let h = next + rel;
        next = h + 1;
        if !joins(h) {
            continue;
        }
        let mut start = h;
        while let Some(c) = before(start) {
            if is_word(c) {
                start -= c.len_utf8();
            } else if c == '-' && joins(start - 1) {
                start -= 1;
            } else {
                break;
            }
        }
        let mut end = h + 1;
        while let Some(c) = after(end) {
            if is_word(c) {
                end += c.len_utf8();
            } else if c == '-' && joins(end) {
                end += 1;
            } else {
                break;
            }
        }
        next = end;
        return text.get(start..end).map(|t| (start, t));
    })
}

/// Position helper: 1-based line/column of a byte offset in `text`, shifted by `first_line`.
struct Lines<'t> {
    text: &'t str,
    index: crate::text::line_index::LineIndex,
    first_line: usize,
}

impl Lines<'_> {
    fn at(&self, offset: usize) -> (usize, usize) {
        let (l, c) = self.index.position(self.text, offset);
        (l + self.first_line - 1, c)
    }
}

/// Outline `text`, whose first line is line `first_line` of `file` (relative to the catalogue
/// root: links resolve against it). `self_id` (a check's own id) is never reported as a
/// reference.
pub fn outline(
    text: &str,
    first_line: usize,
    file: &str,
    rules: &IdRules<'_>,
    self_id: Option<&str>,
) -> Outline {
    scan(text, first_line, file, rules, self_id, true)
}

/// `outline` without tables, for check bodies: nothing reads a check's tables, and their
/// cells were a good share of the loader's allocations.
pub fn outline_without_tables(
    text: &str,
    first_line: usize,
    file: &str,
    rules: &IdRules<'_>,
    self_id: Option<&str>,
) -> Outline {
    scan(text, first_line, file, rules, self_id, false)
}

/// Trim without a second allocation.
fn trim_in_place(s: &mut String) {
    let end = s.trim_end().len();
    s.truncate(end);
    let start = s.len() - s.trim_start().len();
    s.drain(..start);
}

fn scan(
    text: &str,
    first_line: usize,
    file: &str,
    rules: &IdRules<'_>,
    self_id: Option<&str>,
    tables: bool,
) -> Outline {
    let place = Place {
        file,
        first_line,
        self_id,
        tables,
    };
    match rules.outlines {
        Some(cache) => cache.outline(text, &place, rules, || scan_now(text, &place, rules)),
        None => scan_now(text, &place, rules),
    }
}

/// Outline `text` with pulldown-cmark (what the cache spares a run).
fn scan_now(text: &str, place: &Place<'_>, rules: &IdRules<'_>) -> Outline {
    let Place {
        file,
        first_line,
        self_id,
        tables,
    } = *place;
    let opts = Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS | Options::ENABLE_STRIKETHROUGH;
    let mut scanner = Scanner {
        text,
        file,
        rules,
        self_id,
        tables,
        lines: Lines {
            text,
            index: crate::text::line_index::LineIndex::new(text),
            first_line,
        },
        out: Outline::default(),
        heading: None,
        task: None,
        table: None,
        row: None,
        cell: None,
        link_stack: Vec::new(),
        in_code_block: 0,
        external: None,
    };
    for (event, range) in Parser::new_ext(text, opts).into_offset_iter() {
        scanner.event(event, range);
    }
    scanner.out
}

/// The state of one outline pass: what is open while pulldown-cmark's events stream by.
/// Each kind of event has its own handler below.
struct Scanner<'t, 'r> {
    text: &'t str,
    file: &'t str,
    rules: &'t IdRules<'r>,
    self_id: Option<&'t str>,
    /// Collect tables (`outline`) or not (`outline_without_tables`).
    tables: bool,
    lines: Lines<'t>,
    out: Outline,
    /// The open heading: level, start offset and its text so far.
    heading: Option<(u8, usize, String)>,
    task: Option<TaskItem>,
    table: Option<Table>,
    row: Option<Row>,
    cell: Option<Cell>,
    /// Target of each check link we are inside, so its own text is not a second reference.
    link_stack: Vec<Option<String>>,
    in_code_block: usize,
    /// The external link we are inside, while its text is collected.
    external: Option<ExternalLink>,
}

type Span = std::ops::Range<usize>;

impl Scanner<'_, '_> {
    fn event(&mut self, event: Event<'_>, range: Span) {
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(tag) => self.end(tag, range),
            Event::TaskListMarker(checked) => self.task_marker(checked, range),
            Event::Text(s) | Event::Code(s) => self.text(&s, range),
            Event::SoftBreak | Event::HardBreak => self.line_break(),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>, range: Span) {
        match tag {
            Tag::CodeBlock(_) => {
                self.in_code_block += 1;
                self.out.code_blocks.push(range);
            }
            Tag::Heading { level, .. } => {
                self.heading = Some((level as u8, range.start, String::new()));
            }
            Tag::Item => self.finish_open_task(),
            Tag::Table(_) if self.tables => self.table_start(range),
            Tag::TableRow if self.tables => {
                let (line, _) = self.lines.at(range.start);
                self.row = Some(Row {
                    line,
                    cells: Vec::new(),
                });
            }
            Tag::TableCell if self.tables => {
                self.cell = Some(Cell {
                    text: String::new(),
                    references: Vec::new(),
                });
            }
            Tag::Image { dest_url, .. } => self.image(&dest_url, range),
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => self.link_start(link_type, &dest_url, range),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd, range: Span) {
        match tag {
            TagEnd::CodeBlock => self.in_code_block = self.in_code_block.saturating_sub(1),
            TagEnd::Heading(_) => self.heading_end(range),
            TagEnd::Item => self.finish_open_task(),
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.out.tables.push(t);
                }
            }
            TagEnd::TableRow => {
                if let (Some(r), Some(t)) = (self.row.take(), self.table.as_mut()) {
                    t.rows.push(r);
                }
            }
            TagEnd::TableCell => self.cell_end(),
            TagEnd::Link => self.link_end(),
            _ => {}
        }
    }

    fn heading_end(&mut self, range: Span) {
        if let Some((level, start, mut t)) = self.heading.take() {
            let (line, _) = self.lines.at(start);
            trim_in_place(&mut t);
            self.out.headings.push(Heading {
                level,
                text: t,
                line,
                range: start..range.end,
            });
        }
    }

    /// A task item ends where the next item starts or its list item ends.
    fn finish_open_task(&mut self) {
        if let Some(t) = self.task.take() {
            self.out.task_items.push(finish_task(t));
        }
    }

    fn task_marker(&mut self, checked: bool, range: Span) {
        let (line, _) = self.lines.at(range.start);
        self.task = Some(TaskItem {
            text: String::new(),
            checked,
            line,
            offset: range.start,
        });
    }

    fn table_start(&mut self, range: Span) {
        let (line, _) = self.lines.at(range.start);
        self.table = Some(Table {
            line,
            offset: range.start,
            header: Vec::new(),
            rows: Vec::new(),
        });
    }

    fn cell_end(&mut self) {
        if let Some(mut c) = self.cell.take() {
            trim_in_place(&mut c.text);
            match (self.row.as_mut(), self.table.as_mut()) {
                (Some(r), _) => r.cells.push(c),
                (None, Some(t)) => t.header.push(c),
                _ => {}
            }
        }
    }

    fn is_local(&self, dest: &str) -> bool {
        !matches!(
            link_dest::resolve(dest, self.file, self.rules.bases),
            Dest::External
        )
    }

    fn image(&mut self, dest: &str, range: Span) {
        if self.is_local(dest) {
            let (line, column) = self.lines.at(range.start);
            self.out.links.push(local_link(dest, line, column));
        }
    }

    fn link_start(&mut self, link_type: LinkType, dest: &str, range: Span) {
        // `<a@b.ch>` carries its address without `mailto:`; it is no path.
        let email = matches!(link_type, LinkType::Email);
        let target = (!email)
            .then(|| self.rules.link_target(dest, self.file))
            .flatten();
        if !email && self.is_local(dest) {
            let (line, column) = self.lines.at(range.start);
            self.out.links.push(local_link(dest, line, column));
        }
        if let Some(id) = &target {
            // Point at the id when the link text is the id (`[FID-003](…)`), so a caret the
            // id's width long underlines exactly it; else at the link.
            let names_id = self
                .text
                .get(range.start + 1..)
                .is_some_and(|t| t.starts_with(id.as_str()));
            let at = if names_id {
                range.start + 1
            } else {
                range.start
            };
            let (line, column) = self.lines.at(at);
            self.push_ref(Reference {
                target: id.as_str().into(),
                kind: RefKind::Link,
                line,
                column,
                url: Some(dest.into()),
            });
        }
        if target.is_none() && crate::model::source::is_external(dest) {
            let (line, _) = self.lines.at(range.start);
            self.external = Some(ExternalLink {
                label: String::new(),
                url: dest.trim().to_string(),
                line,
                offset: range.start,
            });
        }
        self.link_stack.push(target);
    }

    fn link_end(&mut self) {
        self.link_stack.pop();
        if let Some(mut x) = self.external.take() {
            x.label = x.label.split_whitespace().collect::<Vec<_>>().join(" ");
            self.out.external_links.push(x);
        }
    }

    /// The text buffers open now: a heading's, a task's, a table cell's.
    fn buffers(&mut self) -> impl Iterator<Item = &mut String> {
        [
            self.heading.as_mut().map(|h| &mut h.2),
            self.task.as_mut().map(|t| &mut t.text),
            self.cell.as_mut().map(|c| &mut c.text),
        ]
        .into_iter()
        .flatten()
    }

    fn text(&mut self, s: &str, range: Span) {
        if self.in_code_block > 0 {
            return;
        }
        if let Some(x) = self.external.as_mut() {
            x.label.push_str(s);
        }
        if self.heading.is_some() || self.task.is_some() || self.cell.is_some() {
            let inline_code = self
                .text
                .get(range.clone())
                .is_some_and(|r| r.starts_with('`'));
            for buf in self.buffers() {
                if inline_code {
                    buf.push('`');
                    buf.push_str(s);
                    buf.push('`');
                } else {
                    buf.push_str(s);
                }
            }
        }
        self.mentions(s, range);
    }

    /// Check ids written as words in a text event.
    fn mentions(&mut self, s: &str, range: Span) {
        let source = self.text.get(range.clone()).unwrap_or("");
        for (at, token) in tokens(s) {
            if !self.rules.is_mention(token) {
                continue;
            }
            if self.link_stack.iter().any(|t| t.as_deref() == Some(token)) {
                continue;
            }
            // The event's text equals its source unless escapes were resolved; then find the
            // token in the source instead.
            let within = if source.get(at..at + token.len()) == Some(token) {
                at
            } else {
                source.find(token).unwrap_or(0)
            };
            let (line, column) = self.lines.at(range.start + within);
            self.push_ref(Reference {
                target: token.into(),
                kind: RefKind::Mention,
                line,
                column,
                url: None,
            });
        }
    }

    fn line_break(&mut self) {
        if let Some(x) = self.external.as_mut() {
            x.label.push(' ');
        }
        for buf in self.buffers() {
            buf.push(' ');
        }
    }

    fn push_ref(&mut self, r: Reference) {
        if self.self_id == Some(r.target.as_str()) {
            return;
        }
        if let Some(c) = self.cell.as_mut() {
            c.references.push(self.out.references.len());
        }
        self.out.references.push(r);
    }
}

fn local_link(dest: &str, line: usize, column: usize) -> LocalLink {
    let narrow = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    LocalLink {
        dest: dest.into(),
        line: narrow(line),
        column: narrow(column),
    }
}

/// A task's text with runs of whitespace as single spaces (one allocation).
fn finish_task(mut t: TaskItem) -> TaskItem {
    let mut text = String::with_capacity(t.text.len());
    for word in t.text.split_whitespace() {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(word);
    }
    t.text = text;
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_for(cats: &[String]) -> (Regex, Vec<String>) {
        (Regex::new(r"^[A-Z]{2,6}-\d{3}$").unwrap(), cats.to_vec())
    }

    fn run(text: &str, self_id: Option<&str>) -> Outline {
        let cats = vec!["FID".to_string(), "DRIFT".to_string(), "ARCH".to_string()];
        let (re, cats) = rules_for(&cats);
        let rules = IdRules {
            id_pattern: &re,
            categories: &cats,
            checks_dir: "checks",
            checks_path: "checks",
            bases: &[],
            outlines: None,
        };
        outline(text, 1, "README.md", &rules, self_id)
    }

    fn refs(o: &Outline) -> Vec<(String, RefKind, usize)> {
        o.references
            .iter()
            .map(|r| (r.target.to_string(), r.kind, r.line))
            .collect()
    }

    #[test]
    fn tokens_are_hyphen_joined_words() {
        let got: Vec<_> =
            tokens("a FID-003, x-y-z -lead trail- FID-003-x _A-1_ é-b SHA-256.").collect();
        assert_eq!(
            got,
            vec![
                (2, "FID-003"),
                (11, "x-y-z"),
                (30, "FID-003-x"),
                (40, "_A-1_"),
                (46, "é-b"),
                (51, "SHA-256")
            ]
        );
    }

    #[test]
    fn links_and_mentions_are_kept_apart() {
        let o = run(
            "See [FID-003](../checks/FID-003.md) and `DRIFT-004`.\n\nAlso [x](https://github.com/o/r/blob/main/checks/ARCH-001.md#pass) and FID-001.\n",
            None,
        );
        assert_eq!(
            refs(&o),
            vec![
                ("FID-003".into(), RefKind::Link, 1),
                ("DRIFT-004".into(), RefKind::Mention, 1),
                ("ARCH-001".into(), RefKind::Link, 3),
                ("FID-001".into(), RefKind::Mention, 3),
            ]
        );
    }

    #[test]
    fn non_category_tokens_fenced_code_and_self_are_ignored() {
        let o = run(
            "SHA-256, AES-256, PEP-440, SEP-414, ADR-001; FID-006 is me.\n\n```\nFID-001 in code\n## Not a heading\n```\n\nFID-0031 and XFID-003 no.\n",
            Some("FID-006"),
        );
        assert!(o.references.is_empty(), "{:?}", o.references);
        assert!(o.headings.is_empty());
    }

    #[test]
    fn headings_tasks_and_sections() {
        let text = "# T\n\n## Pass Criteria\n\n- [ ] first `x`\n  continued\n- [x] second\n- plain\n\n## Effort\n\nS\n";
        let o = run(text, None);
        let h: Vec<_> = o
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.line))
            .collect();
        assert_eq!(
            h,
            vec![(1, "T", 1), (2, "Pass Criteria", 3), (2, "Effort", 10)]
        );
        let t: Vec<_> = o
            .task_items
            .iter()
            .map(|t| (t.text.as_str(), t.checked, t.line))
            .collect();
        assert_eq!(
            t,
            vec![("first `x` continued", false, 5), ("second", true, 7)]
        );
        let r = o.section_range(1, text.len()).unwrap();
        assert!(text[r].contains("second"));
    }

    #[test]
    fn external_links_in_every_form_but_not_in_code_or_to_checks() {
        let text = "- [MCP 2025-11-25, *Transports*](https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning)\n- [`RFC 9728` §3][rfc]\n- <https://www.fedlex.admin.ch/eli/cc/2022/491/de#art_8>\n- [FID-001](https://github.com/o/r/blob/main/checks/FID-001.md)\n- [Mail](mailto:x@y.ch) and [local](../docs/x.md)\n\n```md\n[in code](https://example.org/code)\n```\n\n    [indented](https://example.org/indented)\n\n[rfc]: https://www.rfc-editor.org/rfc/rfc9728#section-3\n";
        let o = run(text, None);
        let got: Vec<_> = o
            .external_links
            .iter()
            .map(|x| (x.label.as_str(), x.url.as_str(), x.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("MCP 2025-11-25, Transports", "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning", 1),
                ("RFC 9728 §3", "https://www.rfc-editor.org/rfc/rfc9728#section-3", 2),
                ("https://www.fedlex.admin.ch/eli/cc/2022/491/de#art_8", "https://www.fedlex.admin.ch/eli/cc/2022/491/de#art_8", 3),
            ]
        );
        assert_eq!(o.code_blocks.len(), 2);
        assert!(text[o.code_blocks[0].clone()].contains("in code"));
    }

    #[test]
    fn tables_collect_cells_and_their_references() {
        let text = "| Rule | Checks |\n|---|---|\n| 1. Scope | [FID-001](https://x/checks/FID-001.md), `FID-002` |\n";
        let o = run(text, None);
        let t = &o.tables[0];
        assert_eq!(t.header[0].text, "Rule");
        assert_eq!(t.rows[0].cells[0].text, "1. Scope");
        assert_eq!(t.rows[0].line, 3);
        let cell = &t.rows[0].cells[1];
        let kinds: Vec<_> = cell
            .references
            .iter()
            .map(|&i| o.references[i].kind)
            .collect();
        assert_eq!(kinds, vec![RefKind::Link, RefKind::Mention]);
    }
}
