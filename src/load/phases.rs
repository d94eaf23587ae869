//! The phases of loading a catalogue, in the order `load_with` runs them: `catalogue.yaml`,
//! the check files (on all cores when there are many), the manifest, the declared documents, the rules. Each
//! phase adds its findings and the texts it read to what the caller collects.

use super::markdown::IdRules;
use super::{
    check, config, doc_globs, docs, examples, link_dest, manifest, rules, text, Documents, Options,
};
use crate::confine;
use crate::diag::{codes, Diagnostic};
use crate::model::catalogue::BrokenCheck;
use crate::model::config::BaselineConfig;
use crate::model::{Check, Config, Document, Mode, Rule};
use regex::Regex;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Texts read while loading, by root-relative path (findings show their lines).
pub(super) type Sources = BTreeMap<String, Arc<str>>;

/// What loading derives from `catalogue.yaml` once and every check file reads.
pub(super) struct Derived {
    pub id_re: Regex,
    severities: Vec<String>,
    baselines: BaselineConfig,
    /// An invalid pattern is already config's finding (AB122); the checks are read without it.
    house_practice: Option<Regex>,
    /// The last path component of the checks directory.
    dir_name: String,
    /// The checks directory relative to the root, lexical.
    checks_path: String,
    bases: Vec<String>,
}

impl Derived {
    pub fn of(config: &Config) -> Derived {
        Derived {
            id_re: config.id_regex(),
            severities: config.severities(),
            baselines: config.baselines(),
            house_practice: config
                .house_practice_pattern()
                .and_then(|p| crate::text::patterns::compiled(p).ok()),
            dir_name: Path::new(config.checks_dir())
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "checks".into()),
            checks_path: link_dest::lexical("", config.checks_dir()),
            bases: config.link_bases(),
        }
    }

    pub fn vocab<'a>(&'a self, config: &'a Config) -> check::Vocab<'a> {
        check::Vocab {
            severities: &self.severities,
            baselines: &self.baselines,
            extra_fields: &config.extra_fields,
        }
    }

    pub fn source_rules<'a>(&'a self, config: &'a Config) -> check::SourceRules<'a> {
        check::SourceRules {
            section: config.sources_section(),
            house_practice: self.house_practice.as_ref(),
        }
    }

    /// The rules that tell check ids in Markdown, with `categories` making mentions.
    pub fn id_rules<'a>(
        &'a self,
        categories: &'a [String],
        outlines: Option<&'a super::outline_cache::OutlineCache>,
    ) -> IdRules<'a> {
        IdRules {
            outlines,
            id_pattern: &self.id_re,
            categories,
            checks_dir: &self.dir_name,
            checks_path: &self.checks_path,
            bases: &self.bases,
        }
    }
}

/// Not a directory, or one that cannot be listed: the engine cannot do its job (exit 2),
/// which is not the same as a catalogue with findings (exit 1).
pub(super) fn check_root(root: &Path) -> Result<(), super::Fatal> {
    let what = format!(
        "catalogue root `{}` is not a readable directory",
        root.display()
    );
    if !root.is_dir() {
        return Err(super::Fatal::new(what));
    }
    std::fs::read_dir(root)
        .map(drop)
        .map_err(super::Fatal::caused(what))
}

/// `catalogue.yaml`, or the compatibility layout when there is none.
pub(super) fn read_config(
    root: &Path,
    overlay: Option<&text::Overlay>,
    diags: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> (Mode, Config) {
    let config_path = root.join(crate::model::config::FILE_NAME);
    if !config_path.exists() {
        return (Mode::Compatibility, Config::default());
    }
    match text::read_over(root, &config_path, overlay) {
        Ok(t) => {
            diags.extend(
                t.notes
                    .into_iter()
                    .map(|d| d.file(crate::model::config::FILE_NAME)),
            );
            let (c, d) = config::parse(&t.text);
            diags.extend(d);
            sources.insert(
                crate::model::config::FILE_NAME.to_string(),
                Arc::from(t.text),
            );
            (Mode::Declared, c)
        }
        Err(d) => {
            diags.push(d);
            (Mode::Declared, Config::default())
        }
    }
}

/// `checks_dir` and `rules.dir` name folders that `new` writes into and `retire` deletes from:
/// they must stay inside the catalogue root (after resolving links). One that leaves it is
/// reported under its key and replaced by the default, so no later stage or command ever
/// reads or writes through it.
pub(super) fn confine_dirs(root: &Path, config: &mut Config, diags: &mut Vec<Diagnostic>) {
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
        .file(crate::model::config::FILE_NAME)
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
pub(super) fn list_markdown(dir: &Path) -> std::io::Result<Vec<std::ffi::OsString>> {
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

/// What the checks directory yielded.
pub(super) struct CheckFiles {
    pub checks: Vec<Check>,
    pub broken: Vec<BrokenCheck>,
    /// How many `*.md` files the directory listed.
    pub listed: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Texts of the files that yielded no check.
    pub sources: Vec<(String, Arc<str>)>,
}

/// Read and type every check file. Each file is independent: they are read on all cores,
/// then merged in file order so nothing about the output depends on scheduling. With
/// `body_rules` (the declared layout, where the categories are known before any check is
/// read) each body is read while its text is at hand.
pub(super) fn read_checks(
    root: &Path,
    checks_dir: &Path,
    id_re: &Regex,
    vocab: &check::Vocab<'_>,
    body_rules: Option<(&IdRules<'_>, &check::SourceRules<'_>)>,
    options: Options<'_>,
) -> CheckFiles {
    let mut diags = Vec::new();
    let files = match list_markdown(checks_dir) {
        Ok(f) => f,
        Err(e) => {
            diags.push(Diagnostic::new(
                &codes::NO_CHECKS,
                format!(
                    "cannot list the checks directory `{}`: {e}",
                    text::display_path(root, checks_dir)
                ),
            ));
            Vec::new()
        }
    };
    // Checks are collected straight into their own vector (no second copy of every check
    // while merging).
    let one = |name: &std::ffi::OsString| {
        let path = checks_dir.join(name);
        load_check_file(root, &path, id_re, vocab, body_rules, options)
    };
    let (typed, rest): (Vec<Option<Check>>, Vec<FileRest>) = crate::par::map_unzip(&files, one);
    // `filter_map` over the vector's own iterator collects in place (an `Option<Check>` is
    // the size of a `Check`), so the checks are never held twice.
    #[allow(clippy::filter_map_identity)]
    let checks: Vec<Check> = typed.into_iter().filter_map(|c| c).collect();
    let mut broken = Vec::new();
    let mut sources = Vec::new();
    for outcome in rest {
        diags.extend(outcome.diagnostics);
        if let Some(b) = outcome.broken {
            broken.push(b);
        }
        sources.extend(outcome.source);
    }
    CheckFiles {
        checks,
        broken,
        listed: files.len(),
        diagnostics: diags,
        sources,
    }
}

/// `MANIFEST.txt` in the checks directory, if there is one.
pub(super) fn read_manifest(
    root: &Path,
    checks_dir: &Path,
    id_re: &Regex,
    overlay: Option<&text::Overlay>,
    diags: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Option<crate::model::catalogue::Manifest> {
    let path = checks_dir.join(manifest::FILE_NAME);
    if !path.exists() {
        return None;
    }
    let shown = text::display_path(root, &path);
    match text::read_over(root, &path, overlay) {
        Ok(t) => {
            diags.extend(t.notes.into_iter().map(|d| d.file(shown.clone())));
            let (m, d) = manifest::parse(&shown, &t.text, id_re);
            diags.extend(d);
            sources.insert(shown, Arc::from(t.text));
            Some(m)
        }
        Err(d) => {
            diags.push(d);
            None
        }
    }
}

/// An existing checks directory without a check file.
pub(super) fn no_check_files(root: &Path, checks_dir: &Path) -> Diagnostic {
    Diagnostic::new(
        &codes::NO_CHECKS,
        format!(
            "`{}` holds no check files",
            text::display_path(root, checks_dir)
        ),
    )
}

/// The category prefixes that make mentions: the declared ones, or in the compatibility
/// layout those the checks' frontmatter names.
pub(super) fn categories_of(mode: Mode, declared: &[String], checks: &[Check]) -> Vec<String> {
    match mode {
        Mode::Declared => declared.to_vec(),
        Mode::Compatibility => {
            let mut v: Vec<String> = checks.iter().map(|c| c.category.to_string()).collect();
            v.sort();
            v.dedup();
            v
        }
    }
}

/// The documents `catalogue.yaml` declares, and what loading found about them. A document
/// that cannot be read is reported on its line in `catalogue.yaml`.
pub(super) fn read_documents(
    root: &Path,
    config: &mut Config,
    ids: &IdRules<'_>,
    options: Options<'_>,
    sources: &mut Sources,
) -> (Vec<Document>, Vec<Diagnostic>) {
    let fence = confine::Fence::repository_of(root);
    let mut documents = Vec::new();
    let mut found = Vec::new();
    if options.documents == Documents::None {
        return (documents, found);
    }
    // Globs become the paths they match before anything is read.
    found.extend(doc_globs::expand(root, &fence, config));
    let rule_docs = docs::rule_tables(config);
    // A path refused or unreadable is a defect of the line that declares it.
    let locate = |mut d: Diagnostic, path: &str| {
        if d.file.as_deref() == Some(crate::model::config::FILE_NAME) {
            if let Some(line) = docs::declared_line(config, &config.positions, path) {
                d = d.at(line, 1);
            }
        }
        d
    };
    for path in docs::declared(config) {
        if options.documents == Documents::Rules && !rule_docs.contains(&path) {
            // Read for its bytes only (an audit report's files digest covers every declared
            // file); its outline is what lint and verify judge, and costs most of reading it.
            match docs::read_document(root, &fence, &path, options.overlay) {
                Ok(t) => {
                    found.extend(t.notes);
                    sources.insert(path, Arc::from(t.text));
                }
                Err(d) => found.push(locate(d, &path)),
            }
            continue;
        }
        match docs::load(root, &fence, &path, ids, options.overlay) {
            Ok((d, notes)) => {
                found.extend(notes);
                sources.insert(d.path.clone(), Arc::from(d.text.as_str()));
                documents.push(d);
            }
            Err(d) => found.push(locate(d, &path)),
        }
    }
    // Example inputs are read with the documents: `verify` holds them to the profile schema.
    let (read, problems) = examples::load(root, &fence, config, options.overlay);
    for e in read {
        sources.insert(e.path, Arc::from(e.text));
    }
    found.extend(problems);
    (documents, found)
}

/// The rules: rule files in the rules directory and the rule tables of declared documents,
/// merged.
pub(super) fn read_rules(
    root: &Path,
    config: &Config,
    ids: &IdRules<'_>,
    documents: &[Document],
    options: Options<'_>,
    diags: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Vec<Rule> {
    let mut found = Vec::new();
    let rules_dir = root.join(
        config
            .rules
            .as_ref()
            .and_then(|r| r.dir.as_deref())
            .unwrap_or("rules"),
    );
    if options.documents != Documents::None && rules_dir.is_dir() {
        match list_markdown(&rules_dir) {
            Ok(files) => {
                for name in files {
                    read_rule_file(
                        root,
                        &rules_dir.join(name),
                        ids,
                        options,
                        &mut found,
                        diags,
                        sources,
                    );
                }
            }
            Err(e) => diags.push(Diagnostic::new(
                &codes::UNREADABLE,
                format!("cannot list `{}`: {e}", rules_dir.display()),
            )),
        }
    }
    if let Some(rc) = &config.rules {
        for (i, decl) in rc.tables.iter().enumerate() {
            if let Some(doc) = documents.iter().find(|d| d.path == decl.doc) {
                let key = format!("rules.tables[{i}].section");
                let at = config.positions.line_of(&key).unwrap_or(1);
                let (r, d) = rules::from_table(doc, decl, at);
                found.extend(r);
                diags.extend(d);
            }
        }
    }
    rules::merge(found, diags)
}

fn read_rule_file(
    root: &Path,
    path: &Path,
    ids: &IdRules<'_>,
    options: Options<'_>,
    found: &mut Vec<Rule>,
    diags: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) {
    let shown = text::display_path(root, path);
    match text::read_over(root, path, options.overlay) {
        Ok(t) => {
            diags.extend(t.notes.into_iter().map(|d| d.file(shown.clone())));
            // A README beside the rule files is not a rule.
            if t.text.starts_with("---") {
                match rules::load_file(&shown, &t.text, ids) {
                    Ok(r) => found.push(r),
                    Err(d) => diags.extend(d),
                }
            }
            sources.insert(shown, Arc::from(t.text));
        }
        Err(d) => diags.push(d),
    }
}

/// What loading one check file produced besides the check itself.
pub(super) struct FileRest {
    pub broken: Option<BrokenCheck>,
    /// The text of a file that yielded no check (its findings show its lines). A check holds
    /// its own text.
    pub source: Option<(String, Arc<str>)>,
    pub diagnostics: Vec<Diagnostic>,
}

pub(super) fn load_check_file(
    root: &Path,
    path: &Path,
    id_re: &Regex,
    vocab: &check::Vocab<'_>,
    body_rules: Option<(&IdRules<'_>, &check::SourceRules<'_>)>,
    options: Options<'_>,
) -> (Option<Check>, FileRest) {
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
                super::attach(&mut c, rules, source_rules, options);
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
