//! Reading `catalogue.yaml` into `Config`: unknown top-level keys get a "did you mean", every
//! other shape error keeps serde_yaml's line, and values that parse but cannot be used (a bad
//! regex) are reported here because loading cannot go on with them.

use super::check::suggest;
use super::frontmatter::{top_level_key, yaml_error};
use crate::diag::{codes, Diagnostic};
use crate::model::config::{Config, TOP_LEVEL_KEYS};
use regex::Regex;
use std::collections::BTreeSet;

pub const FILE_NAME: &str = "catalogue.yaml";

/// Parse the configuration. On errors the default configuration is returned with them, so the
/// rest of the catalogue is still read and reported on.
pub fn parse(text: &str) -> (Config, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let Some(key) = top_level_key(raw) else {
            continue;
        };
        if !TOP_LEVEL_KEYS.contains(&key) {
            let help = match suggest(key, TOP_LEVEL_KEYS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => codes::CONFIG_UNKNOWN_KEY.help.to_string(),
            };
            diags.push(
                Diagnostic::new(
                    &codes::CONFIG_UNKNOWN_KEY,
                    format!("unknown key `{key}` in catalogue.yaml"),
                )
                .file(FILE_NAME)
                .at(i + 1, 1)
                .width(key.chars().count())
                .help(help),
            );
        }
    }
    if !diags.is_empty() {
        return (Config::default(), diags);
    }
    if let Some((line, column)) = super::yaml_depth::too_deep(text, super::yaml_depth::MAX_DEPTH) {
        diags.push(
            Diagnostic::new(
                &codes::CONFIG_INVALID,
                format!(
                    "catalogue.yaml is nested more than {} levels deep; it is not parsed",
                    super::yaml_depth::MAX_DEPTH
                ),
            )
            .file(FILE_NAME)
            .at(line, column)
            .help(codes::CONFIG_INVALID.help),
        );
        return (Config::default(), diags);
    }
    // A tagged value is reported and dropped with its top-level key; every other key is kept,
    // so one bad value cannot discard the categories and cascade into a finding per check.
    let tagged: Vec<Diagnostic> = super::yaml_tags::reject(text, 1)
        .into_iter()
        .map(|d| d.file(FILE_NAME))
        .collect();
    let stripped;
    let text = if tagged.is_empty() {
        text
    } else {
        let bad: std::collections::BTreeSet<usize> = tagged.iter().filter_map(|d| d.line).collect();
        stripped = without_keys_at(text, &bad);
        diags.extend(tagged);
        stripped.as_str()
    };
    let config = if text.trim().is_empty() {
        Config::default()
    } else {
        match serde_yaml::from_str::<Config>(text) {
            Ok(c) => c,
            Err(e) => {
                let mut d = yaml_error(&e, 1);
                if d.code == codes::YAML_INVALID.code {
                    d = d
                        .under(&codes::CONFIG_INVALID)
                        .help(codes::CONFIG_INVALID.help);
                }
                diags.push(d.file(FILE_NAME));
                return (Config::default(), diags);
            }
        }
    };
    diags.extend(validate(&config, text));
    (config, diags)
}

/// `text` with each top-level entry that has a line in `lines` blanked out (its key line and
/// the indented lines below it), so line numbers of what remains stay true.
fn without_keys_at(text: &str, lines: &std::collections::BTreeSet<usize>) -> String {
    let all: Vec<&str> = text.split('\n').collect();
    // The index of the top-level entry each line belongs to (its key's line).
    let mut owner = Vec::with_capacity(all.len());
    let mut entry = 0;
    for (i, l) in all.iter().enumerate() {
        if top_level_key(l).is_some() {
            entry = i;
        }
        owner.push(entry);
    }
    let doomed: std::collections::BTreeSet<usize> = lines
        .iter()
        .filter_map(|l| owner.get(l.saturating_sub(1)).copied())
        .collect();
    all.iter()
        .zip(&owner)
        .map(|(l, o)| if doomed.contains(o) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The line of the first occurrence of `needle` in the text, for value-level findings.
fn line_of(text: &str, needle: &str) -> usize {
    text.split('\n')
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or(1)
}

fn bad_value(text: &str, needle: &str, message: String) -> Diagnostic {
    Diagnostic::new(&codes::CONFIG_BAD_VALUE, message)
        .file(FILE_NAME)
        .line(line_of(text, needle))
        .help(codes::CONFIG_BAD_VALUE.help)
}

fn validate(config: &Config, text: &str) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    if let Some(p) = &config.id_pattern {
        if let Err(e) = Regex::new(p) {
            diags.push(bad_value(
                text,
                "id_pattern",
                format!("id_pattern is not a valid regular expression: {e}"),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for c in &config.categories {
        if !seen.insert(c.prefix.as_str()) {
            diags.push(bad_value(
                text,
                &format!("prefix: {}", c.prefix),
                format!("category prefix `{}` is declared twice", c.prefix),
            ));
        }
    }
    if let Some(sev) = &config.severities {
        if sev.is_empty() {
            diags.push(bad_value(
                text,
                "severities",
                "severities is empty; expected at least one".into(),
            ));
        }
        for b in config.blocking_severities() {
            if !sev.contains(&b) {
                diags.push(bad_value(
                    text,
                    "blocking_severities",
                    format!("blocking severity `{b}` is not one of the declared severities"),
                ));
            }
        }
    }
    let b = config.baselines();
    for v in [&b.default, &b.universal]
        .into_iter()
        .chain(b.aliases.values())
    {
        if !b.values.contains(v) {
            diags.push(bad_value(
                text,
                "spec_baselines",
                format!("baseline `{v}` is used in spec_baselines but not listed in its values"),
            ));
        }
    }
    diags.extend(validate_require_sources(config, text));
    diags.extend(validate_scoring(config, text));
    diags
}

/// A house-practice pattern that is not a regular expression, an empty section title. The
/// `where` expression is typed against check fields by lint (AB225), like `require_coverage`.
fn validate_require_sources(config: &Config, text: &str) -> Vec<Diagnostic> {
    let Some(rs) = &config.require_sources else {
        return Vec::new();
    };
    let lines = super::yaml_lines::key_lines(text);
    let at = |key: &str| {
        super::yaml_lines::line_of(&lines, &format!("require_sources.{key}")).unwrap_or(1)
    };
    let mut diags = Vec::new();
    if let Some(p) = &rs.house_practice {
        if let Err(e) = Regex::new(p) {
            diags.push(
                bad_value(
                    text,
                    "require_sources",
                    format!(
                        "require_sources.house_practice is not a valid regular expression: {e}"
                    ),
                )
                .line(at("house_practice")),
            );
        }
    }
    if rs.section.as_deref().is_some_and(|s| s.trim().is_empty()) {
        diags.push(
            bad_value(
                text,
                "require_sources",
                "require_sources.section is empty; expected a section title such as `References`"
                    .into(),
            )
            .line(at("section")),
        );
    }
    diags
}

/// Negative weights, fractions above one and undeclared severities in `scoring:`; unknown keys
/// are already serde's errors (AB120).
fn validate_scoring(config: &Config, text: &str) -> Vec<Diagnostic> {
    let Some(scoring) = &config.scoring else {
        return Vec::new();
    };
    let lines = super::yaml_lines::key_lines(text);
    scoring
        .problems(&config.severities())
        .into_iter()
        .map(|(path, message)| {
            Diagnostic::new(&codes::SCORING_BAD_VALUE, message)
                .file(FILE_NAME)
                .line(super::yaml_lines::line_of(&lines, &path).unwrap_or(1))
                .help(codes::SCORING_BAD_VALUE.help)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_top_level_key_has_suggestion_and_line() {
        let (_, d) = parse("name: x\ncategoires: []\n");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, "AB121");
        assert_eq!(d[0].line, Some(2));
        assert_eq!(d[0].help.as_deref(), Some("did you mean `categories`?"));
    }

    #[test]
    fn nested_unknown_key_keeps_yaml_line() {
        let (_, d) = parse("name: x\ncategories:\n  - {prefix: A, name: B, colour: red}\n");
        assert_eq!(d[0].code, "AB120");
        assert_eq!(d[0].line, Some(3));
    }

    #[test]
    fn bad_regex_and_duplicate_prefix() {
        let (_, d) = parse("id_pattern: '^[A-Z'\ncategories:\n  - {prefix: A, name: B}\n  - {prefix: A, name: C}\n");
        let codes: Vec<_> = d.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["AB122", "AB122"]);
    }

    #[test]
    fn scoring_typo_negative_weight_and_fraction() {
        let (_, d) = parse("name: x\nscoring:\n  partial_fractoin: 0.5\n");
        assert_eq!(d[0].code, "AB120");
        assert_eq!(d[0].line, Some(3));
        assert!(
            d[0].message.contains("partial_fractoin"),
            "{}",
            d[0].message
        );
        let (_, d) = parse("name: x\nscoring:\n  fail:\n    high: -10\n  advisory_fraction: 1.5\n");
        let found: Vec<_> = d.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(found, [("AB701", Some(4)), ("AB701", Some(5))]);
        let (_, d) = parse("name: x\nscoring:\n  fail: {hihg: 3}\n");
        assert_eq!(d[0].code, "AB701");
        assert!(
            d[0].message.contains("did you mean `high`"),
            "{}",
            d[0].message
        );
        let (c, d) = parse("name: x\nscoring:\n  max: 100\n  floor: 0\n  fail: {critical: 20, high: 10, medium: 5, low: 2}\n  partial_fraction: 0.5\n  advisory_fraction: 0.5\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(c.scoring.unwrap().fail_points("high"), Some(10.0));
    }

    #[test]
    fn require_sources_typo_bad_pattern_and_clean_twin() {
        let (_, d) = parse("name: x\nrequire_sources:\n  were: 'always'\n");
        assert_eq!(d[0].code, "AB120");
        assert_eq!(d[0].line, Some(3));
        let (_, d) = parse("name: x\nrequire_sources:\n  where: 'always'\n  house_practice: '^(Hauspraxis'\n  section: ''\n");
        let found: Vec<_> = d.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(found, [("AB122", Some(4)), ("AB122", Some(5))]);
        let (c, d) = parse("name: x\nrequire_sources:\n  where: 'category == \"SEC\"'\n  section: Quellen\n  house_practice: '^Hauspraxis:'\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(c.sources_section(), "Quellen");
        assert_eq!(c.house_practice_pattern(), Some("^Hauspraxis:"));
        let (c, _) = parse("name: x\n");
        assert_eq!(
            (c.sources_section(), c.house_practice_pattern()),
            ("References", None)
        );
    }

    #[test]
    fn clean_config_is_silent() {
        let (c, d) =
            parse("name: x\nversion: 1.0.0\ncategories:\n  - {prefix: FID, name: Data fidelity}\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(c.categories.len(), 1);
    }
}
