//! The tera environment: templates embedded in the binary, each overridable by a file of the
//! same name in `--templates DIR`. Renderers pass data in; templates only lay it out.

use std::collections::HashMap;
use std::path::Path;
use tera::{Context, Tera, Value};

/// Every embedded template, by name. A new template is added here and in `templates/`.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("macros.tera", include_str!("../../templates/macros.tera")),
    (
        "report.md.tera",
        include_str!("../../templates/report.md.tera"),
    ),
    (
        "report.html.tera",
        include_str!("../../templates/report.html.tera"),
    ),
    (
        "portfolio.md.tera",
        include_str!("../../templates/portfolio.md.tera"),
    ),
    (
        "rules-table.md.tera",
        include_str!("../../templates/rules-table.md.tera"),
    ),
    (
        "category-counts.md.tera",
        include_str!("../../templates/category-counts.md.tera"),
    ),
    (
        "severity-counts.md.tera",
        include_str!("../../templates/severity-counts.md.tera"),
    ),
    (
        "advisory-list.md.tera",
        include_str!("../../templates/advisory-list.md.tera"),
    ),
    (
        "check.md.tera",
        include_str!("../../templates/check.md.tera"),
    ),
    (
        "check-index.md.tera",
        include_str!("../../templates/check-index.md.tera"),
    ),
    (
        "site/base.html.tera",
        include_str!("../../templates/site/base.html.tera"),
    ),
    (
        "site/index.html.tera",
        include_str!("../../templates/site/index.html.tera"),
    ),
    (
        "site/check.html.tera",
        include_str!("../../templates/site/check.html.tera"),
    ),
    (
        "site/retired.html.tera",
        include_str!("../../templates/site/retired.html.tera"),
    ),
    (
        "site/rules.html.tera",
        include_str!("../../templates/site/rules.html.tera"),
    ),
    (
        "site/style.css.tera",
        include_str!("../../templates/site/style.css.tera"),
    ),
];

pub struct Templates {
    tera: Tera,
}

impl Templates {
    /// The embedded templates, with any `*.tera` file in `dir` replacing or adding one by name.
    pub fn new(dir: Option<&Path>) -> Result<Templates, String> {
        let mut sources: Vec<(String, String)> = EMBEDDED
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        if let Some(dir) = dir {
            let entries = std::fs::read_dir(dir)
                .map_err(|e| format!("cannot read templates directory `{}`: {e}", dir.display()))?;
            let mut names = Vec::new();
            for entry in entries {
                let path = entry.map_err(|e| e.to_string())?.path();
                if path.extension().is_some_and(|e| e == "tera") {
                    names.push(path);
                }
            }
            names.sort();
            for path in names {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read template `{}`: {e}", path.display()))?;
                sources.retain(|(n, _)| *n != name);
                sources.push((name, text));
            }
        }
        let mut tera = Tera::default();
        tera.autoescape_on(vec![".html.tera", ".html", ".xml.tera"]);
        tera.register_filter("md_cell", md_cell);
        tera.add_raw_templates(sources)
            .map_err(|e| format!("template error: {}", chain(&e)))?;
        Ok(Templates { tera })
    }

    pub fn has(&self, name: &str) -> bool {
        self.tera.get_template_names().any(|n| n == name)
    }

    pub fn render(&self, name: &str, context: &Context) -> Result<String, String> {
        self.tera
            .render(name, context)
            .map_err(|e| format!("rendering `{name}` failed: {}", chain(&e)))
    }
}

/// tera nests the useful message in the error's sources.
fn chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        parts.push(s.to_string());
        cur = s.source();
    }
    parts.join(": ")
}

/// Text safe inside a Markdown table cell: pipes escaped, line breaks folded.
fn md_cell(value: &Value, _: &HashMap<String, Value>) -> tera::Result<Value> {
    let s = match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    Ok(Value::String(
        s.replace('|', "\\|")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_directory_replaces_by_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("extra.md.tera"), "x={{ x | md_cell }}").unwrap();
        let t = Templates::new(Some(dir.path())).unwrap();
        let mut ctx = Context::new();
        ctx.insert("x", "a|b\nc");
        assert_eq!(t.render("extra.md.tera", &ctx).unwrap(), "x=a\\|b c");
    }

    #[test]
    fn html_templates_escape() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("p.html.tera"), "{{ x }}").unwrap();
        let t = Templates::new(Some(dir.path())).unwrap();
        let mut ctx = Context::new();
        ctx.insert("x", "<b>");
        assert_eq!(t.render("p.html.tera", &ctx).unwrap(), "&lt;b&gt;");
    }
}
