//! What only documents in another repository can get wrong (`verify --claims`): a key of the
//! catalogue set in `claims.yaml`, a rule table that maps a rule otherwise than the catalogue,
//! links under a base that lead into the catalogue, and every question a snapshot cannot
//! answer — said as a finding, so nothing passes unchecked.

use crate::diag::{codes, Diagnostic, Level};
use crate::load::claims_file::{self, ClaimsFile, SourceKind};
use crate::load::link_dest::{self, Dest};
use crate::confine;
use crate::load::{anchors, frontmatter, text};
use crate::graph::Graph;
use crate::model::Catalogue;
use crate::render::templates::Templates;
use std::collections::BTreeSet;
use std::path::Path;

/// Every finding `verify --claims` makes beyond loading, before the ledger: the checks every
/// catalogue's documents get, on the combined model (when there is a catalogue to hold them
/// to), what only another repository can get wrong, and the claims over the audit report at
/// `report`. `in_claims_file` then names the files as the claims file's folder does.
pub fn verify(
    cat: &Catalogue,
    e: &ClaimsFile,
    graph: &Graph,
    templates: &Templates,
    report: Option<&Path>,
) -> Vec<Diagnostic> {
    let own = check(cat, e);
    let mut out = Vec::new();
    if e.source != SourceKind::None && e.too_old.is_none() {
        let mut shared = super::verify(cat, graph, templates);
        drop_base_link_findings(cat, &mut shared);
        // A region a snapshot cannot render is reported once, as such, not as stale.
        let unanswered: Vec<(Option<String>, Option<usize>)> = own
            .iter()
            .filter(|d| d.code == codes::SNAPSHOT_CANNOT_ANSWER.code)
            .map(|d| (d.file.clone(), d.line))
            .collect();
        shared.retain(|d| {
            !(d.code.starts_with("AB60") && unanswered.contains(&(d.file.clone(), d.line)))
        });
        out.extend(shared);
    }
    out.extend(own);
    out.extend(report_findings(cat, e, report));
    out
}

/// A finding as the claims file's folder shows it: what the shared checks write against
/// `catalogue.yaml` is about the claims file, and `sync` is `sync --claims FILE` there.
pub fn in_claims_file(mut d: Diagnostic, e: &ClaimsFile) -> Diagnostic {
    let sync = format!("run `auditbook sync --claims {}`", e.file);
    d.help = d.help.map(|h| h.replacen("run `auditbook sync`", &sync, 1));
    claims_file::in_claims_file(d, &e.file)
}

/// The claims over an audit report, held to the report at `report`; without one, a finding
/// that they went unchecked.
fn report_findings(cat: &Catalogue, e: &ClaimsFile, report: Option<&Path>) -> Vec<Diagnostic> {
    match report {
        Some(path) => match crate::load::audit_report::read(path) {
            Ok(mut facts) => {
                facts.file = path.display().to_string();
                super::report::check(cat, &e.report_claims, &facts, &e.file)
            }
            Err(mut d) => {
                d.file = Some(relative_to(&cat.root, path));
                vec![d]
            }
        },
        None if !e.report_claims.is_empty() => vec![Diagnostic::new(
            &codes::CLAIMS_SOURCE_MISSING,
            format!(
                "`{}` declares {} claim(s) over an audit report, but no --report was given; they are not checked",
                e.file,
                e.report_claims.len()
            ),
        )
        .file(e.file.clone())
        .line(claims_file::key_line(cat, "claims"))
        .help(codes::CLAIMS_SOURCE_MISSING.help)],
        None => Vec::new(),
    }
}

/// `path` relative to `dir`, so a finding about the report reads right under the prefix.
fn relative_to(dir: &Path, path: &Path) -> String {
    match (dir.canonicalize(), path.canonicalize()) {
        (Ok(d), Ok(p)) => super::docs::relative(&d, &p),
        _ => path.display().to_string(),
    }
}

/// What keeps `sync --claims` from writing: claims, rule tables or regions without a
/// catalogue, and a source that cannot render every region.
pub fn sync_blockers(cat: &Catalogue, e: &ClaimsFile) -> Vec<Diagnostic> {
    check(cat, e)
        .into_iter()
        .filter(|d| {
            d.code == codes::CLAIMS_SOURCE_MISSING.code
                || (d.code == codes::SNAPSHOT_CANNOT_ANSWER.code && d.level == Level::Error)
        })
        .collect()
}

/// What only another repository can get wrong.
fn check(cat: &Catalogue, e: &ClaimsFile) -> Vec<Diagnostic> {
    let mut out = keys_ignored(cat, e);
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
            .line(1),
        );
        return out;
    }
    if e.source == SourceKind::None {
        out.extend(source_missing(cat, e));
        return out;
    }
    out.extend(rule_tables(cat, e));
    out.extend(base_links(cat, e));
    if e.source == SourceKind::Snapshot {
        out.extend(template_regions(cat));
    }
    out
}

/// Keys of `claims.yaml` that describe the catalogue: its own values are used instead.
fn keys_ignored(cat: &Catalogue, e: &ClaimsFile) -> Vec<Diagnostic> {
    let lines = cat.config.positions.all();
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
            .line(line.0)
            .help(codes::CLAIMS_KEY_IGNORED.help),
        );
    }
    out
}

/// Claims, rule tables or regions that need a catalogue, without one.
fn source_missing(cat: &Catalogue, e: &ClaimsFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some((line, what)) = claims_file::needs_catalogue_at(cat) {
        out.push(
            Diagnostic::new(
                &codes::CLAIMS_SOURCE_MISSING,
                format!(
                    "`{}` declares {what}, but no catalogue was given; they are not checked",
                    e.file
                ),
            )
            .file(e.file.clone())
            .line(line),
        );
    }
    for doc in &cat.documents {
        if let Some(r) = super::regions::parse(&doc.text).regions.first() {
            out.push(
                Diagnostic::new(
                    &codes::CLAIMS_SOURCE_MISSING,
                    format!("generated region `{}` is rendered from the catalogue, but no catalogue was given; it is not checked", r.label()),
                )
                .file(doc.path.clone())
                .line(r.begin_line),
            );
        }
    }
    out
}

/// Each row of a rule table links exactly the checks the catalogue maps its rule to.
fn rule_tables(cat: &Catalogue, e: &ClaimsFile) -> Vec<Diagnostic> {
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
                ),
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
                ),
            );
        }
    }
    out
}

/// A document link under a base leads into the catalogue, not into the document repository.
/// The shared link pass would look for it beside the documents, so its findings about these
/// links are dropped (`drop_base_link_findings`) and judged here against the catalogue.
fn base_links(cat: &Catalogue, e: &ClaimsFile) -> Vec<Diagnostic> {
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
                    .id(c.id.as_str()),
                ),
                (SourceKind::Snapshot, None, _) => out.push(
                    here(
                        &codes::SNAPSHOT_CANNOT_ANSWER,
                        format!("link `{}` leads to `{path}` in the catalogue, which is no check file; a snapshot cannot say whether it exists", l.dest),
                    )
                    .level(Level::Warning),
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
                    ),
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
    );
    if let Some(c) = check {
        d = d.id(c.id.as_str());
    }
    Some(d)
}

/// The shared link pass's findings about links under a base: it looked for their targets in
/// the document repository, where they are not meant to be.
fn drop_base_link_findings(cat: &Catalogue, diags: &mut Vec<Diagnostic>) {
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
                    .line(r.begin_line),
                );
            }
        }
    }
    out
}
