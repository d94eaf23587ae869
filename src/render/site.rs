//! The static HTML catalogue: an index filterable by category, severity, adoption and baseline,
//! one page per check and per retired id, and the rule table. Data is built here; the
//! `site/*.html.tera` templates lay it out (autoescaped). Pages link to each other relatively,
//! so the directory works from any web server or straight from disk.

use super::tables;
use super::templates::Templates;
use crate::graph::{EdgeKind, Graph, Link, Node, Successor};
use crate::model::fields::{self, FieldValue, Kind};
use crate::model::{Catalogue, Check};
use crate::text::html_markdown::{self, Links};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// One file of the site: its path relative to the output directory (`/`-separated) and text.
pub struct Page {
    pub path: String,
    pub text: String,
}

/// A file-name-safe form of an id (ids are pattern-checked, but a site never trusts that).
pub fn page_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Where references lead, seen from a page `depth` directories below the site root.
struct SiteLinks<'a> {
    cat: &'a Catalogue,
    root: &'static str,
    /// The file the text was written in and the catalogue's link rules: a link names a
    /// check exactly as lint and the graph read it (`FID-006.md`, `./FID-006.md`, a URL under
    /// a configured base).
    from: Option<(&'a crate::load::markdown::IdRules<'a>, &'a str)>,
}

impl SiteLinks<'_> {
    fn page_of(&self, id: &str) -> Option<String> {
        if self.cat.check(id).is_some() {
            Some(format!("{}checks/{}.html", self.root, page_name(id)))
        } else if self.cat.retired(id).is_some() {
            Some(format!("{}retired/{}.html", self.root, page_name(id)))
        } else {
            None
        }
    }
}

impl Links for SiteLinks<'_> {
    fn href(&self, dest: &str) -> Option<String> {
        let dest = dest.trim();
        if dest.starts_with('#') {
            return Some(dest.to_string());
        }
        let (path, fragment) = match dest.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (dest, None),
        };
        if let Some(id) = self
            .from
            .and_then(|(rules, file)| rules.link_target(dest, file))
        {
            if let Some(p) = self.page_of(&id) {
                let frag = fragment.map(|f| format!("#{f}")).unwrap_or_default();
                return Some(p + &frag);
            }
        }
        let file = path.rsplit('/').next().unwrap_or(path);
        let parent = path
            .strip_suffix(file)
            .map(|p| p.trim_end_matches('/'))
            .and_then(|p| p.rsplit('/').next())
            .unwrap_or("");
        if let Some(stem) = file.strip_suffix(".md") {
            let frag = fragment.map(|f| format!("#{f}")).unwrap_or_default();
            if parent
                == self
                    .cat
                    .config
                    .checks_dir()
                    .rsplit('/')
                    .next()
                    .unwrap_or("checks")
                || (parent.is_empty() && self.cat.check(stem).is_some())
            {
                if let Some(p) = self.page_of(stem) {
                    return Some(p + &frag);
                }
            }
            if parent == "rules" && self.cat.rule(stem).is_some() {
                return Some(format!("{}rules.html#{}", self.root, page_name(stem)));
            }
        }
        let external = dest.contains("://") || dest.starts_with("mailto:");
        // A relative link to a file the site does not publish would dangle: keep the text only.
        external.then(|| dest.to_string())
    }

    fn id_href(&self, id: &str) -> Option<String> {
        self.page_of(id)
    }
}

fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
}

fn node_href(n: &Node, root: &str) -> Option<String> {
    match n {
        Node::Check(id) => Some(format!("{root}checks/{}.html", page_name(id))),
        Node::Retired(id) => Some(format!("{root}retired/{}.html", page_name(id))),
        Node::Rule(id) => Some(format!("{root}rules.html#{}", page_name(id))),
        Node::Document(_) | Node::Missing(_) => None,
    }
}

fn reference_rows(links: &[Link<'_>], root: &str) -> Vec<Value> {
    links
        .iter()
        .filter(|l| l.kind != EdgeKind::Covers)
        .map(|l| {
            json!({
                "from": l.from.key(),
                "kind": l.from.kind(),
                "href": node_href(l.from, root),
                "edge": l.kind.as_str(),
                "file": l.file,
                "line": l.line,
            })
        })
        .collect()
}

fn site_context(cat: &Catalogue) -> Value {
    json!({
        "name": cat.name(),
        "version": cat.config.version,
        "engine": env!("CARGO_PKG_VERSION"),
    })
}

/// A check as the index and its page show it: every field under its format key, and the
/// names the site adds (its page, its category's name).
fn check_row(cat: &Catalogue, c: &Check) -> Value {
    let mut row = fields::json(c);
    row.insert("page".into(), json!(page_name(&c.id)));
    row.insert(
        "category_name".into(),
        json!(cat.config.category_name(&c.category).unwrap_or(&c.category)),
    );
    Value::Object(row)
}

/// The text before the first section, without the `# ID — title` heading the page shows itself.
fn intro(c: &Check) -> String {
    let end = c
        .sections
        .first()
        .map(|s| s.start as usize)
        .unwrap_or(c.body().len());
    let head = c.body().get(..end).unwrap_or("");
    let head = match (c.sections.is_empty(), head.rfind("##")) {
        (false, Some(i)) => head.get(..i).unwrap_or(""),
        _ => head,
    };
    head.lines()
        .filter(|l| !l.trim_start().starts_with("# "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Profile fields a check's `applies_when` reads, sorted (empty when it reads none or does not
/// parse: lint reports that).
fn profile_reads(c: &Check) -> Vec<String> {
    let mut reads: Vec<String> = crate::dsl::parse(&c.applies_when)
        .map(|e| e.paths().iter().map(|p| p.dotted()).collect())
        .unwrap_or_default();
    reads.sort();
    reads.dedup();
    reads
}

/// What the index's text search looks through: id, title and the description's words, per
/// check in id order. Built once here, so the page needs no server.
fn search_index(cat: &Catalogue) -> Value {
    Value::Array(
        cat.checks_by_id()
            .iter()
            .map(|c| {
                let description = c
                    .section_text("Description")
                    .map(String::from)
                    .unwrap_or_else(|| intro(c));
                json!({
                    "id": c.id,
                    "title": c.title,
                    "description": html_markdown::plain_text(&description),
                })
            })
            .collect(),
    )
}

/// JSON that is safe inside an HTML `<script>` element: `<`, `>` and `&` as `\u` escapes, so
/// no catalogue text can close the element or open another.
fn script_json(v: &Value) -> String {
    serde_json::to_string(v)
        .unwrap_or_else(|_| "[]".into())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

fn check_page(
    cat: &Catalogue,
    graph: &Graph,
    ids: &crate::load::markdown::IdRules<'_>,
    c: &Check,
) -> Value {
    let links = SiteLinks {
        cat,
        root: "../",
        from: Some((ids, &c.file)),
    };
    let sections: Vec<Value> = c
        .sections
        .iter()
        .map(|s| {
            let text = c.body().get(s.content()).unwrap_or("");
            json!({
                "title": s.title,
                "anchor": slug(&s.title),
                "html": html_markdown::to_html(text, &links),
            })
        })
        .collect();
    let rules: Vec<Value> = graph
        .covering_rules(&c.id)
        .into_iter()
        .map(|r| {
            json!({
                "id": r,
                "title": cat.rule(r).and_then(|x| x.title.clone()),
                "href": format!("../rules.html#{}", page_name(r)),
            })
        })
        .collect();
    // The expression has a block of its own on the page.
    let mut fields: Vec<Value> = fields::detail()
        .into_iter()
        .filter(|f| f.kind != Kind::Expression)
        .filter_map(|f| {
            let value = match ((f.value)(c), f.kind) {
                (FieldValue::Absent, _) => return None,
                (_, Kind::Category) => format!(
                    "{} — {}",
                    c.category,
                    cat.config.category_name(&c.category).unwrap_or(&c.category)
                ),
                (v, _) => v.to_text(),
            };
            Some(json!({"name": f.key, "value": value}))
        })
        .collect();
    for (name, v) in c.extra() {
        let value = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        fields.push(json!({"name": name, "value": value}));
    }
    json!({
        "site": site_context(cat),
        "root": "../",
        "check": check_row(cat, c),
        "fields": fields,
        "intro": html_markdown::to_html(&intro(c), &links),
        "sections": sections,
        "rules": rules,
        "sources": c.sources.iter().map(|s| json!({"label": s.shown(), "url": s.url})).collect::<Vec<_>>(),
        "reads": profile_reads(c),
        "incoming": reference_rows(&graph.incoming(&Node::Check(c.id.as_str().into())), "../"),
        "file": c.file,
    })
}

fn retired_page(cat: &Catalogue, graph: &Graph, r: &crate::model::config::RetiredDecl) -> Value {
    let (state, successor) = match graph.successor(&r.id) {
        Successor::Live(s) => ("live", Some(s)),
        Successor::Dangling(s) => ("dangling", Some(s)),
        Successor::Cycle(ids) => ("cycle", Some(ids.join(" → "))),
        Successor::None => ("none", None),
    };
    let successor_href = match state {
        "live" => successor
            .as_deref()
            .map(|s| format!("../checks/{}.html", page_name(s))),
        _ => None,
    };
    let named = |id: &Option<String>| {
        id.as_ref().map(
            |s| json!({"id": s, "href": SiteLinks { cat, root: "../", from: None }.page_of(s)}),
        )
    };
    json!({
        "site": site_context(cat),
        "root": "../",
        "retired": {
            "id": r.id,
            "date": r.retired,
            "reason": r.reason,
            "merged_into": named(&r.merged_into),
            "replaced_by": named(&r.replaced_by),
        },
        "successor": {"state": state, "id": successor, "href": successor_href},
        "incoming": reference_rows(&graph.incoming(&Node::Retired(r.id.as_str().into())), "../"),
    })
}

fn vocabulary(values: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    values
        .into_iter()
        .filter(|v| seen.insert(v.clone()))
        .collect()
}

fn index_page(cat: &Catalogue) -> Value {
    let checks = cat.checks_by_id();
    let used = |f: &dyn Fn(&Check) -> String| -> BTreeSet<String> {
        checks.iter().map(|c| f(c)).collect()
    };
    // One filter per field with a closed vocabulary: its declared values, then any other
    // value a check has, each with how many checks have it.
    let filters: Vec<Value> = fields::closed()
        .into_iter()
        .map(|f| {
            let of = |c: &Check| (f.value)(c).to_text();
            let declared = fields::vocabulary(f.kind, cat).unwrap_or_default();
            let options: Vec<Value> = vocabulary(declared.into_iter().chain(used(&of)))
                .into_iter()
                .map(|v| {
                    let label = match f.kind {
                        Kind::Category => {
                            format!("{v} — {}", cat.config.category_name(&v).unwrap_or(&v))
                        }
                        _ => v.clone(),
                    };
                    let count = checks.iter().filter(|c| of(c) == v).count();
                    json!({"value": v, "label": label, "count": count})
                })
                .collect();
            json!({"name": f.key, "label": f.label, "options": options})
        })
        .collect();
    let mut retired: Vec<Value> = cat
        .config
        .retired
        .iter()
        .filter(|r| cat.check(&r.id).is_none())
        .map(|r| json!({"id": r.id, "page": page_name(&r.id), "date": r.retired}))
        .collect();
    retired.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    json!({
        "site": site_context(cat),
        "root": "",
        "checks": checks.iter().map(|c| check_row(cat, c)).collect::<Vec<_>>(),
        "filters": filters,
        "retired": retired,
        "rules": cat.rules.len(),
        "search_index": script_json(&search_index(cat)),
    })
}

fn rules_page(cat: &Catalogue) -> Result<Value, String> {
    let data = tables::data(cat, "rules-table", &tables::Args::new())?;
    let mut rows = data["rows"].as_array().cloned().unwrap_or_default();
    for row in &mut rows {
        let id = row["id"].as_str().unwrap_or("").to_string();
        row["anchor"] = json!(page_name(&id));
        if let Some(rule) = cat.rule(&id) {
            let text: String = rule
                .body
                .lines()
                .filter(|l| !l.trim_start().starts_with("# "))
                .collect::<Vec<_>>()
                .join("\n");
            // The table links the rules that have a page of their own.
            row["html"] = json!(!text.trim().is_empty());
            row["source"] = json!(rule.source);
            row["origin"] = json!(rule.origin().map(|o| format!("{}:{}", o.file(), o.line())));
        }
        if let Some(checks) = row["checks"].as_array_mut() {
            for c in checks {
                let cid = c["id"].as_str().unwrap_or("").to_string();
                c["href"] = json!(SiteLinks {
                    cat,
                    root: "",
                    from: None
                }
                .page_of(&cid));
            }
        }
    }
    Ok(json!({
        "site": site_context(cat),
        "root": "",
        "rules": rows,
    }))
}

/// One page per rule that has a text of its own (a rule file's body), one directory down.
fn rule_pages(templates: &Templates, cat: &Catalogue) -> Result<Vec<Page>, String> {
    let data = tables::data(cat, "rules-table", &tables::Args::new())?;
    let mut pages = Vec::new();
    for row in data["rows"].as_array().cloned().unwrap_or_default() {
        let id = row["id"].as_str().unwrap_or("").to_string();
        let Some(rule) = cat.rule(&id) else { continue };
        let text: String = rule
            .body
            .lines()
            .filter(|l| !l.trim_start().starts_with("# "))
            .collect::<Vec<_>>()
            .join("\n");
        if text.trim().is_empty() {
            continue;
        }
        let links = SiteLinks {
            cat,
            root: "../",
            from: None,
        };
        let mut row = row.clone();
        row["anchor"] = json!(page_name(&id));
        row["html"] = json!(html_markdown::to_html(&text, &links));
        row["source"] = json!(rule.source);
        row["origin"] = json!(rule.origin().map(|o| format!("{}:{}", o.file(), o.line())));
        if let Some(checks) = row["checks"].as_array_mut() {
            for c in checks {
                let cid = c["id"].as_str().unwrap_or("").to_string();
                c["href"] = json!(links.page_of(&cid));
            }
        }
        pages.push(Page {
            path: format!("rules/{}.html", page_name(&id)),
            text: render(
                templates,
                "site/rule.html.tera",
                json!({"site": site_context(cat), "root": "../", "rule": row}),
            )?,
        });
    }
    Ok(pages)
}

fn render(templates: &Templates, name: &str, value: Value) -> Result<String, String> {
    let ctx = tera::Context::from_serialize(&value).map_err(|e| e.to_string())?;
    templates.render(name, &ctx)
}

/// Every page of the site, in a fixed order.
pub fn pages(templates: &Templates, cat: &Catalogue, graph: &Graph) -> Result<Vec<Page>, String> {
    let mut pages = vec![
        Page {
            path: "style.css".into(),
            text: templates.render("site/style.css.tera", &tera::Context::new())?,
        },
        Page {
            path: "index.html".into(),
            text: render(templates, "site/index.html.tera", index_page(cat))?,
        },
        Page {
            path: "search-index.json".into(),
            text: super::emit::json_document(&search_index(cat))
                .map_err(|e| format!("the search index cannot be written as JSON: {e}"))?,
        },
        Page {
            path: "rules.html".into(),
            text: render(templates, "site/rules.html.tera", rules_page(cat)?)?,
        },
    ];
    let link_rules = crate::load::markdown::LinkRules::of(cat);
    let ids = link_rules.with(&cat.categories);
    pages.extend(rule_pages(templates, cat)?);
    for c in cat.checks_by_id() {
        pages.push(Page {
            path: format!("checks/{}.html", page_name(&c.id)),
            text: render(
                templates,
                "site/check.html.tera",
                check_page(cat, graph, &ids, c),
            )?,
        });
    }
    let mut retired: Vec<_> = cat
        .config
        .retired
        .iter()
        .filter(|r| cat.check(&r.id).is_none())
        .collect();
    retired.sort_by(|a, b| a.id.cmp(&b.id));
    retired.dedup_by(|a, b| a.id == b.id);
    for r in retired {
        pages.push(Page {
            path: format!("retired/{}.html", page_name(&r.id)),
            text: render(
                templates,
                "site/retired.html.tera",
                retired_page(cat, graph, r),
            )?,
        });
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_names_cannot_leave_the_directory() {
        assert_eq!(page_name("FID-001"), "FID-001");
        assert_eq!(page_name("../etc/x"), "___etc_x");
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("Pass Criteria"), "pass-criteria");
        assert_eq!(slug("Common Failures!"), "common-failures");
    }
}
