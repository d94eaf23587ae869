//! What only documents in another repository can get wrong (`verify --claims`): a key of the
//! catalogue set in `claims.yaml`, a rule table that maps a rule otherwise than the catalogue,
//! links under a base that lead into the catalogue, and every question a snapshot cannot
//! answer — said as a finding, so nothing passes unchecked.

use crate::diag::{codes, Diagnostic, Level};
use crate::load::claims_file::{self, Elsewhere, SourceKind};
use crate::load::link_dest::{self, Dest};
use crate::load::{anchors, confine, frontmatter, text};
use crate::model::Catalogue;
use std::collections::BTreeSet;

pub fn check(e: &Elsewhere) -> Vec<Diagnostic> {
    let mut out = keys_ignored(e);
    if let Some(format) = e.too_old {
        out.push(
            Diagnostic::new(
                &codes::SNAPSHOT_CANNOT_ANSWER,
                format!(
                    "the snapshot is of format {format}, which does not record the catalogue's categories, id pattern, check files and link bases; no claim, rule table or region of `{}` is checked against it",
                    e.file
                ),
            )
            .file(e.file.clone())
            .line(1)
            .help(codes::SNAPSHOT_CANNOT_ANSWER.help),
        );
        return out;
    }
    if e.source == SourceKind::None {
        out.extend(source_missing(e));
        return out;
    }
    out.extend(rule_tables(e));
    out.extend(base_links(e));
    if e.source == SourceKind::Snapshot {
        out.extend(template_regions(&e.loaded.catalogue));
    }
    out
}

/// Keys of `claims.yaml` that describe the catalogue: its own values are used instead.
fn keys_ignored(e: &Elsewhere) -> Vec<Diagnostic> {
    let lines = e.loaded.catalogue.config.positions.all();
    let mut out = Vec::new();
    for key in claims_file::CATALOGUE_ONLY_KEYS
        .iter()
        .copied()
        .chain(std::iter::once("rules.dir"))
    {
        let Some(line) = lines.get(key) else { continue };
        out.push(
            Diagnostic::new(
                &codes::CLAIMS_KEY_IGNORED,
                format!(
                    "`{key}` describes the catalogue; in `{}` it is ignored and the catalogue's own is used",
                    e.file
                ),
            )
            .file(e.file.clone())
            .line(*line)
            .help(codes::CLAIMS_KEY_IGNORED.help),
        );
    }
    out
}

/// Claims, rule tables or regions that need a catalogue, without one.
fn source_missing(e: &Elsewhere) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some((line, what)) = claims_file::needs_catalogue_at(e) {
        out.push(
            Diagnostic::new(
                &codes::CLAIMS_SOURCE_MISSING,
                format!(
                    "`{}` declares {what}, but no catalogue was given; they are not checked",
                    e.file
                ),
            )
            .file(e.file.clone())
            .line(line)
            .help(codes::CLAIMS_SOURCE_MISSING.help),
        );
    }
    for doc in &e.loaded.catalogue.documents {
        if let Some(r) = super::regions::parse(&doc.text).regions.first() {
            out.push(
                Diagnostic::new(
                    &codes::CLAIMS_SOURCE_MISSING,
                    format!("generated region `{}` is rendered from the catalogue, but no catalogue was given; it is not checked", r.label()),
                )
                .file(doc.path.clone())
                .line(r.begin_line)
                .help(codes::CLAIMS_SOURCE_MISSING.help),
            );
        }
    }
    out
}

/// Each row of a rule table links exactly the checks the catalogue maps its rule to.
fn rule_tables(e: &Elsewhere) -> Vec<Diagnostic> {
    let cat = &e.loaded.catalogue;
    let mut out = Vec::new();
    for t in &e.table_rules {
        let Some(origin) = t.origin() else { continue };
        let at = |code: &'static codes::Code, msg: String| {
            Diagnostic::new(code, msg)
                .file(origin.file().to_string())
                .line(origin.line())
                .id(t.id.clone())
        };
        let Some(rule) = cat.rule(&t.id) else {
            out.push(
                at(
                    &codes::ELSEWHERE_RULE_UNKNOWN,
                    format!(
                        "the table names rule `{}`, which the catalogue does not have",
                        t.id
                    ),
                )
                .help(codes::ELSEWHERE_RULE_UNKNOWN.help),
            );
            continue;
        };
        let table: BTreeSet<&str> = t.checks().into_iter().collect();
        let catalogue: BTreeSet<&str> = rule.checks().into_iter().collect();
        if table != catalogue {
            let only_table: Vec<&str> = table.difference(&catalogue).copied().collect();
            let only_cat: Vec<&str> = catalogue.difference(&table).copied().collect();
            out.push(
                at(
                    &codes::ELSEWHERE_RULE_DISAGREES,
                    format!(
                        "rule `{}`: the table links [{}] that the catalogue does not map to it, and the catalogue maps [{}] that the table does not link",
                        t.id,
                        only_table.join(", "),
                        only_cat.join(", ")
                    ),
                )
                .help(codes::ELSEWHERE_RULE_DISAGREES.help),
            );
        }
    }
    out
}

/// A document link under a base leads into the catalogue, not into the document repository.
/// The shared link pass would look for it beside the documents, so its findings about these
/// links are dropped (`drop_base_link_findings`) and judged here against the catalogue.
fn base_links(e: &Elsewhere) -> Vec<Diagnostic> {
    let cat = &e.loaded.catalogue;
    let bases = cat.config.link_bases();
    let rules = crate::load::markdown::LinkRules::of(cat);
    let ids = rules.with(&cat.categories);
    let mut out = Vec::new();
    for doc in &cat.documents {
        for l in doc.outline.links.iter().filter(|l| l.dest.contains("://")) {
            let Dest::Local { path, fragment } = link_dest::resolve(&l.dest, &doc.path, &bases)
            else {
                continue;
            };
            let here = |code: &'static codes::Code, msg: String| {
                Diagnostic::new(code, msg)
                    .file(doc.path.clone())
                    .at(l.line as usize, l.column as usize)
            };
            let check = cat.checks.iter().find(|c| c.file == path.as_str());
            if check.is_none() {
                // A link naming a check id that is dead or retired is the graph's finding.
                if let Some(id) = ids.link_target(&l.dest, &doc.path) {
                    if cat.check(&id).is_none() {
                        continue;
                    }
                }
            }
            match (e.source, check, fragment) {
                (_, Some(_), None) => {}
                (SourceKind::Snapshot, Some(c), Some(f)) => out.push(
                    here(
                        &codes::SNAPSHOT_CANNOT_ANSWER,
                        format!("link `{}`: a snapshot holds no headings of `{}`, so whether `#{f}` exists is not checked", l.dest, c.file),
                    )
                    .level(Level::Warning)
                    .id(c.id.as_str())
                    .help(codes::SNAPSHOT_CANNOT_ANSWER.help),
                ),
                (SourceKind::Snapshot, None, _) => out.push(
                    here(
                        &codes::SNAPSHOT_CANNOT_ANSWER,
                        format!("link `{}` leads to `{path}` in the catalogue, which is no check file; a snapshot cannot say whether it exists", l.dest),
                    )
                    .level(Level::Warning)
                    .help(codes::SNAPSHOT_CANNOT_ANSWER.help),
                ),
                (_, check, fragment) => {
                    let Some(root) = &e.catalogue_root else { continue };
                    if let Some(d) = on_disk(root, &path, check, fragment.as_deref(), &l.dest) {
                        out.push(
                            d.file(doc.path.clone())
                                .at(l.line as usize, l.column as usize),
                        );
                    }
                }
            }
        }
    }
    out
}

/// A base link judged against a catalogue root: the file exists (inside the catalogue's
/// repository) and its fragment names a heading.
fn on_disk(
    root: &std::path::Path,
    path: &str,
    check: Option<&crate::model::Check>,
    fragment: Option<&str>,
    dest: &str,
) -> Option<Diagnostic> {
    let fence = confine::Fence::repository_of(root);
    let body = match check {
        Some(c) => c.text().map(|t| t.to_string()),
        None => {
            let full = fence.resolve(root, path).ok()?;
            if !full.exists() {
                return Some(
                    Diagnostic::new(
                        &codes::LINK_TARGET_MISSING,
                        format!("link `{dest}` leads to `{path}` in the catalogue, which does not exist"),
                    )
                    .help(codes::LINK_TARGET_MISSING.help),
                );
            }
            if !path.ends_with(".md") || !full.is_file() {
                return None;
            }
            text::read(fence.base(), &full).ok().map(|t| t.text)
        }
    };
    let fragment = fragment?;
    let body = body?;
    let known = match frontmatter::split(&body) {
        Ok(split) => anchors::of_markdown(split.body),
        Err(_) => anchors::of_markdown(&body),
    };
    if anchors::answers(&known, fragment) {
        return None;
    }
    let mut d = Diagnostic::new(
        &codes::LINK_FRAGMENT_MISSING,
        format!("link `{dest}`: `{path}` in the catalogue has no heading or anchor `#{fragment}`"),
    )
    .help(codes::LINK_FRAGMENT_MISSING.help);
    if let Some(c) = check {
        d = d.id(c.id.as_str());
    }
    Some(d)
}

/// The shared link pass's findings about links under a base: it looked for their targets in
/// the document repository, where they are not meant to be.
pub fn drop_base_link_findings(cat: &Catalogue, diags: &mut Vec<Diagnostic>) {
    let at: BTreeSet<(String, usize, usize)> = cat
        .documents
        .iter()
        .flat_map(|d| {
            d.outline
                .links
                .iter()
                .filter(|l| l.dest.contains("://"))
                .map(|l| (d.path.clone(), l.line as usize, l.column as usize))
        })
        .collect();
    diags.retain(|d| {
        let link = d.code == codes::LINK_TARGET_MISSING.code
            || d.code == codes::LINK_FRAGMENT_MISSING.code;
        !(link
            && d.file.as_ref().is_some_and(|f| {
                at.contains(&(f.clone(), d.line.unwrap_or(0), d.column.unwrap_or(0)))
            }))
    });
}

/// Regions rendered by a project template read the whole catalogue, bodies included, which a
/// snapshot does not hold.
fn template_regions(cat: &Catalogue) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for doc in &cat.documents {
        for r in super::regions::parse(&doc.text).regions {
            if !crate::render::tables::BUILT_IN.contains(&r.name.as_str()) {
                out.push(
                    Diagnostic::new(
                        &codes::SNAPSHOT_CANNOT_ANSWER,
                        format!("region `{}` is rendered by a project template, which may read check bodies a snapshot does not hold; it is not checked", r.label()),
                    )
                    .file(doc.path.clone())
                    .line(r.begin_line)
                    .help(codes::SNAPSHOT_CANNOT_ANSWER.help),
                );
            }
        }
    }
    out
}
