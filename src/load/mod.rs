//! Loading: files on disk into a `Catalogue`. Loading reports what it cannot read or type;
//! judging what it read is the lint stage's job.

pub mod anchors;
pub mod audit_report;
pub mod check;
pub mod claims_file;
pub mod config;
pub mod confine;
pub mod data_file;
pub mod doc_globs;
pub mod docs;
pub mod examples;
pub mod frontmatter;
pub mod link_dest;
pub mod manifest;
pub mod markdown;
pub mod rules;
pub mod sections;
pub mod snapshot_model;
pub mod text;
pub mod yaml_depth;
pub mod yaml_lines;
pub mod yaml_tags;

use crate::diag::{codes, Diagnostic};
use crate::model::catalogue::BrokenCheck;
use crate::model::{Catalogue, Config, Mode};
use markdown::IdRules;
use rayon::prelude::*;
use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The engine could not do its job at all (exit code 2).
#[derive(Debug)]
pub struct Fatal(pub String);

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub struct Loaded {
    pub catalogue: Catalogue,
    /// Everything loading found, documents included.
    pub diagnostics: Vec<Diagnostic>,
    /// What loading found about the declared documents (also in `diagnostics`): `verify`
    /// reports these, so a document it cannot read is an error there too.
    pub document_diagnostics: Vec<Diagnostic>,
}

/// The default root: `./catalogue` if it exists, else `.`.
pub fn default_root() -> PathBuf {
    let c = PathBuf::from("catalogue");
    if c.is_dir() {
        c
    } else {
        PathBuf::from(".")
    }
}

/// The catalogue's id pattern, compiled; an invalid one (already reported) falls back to the default.
pub fn id_regex(config: &Config) -> Regex {
    Regex::new(config.id_pattern())
        .or_else(|_| Regex::new(crate::model::config::DEFAULT_ID_PATTERN))
        .unwrap_or_else(|_| unreachable!("the default id pattern is valid"))
}

/// How much of what it reads loading keeps, and what it reads in place of the disk.
#[derive(Clone, Copy, Debug)]
pub struct Options<'o> {
    /// Keep each check file's text in the model (`Check::body`, `section_text`). Commands that
    /// never read bodies (lint, verify) load without: the model of a large catalogue is then
    /// a fraction of its size, and a finding's source line is read again from the file.
    pub keep_check_texts: bool,
    /// Texts an editor holds unsaved, read instead of the files at those paths (the language
    /// server checks what the maintainer sees, not what was last saved).
    pub overlay: Option<&'o text::Overlay>,
    /// How much of each check body is read.
    pub bodies: Bodies,
    /// Read the rules (rule files and the tables of declared documents) and the documents
    /// `catalogue.yaml` declares. Commands about checks alone (audit, list) skip them.
    pub documents: bool,
}

/// How much of a check body loading reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bodies {
    /// The whole Markdown outline: sections, criteria, references, links, sources.
    Outline,
    /// Only the level-2 sections and the sources section's links (`check::attach_sections`):
    /// what an audit report reads, at a fraction of the cost.
    Sections,
    /// Frontmatter only (applicability, list, stats): the body is not looked at.
    None,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            keep_check_texts: true,
            bodies: Bodies::Outline,
            documents: true,
            overlay: None,
        }
    }
}

/// Read a check body as much as `options` asks.
fn attach(
    c: &mut crate::model::Check,
    ids: &IdRules<'_>,
    source_rules: &check::SourceRules<'_>,
    options: Options,
) {
    match options.bodies {
        Bodies::Outline => check::attach_body(c, ids, source_rules),
        Bodies::Sections => check::attach_sections(c, ids, source_rules),
        Bodies::None => {}
    }
    if !options.keep_check_texts {
        c.source.release();
    }
}

/// The text of a file the catalogue read, by root-relative path, for showing a finding's
/// source line. A check's text comes from the check, or after a lean load from the file again,
/// and only if it is still the text that was loaded (else `None`: the finding is then shown
/// with its place but without the line).
pub fn source(cat: &Catalogue, file: &str) -> Option<Arc<str>> {
    if let Some(t) = cat.sources.get(file) {
        return Some(Arc::clone(t));
    }
    match &cat.check_by_file(file)?.source {
        crate::model::CheckText::Held(t) => Some(Arc::clone(t)),
        crate::model::CheckText::Released(stamp) => {
            let t = text::read(&cat.root, &cat.root.join(file)).ok()?;
            stamp.matches(&t.text).then(|| Arc::from(t.text))
        }
    }
}

/// Load with every check text kept.
pub fn load(root: &Path) -> Result<Loaded, Fatal> {
    load_with(root, Options::default())
}

pub fn load_with(root: &Path, options: Options<'_>) -> Result<Loaded, Fatal> {
    // Not a directory, or one that cannot be listed: the engine cannot do its job (exit 2),
    // which is not the same as a catalogue with findings (exit 1).
    if !root.is_dir() || std::fs::read_dir(root).is_err() {
        return Err(Fatal(format!(
            "catalogue root `{}` is not a readable directory",
            root.display()
        )));
    }
    let mut diags = Vec::new();
    let mut sources = BTreeMap::new();

    let config_path = root.join(config::FILE_NAME);
    let overlay = options.overlay;
    let (mode, config) = if config_path.exists() {
        match text::read_over(root, &config_path, overlay) {
            Ok(t) => {
                diags.extend(t.notes.into_iter().map(|d| d.file(config::FILE_NAME)));
                let (c, d) = config::parse(&t.text);
                diags.extend(d);
                sources.insert(config::FILE_NAME.to_string(), Arc::from(t.text));
                (Mode::Declared, c)
            }
            Err(d) => {
                diags.push(d);
                (Mode::Declared, Config::default())
            }
        }
    } else {
        (Mode::Compatibility, Config::default())
    };

    let mut config = config;
    confine_dirs(root, &mut config, &mut diags);
    let fence = confine::Fence::repository_of(root);

    let id_re = id_regex(&config);
    let checks_dir = root.join(config.checks_dir());
    let severities = config.severities();
    let baselines = config.baselines();
    let vocab = check::Vocab {
        severities: &severities,
        baselines: &baselines,
        extra_fields: &config.extra_fields,
    };
    // An invalid pattern is already config's finding (AB122); the checks are read without it.
    let house_practice = config
        .house_practice_pattern()
        .and_then(|p| Regex::new(p).ok());
    let source_rules = check::SourceRules {
        section: config.sources_section(),
        house_practice: house_practice.as_ref(),
    };

    let mut broken = Vec::new();
    let mut manifest = None;
    let files = match list_markdown(&checks_dir) {
        Ok(f) => f,
        Err(e) => {
            diags.push(
                Diagnostic::new(
                    &codes::NO_CHECKS,
                    format!(
                        "cannot list the checks directory `{}`: {e}",
                        text::display_path(root, &checks_dir)
                    ),
                )
                .help(codes::NO_CHECKS.help),
            );
            Vec::new()
        }
    };
    // Categories decide which words are mentions. Declared ones are known now, so each file's
    // body is read while its text is at hand; in compatibility mode they come from every
    // check's frontmatter, so bodies wait for the whole directory.
    let declared: Vec<String> = config.categories.iter().map(|c| c.prefix.clone()).collect();
    let dir_name = Path::new(config.checks_dir())
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "checks".into());
    let checks_path = link_dest::lexical("", config.checks_dir());
    let bases = config.link_bases();
    let early = IdRules {
        id_pattern: &id_re,
        categories: &declared,
        checks_dir: &dir_name,
        checks_path: &checks_path,
        bases: &bases,
    };
    let body_rules = (mode == Mode::Declared).then_some(&early);

    // Reading and typing each file is independent: do it on all cores, then merge in file
    // order so nothing about the output depends on scheduling. Checks are collected straight
    // into their own vector (no second copy of every check while merging).
    let (typed, rest): (Vec<Option<crate::model::Check>>, Vec<FileRest>) = files
        .par_iter()
        .map(|name| {
            let path = checks_dir.join(name);
            load_check_file(
                root,
                &path,
                &id_re,
                &vocab,
                body_rules.map(|r| (r, &source_rules)),
                options,
            )
        })
        .unzip();
    // `filter_map` over the vector's own iterator collects in place (an `Option<Check>` is
    // the size of a `Check`), so the checks are never held twice.
    #[allow(clippy::filter_map_identity)]
    let mut checks: Vec<crate::model::Check> = typed.into_iter().filter_map(|c| c).collect();
    for outcome in rest {
        diags.extend(outcome.diagnostics);
        if let Some(b) = outcome.broken {
            broken.push(b);
        }
        if let Some((shown, text)) = outcome.source {
            sources.insert(shown, text);
        }
    }

    let manifest_path = checks_dir.join(manifest::FILE_NAME);
    if manifest_path.exists() {
        let shown = text::display_path(root, &manifest_path);
        match text::read_over(root, &manifest_path, overlay) {
            Ok(t) => {
                diags.extend(t.notes.into_iter().map(|d| d.file(shown.clone())));
                let (m, d) = manifest::parse(&shown, &t.text, &id_re);
                diags.extend(d);
                manifest = Some(m);
                sources.insert(shown, Arc::from(t.text));
            }
            Err(d) => diags.push(d),
        }
    }

    if files.is_empty() && checks_dir.is_dir() {
        diags.push(
            Diagnostic::new(
                &codes::NO_CHECKS,
                format!(
                    "`{}` holds no check files",
                    text::display_path(root, &checks_dir)
                ),
            )
            .help(codes::NO_CHECKS.help),
        );
    }

    let categories: Vec<String> = match mode {
        Mode::Declared => declared.clone(),
        Mode::Compatibility => {
            let mut v: Vec<String> = checks.iter().map(|c| c.category.to_string()).collect();
            v.sort();
            v.dedup();
            v
        }
    };
    let ids = IdRules {
        id_pattern: &id_re,
        categories: &categories,
        checks_dir: &dir_name,
        checks_path: &checks_path,
        bases: &bases,
    };
    if body_rules.is_none() {
        checks
            .par_iter_mut()
            .for_each(|c| attach(c, &ids, &source_rules, options));
    }

    let mut documents = Vec::new();
    let mut document_diagnostics = Vec::new();
    if options.documents {
        document_diagnostics.extend(doc_globs::expand(root, &fence, &mut config));
    }
    let wanted = if options.documents {
        docs::declared(&config)
    } else {
        Vec::new()
    };
    for path in wanted {
        match docs::load(root, &fence, &path, &ids, options.overlay) {
            Ok((d, notes)) => {
                document_diagnostics.extend(notes);
                sources.insert(d.path.clone(), Arc::from(d.text.as_str()));
                documents.push(d);
            }
            Err(mut d) => {
                if d.file.as_deref() == Some(config::FILE_NAME) {
                    let text = sources.get(config::FILE_NAME).cloned().unwrap_or_default();
                    if let Some(line) = docs::declared_line(&config, &text, &path) {
                        d = d.at(line, 1);
                    }
                }
                document_diagnostics.push(d)
            }
        }
    }
    if options.documents {
        // Example inputs are read with the documents: `verify` holds them to the profile schema.
        let (read, problems) = examples::load(root, &fence, &config, options.overlay);
        for e in read {
            sources.insert(e.path, Arc::from(e.text));
        }
        document_diagnostics.extend(problems);
    }
    diags.extend(document_diagnostics.iter().cloned());

    let mut rules = Vec::new();
    let rules_dir = root.join(
        config
            .rules
            .as_ref()
            .and_then(|r| r.dir.as_deref())
            .unwrap_or("rules"),
    );
    if options.documents && rules_dir.is_dir() {
        match list_markdown(&rules_dir) {
            Ok(files) => {
                for name in files {
                    let path = rules_dir.join(name);
                    let shown = text::display_path(root, &path);
                    match text::read_over(root, &path, overlay) {
                        Ok(t) => {
                            diags.extend(t.notes.into_iter().map(|d| d.file(shown.clone())));
                            // A README beside the rule files is not a rule.
                            if t.text.starts_with("---") {
                                match rules::load_file(&shown, &t.text, &ids) {
                                    Ok(r) => rules.push(r),
                                    Err(d) => diags.extend(d),
                                }
                            }
                            sources.insert(shown, Arc::from(t.text));
                        }
                        Err(d) => diags.push(d),
                    }
                }
            }
            Err(e) => diags.push(
                Diagnostic::new(
                    &codes::UNREADABLE,
                    format!("cannot list `{}`: {e}", rules_dir.display()),
                )
                .help(codes::UNREADABLE.help),
            ),
        }
    }
    if let Some(rc) = &config.rules {
        for decl in &rc.tables {
            if let Some(doc) = documents.iter().find(|d| d.path == decl.doc) {
                let (r, d) = rules::from_table(doc, decl);
                rules.extend(r);
                diags.extend(d);
            }
        }
    }
    let rules = rules::merge(rules, &mut diags);

    let mut catalogue = Catalogue {
        root: root.to_path_buf(),
        mode,
        config,
        categories,
        checks,
        broken,
        manifest,
        rules,
        documents,
        sources,
        by_id: Vec::new(),
    };
    catalogue.index();
    Ok(Loaded {
        catalogue,
        diagnostics: diags,
        document_diagnostics,
    })
}

/// Read one check file of a loaded catalogue again, in place (the language server re-reads
/// only the file being typed in). Returns what loading reports about that file, or `None`
/// when only a whole load gives the right answer: the compatibility layout (every check's
/// frontmatter decides the categories there) or a file the last load did not read.
pub fn reload_check(
    cat: &mut Catalogue,
    path: &Path,
    options: Options<'_>,
) -> Option<Vec<Diagnostic>> {
    if cat.mode != Mode::Declared {
        return None;
    }
    let root = cat.root.clone();
    let checks_dir = root.join(cat.config.checks_dir());
    if path.parent() != Some(checks_dir.as_path()) {
        return None;
    }
    let shown = text::display_path(&root, path);
    let known = cat.checks.iter().any(|c| c.file == shown)
        || cat.broken.iter().any(|b| b.file == shown)
        || cat.sources.contains_key(&shown);
    if !known {
        return None;
    }
    let config = &cat.config;
    let id_re = id_regex(config);
    let severities = config.severities();
    let baselines = config.baselines();
    let vocab = check::Vocab {
        severities: &severities,
        baselines: &baselines,
        extra_fields: &config.extra_fields,
    };
    let house_practice = config
        .house_practice_pattern()
        .and_then(|p| Regex::new(p).ok());
    let source_rules = check::SourceRules {
        section: config.sources_section(),
        house_practice: house_practice.as_ref(),
    };
    let dir_name = Path::new(config.checks_dir())
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "checks".into());
    let checks_path = link_dest::lexical("", config.checks_dir());
    let bases = config.link_bases();
    let rules = IdRules {
        id_pattern: &id_re,
        categories: &cat.categories,
        checks_dir: &dir_name,
        checks_path: &checks_path,
        bases: &bases,
    };
    let (typed, rest) = load_check_file(
        &root,
        path,
        &id_re,
        &vocab,
        Some((&rules, &source_rules)),
        options,
    );
    cat.checks.retain(|c| c.file != shown);
    cat.broken.retain(|b| b.file != shown);
    cat.sources.remove(&shown);
    if let Some(c) = typed {
        let at = cat
            .checks
            .partition_point(|x| x.file.as_str() < c.file.as_str());
        cat.checks.insert(at, c);
    }
    if let Some(b) = rest.broken {
        let at = cat.broken.partition_point(|x| x.file < b.file);
        cat.broken.insert(at, b);
    }
    if let Some((shown, text)) = rest.source {
        cat.sources.insert(shown, text);
    }
    cat.index();
    Some(rest.diagnostics)
}

/// `checks_dir` and `rules.dir` name folders that `new` writes into and `retire` deletes from:
/// they must stay inside the catalogue root (after resolving links). One that leaves it is
/// reported under its key and replaced by the default, so no later stage or command ever
/// reads or writes through it.
fn confine_dirs(root: &Path, config: &mut Config, diags: &mut Vec<Diagnostic>) {
    let fence = confine::Fence::new(root);
    let lines = config.positions.clone();
    let refuse = |key: &str, written: &str, e: confine::Escape| {
        let line = lines.line_of(key).unwrap_or(1);
        Diagnostic::new(
            &codes::PATH_REFUSED,
            format!(
                "`{key}: {}` {}",
                confine::shown_path(written),
                e.reason("the catalogue root")
            ),
        )
        .file(config::FILE_NAME)
        .at(line, 1)
        .help("name a folder inside the catalogue root")
    };
    if let Some(dir) = config.checks_dir.clone() {
        if let Err(e) = fence.resolve(root, &dir) {
            diags.push(refuse("checks_dir", &dir, e));
            config.checks_dir = None;
        }
    }
    if let Some(rc) = config.rules.as_mut() {
        if let Some(dir) = rc.dir.clone() {
            if let Err(e) = fence.resolve(root, &dir) {
                diags.push(refuse("rules.dir", &dir, e));
                rc.dir = None;
            }
        }
    }
}

/// Names of the `*.md` files directly in `dir`, sorted (as bytes) so loading order never
/// depends on the file system. Names only: a full path per file is built where it is read.
fn list_markdown(dir: &Path) -> std::io::Result<Vec<std::ffi::OsString>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        if name.as_encoded_bytes().ends_with(b".md") {
            files.push(name);
        }
    }
    files.sort();
    Ok(files)
}

/// What loading one check file produced besides the check itself.
struct FileRest {
    broken: Option<BrokenCheck>,
    /// The text of a file that yielded no check (its findings show its lines). A check holds
    /// its own text.
    source: Option<(String, Arc<str>)>,
    diagnostics: Vec<Diagnostic>,
}

fn load_check_file(
    root: &Path,
    path: &Path,
    id_re: &Regex,
    vocab: &check::Vocab<'_>,
    body_rules: Option<(&IdRules<'_>, &check::SourceRules<'_>)>,
    options: Options<'_>,
) -> (Option<crate::model::Check>, FileRest) {
    let shown = text::display_path(root, path);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = FileRest {
        broken: None,
        source: None,
        diagnostics: Vec::new(),
    };
    let t = match text::read_over(root, path, options.overlay) {
        Ok(t) => t,
        Err(d) => {
            out.diagnostics.push(d);
            out.broken = Some(BrokenCheck { stem, file: shown });
            return (None, out);
        }
    };
    // A Markdown file without frontmatter whose name is not an id (a README beside the
    // checks) is not a check; one whose name is an id is a broken check.
    if !t.text.starts_with("---") && !id_re.is_match(&stem) {
        return (None, out);
    }
    out.diagnostics
        .extend(t.notes.into_iter().map(|d| d.file(shown.clone())));
    let text: Arc<str> = Arc::from(t.text);
    match check::load(&shown, &text, vocab) {
        Ok(mut c) => {
            if let Some((rules, source_rules)) = body_rules {
                attach(&mut c, rules, source_rules, options);
            }
            (Some(c), out)
        }
        Err(d) => {
            out.diagnostics.extend(d);
            out.broken = Some(BrokenCheck {
                stem,
                file: shown.clone(),
            });
            out.source = Some((shown, text));
            (None, out)
        }
    }
}
