//! The retired ledger: burned numbers stay burned, successors are live, and every gap in a
//! category's numbering is accounted for.

use crate::diag::{codes, Code, Diagnostic};
use crate::graph::{Graph, Successor};
use crate::model::config::RetiredDecl;
use crate::model::{Catalogue, Mode};
use std::collections::{BTreeMap, BTreeSet};

pub fn check(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if cat.mode == Mode::Compatibility {
        return out;
    }
    let cfg = crate::model::config::FILE_NAME;
    let mut seen = BTreeSet::new();
    let lines = crate::graph::retired_lines(cat);
    for r in &cat.config.retired {
        let line = lines.get(r.id.as_str()).copied().unwrap_or(1);
        let at = |code, msg: String| {
            Diagnostic::new(code, msg)
                .file(cfg)
                .line(line)
                .id(r.id.clone())
        };
        entry(r, &mut seen, &at, &mut out);
        if let Some(c) = cat.check(&r.id) {
            out.push(
                Diagnostic::new(
                    &codes::RETIRED_REUSED,
                    format!(
                        "`{}` was retired on {} and its number is burned, but this file reuses it",
                        r.id, r.retired
                    ),
                )
                .file(c.file.clone())
                .at(c.field_line("id"), 1)
                .id(r.id.clone()),
            );
            continue;
        }
        successor(cat, graph, r, &at, &mut out);
    }
    out.extend(gaps(cat));
    out
}

/// A retired entry is recorded once, on a calendar day, with at most one successor.
fn entry<'r>(
    r: &'r RetiredDecl,
    seen: &mut BTreeSet<&'r str>,
    at: &dyn Fn(&'static Code, String) -> Diagnostic,
    out: &mut Vec<Diagnostic>,
) {
    if !seen.insert(r.id.as_str()) {
        out.push(
            at(
                &codes::RETIRED_INVALID,
                format!("`{}` is retired twice", r.id),
            )
            .help("keep one entry per retired id"),
        );
    }
    if !crate::model::date::is_calendar_date(&r.retired) {
        out.push(at(
            &codes::RETIRED_INVALID,
            format!(
                "retirement date `{}` is not a calendar day written YYYY-MM-DD",
                r.retired
            ),
        ));
    }
    if r.merged_into.is_some() && r.replaced_by.is_some() {
        out.push(at(
            &codes::RETIRED_INVALID,
            format!("`{}` names both merged_into and replaced_by", r.id),
        ));
    }
}

/// A retired id's successor is not itself retired, exists, and its chain ends.
fn successor(
    cat: &Catalogue,
    graph: &Graph,
    r: &RetiredDecl,
    at: &dyn Fn(&'static Code, String) -> Diagnostic,
    out: &mut Vec<Diagnostic>,
) {
    let Some(first) = r.merged_into.as_deref().or(r.replaced_by.as_deref()) else {
        return;
    };
    if cat.retired(first).is_some() && cat.check(first).is_none() {
        out.push(at(
            &codes::SUCCESSOR_RETIRED,
            format!("`{}` points at `{first}`, which is itself retired", r.id),
        ));
    }
    match graph.successor(&r.id) {
        Successor::Dangling(m) => out.push(at(
            &codes::SUCCESSOR_UNKNOWN,
            format!("`{}`'s successor `{m}` is not a check", r.id),
        )),
        Successor::Cycle(ids) => out.push(at(
            &codes::RETIRED_CYCLE,
            format!("retired ids point at each other: {}", ids.join(" → ")),
        )),
        Successor::Live(_) | Successor::None => {}
    }
}

/// Numbers 1..max of each category that are neither a check nor retired.
fn gaps(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut by_prefix: BTreeMap<&str, (BTreeSet<u32>, usize)> = BTreeMap::new();
    let ids = cat
        .known_ids()
        .into_iter()
        .chain(cat.config.retired.iter().map(|r| r.id.as_str()));
    for id in ids {
        let Some((prefix, digits)) = id.rsplit_once('-') else {
            continue;
        };
        let Ok(n) = digits.parse::<u32>() else {
            continue;
        };
        if !digits.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let entry = by_prefix.entry(prefix).or_default();
        entry.0.insert(n);
        entry.1 = entry.1.max(digits.len());
    }
    let mut out = Vec::new();
    for (prefix, (numbers, width)) in by_prefix {
        if !cat.is_category(prefix) {
            continue;
        }
        let Some(&max) = numbers.iter().next_back() else {
            continue;
        };
        for n in 1..max {
            if !numbers.contains(&n) {
                let id = format!("{prefix}-{n:0width$}");
                out.push(
                    Diagnostic::new(
                        &codes::NUMBERING_GAP,
                        format!("{id} is neither a check nor retired"),
                    )
                    .file(crate::model::config::FILE_NAME)
                    .line(category_line(cat, prefix))
                    .id(id)
                    .help(codes::NUMBERING_GAP.help),
                );
            }
        }
    }
    out
}

/// The line of the category `prefix` in catalogue.yaml (its `prefix` key), else 1.
fn category_line(cat: &Catalogue, prefix: &str) -> usize {
    cat.config
        .categories
        .iter()
        .position(|c| c.prefix == prefix)
        .and_then(|i| {
            let path = format!("{}.prefix", cat.config.item_path("categories", i));
            cat.config.positions.line_of(&path)
        })
        .unwrap_or(1)
}
