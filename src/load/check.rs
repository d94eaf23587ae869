//! Typing a check file: frontmatter fields into a `Check`, body into sections, pass criteria
//! and references. Every field problem in a file is reported at once; a file with any of them
//! yields no `Check` (its id still counts as existing, see `BrokenCheck`).

use super::frontmatter::{self, Fields, Split};
use super::markdown::{self, IdRules};
use crate::diag::{codes, Code, Diagnostic};
use crate::model::check::Frontmatter;
use crate::model::config::BaselineConfig;
use crate::model::fields::{OPTIONAL, REQUIRED};
use crate::model::{Adoption, Check, Criterion, Section, Source};
use crate::text::suggest::{did_you_mean, unknown_keys};
use crate::text::yaml_value::describe;
use compact_str::CompactString;
use serde_yaml::Value;
use std::collections::BTreeMap;

pub const PASS_CRITERIA: &str = "Pass Criteria";

/// What typing a check needs to know about the catalogue.
pub struct Vocab<'a> {
    pub severities: &'a [String],
    pub baselines: &'a BaselineConfig,
    pub extra_fields: &'a [String],
}

/// Type a check file's frontmatter. The body is kept as text; `attach_body` reads it once the
/// categories are known (in compatibility mode they come from all the checks' frontmatter).
pub fn load(
    file: &str,
    text: &std::sync::Arc<str>,
    vocab: &Vocab<'_>,
) -> Result<Check, Vec<Diagnostic>> {
    let stem = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    let with_file = |id: Option<String>| {
        move |mut d: Vec<Diagnostic>| {
            for x in &mut d {
                x.file = Some(file.to_string());
                x.id = x.id.take().or_else(|| id.clone());
            }
            d
        }
    };
    let split = frontmatter::split(text).map_err(|d| with_file(stem.clone())(vec![d]))?;
    let fields = frontmatter::parse_fields(&split).map_err(with_file(stem.clone()))?;
    // The check's own id when it is readable, else the file name's.
    let id = match fields.map.get("id") {
        Some(Value::String(s)) => Some(s.clone()),
        _ => stem,
    };
    let mut field_lines = crate::model::FieldLines::default();
    for (key, line) in &fields.lines {
        field_lines.set(key, *line);
    }
    let mut check = type_fields(&split, fields, vocab).map_err(with_file(id))?;
    check.file = file.into();
    check.body_start = text.len() - split.body.len();
    check.field_lines = field_lines;
    check.applies_when_column = expression_column(text, &check);
    check.source = crate::model::CheckText::Held(std::sync::Arc::clone(text));
    Ok(check)
}

/// Where the applies_when value starts on its line (1-based, in characters), so findings inside
/// the expression point at the right column without the text.
fn expression_column(text: &str, c: &Check) -> u32 {
    let line = c.field_line("applies_when");
    let raw = text.split('\n').nth(line.saturating_sub(1)).unwrap_or("");
    let col = raw
        .find(c.applies_when.as_str())
        .filter(|_| !c.applies_when.is_empty())
        .map(|i| raw.get(..i).map(|p| p.chars().count()).unwrap_or(0) + 1)
        .unwrap_or(1);
    u32::try_from(col).unwrap_or(u32::MAX)
}

/// Reads fields off the mapping, recording every problem.
struct Reader<'s> {
    split: &'s Split<'s>,
    fields: Fields,
    errors: Vec<Diagnostic>,
}

impl Reader<'_> {
    fn line(&self, key: &str) -> usize {
        self.fields
            .lines
            .get(key)
            .copied()
            .unwrap_or(self.split.yaml_line.saturating_sub(1).max(1))
    }

    /// Column and width of the value on a key's line, for carets under the value.
    fn value_span(&self, key: &str) -> (usize, usize) {
        let line = self.line(key);
        let raw = self
            .split
            .yaml
            .split('\n')
            .nth(line.saturating_sub(self.split.yaml_line))
            .unwrap_or("");
        match raw.split_once(':') {
            Some((k, v)) if k.trim_end() == key => {
                let lead = v.len() - v.trim_start().len();
                let col = k.chars().count() + 1 + v[..lead].chars().count() + 1;
                (col, v.trim().chars().count().max(1))
            }
            _ => (1, key.chars().count()),
        }
    }

    /// The value as written in the file, for messages ("YAML read `1.10` as …").
    fn raw_value(&self, key: &str) -> String {
        let line = self.line(key);
        self.split
            .yaml
            .split('\n')
            .nth(line.saturating_sub(self.split.yaml_line))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    }

    /// Take a field's value out of the mapping (each field is read once; taking it spares a
    /// copy of every value of every check).
    fn take(&mut self, key: &str) -> Option<Value> {
        self.fields.map.remove(key)
    }

    fn err(&mut self, code: &'static Code, key: &str, message: String, help: Option<String>) {
        let (col, width) = self.value_span(key);
        let d = Diagnostic::new(code, message)
            .at(self.line(key), col)
            .width(width)
            .help(help.unwrap_or_else(|| code.help.to_string()));
        self.errors.push(d);
    }

    /// A string field; `None` when absent. Non-strings are reported, never converted.
    fn string(&mut self, key: &str, required: bool) -> Option<String> {
        match self.take(key) {
            None => {
                if required {
                    let line = self.split.yaml_line.saturating_sub(1).max(1);
                    self.errors.push(
                        Diagnostic::new(
                            &codes::MISSING_FIELD,
                            format!("required field `{key}` is missing"),
                        )
                        .at(line, 1)
                        .width(3)
                        .help(format!("add `{key}: …` to the frontmatter")),
                    );
                }
                None
            }
            Some(Value::String(s)) if s.trim().is_empty() => {
                self.err(
                    &codes::EMPTY_VALUE,
                    key,
                    format!("`{key}` is empty; expected a non-empty string"),
                    None,
                );
                None
            }
            Some(Value::String(s)) => Some(s),
            Some(Value::Null) => {
                self.err(
                    &codes::EMPTY_VALUE,
                    key,
                    format!("`{key}` has no value; expected a non-empty string"),
                    None,
                );
                None
            }
            Some(other) => {
                let raw = self.raw_value(key);
                self.err(
                    &codes::WRONG_TYPE,
                    key,
                    format!(
                        "`{key}` must be a string; YAML reads `{raw}` as {}",
                        describe(&other)
                    ),
                    Some(format!("quote the value: `{key}: \"{raw}\"`")),
                );
                None
            }
        }
    }

    fn vocabulary(
        &mut self,
        key: &str,
        code: &'static Code,
        allowed: &[impl AsRef<str>],
        value: Option<Value>,
    ) -> Option<String> {
        let found = match value {
            Some(Value::String(s)) => s,
            Some(other) => {
                let raw = self.raw_value(key);
                self.err(
                    code,
                    key,
                    format!(
                        "`{key}` is `{raw}` ({}); expected one of {}",
                        describe(&other),
                        list(allowed)
                    ),
                    None,
                );
                return None;
            }
            None => return None,
        };
        if allowed.iter().any(|a| a.as_ref() == found) {
            return Some(found);
        }
        let help = did_you_mean(&found, allowed.iter().map(AsRef::as_ref));
        self.err(
            code,
            key,
            format!("`{key}` is `{found}`; expected one of {}", list(allowed)),
            help,
        );
        None
    }
}

fn list(values: &[impl AsRef<str>]) -> String {
    values
        .iter()
        .map(|v| format!("`{}`", v.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `2025-11-25` as written, without quotes (a trailing comment aside).
pub fn is_bare_date(raw: &str) -> bool {
    let v = raw.split(" #").next().unwrap_or("").trim();
    let b = v.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

fn type_fields(
    split: &Split<'_>,
    fields: Fields,
    vocab: &Vocab<'_>,
) -> Result<Check, Vec<Diagnostic>> {
    let mut r = Reader {
        split,
        fields,
        errors: Vec::new(),
    };

    let extra = frontmatter_keys(&mut r, split, vocab);
    let id = r.string("id", true);
    let title = r.string("title", true);
    let category = r.string("category", true);
    let applies_when = r.string("applies_when", true);
    let severity = match r.take("severity") {
        None => r.string("severity", true),
        v => r.vocabulary("severity", &codes::BAD_SEVERITY, vocab.severities, v),
    };

    let mut defaulted = Vec::new();
    let adoption = adoption(&mut r, &mut defaulted);
    let (spec_baseline, alias) = spec_baseline(&mut r, vocab, &mut defaulted);
    let unquoted_date = spec_baseline.is_some()
        && !defaulted.contains(&"spec_baseline")
        && is_bare_date(&r.raw_value("spec_baseline"));
    let evidence_required = evidence_required(&mut r, &mut defaulted);
    let pdf_ref = r.string("pdf_ref", false);
    let spec_ref = r.string("spec_ref", false);
    let probes = probes(&mut r);
    let conformance = conformance(&mut r);
    let scan = scan(&mut r);

    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    match (
        id,
        title,
        category,
        severity,
        applies_when,
        adoption,
        spec_baseline,
        evidence_required,
    ) {
        (
            Some(id),
            Some(title),
            Some(category),
            Some(severity),
            Some(applies_when),
            Some(adoption),
            Some(spec_baseline),
            Some(evidence_required),
        ) => {
            let head = Frontmatter {
                id: id.into(),
                title,
                category: category.into(),
                severity: severity.into(),
                applies_when: applies_when.into(),
                spec_baseline: spec_baseline.into(),
                adoption,
                evidence_required,
                rare: crate::model::check::Rare {
                    pdf_ref,
                    spec_ref,
                    extra,
                    defaulted,
                    spec_baseline_alias: alias,
                    probes,
                    conformance,
                    scan,
                    spec_baseline_unquoted_date: unquoted_date,
                },
            };
            let text = crate::model::CheckText::Held(std::sync::Arc::from(""));
            let mut c = Check::new(head, CompactString::default(), text);
            c.body_line = split.body_line;
            Ok(c)
        }
        // Every `None` above pushed an error, so this arm is unreachable in practice; it still
        // answers with a diagnostic rather than a panic.
        _ => Err(vec![Diagnostic::new(
            &codes::YAML_INVALID,
            "the frontmatter could not be read",
        )
        .line(split.yaml_line)]),
    }
}

/// Keys first: an unknown key is the typo that silently changes nothing. Declared extra fields
/// are kept as they are written.
fn frontmatter_keys(
    r: &mut Reader<'_>,
    split: &Split<'_>,
    vocab: &Vocab<'_>,
) -> BTreeMap<String, serde_json::Value> {
    let known: Vec<&str> = REQUIRED
        .iter()
        .chain(OPTIONAL)
        .copied()
        .chain(vocab.extra_fields.iter().map(String::as_str))
        .collect();
    let mut extra = BTreeMap::new();
    let mut key_errors = Vec::new();
    for (key, value) in &r.fields.map {
        match key {
            Value::String(k) if vocab.extra_fields.iter().any(|e| e == k) => {
                extra.insert(k.clone(), serde_json::to_value(value).unwrap_or_default());
            }
            Value::String(_) => {}
            _ => key_errors.push(
                Diagnostic::new(
                    &codes::WRONG_TYPE,
                    format!("frontmatter keys must be strings, found {}", describe(key)),
                )
                .line(split.yaml_line),
            ),
        }
    }
    let written = r.fields.map.keys().filter_map(Value::as_str);
    for (k, help) in unknown_keys(written, &known) {
        let help = help.map(|s| format!("{s} (or declare `{k}` under extra_fields)"));
        key_errors.push(
            Diagnostic::new(&codes::UNKNOWN_FIELD, format!("unknown field `{k}`"))
                .at(r.line(k), 1)
                .width(k.chars().count())
                .help_if(help),
        );
    }
    r.errors.extend(key_errors);
    extra
}

fn adoption(r: &mut Reader<'_>, defaulted: &mut Vec<&'static str>) -> Option<Adoption> {
    match r.take("adoption") {
        None => {
            defaulted.push("adoption");
            Some(Adoption::Enforced)
        }
        v => {
            let allowed = Adoption::ALL.map(Adoption::as_str);
            r.vocabulary("adoption", &codes::BAD_ADOPTION, &allowed, v)
                .and_then(|s| Adoption::parse(&s))
        }
    }
}

/// The baseline in canonical spelling, and the alias it was written as, if any.
fn spec_baseline(
    r: &mut Reader<'_>,
    vocab: &Vocab<'_>,
    defaulted: &mut Vec<&'static str>,
) -> (Option<String>, Option<String>) {
    let baselines = vocab.baselines;
    let mut alias = None;
    let value = match r.take("spec_baseline") {
        None => {
            defaulted.push("spec_baseline");
            Some(baselines.default.clone())
        }
        Some(Value::String(s)) if baselines.aliases.contains_key(&s) => {
            alias = Some(s.clone());
            baselines.aliases.get(&s).cloned()
        }
        v => {
            let allowed: Vec<&str> = (baselines.values.iter())
                .chain(baselines.aliases.keys())
                .map(String::as_str)
                .collect();
            r.vocabulary("spec_baseline", &codes::BAD_BASELINE, &allowed, v)
        }
    };
    (value, alias)
}

fn evidence_required(r: &mut Reader<'_>, defaulted: &mut Vec<&'static str>) -> Option<u32> {
    match r.take("evidence_required") {
        None => {
            defaulted.push("evidence_required");
            Some(1)
        }
        Some(Value::Number(n)) if n.as_u64().is_some_and(|v| v <= u64::from(u32::MAX)) => {
            n.as_u64().and_then(|v| u32::try_from(v).ok())
        }
        Some(other) => {
            let raw = r.raw_value("evidence_required");
            r.err(
                &codes::BAD_EVIDENCE,
                "evidence_required",
                format!(
                    "`evidence_required` is `{raw}` ({}); expected a whole number of at least 0",
                    describe(&other)
                ),
                None,
            );
            None
        }
    }
}

/// `conformance:`: a list of conformance-suite check ids (lower case, digits, `.`, `_`, `-`; a
/// trailing `*` for every id with that start).
fn conformance(r: &mut Reader<'_>) -> Vec<String> {
    let Some(v) = r.take("conformance") else {
        return Vec::new();
    };
    let valid = |s: &str| {
        let core = s.strip_suffix('*').unwrap_or(s);
        core.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && core
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
    };
    let items: Option<Vec<String>> = match &v {
        serde_yaml::Value::Sequence(s) => s
            .iter()
            .map(|x| x.as_str().filter(|t| valid(t)).map(String::from))
            .collect(),
        serde_yaml::Value::String(t) if valid(t) => Some(vec![t.clone()]),
        _ => None,
    };
    match items {
        Some(i) => i,
        None => {
            r.err(
                &codes::PROBE_INVALID,
                "conformance",
                "`conformance` must be a list of conformance-suite check ids (`sep-2549-tools-list-caching-hints`, or a start with `*`)".into(),
                Some("write `conformance: [sep-2575-server-implements-discover]`".into()),
            );
            Vec::new()
        }
    }
}

fn probes(r: &mut Reader<'_>) -> Vec<crate::model::probe::ProbeSpec> {
    match r.take("probe") {
        None => Vec::new(),
        Some(v) => crate::model::probe::parse(&v).unwrap_or_else(|p| {
            nested_problems(r, "probe", p);
            Vec::new()
        }),
    }
}

fn scan(r: &mut Reader<'_>) -> Vec<crate::model::scan::ScanRule> {
    match r.take("scan") {
        None => Vec::new(),
        Some(v) => crate::model::scan::parse(&v).unwrap_or_else(|p| {
            nested_problems(r, "scan", p);
            Vec::new()
        }),
    }
}

/// Problems of a nested declaration (`probe`, `scan`), each at the line its key path names
/// (`probe[1].steps[0].expect[2]`), not only at the key.
fn nested_problems(r: &mut Reader<'_>, key: &str, problems: Vec<crate::model::declared::Problem>) {
    let lines = crate::text::yaml_lines::key_lines(r.split.yaml);
    for p in problems {
        let at = crate::text::yaml_lines::line_of(&lines, &p.path)
            .map(|l| r.split.yaml_line + l - 1)
            .unwrap_or_else(|| r.line(key));
        let (col, width) = if at == r.line(key) {
            r.value_span(key)
        } else {
            let raw = r
                .split
                .yaml
                .split('\n')
                .nth(at.saturating_sub(r.split.yaml_line))
                .unwrap_or("");
            let lead = raw.len() - raw.trim_start().len();
            (lead + 1, raw.trim().chars().count().max(1))
        };
        r.errors.push(
            Diagnostic::new(&codes::PROBE_INVALID, p.message)
                .at(at, col)
                .width(width)
                .help(p.help),
        );
    }
}

/// Where a check's sources are and how it says its basis is house practice
/// (`require_sources` in `catalogue.yaml`).
pub struct SourceRules<'a> {
    pub section: &'a str,
    /// `None` when no marker is declared (nothing then asks for one).
    pub house_practice: Option<&'a regex::Regex>,
}

impl Default for SourceRules<'_> {
    fn default() -> Self {
        SourceRules {
            section: crate::model::config::DEFAULT_SOURCES_SECTION,
            house_practice: None,
        }
    }
}

/// Read the body: level-2 sections, the pass criteria, references to other checks, and the
/// external sources of the sources section.
pub fn attach_body(check: &mut Check, ids: &IdRules<'_>, source_rules: &SourceRules<'_>) {
    let body = check.body();
    let outline =
        markdown::outline_without_tables(body, check.body_line, &check.file, ids, Some(&check.id));
    let narrow = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    let sections: Vec<Section> = (0..outline.headings.len())
        .filter_map(|i| {
            let h = outline.headings.get(i).filter(|h| h.level == 2)?;
            let content = outline.section_range(i, body.len())?;
            Some(Section {
                title: crate::model::check::SectionTitle::new(&h.text),
                line: narrow(h.line),
                start: narrow(content.start),
                end: narrow(content.end),
            })
        })
        .collect();
    let criteria: Vec<Criterion> = match sections.iter().find(|s| s.title == PASS_CRITERIA) {
        Some(pc) => {
            let range = pc.content();
            outline
                .task_items
                .iter()
                .filter(|t| range.contains(&t.offset))
                .map(|t| Criterion {
                    text: t.text.as_str().into(),
                    checked: t.checked,
                    line: narrow(t.line),
                })
                .collect()
        }
        None => Vec::new(),
    };
    let (sources, house_practice_line) =
        match sections.iter().find(|s| s.title == source_rules.section) {
            Some(sec) => {
                let range = sec.content();
                let sources: Vec<Source> = outline
                    .external_links
                    .into_iter()
                    .filter(|x| range.contains(&x.offset))
                    .map(|x| Source {
                        label: x.label.into(),
                        url: x.url.into(),
                        line: narrow(x.line),
                    })
                    .collect();
                let marker = source_rules.house_practice.and_then(|re| {
                    house_practice_line(body, range, &outline.code_blocks, re)
                        .map(|l| narrow(l + check.body_line))
                });
                (sources, marker.unwrap_or(0))
            }
            None => (Vec::new(), 0),
        };
    check.sections = sections.into_boxed_slice();
    check.pass_criteria = criteria.into_boxed_slice();
    check.references = outline.references.into_boxed_slice();
    check.sources = sources.into_boxed_slice();
    check.house_practice_line = house_practice_line;
    check.links = outline.links.into_boxed_slice();
}

/// Read only what commands that never look at links need: the level-2 sections (by a line
/// scan, see `load::sections`), the pass criteria and the external sources (each from the
/// outline of its own section alone). References and links stay empty.
pub fn attach_sections(check: &mut Check, ids: &IdRules<'_>, source_rules: &SourceRules<'_>) {
    let body = check.body();
    let narrow = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    let heads = super::sections::headings(body);
    let sections: Vec<Section> = heads
        .iter()
        .enumerate()
        .filter(|(_, h)| h.level == 2)
        .map(|(i, h)| {
            let end = heads
                .get(i + 1..)
                .and_then(|rest| rest.iter().find(|n| n.level <= h.level))
                .map(|n| n.range.start)
                .unwrap_or(body.len());
            Section {
                title: crate::model::check::SectionTitle::new(h.title),
                line: narrow(h.line + check.body_line),
                start: narrow(h.range.end),
                end: narrow(end.max(h.range.end)),
            }
        })
        .collect();
    // One section's text, the line it starts on (the one after its heading), and its outline.
    let outline_of = |sec: &Section| {
        let text = body.get(sec.content()).unwrap_or("");
        let first_line = sec.line as usize + 1;
        let outline =
            markdown::outline_without_tables(text, first_line, &check.file, ids, Some(&check.id));
        (text, first_line, outline)
    };
    let mut sources = Vec::new();
    let mut marker_line = 0;
    if let Some(sec) = sections.iter().find(|s| s.title == source_rules.section) {
        let (text, first_line, outline) = outline_of(sec);
        sources = outline
            .external_links
            .into_iter()
            .map(|x| Source {
                label: x.label.into(),
                url: x.url.into(),
                line: narrow(x.line),
            })
            .collect();
        if let Some(re) = source_rules.house_practice {
            if let Some(l) = house_practice_line(text, 0..text.len(), &outline.code_blocks, re) {
                marker_line = narrow(l + first_line);
            }
        }
    }
    // The pass criteria are part of the catalogue's semantic fingerprint, which audit
    // reports carry: read them from their section alone.
    let mut criteria = Vec::new();
    if let Some(pc) = sections.iter().find(|s| s.title == PASS_CRITERIA) {
        let (_, _, outline) = outline_of(pc);
        criteria = outline
            .task_items
            .into_iter()
            .map(|t| Criterion {
                text: t.text.as_str().into(),
                checked: t.checked,
                line: narrow(t.line),
            })
            .collect();
    }
    check.sections = sections.into_boxed_slice();
    check.pass_criteria = criteria.into_boxed_slice();
    check.sources = sources.into_boxed_slice();
    check.house_practice_line = marker_line;
}

/// The first line of `range` in `body` (as a 0-based count of lines before it) that matches
/// the house-practice marker once a list or quote marker is removed; lines in code blocks are
/// examples and never count.
fn house_practice_line(
    body: &str,
    range: std::ops::Range<usize>,
    code_blocks: &[std::ops::Range<usize>],
    marker: &regex::Regex,
) -> Option<usize> {
    let text = body.get(range.clone())?;
    let mut offset = range.start;
    for raw in text.split('\n') {
        let at = offset;
        offset += raw.len() + 1;
        if code_blocks.iter().any(|b| b.contains(&at)) {
            continue;
        }
        if marker.is_match(strip_line_marker(raw)) {
            return Some(body.get(..at).map(|b| b.matches('\n').count()).unwrap_or(0));
        }
    }
    None
}

/// A line without its indentation, quote marks and one list marker (`- `, `* `, `+ `, `1. `,
/// `1) `).
fn strip_line_marker(line: &str) -> &str {
    let mut s = line.trim_start();
    while let Some(rest) = s.strip_prefix('>') {
        s = rest.trim_start();
    }
    for bullet in ["- ", "* ", "+ "] {
        if let Some(rest) = s.strip_prefix(bullet) {
            return rest.trim_start();
        }
    }
    let digits = s.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        if let Some(rest) = s
            .get(digits..)
            .and_then(|r| r.strip_prefix(". ").or_else(|| r.strip_prefix(") ")))
        {
            return rest.trim_start();
        }
    }
    s
}
