//! `claims.yaml`: the claims of a repository that is not the catalogue's (a skill, a server's
//! SECURITY.md) — `docs`, `claims`, `links` and rule tables written exactly as in
//! `catalogue.yaml` and read by the same parser, documents confined to the repository that
//! holds `claims.yaml`. The catalogue they are held to is a root on disk or a snapshot file;
//! both become one model, rooted where the documents are, so `verify` and `sync` run on it
//! unchanged.

use crate::confine::Fence;
use super::markdown::IdRules;
use super::{config, docs, link_dest, rules, text, Fatal, Loaded};
use crate::diag::Diagnostic;
use crate::model::config::{ClaimDecl, Config, LintConfig, RulesConfig};
use crate::model::{Catalogue, Mode, Rule};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the claims are held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// No `--catalogue`: only claims over an audit report can be checked.
    None,
    /// A catalogue root on disk.
    Root,
    /// A snapshot file: no check bodies.
    Snapshot,
}

/// A claims file read.
pub struct Elsewhere {
    /// The documents with the catalogue's checks, rules and declarations, rooted at the
    /// folder of `claims.yaml`; `diagnostics` hold what reading `claims.yaml`, the documents
    /// and their rule tables found.
    pub loaded: Loaded,
    pub claims: ClaimsFile,
}

/// What only the documents of another repository have: the claims file itself, its claims
/// over an audit report, its rule tables, and what they are held to.
pub struct ClaimsFile {
    /// `claims.yaml` as its folder names it (findings point here).
    pub file: String,
    /// The claims over an audit report (their queries read `audit.…`).
    pub report_claims: Vec<ClaimDecl>,
    /// Rules as the documents' tables state them, to be held to the catalogue's.
    pub table_rules: Vec<Rule>,
    pub source: SourceKind,
    /// A snapshot too old to stand in for its catalogue: its format.
    pub too_old: Option<u32>,
    /// The catalogue root, when the source is one: links under a base are followed there.
    pub catalogue_root: Option<PathBuf>,
}

/// Load `claims.yaml` and what it declares, against `source` (a catalogue root or a snapshot
/// file; `None` when only an audit report is verified).
pub fn load(
    claims: &Path,
    source: Option<&Path>,
    is_report_claim: &dyn Fn(&ClaimDecl) -> bool,
) -> Result<Elsewhere, Fatal> {
    let dir = match claims.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file = claims
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .ok_or_else(|| Fatal::new(format!("`{}` names no file", claims.display())))?;
    if !claims.is_file() {
        return Err(Fatal::new(format!(
            "claims file `{}` does not exist or is not a file",
            claims.display()
        )));
    }
    let mut diags = Vec::new();
    let (declared, claims_text) = match text::read(&dir, claims) {
        Ok(t) => {
            diags.extend(t.notes.into_iter().map(|d| d.file(file.clone())));
            let (c, d) = config::parse(&t.text);
            diags.extend(d);
            (c, t.text)
        }
        Err(d) => {
            diags.push(d);
            (Config::default(), String::new())
        }
    };
    let (base, source_kind, too_old) = match source {
        None => (empty(&dir), SourceKind::None, None),
        Some(p) if p.is_dir() => (super::load(p)?.catalogue, SourceKind::Root, None),
        Some(p) => {
            let snap = read_snapshot(p)?;
            match super::snapshot_model::catalogue(&snap, &dir) {
                Ok(c) => (c, SourceKind::Snapshot, None),
                Err(super::snapshot_model::TooOld(f)) => {
                    (empty(&dir), SourceKind::Snapshot, Some(f))
                }
            }
        }
    };
    let (report_claims, claims_on_catalogue): (Vec<ClaimDecl>, Vec<ClaimDecl>) = declared
        .claims
        .iter()
        .cloned()
        .partition(|c| is_report_claim(c));
    let mut config = base.config.clone();
    config.docs = declared.docs.clone();
    config.claims = claims_on_catalogue;
    // The ledger is the claims file's: it accepts findings about its own documents. A level
    // for a retired id's mention is the catalogue's unless the file sets one.
    let retired_mentions = |l: &Option<LintConfig>| l.as_ref().and_then(|l| l.retired_mentions.clone());
    config.lint = Some(LintConfig {
        retired_mentions: retired_mentions(&declared.lint).or_else(|| retired_mentions(&config.lint)),
        ..declared.lint.clone().unwrap_or_default()
    });
    // Findings about the declarations point into `claims.yaml`.
    config.positions = declared.positions.clone();
    config.rules = Some(RulesConfig {
        dir: None,
        tables: declared
            .rules
            .as_ref()
            .map(|r| r.tables.clone())
            .unwrap_or_default(),
    });
    if declared.links.is_some() {
        config.links = declared.links.clone();
    }
    // Every document the file names is read, report claims' documents included.
    let mut all = config.clone();
    all.claims.extend(report_claims.iter().cloned());
    let positions = config.positions.clone();

    let id_re = config.id_regex();
    let dir_name = Path::new(config.checks_dir())
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "checks".into());
    let checks_path = link_dest::lexical("", config.checks_dir());
    let bases = config.link_bases();
    let ids = IdRules {
        id_pattern: &id_re,
        categories: &base.categories,
        checks_dir: &dir_name,
        checks_path: &checks_path,
        bases: &bases,
        outlines: None,
    };
    let fence = Fence::repository_of(&dir);
    let mut sources: crate::diag::SourceMap = Default::default();
    sources.insert(file.clone(), Arc::from(claims_text.as_str()));
    let mut documents = Vec::new();
    let mut document_diagnostics = super::doc_globs::expand(&dir, &fence, &mut all);
    config.docs = all.docs.clone();
    config.doc_globs = all.doc_globs.clone();
    for path in docs::declared(&all) {
        match docs::load(&dir, &fence, &path, &ids, None) {
            Ok((d, notes)) => {
                document_diagnostics.extend(notes);
                sources.insert(d.path.clone(), Arc::from(d.text.as_str()));
                documents.push(d);
            }
            Err(mut d) => {
                if d.file.as_deref() == Some(crate::model::config::FILE_NAME) {
                    if let Some(line) = docs::declared_line(&all, &positions, &path) {
                        d = d.at(line, 1);
                    }
                }
                document_diagnostics.push(d);
            }
        }
    }
    let mut table_rules = Vec::new();
    for (i, decl) in config.rules.iter().flat_map(|r| &r.tables).enumerate() {
        if let Some(doc) = documents.iter().find(|d| d.path == decl.doc) {
            let key = format!("rules.tables[{i}].section");
            let at = positions.line_of(&key).unwrap_or(1);
            let (r, d) = rules::from_table(doc, decl, at);
            table_rules.extend(r);
            diags.extend(d);
        }
    }
    diags.extend(document_diagnostics.iter().cloned());
    let mut catalogue = Catalogue::empty(dir.clone(), Mode::Declared);
    catalogue.config = config;
    catalogue.categories = base.categories;
    catalogue.broken = base.broken;
    catalogue.rules = base.rules;
    catalogue.documents = documents;
    catalogue.sources = sources;
    catalogue.set_checks(base.checks);
    let rename = |d: Diagnostic| in_claims_file(d, &file);
    Ok(Elsewhere {
        loaded: Loaded {
            catalogue,
            diagnostics: diags.into_iter().map(rename).collect(),
            document_diagnostics: document_diagnostics.into_iter().map(rename).collect(),
        },
        claims: ClaimsFile {
            file: file.clone(),
            report_claims,
            table_rules,
            source: source_kind,
            too_old,
            catalogue_root: source.filter(|p| p.is_dir()).map(Path::to_path_buf),
        },
    })
}

/// A finding the shared parser and claim checks write against `catalogue.yaml`, pointed at
/// the claims file that holds what they are about.
pub fn in_claims_file(mut d: Diagnostic, file: &str) -> Diagnostic {
    if d.file.as_deref() == Some(crate::model::config::FILE_NAME) {
        d.file = Some(file.to_string());
        d.message = d.message.replace(crate::model::config::FILE_NAME, file);
        if let Some(h) = d.help.take() {
            d.help = Some(h.replace(crate::model::config::FILE_NAME, file));
        }
    }
    d
}

fn empty(root: &Path) -> Catalogue {
    Catalogue::empty(root, Mode::Declared)
}

/// A snapshot file as `auditbook snapshot` writes it.
pub fn read_snapshot(path: &Path) -> Result<crate::snapshot::Snapshot, Fatal> {
    let bytes = text::read_limited(path)
        .map_err(Fatal::caused(format!("cannot read `{}`", path.display())))?;
    let t = text::decode(&path.display().to_string(), bytes).map_err(|d| Fatal::new(d.message))?;
    serde_json::from_str(&t.text).map_err(Fatal::caused(format!(
        "`{}` is neither a catalogue directory nor a snapshot written by `auditbook snapshot`",
        path.display()
    )))
}

/// The line of a key of `claims.yaml` (1 when it is not written).
pub fn key_line(cat: &Catalogue, key: &str) -> usize {
    cat.config.positions.line_of(key).unwrap_or(1)
}

/// Catalogue keys a claims file may not set: they describe the catalogue, which is read
/// from its source. (`name` and `version` may label the file.)
pub const CATALOGUE_ONLY_KEYS: &[&str] = &[
    "checks_dir",
    "id_pattern",
    "categories",
    "severities",
    "blocking_severities",
    "spec_baselines",
    "required_sections",
    "extra_fields",
    "retired",
    "profile",
    "require_coverage",
    "require_sources",
    "scoring",
];

/// Used by callers that report a missing catalogue at the key that needs one.
pub fn needs_catalogue_at(cat: &Catalogue) -> Option<(usize, &'static str)> {
    if !cat.config.claims.is_empty() {
        return Some((key_line(cat, "claims"), "claims over the catalogue"));
    }
    if cat
        .config
        .rules
        .as_ref()
        .is_some_and(|r| !r.tables.is_empty())
    {
        return Some((key_line(cat, "rules"), "rule tables"));
    }
    None
}
