//! `new CATEGORY --title T`: the next number of a category, never a retired one.

use super::{line_endings, manifest_with, Refused};
use crate::load::manifest;
use crate::model::Catalogue;
use crate::render::templates::Templates;
use crate::write::{Change, Session};
use std::path::PathBuf;

pub const DEFAULT_SECTIONS: &[&str] = &crate::model::check::STANDARD_SECTIONS;

/// The next id of `category`: one past the highest number any check or retired entry used.
pub fn next_id(cat: &Catalogue, category: &str) -> Result<String, Refused> {
    if !cat.is_category(category) {
        return Err(Refused(format!(
            "`{category}` is not a category of this catalogue (categories: {})",
            cat.categories.join(", ")
        )));
    }
    let mut max = 0u32;
    let mut width = 3usize;
    let ids = cat
        .known_ids()
        .into_iter()
        .chain(cat.config.retired.iter().map(|r| r.id.as_str()));
    for id in ids {
        if let Some((p, digits)) = id.rsplit_once('-') {
            if p == category && digits.chars().all(|c| c.is_ascii_digit()) {
                if let Ok(n) = digits.parse::<u32>() {
                    max = max.max(n);
                    width = width.max(digits.len());
                }
            }
        }
    }
    let id = format!("{category}-{:0width$}", max + 1);
    let re = cat.config.id_regex();
    if !re.is_match(&id) {
        return Err(Refused(format!(
            "the next id `{id}` would not match id_pattern `{}`",
            re.as_str()
        )));
    }
    Ok(id)
}

pub struct Created {
    pub id: String,
    pub file: PathBuf,
    pub manifest_updated: bool,
}

/// Create the check file and its manifest line. The caller holds `session` (the catalogue
/// lock) and loaded `cat` after taking it, so the next number is still free.
pub fn create(
    session: &Session,
    cat: &Catalogue,
    templates: &Templates,
    category: &str,
    title: &str,
    severity: &str,
) -> Result<Created, Refused> {
    let title = title.trim();
    if title.is_empty() || title.contains('\n') {
        return Err(Refused("--title must be one non-empty line".into()));
    }
    let severities = cat.config.severities();
    if !severities.iter().any(|s| s == severity) {
        return Err(Refused(format!(
            "--severity `{severity}` is not one of {}",
            severities.join(", ")
        )));
    }
    let id = next_id(cat, category)?;
    let checks_dir = cat.root.join(cat.config.checks_dir());
    let file = checks_dir.join(format!("{id}.md"));
    if file.exists() {
        return Err(Refused(format!("{} already exists", file.display())));
    }
    let sections: Vec<String> = if cat.config.required_sections.is_empty() {
        DEFAULT_SECTIONS.iter().map(|s| s.to_string()).collect()
    } else {
        cat.config.required_sections.clone()
    };
    let fields = serde_json::json!({
        "id": id,
        "title": title,
        "title_yaml": serde_json::to_string(title).unwrap_or_default(),
        "category": category,
        "severity": severity,
        "sections": sections,
    });
    let ctx = tera::Context::from_serialize(&fields).map_err(|e| Refused(e.to_string()))?;
    let text = templates.render("check.md.tera", &ctx).map_err(Refused)?;
    let mut changes = vec![Change::Create(file.clone(), text)];
    let manifest_path = checks_dir.join(manifest::FILE_NAME);
    let manifest_updated = manifest_path.exists();
    if manifest_updated {
        let (current, endings) = line_endings::read(&manifest_path)
            .map_err(|e| Refused(format!("cannot read {}: {e}", manifest_path.display())))?;
        changes.push(Change::Write(
            manifest_path,
            endings.apply(&manifest_with(&current, &id)),
        ));
    }
    session
        .apply(&format!("new {id}"), &changes)
        .map_err(|e| Refused(format!("nothing was changed: {e}")))?;
    Ok(Created {
        id,
        file,
        manifest_updated,
    })
}
