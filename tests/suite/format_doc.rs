//! `docs/catalogue-format.md` stays true: its key tables are the generated ones, every
//! "catalogue format, section N" a message or file cites exists, and every example it gives
//! parses (YAML as YAML, catalogue.yaml examples with no finding, expressions as expressions).

use regex::Regex;
use std::path::{Path, PathBuf};

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn doc() -> String {
    std::fs::read_to_string(project().join("docs/catalogue-format.md")).unwrap()
}

#[test]
fn key_tables_are_current() {
    let path = project().join("docs/catalogue-format.md");
    let on_disk = doc();
    let fresh = auditbook::render::format_doc::refresh(&on_disk);
    if std::env::var_os("AUDITBOOK_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    for name in auditbook::render::format_doc::BLOCKS {
        assert!(
            on_disk.contains(&format!("<!-- generated:{name} -->\n|")),
            "block {name} is missing or empty"
        );
    }
    assert!(
        on_disk == fresh,
        "docs/catalogue-format.md is stale; regenerate with AUDITBOOK_UPDATE_DOCS=1 cargo test --test suite format_doc"
    );
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "rs" || x == "md" || x == "yaml" || x == "tera")
        {
            out.push(p);
        }
    }
}

#[test]
fn every_cited_section_exists() {
    let heading = Regex::new(r"(?m)^## (\d+)\. ").unwrap();
    let sections: Vec<String> = heading
        .captures_iter(&doc())
        .map(|c| c[1].to_string())
        .collect();
    assert_eq!(
        sections,
        (1..=10).map(|n| n.to_string()).collect::<Vec<_>>()
    );
    let cite = Regex::new(r"(?i)catalogue format,? \(?section (\d+)").unwrap();
    let mut all = Vec::new();
    for dir in ["src", "catalogue", "docs", "templates"] {
        files(&project().join(dir), &mut all);
    }
    all.push(project().join("README.md"));
    let mut cited = 0;
    for f in all {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for c in cite.captures_iter(&text) {
            cited += 1;
            assert!(
                sections.contains(&c[1].to_string()),
                "{} cites section {} of the catalogue format, which does not exist",
                f.display(),
                &c[1]
            );
        }
    }
    assert!(cited >= 5, "the citations were found ({cited})");
    // The shipped catalogue.yaml points at the document.
    let shipped = std::fs::read_to_string(project().join("catalogue/catalogue.yaml")).unwrap();
    assert!(shipped.contains("docs/catalogue-format.md"));
}

/// Every fenced block as (info string, text, line of the fence).
fn fences(text: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new(), i + 1)),
            (Some(_), Some("")) => out.extend(open.take()),
            (Some((_, body, _)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

#[test]
fn examples_parse() {
    let blocks = fences(&doc());
    let claim_catalogue = auditbook::load::load(&project().join("tests/fixtures/graph"))
        .unwrap()
        .catalogue;
    let mut claims = 0;
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for (info, body, line) in &blocks {
        *seen.entry(info.clone()).or_default() += 1;
        match info.as_str() {
            "yaml" => {
                serde_yaml::from_str::<serde_yaml::Value>(body)
                    .unwrap_or_else(|e| panic!("line {line}: {e}"));
            }
            "yaml catalogue.yaml" => {
                let (config, d) = auditbook::load::config::parse(body);
                assert!(d.is_empty(), "line {line}: {d:?}");
                // Every claim's pattern, queries and expressions, against a catalogue with the
                // categories and fields the examples name.
                // An example's named sets are those it declares.
                let mut with_sets = claim_catalogue.clone();
                with_sets.config.sets = config.sets.clone();
                for claim in &config.claims {
                    let p = auditbook::claims::forms::problems(&with_sets, claim);
                    assert!(p.is_empty(), "line {line}: claim `{}`: {p:?}", claim.name);
                    claims += 1;
                }
            }
            "applies_when" => {
                for expr in body.lines().filter(|l| !l.trim().is_empty()) {
                    auditbook::dsl::parse(expr)
                        .unwrap_or_else(|e| panic!("line {line}: `{expr}`: {e:?}"));
                }
            }
            "markdown" | "text" => {}
            tera if tera.starts_with("tera ") => {}
            other => panic!("line {line}: unknown fence `{other}`"),
        }
    }
    assert!(claims >= 10, "the claim examples were read ({claims})");
    for kind in ["yaml", "yaml catalogue.yaml", "applies_when", "markdown"] {
        assert!(seen.get(kind).is_some_and(|n| *n > 0), "no {kind} example");
    }
}

/// The template examples (`tera NAME` fences) are one `--templates` folder: each table
/// template among them renders on a catalogue through the components beside it.
#[test]
fn template_examples_render() {
    let dir = tempfile::tempdir().unwrap();
    let mut tables = Vec::new();
    for (info, body, line) in fences(&doc()) {
        let Some(name) = info.strip_prefix("tera ") else {
            continue;
        };
        std::fs::write(dir.path().join(name), &body).unwrap_or_else(|e| panic!("line {line}: {e}"));
        if let Some(table) = name.strip_suffix(".md.tera") {
            tables.push((table.to_string(), line));
        }
    }
    assert!(!tables.is_empty(), "no template example");
    let templates = auditbook::render::templates::Templates::new(Some(dir.path())).unwrap();
    let cat = auditbook::load::load(&project().join("catalogue"))
        .unwrap()
        .catalogue;
    for (table, line) in tables {
        let args = auditbook::render::tables::Args::from([("base".into(), "checks/".into())]);
        let out = auditbook::render::tables::render(&templates, &cat, &table, &args, "md")
            .unwrap_or_else(|e| panic!("line {line}: {e}"));
        assert!(out.contains("](checks/"), "line {line}: {out}");
    }
}

#[test]
fn link_examples_are_links() {
    // The forms of section 10, in a check beside FID-006: each names FID-006.
    let text = fences(&doc())
        .into_iter()
        .find(|(info, body, _)| info == "markdown" && body.contains("reference-style"))
        .unwrap()
        .1;
    let f = tempfile::tempdir().unwrap();
    let root = f.path();
    std::fs::create_dir_all(root.join("checks")).unwrap();
    let check = |id: &str, body: &str| {
        format!("---\nid: {id}\ntitle: T\ncategory: FID\nseverity: low\napplies_when: always\n---\n\n## Pass Criteria\n\n{body}\n")
    };
    std::fs::write(root.join("checks/FID-006.md"), check("FID-006", "- [ ] x")).unwrap();
    // Each example line on its own, with the explanation after it cut off.
    let mut body = String::new();
    for l in text.lines() {
        let l = l.split("   ").next().unwrap_or(l).trim_end();
        body.push_str(&l.replace("ORG/REPO", "o/r"));
        body.push_str("\n\n");
    }
    std::fs::write(root.join("checks/FID-001.md"), check("FID-001", &body)).unwrap();
    std::fs::write(
        root.join("catalogue.yaml"),
        "categories:\n  - {prefix: FID, name: F}\nlinks:\n  bases: [https://github.com/o/r/blob/main/]\n",
    )
    .unwrap();
    let loaded = auditbook::load::load(root).unwrap();
    let c = loaded.catalogue.check("FID-001").unwrap();
    let lines: Vec<usize> = c.references.iter().map(|r| r.line).collect();
    // One link per example line but the definition's (no link by itself). The root-document
    // form (`checks/FID-006.md`), written in a check, leads nowhere: it still names FID-006.
    assert_eq!(c.references.len(), 7, "{:?}", c.references);
    assert!(
        c.references.iter().all(|r| r.target == "FID-006"),
        "{lines:?}"
    );
}
