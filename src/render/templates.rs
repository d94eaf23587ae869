//! The tera environment: templates embedded in the binary, each overridable by a file of the
//! same name in `--templates DIR`. Renderers pass data in; templates only lay it out.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;
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

/// Templates are compiled per family, on first use: `verify` renders a few small tables and
/// should not pay for parsing the site and report templates (it was most of its run time on
/// the shipped catalogue).
pub struct Templates {
    sources: Vec<(String, String)>,
    families: [OnceLock<Result<Tera, String>>; 3],
}

fn family(name: &str) -> usize {
    if name.starts_with("site/") {
        2
    } else if name.starts_with("report") || name.starts_with("portfolio") {
        1
    } else {
        0
    }
}

/// `*.tera` files under `dir` (one level of subdirectories, e.g. `site/`), by relative name.
fn overrides(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    let mut dirs = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = dirs.pop() {
        let entries = std::fs::read_dir(&d)
            .map_err(|e| format!("cannot read templates directory `{}`: {e}", d.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if path.is_dir() && prefix.is_empty() {
                dirs.push((path, format!("{name}/")));
            } else if name.ends_with(".tera") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read template `{}`: {e}", path.display()))?;
                found.push((format!("{prefix}{name}"), text));
            }
        }
    }
    found.sort();
    Ok(found)
}

impl Templates {
    /// The embedded templates, with any `*.tera` file in `dir` replacing or adding one by name.
    pub fn new(dir: Option<&Path>) -> Result<Templates, String> {
        let mut sources: Vec<(String, String)> = EMBEDDED
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        if let Some(dir) = dir {
            for (name, text) in overrides(dir)? {
                sources.retain(|(n, _)| *n != name);
                sources.push((name, text));
            }
        }
        Ok(Templates {
            sources,
            families: Default::default(),
        })
    }

    fn tera(&self, name: &str) -> Result<&Tera, String> {
        let f = family(name);
        let built = self
            .families
            .get(f)
            .ok_or("no such template family")?
            .get_or_init(|| {
                let mut tera = Tera::default();
                tera.autoescape_on(vec![".html.tera", ".html", ".xml.tera"]);
                tera.register_filter("md_cell", md_cell);
                let members = self
                    .sources
                    .iter()
                    .filter(|(n, _)| family(n) == f || n == "macros.tera")
                    .map(|(n, t)| (n.as_str(), t.as_str()));
                tera.add_raw_templates(members)
                    .map_err(|e| format!("template error: {}", chain(&e)))?;
                super::template_recursion::check(&tera)
                    .map_err(|e| format!("template error: {e}"))?;
                Ok(tera)
            });
        built.as_ref().map_err(Clone::clone)
    }

    pub fn has(&self, name: &str) -> bool {
        self.sources.iter().any(|(n, _)| n == name)
    }

    pub fn render(&self, name: &str, context: &Context) -> Result<String, String> {
        self.tera(name)?
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
