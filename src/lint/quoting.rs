//! Values the engine reads correctly but other YAML readers would not: a bare date as
//! `spec_baseline` is a string here (YAML 1.2) and a date to PyYAML and many frontmatter tools.

use crate::diag::{codes, Diagnostic};
use crate::model::Check;
#[cfg(any(test, feature = "internals"))]
use crate::model::Catalogue;

#[cfg(any(test, feature = "internals"))]
pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    cat.checks.iter().filter_map(one).collect()
}

pub fn one(c: &Check) -> Option<Diagnostic> {
    c.rare
        .as_ref()
        .is_some_and(|r| r.spec_baseline_unquoted_date)
        .then(|| {
            Diagnostic::new(
                &codes::DATE_UNQUOTED,
                format!(
                    "`spec_baseline: {}` is a date without quotes; YAML 1.1 readers take it for a date",
                    c.spec_baseline
                ),
            )
            .file(c.file.clone())
            .line(c.field_line("spec_baseline"))
            .id(c.id.clone())
            .help(format!("write `spec_baseline: \"{}\"`", c.spec_baseline))
        })
}
