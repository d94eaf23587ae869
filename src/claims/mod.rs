//! Documents that tell the truth about the catalogue: generated regions the engine owns,
//! declared claims about prose, and the checks every document gets (`auditbook verify`), and
//! the rewrite of stale regions (`auditbook sync`).

pub mod arith;
pub mod docs;
pub mod elsewhere;
pub mod forms;
pub mod globs;
pub mod ids;
pub mod locate;
pub mod memo;
pub mod mentions;
pub mod numbers;
pub mod query;
pub mod readings;
pub mod reads;
pub mod regions;
pub mod report;
pub mod strict;
pub mod tally;

use crate::diag::{codes, Diagnostic};
use crate::graph::Graph;
use crate::model::{Catalogue, Document, Mode};
use crate::render::tables;
use crate::render::templates::Templates;
use regions::{ProblemKind, Region};

/// Every finding `verify` makes: document references, rule-table links, regions, claims.
pub fn verify(cat: &Catalogue, graph: &Graph, templates: &Templates) -> Vec<Diagnostic> {
    if cat.mode == Mode::Compatibility {
        return vec![Diagnostic::new(
            &codes::COMPATIBILITY_MODE,
            "no catalogue.yaml: no documents, rule tables or claims are declared, so there is nothing to verify",
        )];
    }
    let mut out = docs::check(cat, graph);
    out.extend(globs::check(cat));
    out.extend(forms::check(cat));
    out.extend(crate::audit::examples::check(cat));
    let state = regions_of(cat, templates);
    out.extend(state.problems);
    for s in state.regions {
        if let Some(fresh) = s
            .fresh
            .filter(|f| Some(f.as_str()) != s.doc.text.get(s.region.content.clone()))
        {
            let after = regions::splice(&s.doc.text, std::slice::from_ref(&s.region), &|_| {
                Some(fresh.clone())
            });
            let diff = regions::diff(&s.doc.path, &s.doc.text, &after);
            out.push(
                Diagnostic::new(
                    &codes::REGION_STALE,
                    format!(
                        "generated region `{}` (lines {}–{}) differs from a fresh rendering of the catalogue",
                        s.region.label(),
                        s.region.begin_line,
                        s.region.end_line
                    ),
                )
                .file(s.doc.path.clone())
                .line(s.region.begin_line)
                .help(format!("run `auditbook sync` to rewrite it; it would change:\n{}", diff.trim_end())),
            );
        }
    }
    out
}

/// One region of a document, with what it must hold (None: it cannot be rendered).
struct State<'c> {
    doc: &'c Document,
    region: Region,
    fresh: Option<String>,
}

struct Regions<'c> {
    regions: Vec<State<'c>>,
    /// Marker and rendering problems; with any, `sync` writes nothing.
    problems: Vec<Diagnostic>,
}

/// The regions of every document in `docs`, rendered.
fn regions_of<'c>(cat: &'c Catalogue, templates: &Templates) -> Regions<'c> {
    let mut out = Regions {
        regions: Vec::new(),
        problems: Vec::new(),
    };
    let mut seen = std::collections::BTreeSet::new();
    for path in &cat.config.docs {
        if !seen.insert(path) {
            continue;
        }
        let Some(doc) = cat.document(path) else {
            continue;
        };
        let parsed = regions::parse(&doc.text);
        for p in parsed.problems {
            let code = match p.kind {
                ProblemKind::Unbalanced => &codes::REGION_UNBALANCED,
                ProblemKind::Nested => &codes::REGION_NESTED,
                ProblemKind::Duplicate => &codes::REGION_DUPLICATE,
                ProblemKind::Malformed => &codes::REGION_UNKNOWN,
            };
            out.problems.push(
                Diagnostic::new(code, p.message)
                    .file(path.clone())
                    .line(p.line),
            );
        }
        for region in parsed.regions {
            let fresh = render(cat, templates, &region).map_err(|(code, msg)| {
                out.problems.push(
                    Diagnostic::new(code, format!("region `{}`: {msg}", region.label()))
                        .file(path.clone())
                        .line(region.begin_line),
                )
            });
            out.regions.push(State {
                doc,
                region,
                fresh: fresh.ok(),
            });
        }
    }
    out
}

fn render(
    cat: &Catalogue,
    templates: &Templates,
    region: &Region,
) -> Result<String, (&'static crate::diag::Code, String)> {
    if !tables::BUILT_IN.contains(&region.name.as_str())
        && !templates.has(&format!("{}.md.tera", region.name))
    {
        return Err((
            &codes::REGION_UNKNOWN,
            format!(
                "no table of this name: built-in tables are {}, or add templates/{}.md.tera (--templates DIR)",
                tables::BUILT_IN.join(", "),
                region.name
            ),
        ));
    }
    let args: tables::Args = region.args.iter().cloned().collect();
    let text = tables::render(templates, cat, &region.name, &args, "md")
        .map_err(|e| (&codes::REGION_ARGUMENTS, e))?;
    Ok(regions::content_for(&text, false))
}

/// What `sync` would write.
pub struct SyncPlan {
    pub changes: Vec<crate::write::Change>,
    /// (document, begin line, region label) of each region rewritten.
    pub rewritten: Vec<(String, usize, String)>,
    /// How many regions the documents hold.
    pub regions: usize,
}

/// Plan the rewrite of every stale region. `Err`: marker or rendering problems (or a
/// document changed on disk since it was read) — then nothing may be written.
pub fn plan_sync(cat: &Catalogue, templates: &Templates) -> Result<SyncPlan, Vec<Diagnostic>> {
    let state = regions_of(cat, templates);
    if !state.problems.is_empty() {
        return Err(state.problems);
    }
    let mut plan = SyncPlan {
        changes: Vec::new(),
        rewritten: Vec::new(),
        regions: state.regions.len(),
    };
    let mut problems = Vec::new();
    let mut docs: Vec<&Document> = state.regions.iter().map(|s| s.doc).collect();
    docs.dedup_by(|a, b| a.path == b.path);
    for doc in docs {
        let stale: Vec<&State<'_>> = state
            .regions
            .iter()
            .filter(|s| {
                s.doc.path == doc.path
                    && s.fresh.as_deref() != doc.text.get(s.region.content.clone())
            })
            .collect();
        if stale.is_empty() {
            continue;
        }
        // The loaded text has CRLF folded and a BOM dropped; the file keeps both, so the
        // splice runs on the file's own bytes.
        let full = cat.root.join(&doc.path);
        let raw = match crate::load::text::read_limited(&full).map(String::from_utf8) {
            Ok(Ok(t)) => t,
            _ => {
                problems.push(
                    Diagnostic::new(
                        &codes::UNREADABLE,
                        format!("cannot re-read `{}` to rewrite it", doc.path),
                    )
                    .file(doc.path.clone()),
                );
                continue;
            }
        };
        let (bom, body) = match raw.strip_prefix('\u{feff}') {
            Some(b) => ("\u{feff}", b),
            None => ("", raw.as_str()),
        };
        let crlf = body.contains("\r\n");
        let parsed = regions::parse(body);
        let same = parsed.problems.is_empty()
            && parsed.regions.len()
                == state
                    .regions
                    .iter()
                    .filter(|s| s.doc.path == doc.path)
                    .count()
            && body.replace("\r\n", "\n") == doc.text;
        if !same {
            problems.push(
                Diagnostic::new(
                    &codes::DOC_CHANGED_WHILE_READING,
                    format!(
                        "`{}` changed on disk while auditbook read it; nothing was written",
                        doc.path
                    ),
                )
                .file(doc.path.clone()),
            );
            continue;
        }
        let fresh_for = |r: &Region| {
            stale
                .iter()
                .find(|s| s.region.begin_line == r.begin_line)
                .and_then(|s| s.fresh.as_deref())
                .map(|f| regions::content_for(f, crlf))
        };
        let text = format!(
            "{bom}{}",
            regions::splice(body, &parsed.regions, &fresh_for)
        );
        plan.changes.push(crate::write::Change::Write(full, text));
        plan.rewritten.extend(
            stale
                .iter()
                .map(|s| (doc.path.clone(), s.region.begin_line, s.region.label())),
        );
    }
    if problems.is_empty() {
        Ok(plan)
    } else {
        Err(problems)
    }
}

/// What `region` must hold, rendered from `cat` (None: it cannot be rendered; verify reports
/// why). The fix engine splices this into the file's own text.
pub fn fresh_region(cat: &Catalogue, templates: &Templates, region: &Region) -> Option<String> {
    render(cat, templates, region).ok()
}
