//! Table-row claims (`table:` in a claim): the first table of the claim's section held to the
//! catalogue row by row. The key column names each row's key; every other declared column
//! holds a query in which `$key` stands for that key (`count(checks where category == $key)`),
//! a tally (`profile(severity, checks where category == $key)`, read by `tally`), or `name`
//! (the key's display name). A row for a
//! key the `keys` query does not select, a selected key without a row, and a total row that is
//! not the sum of the catalogue's values are findings.

use crate::claims::locate::{self, declaration_error, Place};
use crate::claims::memo::Memo;
use crate::claims::query::{self, Kind, Query, Scope};
use crate::claims::{ids, numbers, tally};
use crate::diag::{codes, Code, Diagnostic};
use crate::model::config::{ClaimDecl, TableClaimDecl};
use crate::model::outline::{Row, Table};
use crate::model::Catalogue;
use std::collections::BTreeMap;

pub struct TableRows;

impl super::Form for TableRows {
    fn declares(&self, claim: &ClaimDecl) -> bool {
        claim.table.is_some()
    }

    fn check(&self, cat: &Catalogue, claim: &ClaimDecl, memo: &Memo) -> Vec<Diagnostic> {
        match &claim.table {
            Some(decl) => check(cat, claim, decl, memo),
            None => Vec::new(),
        }
    }

    #[cfg(any(test, feature = "internals"))]
    fn problems(&self, cat: &Catalogue, claim: &ClaimDecl) -> Vec<String> {
        claim
            .table
            .as_ref()
            .map(|decl| problems(cat, decl))
            .unwrap_or_default()
    }
}

/// What one column's cells are held to.
enum Column {
    /// `name`: the key's display name (a category's name, a check's or rule's title).
    Name,
    /// A `count` query, `$key` not yet replaced.
    Count(String),
    /// `profile(FIELD, SET …)`: the field, its vocabulary, and the set's query text.
    Tally {
        field: String,
        vocabulary: Vec<String>,
        set: String,
    },
}

/// The fields a tally can count by (those with a closed vocabulary, `model::fields`), with
/// their vocabulary in the catalogue's order.
fn vocabulary(cat: &Catalogue, field: &str) -> Option<Vec<String>> {
    let f = crate::model::fields::closed()
        .into_iter()
        .find(|f| f.key == field)?;
    crate::model::fields::vocabulary(f.kind, cat)
}

fn field_of(c: &crate::model::Check, field: &str) -> String {
    crate::model::fields::field(field)
        .map(|f| (f.value)(c).to_text())
        .unwrap_or_default()
}

/// `text` with `$key` replaced by the key as a string literal.
fn bind(text: &str, key: &str) -> String {
    text.replace("$key", &format!("\"{}\"", key.replace('"', "\\\"")))
}

/// A cell's text as the key it names: emphasis, code marks and space trimmed.
fn plain(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '`'))
}

/// 1-based column of cell `n` in the raw table line (the text after its `|`), for findings.
fn cell_column(line: &str, n: usize) -> usize {
    let mut pipes = Vec::new();
    let mut prev = '\0';
    for (i, c) in line.char_indices() {
        if c == '|' && prev != '\\' {
            pipes.push(i);
        }
        prev = c;
    }
    let lead = line.trim_start().starts_with('|');
    let at = if lead {
        pipes.get(n).map(|p| p + 1)
    } else if n == 0 {
        Some(0)
    } else {
        pipes.get(n - 1).map(|p| p + 1)
    };
    let Some(at) = at else { return 1 };
    let rest = line.get(at..).unwrap_or("");
    let skip = rest.len() - rest.trim_start().len();
    line.get(..at + skip)
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1
}

struct Ctx<'a> {
    cat: &'a Catalogue,
    claim: &'a ClaimDecl,
    place: Place<'a>,
    /// The `keys` query as written.
    keys: &'a str,
    scope: Scope,
    memo: &'a Memo,
}

impl Ctx<'_> {
    fn at(&self, code: &'static Code, row: &Row, cell: usize, msg: String) -> Diagnostic {
        let line = self
            .place
            .index
            .line(&self.place.doc.text, row.line)
            .unwrap_or("");
        Diagnostic::new(code, format!("claim `{}`: {msg}", self.claim.name))
            .file(self.claim.doc.clone())
            .at(row.line, cell_column(line, cell))
    }

    fn eval(&self, src: &str) -> Result<std::rc::Rc<(Query, query::Answer)>, String> {
        self.memo.answer(self.cat, src, &self.scope)
    }

    /// The column's value for `key`: a count, or a count per bucket.
    fn value(&self, col: &Column, key: &str) -> Result<Value, String> {
        match col {
            Column::Name => Ok(Value::Name(
                self.cat
                    .config
                    .category_name(key)
                    .map(str::to_string)
                    .or_else(|| self.cat.check(key).map(|c| c.title.clone()))
                    .or_else(|| self.cat.rule(key).and_then(|r| r.title.clone()))
                    .unwrap_or_default(),
            )),
            Column::Count(src) => {
                let qa = self.eval(&bind(src, key))?;
                let (q, a) = (&qa.0, &qa.1);
                Ok(Value::Count(
                    q.bound,
                    a.selected.len() as u64,
                    q.text.clone(),
                ))
            }
            Column::Tally {
                field,
                vocabulary,
                set,
            } => {
                let qa = self.eval(&format!("ids({})", bind(set, key)))?;
                let selected = &qa.1.selected;
                let mut per: BTreeMap<String, u64> =
                    vocabulary.iter().map(|v| (v.clone(), 0)).collect();
                for id in selected {
                    if let Some(c) = self.cat.check(id) {
                        *per.entry(field_of(c, field)).or_default() += 1;
                    }
                }
                Ok(Value::Tally(
                    vocabulary
                        .iter()
                        .map(|v| (v.clone(), per.get(v).copied().unwrap_or(0)))
                        .collect(),
                ))
            }
        }
    }
}

enum Value {
    Name(String),
    Count(query::Bound, u64, String),
    /// Count per bucket, in the vocabulary's order.
    Tally(Vec<(String, u64)>),
}

impl Value {
    fn add(self, other: Value) -> Value {
        match (self, other) {
            (Value::Count(b, x, t), Value::Count(_, y, _)) => Value::Count(b, x + y, t),
            (Value::Tally(a), Value::Tally(b)) => Value::Tally(
                a.into_iter()
                    .zip(b)
                    .map(|((k, x), (_, y))| (k, x + y))
                    .collect(),
            ),
            (a, _) => a,
        }
    }
}

/// Parse a column's declaration; `Err` says what is wrong with it.
fn column(cat: &Catalogue, src: &str) -> Result<Column, String> {
    let text = src.trim();
    if text == "name" {
        return Ok(Column::Name);
    }
    let Some(inner) = text
        .strip_prefix("profile(")
        .and_then(|r| r.strip_suffix(')'))
    else {
        return Ok(Column::Count(text.to_string()));
    };
    let (field, set) = inner
        .split_once(',')
        .ok_or_else(|| format!("`{text}`: write profile(FIELD, SET where …)"))?;
    let field = field.trim();
    let vocabulary = vocabulary(cat, field).ok_or_else(|| {
        format!("`{text}`: a profile counts by severity, adoption, category or spec_baseline, not `{field}`")
    })?;
    let set = set.trim();
    if set.split_whitespace().next() != Some("checks") {
        return Err(format!(
            "`{text}`: a profile counts checks: write profile({field}, checks where …)"
        ));
    }
    Ok(Column::Tally {
        field: field.to_string(),
        vocabulary,
        set: set.to_string(),
    })
}

/// The index of the header cell named `name` (emphasis and case ignored), or of column `name`
/// when it is a 1-based number.
fn header_index(table: &Table, name: &str) -> Option<usize> {
    table
        .header
        .iter()
        .position(|h| plain(&h.text).eq_ignore_ascii_case(plain(name)))
        .or_else(|| {
            name.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=table.header.len()).contains(n))
                .map(|n| n - 1)
        })
}

/// What is wrong with a table claim's queries, each column tried with the first key the
/// `keys` query selects.
#[cfg(any(test, feature = "internals"))]
fn problems(cat: &Catalogue, decl: &TableClaimDecl) -> Vec<String> {
    let keys = match query::parse(cat, &decl.keys) {
        Ok(q) => q,
        Err(e) => return vec![e],
    };
    let sample = query::eval(cat, &keys, &Scope::default())
        .ok()
        .and_then(|a| a.selected.into_iter().next())
        .unwrap_or_default();
    let mut out = Vec::new();
    for src in decl.columns.values() {
        let checked = match column(cat, src) {
            Ok(Column::Name) => Ok(()),
            Ok(Column::Count(q)) => query::parse(cat, &bind(&q, &sample)).map(|_| ()),
            Ok(Column::Tally { set, .. }) => {
                query::parse(cat, &format!("ids({})", bind(&set, &sample))).map(|_| ())
            }
            Err(e) => Err(e),
        };
        out.extend(checked.err());
    }
    out
}

/// The claim's declaration read: the keys query, the columns' queries, and what is wrong with
/// them (a claim error each, before any table is read).
#[allow(clippy::type_complexity)]
fn declared<'d>(
    cat: &Catalogue,
    claim: &ClaimDecl,
    decl: &'d TableClaimDecl,
) -> (Option<Query>, Vec<(&'d String, Column)>, Vec<Diagnostic>) {
    let bad = |msg: String| declaration_error(cat, claim, &codes::CLAIM_INVALID, msg);
    let mut errors = Vec::new();
    if !claim.pattern.is_empty() || !claim.expect.is_empty() {
        errors.push(bad("a table claim reads the table's cells: leave out `pattern` and `expect` (a claim has either, not both)".into()));
    }
    let keys = match query::parse(cat, &decl.keys) {
        Ok(q) if q.kind == Kind::Ids => Some(q),
        Ok(_) => {
            errors.push(bad(format!(
                "`keys: {}` must list the keys: write ids(SET)",
                decl.keys
            )));
            None
        }
        Err(e) => {
            errors.push(bad(format!("keys: {e}")));
            None
        }
    };
    let mut columns: Vec<(&String, Column)> = Vec::new();
    for (header, src) in &decl.columns {
        match column(cat, src) {
            Ok(c) => columns.push((header, c)),
            Err(e) => errors.push(bad(format!("column `{header}`: {e}"))),
        }
    }
    if decl.columns.is_empty() {
        errors.push(bad(
            "`columns` names no column, so nothing would be checked".into(),
        ));
    }
    (keys, columns, errors)
}

/// A table claim held: the table in the claim's section row by row against the catalogue's
/// answer for each row's key, then the keys without a row and the total row.
fn check(cat: &Catalogue, claim: &ClaimDecl, decl: &TableClaimDecl, memo: &Memo) -> Vec<Diagnostic> {
    let bad = |msg: String| declaration_error(cat, claim, &codes::CLAIM_INVALID, msg);
    let (keys, columns, mut errors) = declared(cat, claim, decl);
    let place = match locate::locate(cat, claim) {
        Ok(l) => l,
        Err(d) => {
            errors.extend(d);
            return errors;
        }
    };
    let Some(keys) = keys else { return errors };
    let ctx = Ctx {
        cat,
        claim,
        scope: Scope::of(place.doc, place.lines()),
        place,
        keys: &decl.keys,
        memo,
    };
    let (doc, range) = (ctx.place.doc, &ctx.place.range);
    let answer = match query::eval(cat, &keys, &ctx.scope) {
        Ok(a) => a,
        Err(e) => {
            errors.push(bad(format!("keys: `{}` failed: {e}", keys.text)));
            return errors;
        }
    };
    // Each column's query, tried once with a key the catalogue has, so a typo is a claim
    // error and not one finding per row.
    if let Some(sample) = answer.selected.iter().next() {
        for (header, col) in &columns {
            if let Err(e) = ctx.value(col, sample) {
                errors.push(bad(format!("column `{header}`: {e}")));
            }
        }
    }
    if !errors.is_empty() {
        return errors;
    }
    let where_ = ctx.place.described();
    let Some(table) = doc
        .outline
        .tables
        .iter()
        .find(|t| range.contains(&t.offset))
    else {
        return vec![locate::unmatched(
            cat,
            claim,
            &ctx.place,
            format!("{where_} holds no table any more, so the claim goes unchecked"),
        )];
    };
    let mut out = Vec::new();
    let header_names: Vec<&str> = table.header.iter().map(|h| plain(&h.text)).collect();
    let missing_header = |name: &str| {
        Diagnostic::new(
            &codes::CLAIM_UNMATCHED,
            format!(
                "claim `{}`: the table in {where_} has no column `{name}` (its columns: {}), so that column goes unchecked",
                claim.name,
                header_names.join(", ")
            ),
        )
        .file(claim.doc.clone())
        .line(table.line)
    };
    let key_col = match &decl.key {
        None => 0,
        Some(k) => match header_index(table, k) {
            Some(i) => i,
            None => return vec![missing_header(k)],
        },
    };
    let mut cols: Vec<(usize, &String, Column)> = Vec::new();
    for (header, col) in columns {
        match header_index(table, header) {
            Some(i) => cols.push((i, header, col)),
            None => out.push(missing_header(header)),
        }
    }
    let total_label = decl.total.as_deref().map(plain);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut total_row: Option<&Row> = None;
    for row in &table.rows {
        let cell = row
            .cells
            .get(key_col)
            .map(|c| c.text.as_str())
            .unwrap_or("");
        let written = plain(cell);
        if total_label.is_some_and(|t| t.eq_ignore_ascii_case(written)) {
            match total_row {
                // One total is held; a second would go unread.
                Some(first) => out.push(
                    ctx.at(
                        &codes::CLAIM_TABLE_ROW_UNKNOWN,
                        row,
                        key_col,
                        format!(
                            "a second `{written}` row (the first is at line {}); the table has one total",
                            first.line
                        ),
                    )
                    .width(written.chars().count())
                    .help(codes::CLAIM_TABLE_ROW_UNKNOWN.help),
                ),
                None => total_row = Some(row),
            }
            continue;
        }
        let named = ids::extract(cat, keys.set, &claim.doc, cell);
        let key = named
            .keys()
            .find(|k| answer.universe.contains(*k))
            .or_else(|| named.keys().next())
            .cloned()
            .unwrap_or_else(|| written.to_string());
        if !answer.selected.contains(&key) {
            let why = if answer.universe.contains(&key) {
                format!("`{}` does not select it", keys.text)
            } else {
                format!("`{}` does not know it", keys.text)
            };
            out.push(
                ctx.at(
                    &codes::CLAIM_TABLE_ROW_UNKNOWN,
                    row,
                    key_col,
                    format!("a row for `{key}`, but {why}"),
                )
                .width(written.chars().count())
                .id(key.clone()),
            );
            continue;
        }
        if let Some(first) = seen.insert(key.clone(), row.line) {
            out.push(
                ctx.at(
                    &codes::CLAIM_TABLE_ROW_UNKNOWN,
                    row,
                    key_col,
                    format!("a second row for `{key}` (the first is at line {first})"),
                )
                .id(key.clone()),
            );
            continue;
        }
        for (i, header, col) in &cols {
            let Ok(value) = ctx.value(col, &key) else {
                continue;
            };
            let cell = row.cells.get(*i).map(|c| c.text.as_str()).unwrap_or("");
            out.extend(compare(&ctx, row, *i, header, &key, cell, value));
        }
    }
    out.extend(unwritten_rows(&ctx, table, &keys, &answer, &seen, &where_));
    out.extend(total(&ctx, table, &cols, &answer, total_row, total_label, &where_));
    out
}

/// A row for every key the `keys` query selects.
fn unwritten_rows(
    ctx: &Ctx<'_>,
    table: &Table,
    keys: &Query,
    answer: &query::Answer,
    seen: &BTreeMap<String, usize>,
    where_: &str,
) -> Vec<Diagnostic> {
    let claim = ctx.claim;
    let mut out = Vec::new();
    for key in &answer.selected {
        if !seen.contains_key(key) {
            out.push(
                Diagnostic::new(
                    &codes::CLAIM_TABLE_ROW_MISSING,
                    format!(
                        "claim `{}`: `{}` selects `{key}`, but the table in {where_} has no row for it",
                        claim.name, keys.text
                    ),
                )
                .file(claim.doc.clone())
                .line(table.line)
                .id(key.clone()),
            );
        }
    }
    out
}

/// The total row, when the claim declares one: each column's cell is the sum over every
/// selected key.
fn total(
    ctx: &Ctx<'_>,
    table: &Table,
    cols: &[(usize, &String, Column)],
    answer: &query::Answer,
    total_row: Option<&Row>,
    total_label: Option<&str>,
    where_: &str,
) -> Vec<Diagnostic> {
    let claim = ctx.claim;
    let mut out = Vec::new();
    match (total_row, total_label) {
        (Some(row), Some(label)) => {
            for (i, header, col) in cols {
                let cell = row.cells.get(*i).map(|c| c.text.as_str()).unwrap_or("");
                if plain(cell).is_empty() || matches!(col, Column::Name) {
                    continue;
                }
                let mut sum: Option<Value> = None;
                for key in &answer.selected {
                    if let Ok(v) = ctx.value(col, key) {
                        sum = Some(match sum {
                            None => v,
                            Some(s) => s.add(v),
                        });
                    }
                }
                // The total is over every key: the message names the column's query as
                // declared and the keys it is summed over, not one key's query.
                let sum = match (sum, col) {
                    (Some(Value::Count(b, n, _)), Column::Count(src)) => Some(Value::Count(
                        b,
                        n,
                        format!("the sum of `{src}` over `{}`", ctx.keys),
                    )),
                    (s, _) => s,
                };
                if let Some(sum) = sum {
                    out.extend(compare(ctx, row, *i, header, label, cell, sum));
                }
            }
        }
        (None, Some(label)) => out.push(
            Diagnostic::new(
                &codes::CLAIM_TABLE_ROW_MISSING,
                format!(
                    "claim `{}`: the table in {where_} has no `{label}` row any more",
                    claim.name
                ),
            )
            .file(claim.doc.clone())
            .line(table.line),
        ),
        _ => {}
    }
    out
}

/// One cell against the catalogue's value for its row.
fn compare(
    ctx: &Ctx<'_>,
    row: &Row,
    col: usize,
    header: &str,
    key: &str,
    cell: &str,
    value: Value,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let written = cell.trim();
    let what = format!("row `{key}`, column `{header}`");
    match value {
        Value::Name(name) if plain(written) == name => {}
        Value::Name(name) => out.push(
            ctx.at(
                &codes::CLAIM_TEXT,
                row,
                col,
                format!("{what}: the document says `{written}`, the catalogue names it `{name}`"),
            )
            .width(written.chars().count())
            .id(key)
            .help(format!("write `{name}` here, or rename it in the catalogue")),
        ),
        Value::Count(bound, expected, text) => match numbers::read(written) {
            Ok(n) if bound.holds(n, expected) => {}
            Ok(n) => out.push(
                ctx.at(&codes::CLAIM_COUNT, row, col, if bound == query::Bound::Eq {
                    format!("{what}: the document says {n} (`{written}`), the catalogue has {expected} ({text})")
                } else {
                    format!("{what}: the document says {n} (`{written}`), which must be {} {expected} ({text})", bound.as_str())
                })
                .width(written.chars().count())
                .id(key)
                .help(format!("write {expected} here, or correct the column's query if it counts something else")),
            ),
            Err(numbers::Unreadable(w)) => out.push(
                ctx.at(&codes::CLAIM_NUMBER_UNREADABLE, row, col, format!("{what}: `{w}` is not a number auditbook can read; {text} is {expected}"))
                    .id(key),
            ),
        },
        Value::Tally(expected) => {
            let vocabulary: Vec<String> = expected.iter().map(|(k, _)| k.clone()).collect();
            let read = tally::read(written, &vocabulary);
            for (_, problem) in &read.problems {
                let msg = match problem {
                    tally::Problem::UnknownBucket(piece, word) => format!(
                        "{what}: `{piece}` counts `{word}`, which is not one of {}",
                        vocabulary.join(", ")
                    ),
                    tally::Problem::Repeated(b) => format!("{what}: `{b}` is counted twice"),
                    tally::Problem::Unreadable(p) => format!(
                        "{what}: `{p}` is not a count and a bucket (`2 critical · 8 high`)"
                    ),
                };
                out.push(
                    ctx.at(&codes::CLAIM_TALLY_UNREADABLE, row, col, msg)
                        .id(key),
                );
            }
            for (bucket, want) in expected {
                let says = read.counts.get(&bucket).copied().unwrap_or(0);
                if says != want {
                    out.push(
                        ctx.at(&codes::CLAIM_COUNT, row, col, format!(
                            "{what}: the document says {says} {bucket} (`{written}`), the catalogue has {want}"
                        ))
                        .width(written.chars().count())
                        .id(key)
                        .help(format!("write {want} {bucket} here (a bucket left out counts as 0)")),
                    );
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_of_cells_in_the_raw_line() {
        let l = "| FID | 6 | 2 critical · 4 high |";
        assert_eq!(cell_column(l, 0), 3);
        assert_eq!(cell_column(l, 1), 9);
        assert_eq!(cell_column(l, 2), 13);
        assert_eq!(cell_column("FID | 6", 1), 7);
        assert_eq!(cell_column(r"| a \| b | c |", 1), 12);
    }

    #[test]
    fn keys_bind_as_string_literals() {
        assert_eq!(
            bind("count(checks where category == $key)", "FID"),
            "count(checks where category == \"FID\")"
        );
    }
}
