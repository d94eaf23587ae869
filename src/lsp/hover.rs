//! Hover: what a check id stands for, what became of a retired one, what a profile field in
//! `applies_when` holds.

use super::Ctx;
use lsp_types as lsp;

pub fn hover(c: &Ctx<'_>, pos: lsp::Position) -> Option<lsp::Hover> {
    let (text, start, end) = match c.id_at(pos) {
        Some((id, s, e)) => (id_text(c, &id)?, s, e),
        None => profile_field(c, pos)?,
    };
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: Some(c.range(start, end)),
    })
}

fn id_text(c: &Ctx<'_>, id: &str) -> Option<String> {
    let cat = c.world.catalogue()?;
    let graph = c.world.graph()?;
    if let Some(check) = cat.check(id) {
        let rules = graph.covering_rules(id);
        let rules = if rules.is_empty() {
            "none".to_string()
        } else {
            rules.join(", ")
        };
        return Some(format!(
            "**{id}** — {}\n\n| | |\n|---|---|\n| severity | {} |\n| adoption | {} |\n| spec_baseline | {} |\n| applies_when | `{}` |\n| rules | {} |\n\n{}",
            check.title,
            check.severity,
            check.adoption.as_str(),
            check.spec_baseline,
            check.applies_when,
            rules,
            check.file,
        ));
    }
    let r = cat.retired(id)?;
    let successor = match graph.successor(id) {
        crate::graph::Successor::Live(s) => format!("`{s}`"),
        crate::graph::Successor::Dangling(s) => format!("`{s}` (no such check)"),
        crate::graph::Successor::Cycle(v) => format!("a cycle: {}", v.join(" → ")),
        crate::graph::Successor::None => "none".into(),
    };
    Some(format!(
        "**{id}** — retired on {}\n\nreason: {}\n\nsuccessor: {successor}",
        r.retired,
        r.reason.as_deref().unwrap_or("not given"),
    ))
}

/// A dotted profile field name on an `applies_when:` line of the frontmatter.
fn profile_field(c: &Ctx<'_>, pos: lsp::Position) -> Option<(String, usize, usize)> {
    let at = c.offset(pos);
    if !super::world::in_frontmatter(&c.text, at) || !on_key_line(&c.text, at, "applies_when") {
        return None;
    }
    let (name, s, e) = c.word_at(at, &['.'])?;
    let cat = c.world.catalogue()?;
    let field = cat.config.profile.as_ref()?.fields.get(name)?;
    let vocabulary = match &field.values {
        Some(v) if field.open => format!("examples (open): {}", v.join(", ")),
        Some(v) => format!("values: {}", v.join(", ")),
        None => "values: any".into(),
    };
    let mut text = format!(
        "**{name}** — profile field, type `{}`{}\n\n{vocabulary}",
        field.ty.name(),
        if field.required { "" } else { ", optional" },
    );
    if let Some(d) = &field.description {
        text.push_str("\n\n");
        text.push_str(d);
    }
    Some((text, s, e))
}

/// Whether byte `at` is on the line of frontmatter key `key` (or a continuation of it).
pub fn on_key_line(text: &str, at: usize, key: &str) -> bool {
    let head = &text[..at.min(text.len())];
    for line in head.rsplit('\n') {
        let t = line.trim_start();
        if line.starts_with(char::is_whitespace) || t.is_empty() {
            continue;
        }
        return t.starts_with(key) && t[key.len()..].trim_start().starts_with(':');
    }
    false
}
