//! `catalogue.yaml` inferred from a catalogue in the compatibility layout: what the files
//! already say, written down so the engine can hold them to it. Everything uncertain (retired
//! ids, rule tables, claims) is offered as a commented entry for the maintainer to confirm.

use super::profile_schema::{self, Field};
use crate::model::Catalogue;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Spellings of `both` in the languages catalogues are written in.
const BOTH_ALIASES: &[(&str, &str)] = &[
    ("beide", "German"),
    ("beides", "German"),
    ("les deux", "French"),
    ("tous les deux", "French"),
    ("entrambi", "Italian"),
    ("ambedue", "Italian"),
];

/// A document next to the checks, for rule tables and claims.
pub struct Doc<'a> {
    /// Root-relative path.
    pub path: &'a str,
    pub text: &'a str,
}

fn q(s: &str) -> String {
    // A JSON string is a valid YAML double-quoted scalar.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn counted<'a>(items: impl IntoIterator<Item = &'a str>) -> BTreeMap<&'a str, usize> {
    let mut m = BTreeMap::new();
    for i in items {
        *m.entry(i).or_insert(0) += 1;
    }
    m
}

fn seen(m: &BTreeMap<&str, usize>) -> String {
    m.iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The inferred `catalogue.yaml`.
pub fn config(cat: &Catalogue, name: &str, docs: &[Doc<'_>]) -> String {
    let mut y = String::new();
    let checks = cat.checks_by_id();
    let _ = writeln!(
        y,
        "# catalogue.yaml inferred by `auditbook init --from-existing` from {} check file(s).\n\
         # Review each block; commented entries are offers to confirm, not facts.",
        checks.len() + cat.broken.len()
    );
    let _ = writeln!(y, "name: {}", q(name));
    let _ = writeln!(
        y,
        "version: 0.1.0                    # the catalogue's own version"
    );
    let _ = writeln!(y, "checks_dir: {}", q(cat.config.checks_dir()));
    let _ = writeln!(y);

    // Categories from the id prefixes.
    let by_cat = counted(checks.iter().map(|c| c.category.as_str()));
    let _ = writeln!(
        y,
        "categories:                       # from the id prefixes; give each its display name"
    );
    for prefix in &cat.categories {
        let n = by_cat.get(prefix.as_str()).copied().unwrap_or(0);
        let _ = writeln!(y, "  - prefix: {}", q(prefix));
        let _ = writeln!(y, "    name: {}    # {n} check(s)", q(prefix));
    }
    let _ = writeln!(y);

    // Vocabularies from the values observed.
    let sev = counted(checks.iter().map(|c| c.severity.as_str()));
    let mut severities: Vec<String> = ["critical", "high", "medium", "low"]
        .map(String::from)
        .to_vec();
    for s in sev.keys() {
        if !severities.iter().any(|x| x == s) {
            severities.push((*s).to_string());
        }
    }
    let _ = writeln!(
        y,
        "severities: [{}]   # closed; seen: {}",
        severities
            .iter()
            .map(|s| q(s))
            .collect::<Vec<_>>()
            .join(", "),
        seen(&sev)
    );
    let adoption = counted(checks.iter().map(|c| c.adoption.as_str()));
    let _ = writeln!(
        y,
        "# adoption is closed by the format (enforced, advisory); seen: {}",
        seen(&adoption)
    );
    let base = counted(checks.iter().map(|c| c.spec_baseline.as_str()));
    let aliases = counted(
        checks
            .iter()
            .filter_map(|c| c.rare.as_ref()?.spec_baseline_alias.as_deref()),
    );
    let mut values: Vec<String> = ["2025-11-25", "2026-07-28", "both"]
        .map(String::from)
        .to_vec();
    for b in base.keys() {
        if !values.iter().any(|v| v == b) {
            values.push((*b).to_string());
        }
    }
    let _ = writeln!(
        y,
        "spec_baselines:                   # closed; seen: {}",
        seen(&base)
    );
    let _ = writeln!(
        y,
        "  values: [{}]",
        values.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(y, "  default: both");
    let _ = writeln!(y, "  universal: both");
    if aliases.is_empty() {
        let _ = writeln!(y, "  aliases: {{}}");
    } else {
        let _ = writeln!(y, "  aliases:");
        for (a, n) in &aliases {
            let lang = BOTH_ALIASES
                .iter()
                .find(|(x, _)| x == a)
                .map(|(_, l)| format!("{l} for `both`, "))
                .unwrap_or_default();
            let _ = writeln!(y, "    {}: both    # {lang}written in {n} check(s)", q(a));
        }
    }
    let _ = writeln!(y, "  profile_field: mcp_spec_version");
    let ev = counted(checks.iter().map(|c| c.evidence_required).map(|n| match n {
        0 => "0",
        1 => "1",
        2 => "2",
        3 => "3",
        _ => "more than 3",
    }));
    let _ = writeln!(
        y,
        "# evidence_required: the format's default is 1 observation; seen: {}{}",
        seen(&ev),
        match ev.iter().max_by_key(|(_, n)| **n) {
            Some((k, _)) if *k != "1" =>
                format!(" (most checks ask for {k}: write it in each check that omits it)"),
            _ => String::new(),
        }
    );
    let _ = writeln!(y);

    // Sections every check has.
    let total = checks.len();
    let mut order: Vec<String> = Vec::new();
    let mut have: BTreeMap<String, usize> = BTreeMap::new();
    for c in &checks {
        let mut mine = BTreeSet::new();
        for s in c.sections.iter() {
            let t = s.title.to_string();
            if mine.insert(t.clone()) {
                *have.entry(t.clone()).or_insert(0) += 1;
                if !order.contains(&t) {
                    order.push(t);
                }
            }
        }
    }
    let _ = writeln!(
        y,
        "required_sections:                # the sections all {total} checks have"
    );
    for s in order.iter().filter(|s| have.get(*s) == Some(&total)) {
        let _ = writeln!(y, "  - {}", q(s));
    }
    let others: Vec<String> = order
        .iter()
        .filter(|s| have.get(*s) != Some(&total))
        .map(|s| format!("{s} ({}/{total})", have.get(s).copied().unwrap_or(0)))
        .collect();
    if !others.is_empty() {
        let _ = writeln!(
            y,
            "# also written, not in every check: {}",
            others.join(", ")
        );
    }
    let _ = writeln!(y, "extra_fields: []");
    let _ = writeln!(y);

    // Retired candidates.
    let candidates = retired_candidates(cat);
    if candidates.is_empty() {
        let _ = writeln!(y, "retired: []");
    } else {
        let _ = writeln!(
            y,
            "# Ids the checks mention but no file defines: retired numbers? Confirm each with its\n\
             # date and successor (or delete the line), then move it under `retired:`.\n\
             retired: []"
        );
        for (id, files) in &candidates {
            let _ = writeln!(
                y,
                "#  - {{id: {id}, retired: \"YYYY-MM-DD\", merged_into: ID, reason: \"…\"}}   # retired candidate; mentioned in {}",
                files.iter().cloned().collect::<Vec<_>>().join(", ")
            );
        }
    }
    let _ = writeln!(y);

    // The profile schema.
    let fields = profile_schema::infer(
        checks
            .iter()
            .map(|c| (c.id.as_str(), c.applies_when.as_str())),
    );
    profile_block(&mut y, &fields);

    // Rules, documents and claims: offers.
    let _ = writeln!(y);
    let _ = writeln!(y, "rules:");
    let _ = writeln!(y, "  dir: rules");
    let tables = rule_tables(docs);
    if !tables.is_empty() {
        let _ = writeln!(
            y,
            "  # Tables that map numbered rules to linked checks; uncomment to read them as rules."
        );
        let _ = writeln!(y, "  # tables:");
        for t in &tables {
            let _ = writeln!(
                y,
                "  #   - {{doc: {}, section: {}, rule_column: {}, checks_column: {}, rule_prefix: RULE}}",
                q(&t.0),
                q(&t.1),
                t.2,
                t.3
            );
        }
    }
    let claims = count_claims(docs, checks.len());
    if !claims.is_empty() {
        let _ = writeln!(y);
        let _ = writeln!(
            y,
            "# Documents that state the catalogue's size; uncomment to hold them to it."
        );
        let mut paths: Vec<&str> = claims.iter().map(|c| c.0.as_str()).collect();
        paths.dedup();
        let _ = writeln!(
            y,
            "# docs: [{}]",
            paths.iter().map(|p| q(p)).collect::<Vec<_>>().join(", ")
        );
        let _ = writeln!(y, "# claims:");
        for (i, (doc, pattern, written)) in claims.iter().enumerate() {
            let _ = writeln!(
                y,
                "#   - name: check-count-{}      # the document says {written}",
                i + 1
            );
            let _ = writeln!(y, "#     doc: {}", q(doc));
            let _ = writeln!(y, "#     pattern: '{}'", pattern.replace('\'', "''"));
            let _ = writeln!(y, "#     expect: {{total: count(checks)}}");
        }
    }
    y
}

fn profile_block(y: &mut String, fields: &BTreeMap<String, Field>) {
    if fields.is_empty() {
        let _ = writeln!(
            y,
            "# No applies_when expression reads a profile field: no profile schema to infer."
        );
        return;
    }
    let _ = writeln!(
        y,
        "profile:                          # every field the applies_when expressions read"
    );
    let _ = writeln!(y, "  fields:");
    for (name, f) in fields {
        let readers: Vec<&str> = f.readers.iter().map(String::as_str).take(4).collect();
        let more = f.readers.len().saturating_sub(readers.len());
        let by = if more > 0 {
            format!("{} and {more} more", readers.join(", "))
        } else {
            readers.join(", ")
        };
        let conflict = if f.uses.len() > 1 {
            format!(
                "; used as {} — settle one type",
                f.uses.iter().copied().collect::<Vec<_>>().join(" and ")
            )
        } else {
            String::new()
        };
        let _ = writeln!(y, "    {}:    # read by {by}{conflict}", q(name));
        let _ = writeln!(y, "      type: {}", f.ty());
        if f.ty() != "bool" && !f.values.is_empty() {
            let _ = writeln!(
                y,
                "      values: [{}]",
                f.values.iter().map(|v| q(v)).collect::<Vec<_>>().join(", ")
            );
            if f.closed() {
                let _ = writeln!(y, "      # closed: the values the expressions compare against; any other is an error");
            } else {
                let _ = writeln!(
                    y,
                    "      open: true    # known examples only: other values are valid"
                );
            }
        }
    }
}

/// Ids mentioned in checks that no file defines, with the files that mention them. A token
/// counts when its prefix is a category, or when its number is zero-padded like the
/// catalogue's own (`DRIFT-007`, not `SHA-256`). Fenced code is an example, not a mention.
fn retired_candidates(cat: &Catalogue) -> BTreeMap<String, BTreeSet<String>> {
    let Ok(token) = Regex::new(r"\b([A-Z]{2,6})-(\d{3})\b") else {
        return BTreeMap::new();
    };
    let id_re = cat.config.id_regex();
    let known = cat.known_ids();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in &cat.checks {
        let Some(text) = c.text() else { continue };
        let mut fence: Option<&str> = None;
        for line in text.lines() {
            let t = line.trim_start();
            if let Some(f) = fence {
                if t.starts_with(f) {
                    fence = None;
                }
                continue;
            }
            if t.starts_with("```") || t.starts_with("~~~") {
                fence = Some(if t.starts_with("```") { "```" } else { "~~~" });
                continue;
            }
            for caps in token.captures_iter(line) {
                let (Some(whole), Some(prefix), Some(num)) =
                    (caps.get(0), caps.get(1), caps.get(2))
                else {
                    continue;
                };
                let id = whole.as_str();
                let padded = num.as_str().starts_with('0');
                if known.contains(id)
                    || !id_re.is_match(id)
                    || !(padded || cat.is_category(prefix.as_str()))
                {
                    continue;
                }
                out.entry(id.to_string())
                    .or_default()
                    .insert(c.file.to_string());
            }
        }
    }
    out
}

/// (doc, section, rule column, checks column) of tables whose rows pair a leading number with
/// links to check files.
fn rule_tables(docs: &[Doc<'_>]) -> Vec<(String, String, usize, usize)> {
    let (Ok(number), Ok(link)) = (
        Regex::new(r"^[^0-9A-Za-z]*\d+"),
        Regex::new(r"\]\([^)]*checks/[A-Z]{2,6}-\d{3}\.md"),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in docs {
        let mut section = String::new();
        let mut hits: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let flush =
            |section: &str, hits: &mut BTreeMap<(usize, usize), usize>, out: &mut Vec<_>| {
                if let Some(((r, c), _)) = hits
                    .iter()
                    .filter(|(_, n)| **n >= 2)
                    .max_by_key(|(_, n)| **n)
                {
                    out.push((d.path.to_string(), section.to_string(), r + 1, c + 1));
                }
                hits.clear();
            };
        for line in d.text.lines() {
            if let Some(h) = line.strip_prefix('#') {
                flush(&section, &mut hits, &mut out);
                section = h.trim_start_matches('#').trim().to_string();
                continue;
            }
            if !line.trim_start().starts_with('|') {
                continue;
            }
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
            let Some(r) = cells.iter().position(|c| number.is_match(c.trim())) else {
                continue;
            };
            if let Some(c) = cells.iter().position(|c| link.is_match(c)) {
                *hits.entry((r, c)).or_insert(0) += 1;
            }
        }
        flush(&section, &mut hits, &mut out);
    }
    out
}

/// (doc, pattern, the sentence's number) for each document sentence that counts checks.
fn count_claims(docs: &[Doc<'_>], _total: usize) -> Vec<(String, String, String)> {
    let Ok(re) = Regex::new(r"\b(\d+) (checks|Checks|Prüfungen|Prüfpunkte|contrôles|controlli)\b")
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in docs {
        if let Some(c) = re.captures(d.text) {
            let (Some(n), Some(word)) = (c.get(1), c.get(2)) else {
                continue;
            };
            out.push((
                d.path.to_string(),
                format!(r"(?P<total>\d+) {}", word.as_str()),
                format!("{} {}", n.as_str(), word.as_str()),
            ));
        }
    }
    out
}
