//! `auditbook show ID`: one check with its sections and its references in both directions.

use super::args::{Cli, ShowArgs};
use super::common::{self, Failure};
use super::list::effective;
use crate::model::{Catalogue, Check, RefKind};
use serde_json::json;

/// Who refers to `id`: (from id, kind, file, line), sorted.
pub fn incoming<'c>(cat: &'c Catalogue, id: &str) -> Vec<(&'c str, RefKind, &'c str, usize)> {
    let mut v: Vec<_> = cat
        .checks
        .iter()
        .flat_map(|c| {
            c.references
                .iter()
                .filter(move |r| r.target == id)
                .map(move |r| (c.id.as_str(), r.kind, c.file.as_str(), r.line))
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn outgoing(c: &Check, kind: RefKind) -> Vec<String> {
    let mut v: Vec<String> = c
        .references
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| r.target.clone())
        .collect();
    v.sort();
    v.dedup();
    v
}

pub fn run(cli: &Cli, args: &ShowArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, &["human", "json"])?;
    let loaded = common::load(cli)?;
    common::warn_load_problems(cli, &loaded);
    let cat = &loaded.catalogue;
    let Some(c) = cat.check(&args.id) else {
        let hint = crate::load::check::suggest(&args.id, cat.checks.iter().map(|c| c.id.as_str()))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        return Err(Failure(format!(
            "no check `{}` in this catalogue{hint}",
            args.id
        )));
    };
    let incoming = incoming(cat, &c.id);
    let links = outgoing(c, RefKind::Link);
    let mentions = outgoing(c, RefKind::Mention);
    let text = match fmt {
        "json" => {
            let doc = json!({
                "check": effective(c),
                "sections": c.sections.iter().map(|s| json!({"title": s.title, "line": s.line})).collect::<Vec<_>>(),
                "pass_criteria": c.pass_criteria,
                "links": links,
                "mentions": mentions,
                "incoming": incoming.iter().map(|(from, kind, file, line)| json!({"from": from, "kind": kind, "file": file, "line": line})).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        _ => human(c, &links, &mentions, &incoming),
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}

fn human(
    c: &Check,
    links: &[String],
    mentions: &[String],
    incoming: &[(&str, RefKind, &str, usize)],
) -> String {
    let mut out = format!("{} — {}\n{}\n\n", c.id, c.title, c.file);
    let defaulted = |f: &str| {
        if c.defaulted.contains(&f) {
            " (default)"
        } else {
            ""
        }
    };
    let fields = [
        ("category", c.category.clone(), ""),
        ("severity", c.severity.clone(), ""),
        (
            "adoption",
            c.adoption.as_str().to_string(),
            defaulted("adoption"),
        ),
        (
            "spec_baseline",
            match &c.spec_baseline_alias {
                Some(a) => format!("{} (written `{a}`)", c.spec_baseline),
                None => c.spec_baseline.clone(),
            },
            defaulted("spec_baseline"),
        ),
        (
            "evidence_required",
            c.evidence_required.to_string(),
            defaulted("evidence_required"),
        ),
        ("applies_when", c.applies_when.clone(), ""),
    ];
    for (k, v, d) in fields {
        out.push_str(&format!("  {k:<18} {v}{d}\n"));
    }
    for (k, v) in [("pdf_ref", &c.pdf_ref), ("spec_ref", &c.spec_ref)] {
        if let Some(v) = v {
            out.push_str(&format!("  {k:<18} {v}\n"));
        }
    }
    out.push_str("\nsections:\n");
    for s in &c.sections {
        out.push_str(&format!("  {} (line {})\n", s.title, s.line));
    }
    if !c.pass_criteria.is_empty() {
        out.push_str("\npass criteria:\n");
        for p in &c.pass_criteria {
            out.push_str(&format!(
                "  [{}] {}\n",
                if p.checked { "x" } else { " " },
                p.text
            ));
        }
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "(none)".to_string()
        } else {
            v.join(", ")
        }
    };
    out.push_str(&format!(
        "\nlinks to:    {}\nmentions:    {}\n",
        list(links),
        list(mentions)
    ));
    out.push_str("referred to by:\n");
    if incoming.is_empty() {
        out.push_str("  (none)\n");
    }
    for (from, kind, file, line) in incoming {
        let k = match kind {
            RefKind::Link => "link",
            RefKind::Mention => "mention",
        };
        out.push_str(&format!("  {from} ({k}, {file}:{line})\n"));
    }
    out
}
