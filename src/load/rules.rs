//! Rules: rule files (`rules/<ID>.md`) and mapping tables inside documents, merged by rule id.

use super::frontmatter::{self, Fields, Split};
use super::markdown::{self, IdRules};
use crate::diag::{codes, Diagnostic};
use crate::model::config::RuleTableDecl;
use crate::model::outline::{Row, Table};
use crate::model::rule::Mapping;
use crate::model::{Coverage, Document, RefKind, Reference, Rule, RuleOrigin};
use crate::text::suggest::{did_you_mean, unknown_keys};
use crate::text::yaml_value::describe;
use regex::Regex;
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const KEYS: &[&str] = &["id", "title", "checks", "coverage", "source"];

/// A rule file's frontmatter, typed; the body's references are read with `ids`.
pub fn load_file(file: &str, text: &str, ids: &IdRules<'_>) -> Result<Rule, Vec<Diagnostic>> {
    let with_file = |mut d: Vec<Diagnostic>| {
        for x in &mut d {
            x.file = Some(file.to_string());
        }
        d
    };
    let split = frontmatter::split(text).map_err(|d| with_file(vec![d]))?;
    let fields = frontmatter::parse_fields(&split).map_err(with_file)?;
    let mut errors = Vec::new();
    let line_of = |k: &str| fields.lines.get(k).copied().unwrap_or(1);
    report_unknown_keys(&fields, &mut errors);
    let string = |k: &str, errors: &mut Vec<Diagnostic>| match fields.map.get(k) {
        None => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(other) => {
            errors.push(
                Diagnostic::new(
                    &codes::WRONG_TYPE,
                    format!(
                        "`{k}` must be a non-empty string, found {}",
                        describe(other)
                    ),
                )
                .at(line_of(k), 1),
            );
            None
        }
    };
    let id = string("id", &mut errors);
    if id.is_none() && !fields.map.contains_key("id") {
        errors.push(
            Diagnostic::new(
                &codes::MISSING_FIELD,
                "required field `id` is missing in a rule file",
            )
            .at(1, 1)
            .help("add `id: …` (the rule id, e.g. FIDELITY-1)"),
        );
    }
    let title = string("title", &mut errors);
    let source = string("source", &mut errors);
    let coverage = coverage_field(&fields, &mut errors);
    let checks = checks_field(&fields, &mut errors);
    if !errors.is_empty() {
        return Err(with_file(errors));
    }
    let Some(id) = id else {
        return Err(with_file(vec![Diagnostic::new(
            &codes::MISSING_FIELD,
            "rule without id",
        )
        .at(1, 1)]));
    };
    let checks_line = line_of("checks");
    let lines = checks
        .iter()
        .map(|c| item_line(&split, checks_line, c))
        .collect();
    let outline = markdown::outline(split.body, split.body_line, file, ids, None);
    Ok(Rule {
        id,
        title,
        coverage,
        source,
        mappings: vec![Mapping {
            origin: RuleOrigin::File {
                file: file.to_string(),
                line: checks_line,
            },
            checks,
            lines,
        }],
        references: outline.references,
        links: outline.links,
        body: split.body.to_string(),
    })
}

/// The line at or after `from` on which `item` is written in the frontmatter.
fn item_line(split: &Split<'_>, from: usize, item: &str) -> usize {
    split
        .yaml
        .split('\n')
        .enumerate()
        .map(|(i, l)| (split.yaml_line + i, l))
        .find(|(n, l)| *n >= from && l.contains(item))
        .map(|(n, _)| n)
        .unwrap_or(from)
}

fn leading_number() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^[^0-9A-Za-z]*(\d+)").unwrap_or_else(|_| unreachable!()))
}

/// The 1-based line of a top-level key (1 when it is not written).
fn key_line(fields: &Fields, k: &str) -> usize {
    fields.lines.get(k).copied().unwrap_or(1)
}

/// Keys a rule file does not have.
fn report_unknown_keys(fields: &Fields, errors: &mut Vec<Diagnostic>) {
    let written = fields.map.keys().filter_map(Value::as_str);
    for (k, help) in unknown_keys(written, KEYS) {
        let help = help.unwrap_or_else(|| format!("a rule file has the keys {}", KEYS.join(", ")));
        errors.push(
            Diagnostic::new(
                &codes::UNKNOWN_FIELD,
                format!("unknown field `{k}` in a rule file"),
            )
            .at(key_line(fields, k), 1)
            .help(help),
        );
    }
}

/// `coverage: full | partial | none`.
fn coverage_field(fields: &Fields, errors: &mut Vec<Diagnostic>) -> Option<Coverage> {
    let line_of = |k: &str| key_line(fields, k);
    match fields.map.get("coverage") {
        None => None,
        Some(Value::String(s)) => match Coverage::parse(s) {
            Some(c) => Some(c),
            None => {
                errors.push(
                    Diagnostic::new(
                        &codes::WRONG_TYPE,
                        format!("`coverage` is `{s}`; expected one of `full`, `partial`, `none`"),
                    )
                    .at(line_of("coverage"), 1)
                    .help("write full, partial or none"),
                );
                None
            }
        },
        Some(other) => {
            errors.push(
                Diagnostic::new(
                    &codes::WRONG_TYPE,
                    format!(
                        "`coverage` must be full, partial or none, found {}",
                        describe(other)
                    ),
                )
                .at(line_of("coverage"), 1),
            );
            None
        }
    }
}

/// `checks:` as a list of ids.
fn checks_field(fields: &Fields, errors: &mut Vec<Diagnostic>) -> Vec<String> {
    let line_of = |k: &str| key_line(fields, k);
    let mut checks = Vec::new();
    match fields.map.get("checks") {
        None | Some(Value::Null) => {}
        Some(Value::Sequence(items)) => {
            for item in items {
                match item {
                    Value::String(s) => checks.push(s.clone()),
                    other => errors.push(
                        Diagnostic::new(
                            &codes::WRONG_TYPE,
                            format!("`checks` must list check ids, found {}", describe(other)),
                        )
                        .at(line_of("checks"), 1)
                        .help("quote the id if YAML reads it as something else"),
                    ),
                }
            }
        }
        Some(other) => errors.push(
            Diagnostic::new(
                &codes::WRONG_TYPE,
                format!(
                    "`checks` must be a list of check ids, found {}",
                    describe(other)
                ),
            )
            .at(line_of("checks"), 1)
            .help("write `checks: [FID-001, FID-002]`"),
        ),
    }
    checks
}

/// Rules from a mapping table: the first table under the heading `decl.section` of `doc`.
/// The rule number leads the rule cell; the checks are the ids LINKED in the checks cell
/// (a mention is not coverage). `declared_at` is the line of the table's `section` in
/// `catalogue.yaml`, where a heading the document lacks is reported.
pub fn from_table(
    doc: &Document,
    decl: &RuleTableDecl,
    declared_at: usize,
) -> (Vec<Rule>, Vec<Diagnostic>) {
    let table = match rule_table(doc, decl, declared_at) {
        Ok(t) => t,
        Err(d) => return (Vec::new(), vec![d]),
    };
    let mut diags = Vec::new();
    let mut rules: BTreeMap<String, Rule> = BTreeMap::new();
    for row in &table.rows {
        let TableRow {
            id,
            title,
            gap,
            mapping,
        } = match table_row(doc, decl, row) {
            Ok(r) => r,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        match rules.get_mut(&id) {
            Some(existing) => {
                diags.push(
                    Diagnostic::new(
                        &codes::RULE_DUPLICATE,
                        format!("rule `{id}` has a second row in this table"),
                    )
                    .file(doc.path.clone())
                    .line(row.line)
                    .id(id.clone()),
                );
                existing.mappings.push(mapping);
            }
            None => {
                rules.insert(
                    id.clone(),
                    Rule {
                        id,
                        title,
                        coverage: gap.then_some(Coverage::None),
                        source: Some(format!("{} § {}", doc.path, decl.section)),
                        mappings: vec![mapping],
                        references: Vec::new(),
                        links: Vec::new(),
                        body: String::new(),
                    },
                );
            }
        }
    }
    (rules.into_values().collect(), diags)
}

/// The first table under the declared heading, or why there is none.
fn rule_table<'d>(
    doc: &'d Document,
    decl: &RuleTableDecl,
    declared_at: usize,
) -> Result<&'d Table, Diagnostic> {
    let Some((heading, range)) = doc.section(&decl.section) else {
        let headings: Vec<&str> = doc
            .outline
            .headings
            .iter()
            .map(|h| h.text.as_str())
            .collect();
        let help = did_you_mean(&decl.section, headings.iter().copied())
            .unwrap_or_else(|| "the section is named by its heading text".into());
        return Err(Diagnostic::new(
            &codes::RULE_TABLE_MISSING,
            format!(
                "no heading `{}` in {} (rules.tables)",
                decl.section, doc.path
            ),
        )
        .file(crate::model::config::FILE_NAME)
        .line(declared_at)
        .help(help));
    };
    let heading_line = doc
        .outline
        .headings
        .get(heading)
        .map(|h| h.line)
        .unwrap_or(1);
    doc.outline
        .tables
        .iter()
        .find(|t| range.contains(&t.offset))
        .ok_or_else(|| {
            Diagnostic::new(
                &codes::RULE_TABLE_MISSING,
                format!("section `{}` of {} has no table", decl.section, doc.path),
            )
            .file(doc.path.clone())
            .line(heading_line)
            .help("the rule table is the first table under the heading")
        })
}

/// What one row of a rule table states.
struct TableRow {
    id: String,
    title: Option<String>,
    /// A gap row: related checks, no coverage.
    gap: bool,
    mapping: Mapping,
}

/// Read one row: the rule number leading the rule cell, the checks linked in the checks cell.
fn table_row(doc: &Document, decl: &RuleTableDecl, row: &Row) -> Result<TableRow, Diagnostic> {
    let rule_cell = row.cells.get(decl.rule_column.saturating_sub(1));
    let number = rule_cell
        .and_then(|c| leading_number().captures(&c.text))
        .and_then(|m| m.get(1));
    let Some(number) = number else {
        return Err(Diagnostic::new(
            &codes::RULE_ROW_NUMBER,
            format!(
                "table row has no rule number in column {}: `{}`",
                decl.rule_column,
                rule_cell.map(|c| c.text.as_str()).unwrap_or("")
            ),
        )
        .file(doc.path.clone())
        .line(row.line));
    };
    let id = format!(
        "{}-{}",
        decl.rule_prefix,
        number.as_str().trim_start_matches('0')
    );
    // A gap row names related checks, never coverage (an invalid pattern is reported with
    // catalogue.yaml). The pattern is tried on each cell as read (emphasis and link syntax
    // gone) and as written, so `^\*\*kein Check` matches `**kein Check**` too.
    let gap = decl
        .gap
        .as_deref()
        .and_then(|g| Regex::new(g).ok())
        .is_some_and(|re| {
            row.cells.iter().any(|c| re.is_match(&c.text))
                || doc
                    .text
                    .split('\n')
                    .nth(row.line.saturating_sub(1))
                    .is_some_and(|line| written_cells(line).any(|c| re.is_match(c)))
        });
    let linked: Vec<&Reference> = row
        .cells
        .get(decl.checks_column.saturating_sub(1))
        .map(|c| {
            c.references
                .iter()
                .filter_map(|&i| doc.outline.references.get(i))
                .filter(|r| r.kind == RefKind::Link)
                .collect()
        })
        .unwrap_or_default();
    let mut checks = Vec::new();
    let mut lines = Vec::new();
    for r in linked.into_iter().filter(|_| !gap) {
        if !checks.iter().any(|c| *c == r.target) {
            checks.push(r.target.to_string());
            lines.push(r.line);
        }
    }
    let title = rule_cell.map(|c| {
        c.text
            .trim_start_matches(|ch: char| !ch.is_alphabetic())
            .trim()
            .to_string()
    });
    Ok(TableRow {
        id,
        title: title.filter(|t| !t.is_empty()),
        gap,
        mapping: Mapping {
            origin: RuleOrigin::Table {
                file: doc.path.clone(),
                line: row.line,
            },
            checks,
            lines,
        },
    })
}

/// Merge rules stated in several sources into one per id, keeping every mapping.
pub fn merge(rules: Vec<Rule>, diags: &mut Vec<Diagnostic>) -> Vec<Rule> {
    let mut by_id: BTreeMap<String, Rule> = BTreeMap::new();
    for r in rules {
        match by_id.get_mut(&r.id) {
            None => {
                by_id.insert(r.id.clone(), r);
            }
            Some(existing) => {
                let both_files = existing
                    .mappings
                    .iter()
                    .chain(&r.mappings)
                    .filter(|m| matches!(m.origin, RuleOrigin::File { .. }))
                    .count()
                    > 1;
                if both_files {
                    if let Some(o) = r.origin() {
                        diags.push(
                            Diagnostic::new(
                                &codes::RULE_DUPLICATE,
                                format!("rule `{}` is defined by two rule files", r.id),
                            )
                            .file(o.file().to_string())
                            .line(o.line())
                            .id(r.id.clone()),
                        );
                    }
                }
                // A rule file's declarations win over what a table row implies.
                existing.title = existing.title.take().or(r.title);
                existing.coverage = existing.coverage.or(r.coverage);
                existing.source = existing.source.take().or(r.source);
                existing.mappings.extend(r.mappings);
                existing.mappings.sort_by(|a, b| a.origin.cmp(&b.origin));
                existing.references.extend(r.references);
                existing.links.extend(r.links);
            }
        }
    }
    let mut rules: Vec<Rule> = by_id.into_values().collect();
    rules.sort_by_key(|r| crate::model::rule::natural_key(&r.id));
    rules
}

/// The cells of a table row as written, trimmed: the line split at each `|` no backslash
/// escapes, the outer pipes dropped.
fn written_cells(line: &str) -> impl Iterator<Item = &str> {
    let mut cells = Vec::new();
    let (mut start, mut prev) = (0, '\0');
    for (i, c) in line.char_indices() {
        if c == '|' && prev != '\\' {
            cells.push(&line[start..i]);
            start = i + 1;
        }
        prev = c;
    }
    cells.push(&line[start..]);
    let t = line.trim();
    let (lead, trail) = (t.starts_with('|'), t.ends_with('|') && t.len() > 1);
    let n = cells.len();
    cells
        .into_iter()
        .enumerate()
        .filter(move |(i, _)| !((lead && *i == 0) || (trail && *i + 1 == n)))
        .map(|(_, c)| c.trim())
}
