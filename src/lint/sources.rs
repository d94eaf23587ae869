//! Sources, as the catalogue requires them (`require_sources`): a check the selection names
//! must cite an external source; any other check cites one or says its basis is house
//! practice; a source link that cannot be verified later is noted. The links and the marker
//! line are read at load time (`Check::sources`, `Check::house_practice_line`), so this pass
//! needs no check text.

use crate::diag::{codes, Diagnostic};
use crate::model::{Catalogue, Check};
use std::collections::BTreeSet;

pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let Some(rs) = &cat.config.require_sources else {
        return Vec::new();
    };
    let config_file = crate::model::config::FILE_NAME;
    // The `where:` line, so the finding sits on the expression it is about (found only for
    // a finding: positions are parsed on first use).
    let line = || {
        cat.config
            .positions
            .line_of("require_sources.where")
            .unwrap_or(1)
    };
    let selected: BTreeSet<&str> =
        match crate::select::compile(cat, &rs.selection, "require_sources.where") {
            Ok(expr) => match crate::select::select(cat, &expr) {
                Ok(checks) => checks.into_iter().map(|c| c.id.as_str()).collect(),
                Err(d) => return vec![d.file(config_file).line(line())],
            },
            // Without a selection no check can be judged: which ones must cite is unknown.
            Err(ds) => {
                return ds
                    .into_iter()
                    .map(|d| {
                        crate::select::under(d, &codes::SOURCES_EXPRESSION)
                            .file(config_file)
                            .line(line())
                    })
                    .collect()
            }
        };
    let section = cat.config.sources_section();
    let mut out = Vec::new();
    for c in &cat.checks {
        let required = selected.contains(c.id.as_str());
        if c.sources.is_empty() {
            if required {
                out.push(missing(c, section, &rs.selection));
            } else if c.house_practice_line == 0 {
                out.push(undeclared(c, section, cat.config.house_practice_pattern()));
            }
        }
        for s in c.sources.iter() {
            if let Some(defect) = s.defect() {
                out.push(
                    Diagnostic::new(
                        &codes::SOURCE_LINK_DEFECT,
                        format!("source link `{}` {defect}", s.url),
                    )
                    .file(c.file.clone())
                    .line(s.line as usize)
                    .id(c.id.clone()),
                );
            }
        }
    }
    out
}

/// Where a finding about the sources section points: its heading, or the body's start when
/// the section is missing.
fn section_line(c: &Check, section: &str) -> usize {
    c.section(section)
        .map(|s| s.line as usize)
        .unwrap_or(c.body_line)
}

fn missing(c: &Check, section: &str, selection: &str) -> Diagnostic {
    let what = if c.section(section).is_some() {
        format!("its `## {section}` section links no http(s) address")
    } else {
        format!("it has no `## {section}` section")
    };
    let help = if c.house_practice_line > 0 {
        format!(
            "line {} says the basis is house practice, which this selection does not accept; {}",
            c.house_practice_line,
            codes::SOURCE_MISSING.help
        )
    } else {
        codes::SOURCE_MISSING.help.to_string()
    };
    Diagnostic::new(
        &codes::SOURCE_MISSING,
        format!(
            "`{}` must cite an external source (require_sources.where `{selection}`), but {what}",
            c.id
        ),
    )
    .file(c.file.clone())
    .line(section_line(c, section))
    .id(c.id.clone())
    .help(help)
}

fn undeclared(c: &Check, section: &str, marker: Option<&str>) -> Diagnostic {
    Diagnostic::new(
        &codes::BASIS_UNDECLARED,
        format!(
            "`{}` cites no external source in `## {section}` and does not say its basis is house practice",
            c.id
        ),
    )
    .file(c.file.clone())
    .line(section_line(c, section))
    .id(c.id.clone())
    .help(format!(
        "link the source the criteria come from, or add a line to `## {section}` matching `{}`",
        marker.unwrap_or(crate::model::config::DEFAULT_HOUSE_PRACTICE)
    ))
}
