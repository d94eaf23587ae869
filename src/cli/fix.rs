//! `lint --fix`, `verify --fix`, `--unsafe-fixes`, `--diff`: the findings' fixes applied as
//! edits on the files' own text, every file in one write session or none, then the findings
//! that remain.

use super::args::{Cli, FixArgs};
use super::common::{self, Failure};
use crate::fix::{self, apply, Fix, Safety};
use crate::load::Loaded;
use crate::session::{Needs, Stages};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Which command's findings are fixed.
#[derive(Clone, Copy, Debug)]
pub enum Scope {
    /// `lint` (with `--verify`: the documents too).
    Lint(bool),
    Verify,
}

impl Scope {
    fn stages(self) -> Stages {
        match self {
            Scope::Lint(true) => Stages::ALL,
            Scope::Lint(false) => Stages::LINT,
            Scope::Verify => Stages::VERIFY,
        }
    }

    fn command(self) -> &'static str {
        match self {
            Scope::Lint(_) => "lint",
            Scope::Verify => "verify",
        }
    }
}

pub fn run(
    cli: &Cli,
    scope: Scope,
    args: &FixArgs,
    format: Option<super::formats::DiagnosticsFormat>,
) -> Result<u8, Failure> {
    let fmt = common::format(cli, format);
    // Locked before loading, so what the fixes are planned from is what they change.
    let session = if args.diff {
        None
    } else {
        Some(common::write_session(cli)?)
    };
    let before = common::session(cli, Needs::BODIES)?;
    let loaded = before.loaded();
    let templates = common::templates(cli)?;
    let diags = before
        .findings(scope.stages())
        .map_err(Failure::Message)?
        .shown;
    let root = common::root(cli);
    let cache: RefCell<BTreeMap<String, Option<Arc<str>>>> = RefCell::default();
    let text_of = |rel: &str| -> Option<Arc<str>> {
        if let Some(t) = cache.borrow().get(rel) {
            return t.clone();
        }
        let t = read_now(&root, rel);
        cache.borrow_mut().insert(rel.to_string(), t.clone());
        t
    };
    let all = fix::fixes_with(
        &loaded.catalogue,
        before.graph(),
        &diags,
        &text_of,
        &templates,
    );
    let unsafe_fixes = args.unsafe_fixes;
    let wanted: Vec<Fix> = all
        .iter()
        .filter(|f| f.safety == Safety::Safe || unsafe_fixes)
        .cloned()
        .collect();
    let held_back = all.len() - wanted.len();
    let (chosen, waiting) = apply::compatible(&wanted);
    let edited = apply::edit(&chosen, &text_of).map_err(Failure::Message)?;
    // The findings were computed from the loaded text; a file that differs from it now was
    // changed in between, and offsets into it would land in the wrong place.
    for e in &edited {
        if !same_as_loaded(loaded, &e.file, &e.before) {
            return Err(changed(&e.file));
        }
    }
    if args.diff {
        common::print(&apply::diff(&edited, &common::prefix(cli)))?;
        note(
            cli,
            &summary("would fix", &chosen, &edited, held_back, waiting.len()),
        );
        return Ok(if edited.is_empty() {
            super::EXIT_OK
        } else {
            super::EXIT_FINDINGS
        });
    }
    if let Some(session) = &session {
        apply::unchanged(&edited, &|rel| read_now(&root, rel)).map_err(|f| changed(&f))?;
        let changes: Vec<crate::write::Change> = edited
            .iter()
            .map(|e| crate::write::Change::Write(root.join(&e.file), e.after.clone()))
            .collect();
        session
            .apply(&format!("{} --fix", scope.command()), &changes)
            .map_err(Failure::io("nothing was changed"))?;
    }
    note(
        cli,
        &summary("fixed", &chosen, &edited, held_back, waiting.len()),
    );
    // What remains, read afresh.
    let after = common::session(cli, Needs::FINDINGS)?;
    let findings = after.findings(scope.stages()).map_err(Failure::Message)?;
    let mut extra = serde_json::Map::new();
    extra.insert("fixed".into(), chosen.len().into());
    extra.insert("files_changed".into(), edited.len().into());
    common::report(cli, scope.command(), &findings, &after, fmt, extra)
}

/// A file's text as it is on disk now.
fn read_now(root: &std::path::Path, rel: &str) -> Option<Arc<str>> {
    let bytes = crate::load::text::read_limited(&root.join(rel)).ok()?;
    String::from_utf8(bytes).ok().map(Arc::from)
}

fn same_as_loaded(loaded: &Loaded, file: &str, raw: &str) -> bool {
    let cat = &loaded.catalogue;
    let held = cat
        .check_by_file(file)
        .and_then(|c| c.text())
        .or_else(|| cat.sources.get(file).map(|t| &**t))
        .or_else(|| cat.document(file).map(|d| d.text.as_str()));
    let lf = raw
        .strip_prefix('\u{feff}')
        .unwrap_or(raw)
        .replace("\r\n", "\n");
    held.is_none_or(|h| h == lf)
}

fn changed(file: &str) -> Failure {
    Failure::Message(format!(
        "`{file}` changed on disk since auditbook read it; nothing was written (run the command again)"
    ))
}

fn summary(
    verb: &str,
    chosen: &[&Fix],
    edited: &[apply::Edited],
    held: usize,
    waiting: usize,
) -> String {
    let mut s = format!(
        "{verb} {} finding(s) in {} file(s)",
        chosen.len(),
        edited.len()
    );
    if waiting > 0 {
        s.push_str(&format!(
            "; {waiting} more fix(es) overlap these and apply on the next run"
        ));
    }
    if held > 0 {
        s.push_str(&format!(
            "; {held} unsafe fix(es) available with --unsafe-fixes"
        ));
    }
    s.push('\n');
    s
}

fn note(cli: &Cli, text: &str) {
    if !cli.quiet {
        super::output::eprint(&format!("auditbook: {text}"));
    }
}
