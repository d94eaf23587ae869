//! Lint passes: each judges the loaded model and returns diagnostics. None reads a file,
//! except `links`, which follows links to the files they name, and `snippets`, which reads a
//! check's own text again after a lean load.

pub mod applies_when;
pub mod ids;
pub mod links;
pub mod manifest;
pub mod quoting;
pub mod references;
pub mod retired;
pub mod rules;
pub mod sections;
pub mod sets;
pub mod snippets;
pub mod sources;
pub mod vocabulary;

use crate::diag::{self, codes, Diagnostic};
use crate::graph::Graph;
use crate::model::{Catalogue, Check, Mode};

/// Every lint pass over the catalogue, sorted. Accepted findings are the ledger's business
/// (`session::ledger`), which covers every stage alike.
pub fn run(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let all: Vec<&Check> = cat.checks.iter().collect();
    let mut out: Vec<Diagnostic> = per_check(cat, &all).into_iter().flatten().collect();
    out.extend(catalogue_wide(cat, graph));
    diag::normalise(&mut out);
    out
}

/// The passes that judge one check by itself (its identity, sections, expression, quoting, the
/// code in its body and the links it writes), one list per check in the order given. Every
/// finding sits on that check's file; none reads another check's frontmatter, except a link's
/// target (which the language server accounts for by re-judging the checks whose links name an
/// edited file).
pub fn per_check(cat: &Catalogue, checks: &[&Check]) -> Vec<Vec<Diagnostic>> {
    let id_re = cat.config.id_regex();
    let schema = cat.config.profile_schema();
    // Typing an expression is the costly part: spread the checks over the cores. `collect`
    // keeps their order, and the caller sorts, so scheduling never shows.
    let mut own: Vec<Vec<Diagnostic>> = crate::par::map(checks, |c| {
        let mut out = ids::one(cat, &id_re, c);
        out.extend(sections::one(cat, c));
        out.extend(applies_when::check_one(c, schema.as_ref()));
        out.extend(quoting::one(c));
        out.extend(snippets::one(cat, c));
        out
    });
    for (list, links) in own.iter_mut().zip(links::of_checks(cat, checks)) {
        list.extend(links);
    }
    own
}

/// The passes that read the catalogue as a whole: duplicate ids, the manifest, the graph's
/// references, the rule files' links, the retired ledger, rule coverage, required sources.
pub fn catalogue_wide(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let mut out = catalogue_heads(cat, graph);
    out.extend(catalogue_bodies(cat, graph));
    out
}

/// The catalogue-wide passes that read no check's body, only ids and frontmatter (with the
/// rule files and the ledger): an edit of a check's body leaves their findings as they were.
pub fn catalogue_heads(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    Head::ALL
        .iter()
        .flat_map(|h| catalogue_head(cat, graph, *h))
        .collect()
}

/// The passes of [`catalogue_heads`] grouped by what of a check they read, so that an edit
/// which keeps a check's id runs again only the group that reads what it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Head {
    /// Ids, files and the line of `id:`: the compatibility note, duplicate ids, the manifest,
    /// the retired ledger, named sets.
    Ids,
    /// Rule mapping and coverage: ids, the line of `id:`, `adoption` and whatever field a
    /// `require_coverage` expression names.
    Rules,
    /// Dead vocabulary values: every check's `applies_when`.
    Vocabulary,
}

impl Head {
    pub const ALL: [Head; 3] = [Head::Ids, Head::Rules, Head::Vocabulary];

    /// Whether the group's findings may change when one check's field `key`
    /// (`model::fields`) changes and its id stays.
    pub fn reads_field(self, cat: &Catalogue, key: &str) -> bool {
        match self {
            Head::Ids => false,
            Head::Rules => key == "adoption" || crate::select::coverage_may_read(cat, key),
            Head::Vocabulary => key == "applies_when",
        }
    }

    /// Whether the group places a finding on a check's `id:` line (so a line added above it
    /// moves the finding).
    pub fn reads_id_line(self) -> bool {
        matches!(self, Head::Ids | Head::Rules)
    }
}

/// One group of the catalogue-wide passes that read no body.
pub fn catalogue_head(cat: &Catalogue, graph: &Graph, head: Head) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    match head {
        Head::Ids => {
            out.extend(compatibility_note(cat));
            out.extend(ids::duplicates(cat));
            out.extend(manifest::check(cat));
            out.extend(retired::check(cat, graph));
            out.extend(sets::check(cat));
        }
        Head::Rules => out.extend(rules::check(cat, graph)),
        Head::Vocabulary => out.extend(vocabulary::check(cat)),
    }
    out
}

/// The catalogue-wide passes that read checks' bodies: the references written in them, the
/// rule files' links (whose fragments a check's headings answer), the sources sections.
pub fn catalogue_bodies(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    out.extend(references::check(cat, graph));
    out.extend(links::of_rules(cat));
    out.extend(sources::check(cat));
    out
}

/// Compatibility mode says once what it could not check, never silently.
fn compatibility_note(cat: &Catalogue) -> Option<Diagnostic> {
    (cat.mode == Mode::Compatibility).then(|| {
        Diagnostic::new(
            &codes::COMPATIBILITY_MODE,
            format!(
                "no catalogue.yaml: read in compatibility mode; for {} checks the applies_when \
                 expressions were checked for syntax only (no profile schema), and retired ids, \
                 rule coverage, required sections and document claims were not checked \
                 (nothing declares them)",
                cat.checks.len()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_group_reads_the_fields_its_passes_read() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue");
        let cat = crate::load::load(&root).unwrap().catalogue;
        // The shipped catalogue's require_coverage selects by category.
        assert!(Head::Rules.reads_field(&cat, "category"));
        assert!(Head::Rules.reads_field(&cat, "adoption"));
        assert!(!Head::Rules.reads_field(&cat, "title"));
        assert!(Head::Vocabulary.reads_field(&cat, "applies_when"));
        assert!(!Head::Vocabulary.reads_field(&cat, "severity"));
        assert!(!Head::Ids.reads_field(&cat, "severity"));
        assert!(Head::Ids.reads_id_line() && Head::Rules.reads_id_line());
        assert!(!Head::Vocabulary.reads_id_line());
    }
}
