//! Rules: every rule maps to checks or declares its gap; the sources of a rule agree; what
//! `require_coverage` selects is covered; a rule only advisory checks enforce is named.

use crate::diag::{codes, Diagnostic};
use crate::graph::Graph;
use crate::model::{Adoption, Catalogue, Coverage, Rule, RuleOrigin};
use std::collections::BTreeSet;
use std::path::Path;

pub fn check(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for rule in &cat.rules {
        let Some(origin) = rule.origin() else {
            continue;
        };
        let at = |code, msg: String| {
            Diagnostic::new(code, msg)
                .file(origin.file().to_string())
                .line(origin.line())
                .id(rule.id.clone())
        };
        out.extend(mapping(cat, rule, at));
        sources_agree(rule, &mut out);
        id_is_file_name(rule, &mut out);
    }
    out.extend(coverage(cat, graph));
    out
}

/// A rule maps to checks or declares its gap (and not both); a rule only advisory checks
/// enforce is named.
fn mapping(
    cat: &Catalogue,
    rule: &Rule,
    at: impl Fn(&'static crate::diag::Code, String) -> Diagnostic,
) -> Option<Diagnostic> {
    let checks = rule.checks();
    match (checks.is_empty(), rule.coverage) {
        (true, Some(Coverage::None)) => None,
        (true, _) => Some(at(
            &codes::RULE_WITHOUT_CHECKS,
            format!("rule `{}` maps to no checks", rule.id),
        )),
        (false, Some(Coverage::None)) => Some(at(
            &codes::GAP_WITH_CHECKS,
            format!(
                "rule `{}` declares coverage: none but maps to {}",
                rule.id,
                checks.join(", ")
            ),
        )),
        (false, _) => {
            let live: Vec<_> = checks.iter().filter_map(|id| cat.check(id)).collect();
            let advisory_only =
                live.len() == checks.len() && live.iter().all(|c| c.adoption == Adoption::Advisory);
            advisory_only.then(|| {
                at(
                    &codes::ADVISORY_ONLY,
                    format!(
                        "rule `{}` is enforced only by advisory checks ({}): it cannot block a release",
                        rule.id,
                        checks.join(", ")
                    ),
                )
            })
        }
    }
}

/// A rule with a file and a table row maps the same checks in both.
fn sources_agree(rule: &Rule, out: &mut Vec<Diagnostic>) {
    let sets: Vec<(&RuleOrigin, BTreeSet<&str>)> = rule
        .mappings
        .iter()
        .map(|m| (&m.origin, m.checks.iter().map(String::as_str).collect()))
        .collect();
    let file_set = sets
        .iter()
        .find(|(o, _)| matches!(o, RuleOrigin::File { .. }));
    if let Some((_, fs)) = file_set {
        for (o, ts) in sets
            .iter()
            .filter(|(o, _)| matches!(o, RuleOrigin::Table { .. }))
        {
            if ts != fs {
                let only_table: Vec<&str> = ts.difference(fs).copied().collect();
                let only_file: Vec<&str> = fs.difference(ts).copied().collect();
                out.push(
                    Diagnostic::new(
                        &codes::RULE_SOURCES_DISAGREE,
                        format!(
                            "rule `{}`: the table links [{}] that the rule file does not map, and the rule file maps [{}] that the table does not link",
                            rule.id,
                            only_table.join(", "),
                            only_file.join(", ")
                        ),
                    )
                    .file(o.file().to_string())
                    .line(o.line())
                    .id(rule.id.clone()),
                );
            }
        }
    }
}

/// A rule file is named after its rule.
fn id_is_file_name(rule: &Rule, out: &mut Vec<Diagnostic>) {
    for m in &rule.mappings {
        if let RuleOrigin::File { file, .. } = &m.origin {
            let stem = Path::new(file)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned());
            if stem.as_deref() != Some(rule.id.as_str()) {
                out.push(
                    Diagnostic::new(
                        &codes::RULE_ID_FILE,
                        format!("rule id is `{}` but the file is `{}`", rule.id, file),
                    )
                    .file(file.clone())
                    .line(2)
                    .id(rule.id.clone()),
                );
            }
        }
    }
}

/// Checks `require_coverage` selects that no rule covers.
fn coverage(cat: &Catalogue, graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut required = BTreeSet::new();
    // Positions are parsed on first use: only a finding asks.
    let line = |path: String| cat.config.positions.line_of(&path).unwrap_or(1);
    for (i, src) in cat.config.require_coverage.iter().enumerate() {
        let at = || line(cat.config.item_path("require_coverage", i));
        match crate::select::compile(cat, src, "require_coverage") {
            Ok(expr) => match crate::select::select(cat, &expr) {
                Ok(checks) => required.extend(checks.into_iter().map(|c| c.id.as_str())),
                Err(d) => out.push(d.file(crate::model::config::FILE_NAME).line(at())),
            },
            Err(ds) => out.extend(ds.into_iter().map(|d| {
                crate::select::under(d, &codes::COVERAGE_EXPRESSION)
                    .file(crate::model::config::FILE_NAME)
                    .line(at())
            })),
        }
    }
    // A table's own require_coverage: covered by a rule of that table's set.
    for (ti, t) in cat.config.rules.iter().flat_map(|r| &r.tables).enumerate() {
        for (i, src) in t.require_coverage.iter().enumerate() {
            let Ok(expr) = crate::select::compile(cat, src, "require_coverage") else {
                out.push(
                    Diagnostic::new(
                        &codes::COVERAGE_EXPRESSION,
                        format!("rules.tables `{}`: require_coverage `{src}` does not parse or type against check fields", t.set_name()),
                    )
                    .file(crate::model::config::FILE_NAME)
                    .line(line(format!("rules.tables[{ti}].require_coverage[{i}]")))
                    .help(codes::COVERAGE_EXPRESSION.help),
                );
                continue;
            };
            for c in crate::select::select(cat, &expr).unwrap_or_default() {
                let in_set = graph.covering_rules(&c.id).into_iter().any(|r| {
                    cat.config.rules.as_ref().map(|rc| rc.set_of(r)) == Some(t.set_name())
                });
                if !in_set {
                    out.push(
                        Diagnostic::new(&codes::NOT_COVERED, format!("`{}` must be covered by a rule of set `{}` (its require_coverage), but no rule of that set maps to it", c.id, t.set_name()))
                            .file(c.file.to_string())
                            .at(c.field_line("id"), 1)
                            .id(c.id.to_string()),
                    );
                }
            }
        }
    }
    for id in required {
        if graph.covering_rules(id).is_empty() {
            if let Some(c) = cat.check(id) {
                out.push(
                    Diagnostic::new(&codes::NOT_COVERED, format!("`{id}` must be covered by a rule (require_coverage), but no rule maps to it"))
                        .file(c.file.clone())
                        .at(c.field_line("id"), 1)
                        .id(id),
                );
            }
        }
    }
    out
}
