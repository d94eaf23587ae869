//! Completion: check ids in the body (live ids; retired ids offered with their successor),
//! frontmatter keys and closed-vocabulary values, profile fields and their literals inside
//! `applies_when`.

use super::Ctx;
use lsp_types as lsp;

pub fn complete(c: &Ctx<'_>, pos: lsp::Position) -> Option<lsp::CompletionResponse> {
    let at = c.offset(pos);
    let items = if super::world::in_frontmatter(&c.text, at) {
        frontmatter(c, at)?
    } else {
        ids(c, at)?
    };
    Some(lsp::CompletionResponse::Array(items))
}

fn line_before(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    &text[start..at]
}

fn item(label: &str, kind: lsp::CompletionItemKind, detail: Option<String>) -> lsp::CompletionItem {
    lsp::CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..Default::default()
    }
}

fn ids(c: &Ctx<'_>, at: usize) -> Option<Vec<lsp::CompletionItem>> {
    let cat = c.world.catalogue()?;
    let graph = c.world.graph()?;
    let prefix = c
        .word_at(at, &[])
        .filter(|(_, s, _)| *s < at)
        .map(|(_, s, _)| &c.text[s..at])
        .unwrap_or("");
    let line = line_before(&c.text, at);
    // Ids are offered where one is written: in a link, a table cell, or after a typed prefix.
    let in_place = line.ends_with('[')
        || line.ends_with("](")
        || line.trim_end().ends_with('|')
        || !prefix.is_empty();
    if !in_place {
        return None;
    }
    let mut out: Vec<lsp::CompletionItem> = cat
        .checks_by_id()
        .into_iter()
        .filter(|ch| ch.id.starts_with(prefix))
        .map(|ch| {
            let mut i = item(
                &ch.id,
                lsp::CompletionItemKind::REFERENCE,
                Some(ch.title.clone()),
            );
            i.sort_text = Some(format!("0{}", ch.id));
            i
        })
        .collect();
    for r in &cat.config.retired {
        if !r.id.starts_with(prefix) {
            continue;
        }
        let crate::graph::Successor::Live(s) = graph.successor(&r.id) else {
            continue;
        };
        let mut i = item(
            &format!("{} → {s}", r.id),
            lsp::CompletionItemKind::REFERENCE,
            Some(format!("retired {}; use {s}", r.retired)),
        );
        i.filter_text = Some(r.id.clone());
        i.insert_text = Some(s.clone());
        i.sort_text = Some(format!("1{}", r.id));
        i.tags = Some(vec![lsp::CompletionItemTag::DEPRECATED]);
        out.push(i);
    }
    Some(out)
}

fn frontmatter(c: &Ctx<'_>, at: usize) -> Option<Vec<lsp::CompletionItem>> {
    let cat = c.world.catalogue()?;
    let line = line_before(&c.text, at);
    let Some((key, value)) = line.split_once(':') else {
        // A key: the format's and the declared extra ones not yet written.
        let written: Vec<&str> = c
            .text
            .lines()
            .filter_map(|l| l.split_once(':').map(|(k, _)| k.trim()))
            .collect();
        let extra = cat.config.extra_fields.iter().map(String::as_str);
        return Some(
            crate::model::fields::KEYS
                .into_iter()
                .chain(extra)
                .filter(|k| !written.contains(k))
                .map(|k| {
                    let mut i = item(k, lsp::CompletionItemKind::FIELD, None);
                    i.insert_text = Some(format!("{k}: "));
                    i
                })
                .collect(),
        );
    };
    let key = key.trim();
    let values: Vec<String> = match key {
        "severity" => cat.config.severities(),
        "adoption" => crate::model::Adoption::ALL
            .iter()
            .map(|a| a.as_str().to_string())
            .collect(),
        "category" => cat.categories.clone(),
        "spec_baseline" => cat.config.baselines().values,
        "applies_when" => return Some(applies_when(c, value)),
        _ => return None,
    };
    Some(
        values
            .into_iter()
            .map(|v| item(&v, lsp::CompletionItemKind::VALUE, None))
            .collect(),
    )
}

/// Inside an expression: after `field ==` or `field !=`, the field's literals; elsewhere the
/// profile's fields and the keywords.
fn applies_when(c: &Ctx<'_>, before: &str) -> Vec<lsp::CompletionItem> {
    let Some(cat) = c.world.catalogue() else {
        return Vec::new();
    };
    let fields = cat
        .config
        .profile
        .as_ref()
        .map(|p| p.fields.clone())
        .unwrap_or_default();
    let trimmed = before.trim_end().trim_end_matches(['"', '\'']).trim_end();
    let compared = trimmed
        .strip_suffix("==")
        .or_else(|| trimmed.strip_suffix("!="))
        .map(|l| {
            l.trim_end()
                .rsplit(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '.'))
                .next()
                .unwrap_or("")
        });
    if let Some(name) = compared {
        let Some(f) = fields.get(name) else {
            return Vec::new();
        };
        return match f.ty {
            crate::dsl::FieldType::Bool => vec!["true", "false"]
                .into_iter()
                .map(|v| item(v, lsp::CompletionItemKind::VALUE, None))
                .collect(),
            _ => f
                .values
                .iter()
                .flatten()
                .map(|v| {
                    let mut i = item(v, lsp::CompletionItemKind::VALUE, Some(name.into()));
                    i.insert_text = Some(format!("\"{v}\""));
                    i
                })
                .collect(),
        };
    }
    let mut out: Vec<lsp::CompletionItem> = fields
        .iter()
        .map(|(name, f)| {
            item(
                name,
                lsp::CompletionItemKind::FIELD,
                Some(f.ty.name().to_string()),
            )
        })
        .collect();
    out.extend(
        ["and", "or", "always", "true", "false"]
            .into_iter()
            .map(|k| item(k, lsp::CompletionItemKind::KEYWORD, None)),
    );
    out
}
