//! Reading `catalogue.yaml` into `Config`: unknown top-level keys get a "did you mean", every
//! other shape error keeps serde_yaml's line, and values that parse but cannot be used (a bad
//! regex) are reported here because loading cannot go on with them.

use super::frontmatter::{top_level_key, yaml_error};
use crate::diag::{codes, Diagnostic};
use crate::model::config::{Config, KeyLines, FILE_NAME, TOP_LEVEL_KEYS};
use crate::text::suggest::did_you_mean;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Parse the configuration. A defect costs only the key it is in: an unknown key, or a key
/// whose value has the wrong shape, is reported (with a "did you mean" or the line) and left
/// out, and every other key is kept — one typo must not undeclare every category and bury
/// the finding under a hundred consequences of it.
pub fn parse(text: &str) -> (Config, Vec<Diagnostic>) {
    if text.trim().is_empty() {
        return (Config::default(), Vec::new());
    }
    if let Some((line, column)) = super::yaml_depth::too_deep(text, super::yaml_depth::MAX_DEPTH) {
        let d = Diagnostic::new(
            &codes::CONFIG_INVALID,
            format!(
                "catalogue.yaml is nested more than {} levels deep; it is not parsed",
                super::yaml_depth::MAX_DEPTH
            ),
        )
        .file(FILE_NAME)
        .at(line, column);
        return (Config::default(), vec![d]);
    }
    // A tagged value is reported and its top-level key left out, like any other bad key.
    let tagged: Vec<Diagnostic> = super::yaml_tags::reject(text, 1)
        .into_iter()
        .map(|d| d.file(FILE_NAME))
        .collect();
    let stripped;
    let text = if tagged.is_empty() {
        text
    } else {
        let bad: BTreeSet<usize> = tagged.iter().filter_map(|d| d.line).collect();
        stripped = without_keys_at(text, &bad);
        stripped.as_str()
    };
    // The common case: the whole file is right.
    let whole = serde_yaml::from_str::<Config>(text);
    let (config, mut diags, lines, kept) = match whole {
        Ok(c) => (c, Vec::new(), KeyLines::of_text(Arc::from(text)), Default::default()),
        Err(e) => match blocks(text) {
            Some(blocks) => {
                let lines = block_lines(&blocks);
                let (c, d, kept) = salvage(&blocks, &lines);
                (c, d, KeyLines::known(lines), kept)
            }
            // No `key:` lines at column 0 (a flow mapping, a list): nothing to salvage.
            None => (
                Config::default(),
                vec![config_error(&e, 1)],
                KeyLines::of_text(Arc::from(text)),
                Default::default(),
            ),
        },
    };
    let mut config = config;
    config.positions = lines;
    config.kept_items = kept;
    let entries = config.kept_items.get("claims").cloned().unwrap_or_default();
    for (i, claim) in config.claims.iter_mut().enumerate() {
        claim.entry = entries.get(i).copied().unwrap_or(i);
    }
    diags.extend(validate(&config));
    diags.extend(tagged);
    (config, diags)
}

/// A serde error as a catalogue.yaml finding, its line shifted to where `first_line` starts.
fn config_error(e: &serde_yaml::Error, first_line: usize) -> Diagnostic {
    let mut d = yaml_error(e, first_line);
    if d.code == codes::YAML_INVALID.code {
        d = d
            .under(&codes::CONFIG_INVALID)
            .help(codes::CONFIG_INVALID.help);
    }
    d.file(FILE_NAME)
}

/// One top-level key and the lines it spans.
struct Block<'t> {
    key: &'t str,
    /// 1-based line of the key.
    line: usize,
    /// The key's lines, as written.
    text: String,
}

/// The file cut at its top-level keys; `None` when it has none (then it is not a block
/// mapping and cannot be cut).
fn blocks(text: &str) -> Option<Vec<Block<'_>>> {
    let mut out: Vec<Block<'_>> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        match top_level_key(raw) {
            Some(key) => out.push(Block {
                key,
                line: i + 1,
                text: format!("{raw}\n"),
            }),
            None => {
                // A document marker or a comment before the first key belongs to no key.
                if let Some(b) = out.last_mut() {
                    b.text.push_str(raw);
                    b.text.push('\n');
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Key positions of a file the parser rejects, top-level key by key: a syntax error in one
/// key's lines leaves the positions of every other key (the parser stops at its first error).
fn block_lines(blocks: &[Block<'_>]) -> std::collections::BTreeMap<String, (usize, usize)> {
    let mut out = std::collections::BTreeMap::new();
    for b in blocks {
        for (path, (line, column)) in crate::text::yaml_lines::key_positions(&b.text) {
            out.entry(path).or_insert((line + b.line - 1, column));
        }
    }
    out
}

/// Every key read on its own: the unknown, the repeated and the malformed are reported and
/// left out; the rest make the configuration. With it, for each list whose malformed items
/// were left out, the index as written of every item kept.
fn salvage(
    blocks: &[Block<'_>],
    key_lines: &std::collections::BTreeMap<String, (usize, usize)>,
) -> (Config, Vec<Diagnostic>, std::collections::BTreeMap<String, Vec<usize>>) {
    let mut kept_items = std::collections::BTreeMap::new();
    let mut diags = Vec::new();
    let mut kept = serde_yaml::Mapping::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for b in blocks {
        let at = |d: Diagnostic| d.file(FILE_NAME).at(b.line, 1).width(b.key.chars().count());
        if !TOP_LEVEL_KEYS.contains(&b.key) {
            diags.push(
                at(Diagnostic::new(
                    &codes::CONFIG_UNKNOWN_KEY,
                    format!("unknown key `{}` in catalogue.yaml; it is ignored", b.key),
                ))
                .help_if(did_you_mean(b.key, TOP_LEVEL_KEYS.iter().copied())),
            );
            continue;
        }
        if !seen.insert(b.key) {
            diags.push(
                at(Diagnostic::new(
                    &codes::DUPLICATE_KEY,
                    format!(
                        "`{}` is written twice in catalogue.yaml; the second one is ignored",
                        b.key
                    ),
                )),
            );
            continue;
        }
        match serde_yaml::from_str::<serde_yaml::Mapping>(&b.text) {
            Err(e) => diags.push(config_error(&e, b.line)),
            Ok(m) => {
                let Some(value) = m.into_iter().next().map(|(_, v)| v) else {
                    continue;
                };
                match serde_yaml::from_str::<Config>(&b.text) {
                    Ok(_) => {
                        kept.insert(b.key.into(), value);
                    }
                    Err(e) => {
                        let first = config_error(&e, b.line);
                        let (value, found, items) = salvage_items(b.key, value, first, key_lines);
                        kept_items.insert(b.key.to_string(), items);
                        diags.extend(found);
                        if let Some(v) = value {
                            kept.insert(b.key.into(), v);
                        }
                    }
                }
            }
        }
    }
    match serde_yaml::from_value::<Config>(serde_yaml::Value::Mapping(kept)) {
        Ok(c) => (c, diags, kept_items),
        // Each key passed on its own, so this cannot fail; if it does, say so.
        Err(e) => {
            diags.push(
                Diagnostic::new(
                    &codes::CONFIG_INVALID,
                    format!("catalogue.yaml could not be read as a whole: {e}"),
                )
                .file(FILE_NAME)
                .line(1),
            );
            (Config::default(), diags, kept_items)
        }
    }
}

/// A list whose key did not parse keeps the items that do: one malformed category or claim
/// costs that item, each bad item is reported at its line (the first with serde's exact
/// place). A category that lost its item keeps its prefix, so its checks are not reported as
/// undeclared on top. Anything else is dropped whole, with `first` as its finding. With the
/// list, the index as written of each item kept.
fn salvage_items(
    key: &str,
    value: serde_yaml::Value,
    first: Diagnostic,
    key_lines: &std::collections::BTreeMap<String, (usize, usize)>,
) -> (Option<serde_yaml::Value>, Vec<Diagnostic>, Vec<usize>) {
    let serde_yaml::Value::Sequence(items) = value else {
        return (None, vec![first], Vec::new());
    };
    let mut kept = Vec::new();
    let mut good = Vec::new();
    let mut diags = Vec::new();
    let item_line = |i: usize| key_lines.get(&format!("{key}[{i}]")).map(|(line, _)| *line);
    for (i, item) in items.into_iter().enumerate() {
        let mut one = serde_yaml::Mapping::new();
        one.insert(key.into(), serde_yaml::Value::Sequence(vec![item.clone()]));
        match serde_yaml::from_value::<Config>(serde_yaml::Value::Mapping(one)) {
            Ok(_) => {
                kept.push(i);
                good.push(item);
            }
            Err(e) => {
                let line = item_line(i);
                let next = item_line(i + 1).unwrap_or(usize::MAX);
                let exact = first
                    .line
                    .is_some_and(|l| line.is_some_and(|s| (s..next).contains(&l)));
                if exact {
                    diags.push(first.clone());
                } else {
                    diags.push(
                        Diagnostic::new(
                            &codes::CONFIG_INVALID,
                            format!("invalid `{key}` entry {}: {e}", i + 1),
                        )
                        .file(FILE_NAME)
                        .line(line.unwrap_or(1)),
                    );
                }
                if key == "categories" {
                    if let Some(prefix_only) = category_prefix_only(&item) {
                        kept.push(i);
                        good.push(prefix_only);
                    }
                }
            }
        }
    }
    if diags.is_empty() {
        diags.push(first);
    }
    (Some(serde_yaml::Value::Sequence(good)), diags, kept)
}

/// A malformed category entry reduced to what the rest of the catalogue needs of it: its
/// prefix (and its name, if it has one).
fn category_prefix_only(item: &serde_yaml::Value) -> Option<serde_yaml::Value> {
    let prefix = item.get("prefix")?.as_str()?;
    let name = item.get("name").and_then(|n| n.as_str()).unwrap_or(prefix);
    let mut m = serde_yaml::Mapping::new();
    m.insert("prefix".into(), prefix.into());
    m.insert("name".into(), name.into());
    Some(serde_yaml::Value::Mapping(m))
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

/// A value that parses but cannot be used, at the line of its key path (`categories[2].prefix`;
/// a key left out and defaulted is reported at its nearest written ancestor).
fn bad_value(config: &Config, path: &str, message: String) -> Diagnostic {
    Diagnostic::new(&codes::CONFIG_BAD_VALUE, message)
        .file(FILE_NAME)
        .line(config.positions.line_of(path).unwrap_or(1))
        .help(codes::CONFIG_BAD_VALUE.help)
}

fn validate(config: &Config) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    if let Some(p) = &config.id_pattern {
        if let Err(e) = crate::text::patterns::compiled(p) {
            diags.push(bad_value(
                config,
                "id_pattern",
                format!("id_pattern is not a valid regular expression: {e}"),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, c) in config.categories.iter().enumerate() {
        if !seen.insert(c.prefix.as_str()) {
            diags.push(bad_value(
                config,
                &format!("{}.prefix", config.item_path("categories", i)),
                format!("category prefix `{}` is declared twice", c.prefix),
            ));
        }
    }
    if let Some(sev) = &config.severities {
        if sev.is_empty() {
            diags.push(bad_value(
                config,
                "severities",
                "severities is empty; expected at least one".into(),
            ));
        }
        for b in config.blocking_severities() {
            if !sev.contains(&b) {
                diags.push(bad_value(
                    config,
                    "blocking_severities",
                    format!("blocking severity `{b}` is not one of the declared severities"),
                ));
            }
        }
    }
    let b = config.baselines();
    let used = [
        ("default".to_string(), &b.default),
        ("universal".to_string(), &b.universal),
    ]
    .into_iter()
    .chain(b.aliases.iter().map(|(k, v)| (format!("aliases.{k}"), v)));
    for (key, v) in used {
        if !b.values.contains(v) {
            diags.push(bad_value(
                config,
                &format!("spec_baselines.{key}"),
                format!("baseline `{v}` is used in spec_baselines but not listed in its values"),
            ));
        }
    }
    for (i, t) in config.rules.iter().flat_map(|r| &r.tables).enumerate() {
        if let Some(Err(e)) = t.gap.as_deref().map(Regex::new) {
            diags.push(bad_value(
                config,
                &format!("rules.tables[{i}].gap"),
                format!("rules.tables gap pattern is not a valid regular expression: {e}"),
            ));
        }
    }
    for c in config.claims.iter().filter(|c| c.matches == Some(0)) {
        diags.push(bad_value(
            config,
            &format!("claims[{}].matches", c.entry),
            format!(
                "claim `{}`: `matches: 0` would hold a sentence to being absent; a claim states what is written (at least once: leave `matches` out)",
                c.name
            ),
        ));
    }
    diags.extend(validate_require_sources(config));
    diags.extend(validate_scoring(config));
    diags.extend(validate_allow(config));
    diags
}

/// Each `lint.allow` entry names what it accepts (an id, a file or a selection of checks) and,
/// if it lapses, a real day; an entry that names none would accept nothing, or everything.
/// Each code `lint.levels` names is one the engine reports.
fn validate_allow(config: &Config) -> Vec<Diagnostic> {
    let Some(lint) = &config.lint else {
        return Vec::new();
    };
    let mut diags = Vec::new();
    for (i, a) in lint.allow.iter().enumerate() {
        // Positions are found only for a finding (KeyLines is lazy).
        let mut bad = |message: String| {
            let line = config
                .positions
                .line_of(&format!("lint.allow[{i}]"))
                .unwrap_or(1);
            diags.push(
                Diagnostic::new(&codes::CONFIG_BAD_VALUE, message)
                    .file(FILE_NAME)
                    .line(line),
            )
        };
        if a.id.is_none() && a.file.is_none() && a.selection.is_none() {
            bad(format!(
                "the `lint.allow` entry for {} names no `id`, `file` or `where`; it accepts nothing",
                a.code
            ));
        }
        if let Some(u) = a
            .until
            .as_deref()
            .filter(|u| !crate::model::date::is_calendar_date(u))
        {
            bad(format!(
                "`until: {u}` in the `lint.allow` entry for {} is not a calendar date (YYYY-MM-DD)",
                a.code
            ));
        }
    }
    for code in lint.levels.keys() {
        if crate::diag::codes::lookup(code).is_some() {
            continue;
        }
        let known = crate::diag::CODES.iter().map(|c| c.code);
        let hint = did_you_mean(code, known)
            .map(|s| format!("; {s}"))
            .unwrap_or_default();
        diags.push(bad_value(
            config,
            &format!("lint.levels.{code}"),
            format!("`lint.levels` sets a level for `{code}`, which is no code auditbook reports{hint}"),
        ));
    }
    diags
}

/// A house-practice pattern that is not a regular expression, an empty section title. The
/// `where` expression is typed against check fields by lint (AB225), like `require_coverage`.
fn validate_require_sources(config: &Config) -> Vec<Diagnostic> {
    let Some(rs) = &config.require_sources else {
        return Vec::new();
    };
    let mut diags = Vec::new();
    if let Some(p) = &rs.house_practice {
        if let Err(e) = crate::text::patterns::compiled(p) {
            diags.push(bad_value(
                config,
                "require_sources.house_practice",
                format!("require_sources.house_practice is not a valid regular expression: {e}"),
            ));
        }
    }
    if rs.section.as_deref().is_some_and(|s| s.trim().is_empty()) {
        diags.push(bad_value(
            config,
            "require_sources.section",
            "require_sources.section is empty; expected a section title such as `References`"
                .into(),
        ));
    }
    diags
}

/// Negative weights, fractions above one and undeclared severities in `scoring:`; unknown keys
/// are already serde's errors (AB120).
fn validate_scoring(config: &Config) -> Vec<Diagnostic> {
    let Some(scoring) = &config.scoring else {
        return Vec::new();
    };
    scoring
        .problems(&config.severities())
        .into_iter()
        .map(|(path, message)| {
            Diagnostic::new(&codes::SCORING_BAD_VALUE, message)
                .file(FILE_NAME)
                .line(config.positions.line_of(&path).unwrap_or(1))
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
    fn an_unknown_key_costs_only_itself() {
        let text = "name: x\ncategories:\n  - {prefix: ARCH, name: Architektur}\nblocking_severites: [critical]\nseverities: [critical, high]\n";
        let (c, d) = parse(text);
        let found: Vec<_> = d.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(found, [("AB121", Some(4))]);
        assert_eq!(
            d[0].help.as_deref(),
            Some("did you mean `blocking_severities`?")
        );
        assert_eq!(c.name.as_deref(), Some("x"));
        assert_eq!(c.categories.len(), 1);
        assert_eq!(c.severities().len(), 2);
    }

    #[test]
    fn a_type_error_drops_only_its_key() {
        let text =
            "name: x\nrequired_sections: 7\ncategories:\n  - {prefix: FID, name: Datentreue}\n";
        let (c, d) = parse(text);
        let found: Vec<_> = d.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(found, [("AB120", Some(2))]);
        assert!(c.required_sections.is_empty());
        assert_eq!(c.categories.len(), 1);
        // Twin: the same file with a list is silent and keeps the key.
        let (c, d) =
            parse(&text.replace("required_sections: 7", "required_sections: [Beschreibung]"));
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(c.required_sections, ["Beschreibung"]);
    }

    #[test]
    fn a_bad_list_item_costs_only_that_item() {
        let text = "categories:\n  - {prefix: ARCH, name: Architektur}\n  - prefix: FID\n    name: Datentreue\n    farbe: rot\n  - {prefix: SEC, name: Sicherheit}\nretired:\n  - {id: DRIFT-007, retired: 2026-08-07, merged_into: FID-006}\n  - {id: DRIFT-009}\n";
        let (c, d) = parse(text);
        let found: Vec<_> = d.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(found, [("AB120", Some(5)), ("AB120", Some(9))]);
        // The malformed category keeps its prefix: its checks are not undeclared on top.
        let prefixes: Vec<_> = c.categories.iter().map(|c| c.prefix.as_str()).collect();
        assert_eq!(prefixes, ["ARCH", "FID", "SEC"]);
        assert_eq!(c.retired.len(), 1);
    }

    #[test]
    fn repeated_key_and_links_block() {
        let (c, d) =
            parse("name: x\nname: y\nlinks:\n  bases: [https://github.com/o/r/blob/main/]\n");
        let found: Vec<_> = d.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(found, [("AB104", Some(2))]);
        assert_eq!(c.name.as_deref(), Some("x"));
        assert_eq!(c.link_bases(), ["https://github.com/o/r/blob/main/"]);
        let (c, d) = parse("name: x\nlinks:\n  base: [https://x/]\n");
        let found: Vec<_> = d.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(found, [("AB120", Some(3))]);
        assert!(d[0].message.contains("bases"), "{}", d[0].message);
        assert_eq!(c.name.as_deref(), Some("x"));
        let (_, d) = parse("links:\n  bases: https://x/\n");
        assert_eq!(d[0].code, "AB120");
        assert_eq!(d[0].line, Some(2));
    }

    #[test]
    fn clean_config_is_silent() {
        let (c, d) =
            parse("name: x\nversion: 1.0.0\ncategories:\n  - {prefix: FID, name: Data fidelity}\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(c.categories.len(), 1);
    }
}
