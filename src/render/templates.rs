//! The tera environment: templates embedded in the binary, each overridable by a file of the
//! same name in `--templates DIR`. Renderers pass data in; templates only lay it out.
//!
//! tera 2 parses a template without a parser generator and bounds what tera 1 could not: an
//! include cycle is refused when the templates are added, and a component that calls itself
//! stops at a fixed depth with an error, so no user template can overflow the stack.

use std::path::Path;
use std::sync::OnceLock;
use tera::{Context, Kwargs, State, Tera, Value};

/// Every embedded template, by name. A new template is added here and in `templates/`.
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "components.tera",
        include_str!("../../templates/components.tera"),
    ),
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
        "portfolio.html.tera",
        include_str!("../../templates/portfolio.html.tera"),
    ),
    (
        "state-of.html.tera",
        include_str!("../../templates/state-of.html.tera"),
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
        "site/rule.html.tera",
        include_str!("../../templates/site/rule.html.tera"),
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
    families: [OnceLock<Result<Tera, String>>; FAMILIES],
}

const FAMILIES: usize = 5;

/// The template of components shared by every family.
const COMPONENTS: &str = "components.tera";

/// Templates are parsed when first rendered, a family at a time: the small region templates
/// together, each report format alone, the site with the base its pages extend.
/// `components.tera` (components every template may call) joins every family.
fn family(name: &str) -> usize {
    if name.starts_with("site/") {
        2
    } else if name.starts_with("report.html") {
        3
    } else if name.starts_with("report") {
        1
    } else if name.starts_with("portfolio") {
        4
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
                let text = crate::load::text::read_limited(&path)
                    .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
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
                let mut tera = Tera::new();
                tera.autoescape_on([".html.tera", ".html", ".xml.tera"]);
                tera.set_escape_fn(escape_html);
                // Registered before the templates are added: tera 2 checks at that point that
                // every filter a template names exists.
                tera.register_filter("md_cell", md_cell);
                tera.register_filter("md_link", md_link);
                tera.register_filter("md_text", md_text);
                tera.register_filter("md_code", md_code);
                let members = self
                    .sources
                    .iter()
                    .filter(|(n, _)| family(n) == f || n == COMPONENTS)
                    .map(|(n, t)| (n.as_str(), t.as_str()));
                tera.add_raw_templates(members)
                    .map_err(|e| format!("template error: {}", chain(&e)))?;
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

/// A tera error as one message: what failed, then each cause. tera 2 writes a parse or render
/// error as a report over several lines (the message, then the template's line with a
/// marker), kept as it is.
fn chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        parts.push(s.to_string());
        cur = s.source();
    }
    parts.join(": ")
}

/// HTML autoescaping: `& < > " '` and `/` as entities (`/` closes a tag in an unquoted
/// attribute). The entities are those of tera 1, which the reports and the site were written
/// with, so a page is the same bytes.
fn escape_html(input: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let bytes = input.as_bytes();
    let mut from = 0;
    for (i, b) in bytes.iter().enumerate() {
        let entity: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\'' => b"&#x27;",
            b'/' => b"&#x2F;",
            _ => continue,
        };
        out.write_all(bytes.get(from..i).unwrap_or_default())?;
        out.write_all(entity)?;
        from = i + 1;
    }
    out.write_all(bytes.get(from..).unwrap_or_default())
}

/// A value as one Markdown table cell: [`md_inline`], with `|` escaped (GFM splits cells on
/// it even inside code spans, and honours `\|` there).
fn md_cell(value: &Value, _: Kwargs, _: &State) -> String {
    md_inline(&plain(value)).replace('|', "\\|")
}

/// A value as inline Markdown running text (a list item, a heading, a sentence).
fn md_text(value: &Value, _: Kwargs, _: &State) -> String {
    md_inline(&plain(value))
}

/// A value as one inline code span: one line, fenced by more backticks than any run inside it,
/// so no backtick in a file name or server name can end the span early. In a table cell `|`
/// is escaped as GFM asks.
fn md_code(value: &Value, _: Kwargs, _: &State) -> String {
    let s = plain(value)
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|");
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A value as the text a filter works on: a string as it is, nothing for none, anything else
/// as tera prints it.
fn plain(value: &Value) -> String {
    match value.as_str() {
        Some(s) => s.to_string(),
        None if value.is_none() || value.is_undefined() => String::new(),
        None => value.to_string(),
    }
}

/// Text that cannot change the structure of the Markdown it is interpolated into: one line
/// (line breaks folded, so no new heading, list item or table row), `<` `>` `&` outside code
/// spans as entities (no raw HTML, no `<!-- auditbook:… -->` region marker; inside a code span
/// they are literal already), and a leading block marker escaped (no heading, list or quote
/// inside a list item). Used for every value a Markdown template takes from a profile, a
/// results file or the catalogue.
pub fn md_inline(s: &str) -> String {
    let one_line = s
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let chars: Vec<char> = one_line.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|c| **c == '`').count();
    let mut out = String::with_capacity(one_line.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            let n = run_at(i);
            // A run of n backticks opens a code span only if a run of exactly n closes it.
            let mut j = i + n;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let m = run_at(j);
                    if m == n {
                        close = Some(j);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            let end = close.map(|j| j + n).unwrap_or(i + n);
            out.extend(&chars[i..end]);
            i = end;
            continue;
        }
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            _ => out.push(c),
        }
        i += 1;
    }
    let marker = {
        let mut it = out.chars();
        match it.next() {
            Some('#') => true,
            Some('-' | '+' | '*') => it.next() == Some(' '),
            Some(d) if d.is_ascii_digit() => {
                let rest: String = out
                    .chars()
                    .skip_while(char::is_ascii_digit)
                    .take(2)
                    .collect();
                rest == ". " || rest == ") " || rest == "." || rest == ")"
            }
            _ => false,
        }
    };
    if marker {
        out.insert(0, '\\');
    }
    out
}

/// A `{label, url}` object as a Markdown link that is also safe in a table cell: the label's
/// Markdown marks and pipes escaped, and in the address the characters that would end the
/// link or the cell percent-encoded (which leaves the address unchanged in meaning).
fn md_link(value: &Value, _: Kwargs, _: &State) -> String {
    let map = value.as_map();
    let field = |k: &'static str| {
        map.and_then(|m| m.get(&tera::value::Key::Str(k)))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let url = field("url");
    let label = match field("label") {
        "" => url,
        l => l,
    };
    let mut out = String::from("[");
    for ch in label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
    {
        if matches!(ch, '\\' | '[' | ']' | '|' | '*' | '_' | '`' | '<' | '>') {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push_str("](");
    for ch in url.chars() {
        match ch {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '|' => out.push_str("%7C"),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out.push(')');
    out
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

    /// `x` rendered through an override template `tpl` named `name`.
    fn through(name: &str, tpl: &str, x: serde_json::Value) -> String {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), tpl).unwrap();
        let t = Templates::new(Some(dir.path())).unwrap();
        let mut ctx = Context::new();
        ctx.insert("x", &x);
        t.render(name, &ctx).unwrap()
    }

    #[test]
    fn md_link_survives_hostile_labels_and_addresses() {
        let v = serde_json::json!({"label": "Datenschutz [Übersicht] | *Hintergrund*", "url": "https://de.wikipedia.org/wiki/Datenschutz_(Schweiz)"});
        assert_eq!(
            through("l.md.tera", "{{ x | md_link }}", v),
            r"[Datenschutz \[Übersicht\] \| \*Hintergrund\*](https://de.wikipedia.org/wiki/Datenschutz_%28Schweiz%29)"
        );
        let bare = serde_json::json!({"label": "", "url": "https://x.ch/a b"});
        assert_eq!(
            through("l.md.tera", "{{ x | md_link }}", bare),
            r"[https://x.ch/a b](https://x.ch/a%20b)"
        );
    }

    /// The HTML entities are tera 1's, so pages keep their bytes: `'` as `&#x27;`, `/` as
    /// `&#x2F;`; a value marked safe is left alone.
    #[test]
    fn html_escaping_keeps_the_entities_of_earlier_pages() {
        let v = serde_json::json!("<a href='x/y'>\"&\"</a>");
        assert_eq!(
            through("e.html.tera", "{{ x }}|{{ x | safe }}", v),
            "&lt;a href=&#x27;x&#x2F;y&#x27;&gt;&quot;&amp;&quot;&lt;&#x2F;a&gt;|<a href='x/y'>\"&\"</a>"
        );
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
