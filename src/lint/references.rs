//! References from checks to checks: a link must resolve to a live check; a mention of an
//! unknown id is suspicious; retired ids are history, never a link target.

use crate::diag::{codes, Diagnostic, Level};
use crate::model::config::RetiredDecl;
use crate::model::{Catalogue, RefKind, Reference};
use std::collections::BTreeSet;

/// Judge one reference found in `file`. Shared by checks, rules and documents so a link means
/// the same wherever it is written.
pub fn judge(
    cat: &Catalogue,
    known: &BTreeSet<&str>,
    file: &str,
    r: &Reference,
) -> Option<Diagnostic> {
    if known.contains(r.target.as_str()) {
        return None;
    }
    let here = |code, msg: String| {
        Diagnostic::new(code, msg)
            .file(file)
            .at(r.line, r.column)
            .width(r.target.chars().count())
            .id(r.target.clone())
    };
    if let Some(ret) = retired(cat, &r.target) {
        let successor = successor_text(ret);
        return Some(match r.kind {
            RefKind::Link => here(
                &codes::LINK_RETIRED,
                format!(
                    "link to `{}`, retired on {}{}",
                    r.target, ret.retired, successor
                ),
            )
            .help(match successor_id(ret) {
                Some(s) => format!("link `{s}` instead"),
                None => codes::LINK_RETIRED.help.to_string(),
            }),
            RefKind::Mention => {
                let level = match cat
                    .config
                    .lint
                    .as_ref()
                    .and_then(|l| l.retired_mentions.as_deref())
                {
                    Some("error") => Level::Error,
                    Some("warning") => Level::Warning,
                    _ => Level::Note,
                };
                here(
                    &codes::MENTION_RETIRED,
                    format!(
                        "mentions `{}`, retired on {}{}",
                        r.target, ret.retired, successor
                    ),
                )
                .level(level)
                .help(codes::MENTION_RETIRED.help)
            }
        });
    }
    Some(match r.kind {
        RefKind::Link => here(
            &codes::LINK_UNKNOWN,
            format!(
                "link to `{}` ({}), but no such check exists",
                r.target,
                r.url.as_deref().unwrap_or("")
            ),
        )
        .help(near(known, &r.target)),
        RefKind::Mention => here(
            &codes::MENTION_UNKNOWN,
            format!("mentions `{}`, but no such check exists", r.target),
        )
        .help(near(known, &r.target)),
    })
}

/// Ids differ by a digit, so "did you mean" would point at an arbitrary neighbour; say what
/// is missing instead.
fn near(_known: &BTreeSet<&str>, id: &str) -> String {
    format!("there is no check file for `{id}`; correct the id, or drop the reference if it is deliberate")
}

pub fn retired<'c>(cat: &'c Catalogue, id: &str) -> Option<&'c RetiredDecl> {
    cat.config.retired.iter().find(|r| r.id == id)
}

pub fn successor_id(r: &RetiredDecl) -> Option<&str> {
    r.merged_into.as_deref().or(r.replaced_by.as_deref())
}

fn successor_text(r: &RetiredDecl) -> String {
    match (&r.merged_into, &r.replaced_by) {
        (Some(m), _) => format!(" and merged into `{m}`"),
        (None, Some(p)) => format!(" and replaced by `{p}`"),
        _ => String::new(),
    }
}

pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let known = cat.known_ids();
    cat.checks
        .iter()
        .flat_map(|c| {
            c.references
                .iter()
                .filter_map(|r| judge(cat, &known, &c.file, r))
                .collect::<Vec<_>>()
        })
        .collect()
}
