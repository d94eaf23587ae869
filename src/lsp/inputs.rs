//! Server profiles and results files as the language server judges them: the text in the
//! editor, checked against the catalogue the way `auditbook profile check PROFILE` and
//! `auditbook audit PROFILE --results RESULTS` check the files, with the same codes, messages
//! and lines. These files are the auditor's input, not part of the catalogue, so an edit of
//! one re-judges that file alone.

use crate::audit::applicability::{self, Applicability};
use crate::audit::{profile, results, waivers};
use crate::diag::{codes, Code, Diagnostic};
use crate::load::data_file::{self, DataError};
use crate::model::Catalogue;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Profile,
    Results,
}

const EXTENSIONS: &[&str] = &[".yaml", ".yml", ".json"];

/// What `path` holds, told by its name: `NAME.profile.yaml` and `NAME.results.yaml` (also
/// `.yml` and `.json`), and any data file directly in a folder named `profiles` (where a
/// catalogue keeps its example profiles).
pub fn kind(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let stem = EXTENSIONS.iter().find_map(|e| name.strip_suffix(e))?;
    if stem.ends_with(".profile") {
        return Some(Kind::Profile);
    }
    if stem.ends_with(".results") {
        return Some(Kind::Results);
    }
    let folder = path.parent()?.file_name()?.to_str()?;
    (folder == "profiles").then_some(Kind::Profile)
}

/// The profile a results file is recorded for, by name: `NAME.profile.*` beside
/// `NAME.results.*`, every extension tried.
pub fn profile_beside(results: &Path) -> Vec<PathBuf> {
    let Some(name) = results.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let lower = name.to_ascii_lowercase();
    let Some(at) = lower.rfind(".results.") else {
        return Vec::new();
    };
    EXTENSIONS
        .iter()
        .map(|e| results.with_file_name(format!("{}.profile{e}", &name[..at])))
        .collect()
}

/// The findings about the file `abs` (shown as `shown`) holding `text`. A results file is
/// judged against the applicability of the profile beside it when `profile_text` finds one
/// (its path and text); without one, only what needs no profile is judged (unknown and
/// retired check ids, statuses, evidence, waivers).
pub fn findings(
    cat: &Catalogue,
    kind: Kind,
    abs: &Path,
    shown: &str,
    text: &str,
    profile_text: &dyn Fn(&Path) -> Option<(String, String)>,
) -> Vec<Diagnostic> {
    let mut out = match kind {
        Kind::Profile => profile_findings(cat, abs, shown, text),
        Kind::Results => results_findings(cat, abs, shown, text, profile_text),
    };
    crate::diag::normalise(&mut out);
    out
}

fn profile_findings(cat: &Catalogue, abs: &Path, shown: &str, text: &str) -> Vec<Diagnostic> {
    let invalid = &codes::PROFILE_INVALID;
    let read = data_file::from_bytes(abs, shown, text.as_bytes().to_vec(), invalid)
        .and_then(|file| profile::of_file(cat, file));
    match read {
        Ok(checked) => checked.diagnostics,
        Err(e) => refused(e, invalid, shown),
    }
}

fn results_findings(
    cat: &Catalogue,
    abs: &Path,
    shown: &str,
    text: &str,
    profile_text: &dyn Fn(&Path) -> Option<(String, String)>,
) -> Vec<Diagnostic> {
    let invalid = &codes::RESULTS_INVALID;
    let file = match data_file::from_bytes(abs, shown, text.as_bytes().to_vec(), invalid) {
        Ok(f) => f,
        Err(e) => return refused(e, invalid, shown),
    };
    let app = profile_beside(abs)
        .into_iter()
        .find_map(|p| {
            let (p_shown, p_text) = profile_text(&p)?;
            let p_file =
                data_file::from_bytes(&p, &p_shown, p_text.into_bytes(), &codes::PROFILE_INVALID)
                    .ok()?;
            let checked = profile::of_file(cat, p_file).ok()?;
            Some(applicability::compute(cat, &checked.profile))
        })
        .unwrap_or_else(Applicability::default);
    let (_, mut out) = results::validate(cat, &app, &file);
    // A results file may hold waivers; `audit` judges them with the results.
    waivers::read(cat, &file, &mut out);
    out.retain(|d| d.file.as_deref() == Some(shown));
    out
}

/// A file that is not usable data: its findings, or, when it could not be read as data at all
/// (a portfolio without a server named), the reason on its first line.
fn refused(e: DataError, invalid: &'static Code, shown: &str) -> Vec<Diagnostic> {
    match e {
        DataError::Invalid { diagnostics, .. } => diagnostics,
        DataError::Unreadable(m) => vec![Diagnostic::new(invalid, m).file(shown).line(1)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name() {
        let k = |p: &str| kind(Path::new(p));
        assert_eq!(k("/a/amtsblatt.profile.yaml"), Some(Kind::Profile));
        assert_eq!(k("/a/amtsblatt.Profile.YML"), Some(Kind::Profile));
        assert_eq!(k("/a/amtsblatt.results.json"), Some(Kind::Results));
        assert_eq!(k("/kat/profiles/p00.yaml"), Some(Kind::Profile));
        assert_eq!(k("/kat/catalogue.yaml"), None);
        assert_eq!(k("/kat/checks/FID-001.md"), None);
        assert_eq!(k("/a/portfolio.yaml"), None);
    }

    #[test]
    fn the_profile_beside_a_results_file() {
        let p = profile_beside(Path::new("/a/amtsblatt.results.yaml"));
        assert_eq!(p.first(), Some(&PathBuf::from("/a/amtsblatt.profile.yaml")));
        assert_eq!(p.len(), 3);
        assert!(profile_beside(Path::new("/a/x.yaml")).is_empty());
    }
}
