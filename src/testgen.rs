//! Synthetic catalogues for benchmarks and robustness tests: N checks over twelve
//! categories with bodies of realistic size (sections, links, mentions, a table, a code
//! block), rules, a retired ledger, documents with generated regions and claims, and server
//! profiles. Deterministic: the same arguments give the same files. Not part of the CLI.

use std::fmt::Write as _;
use std::path::Path;

pub const CATEGORIES: &[(&str, &str)] = &[
    ("ARCH", "Architecture"),
    ("CH", "Swiss compliance"),
    ("DEP", "Dependencies"),
    ("DRIFT", "Source drift"),
    ("FID", "Data fidelity"),
    ("HITL", "Human in the loop"),
    ("IDENT", "Identity and versioning"),
    ("OBS", "Observability"),
    ("OPS", "Operations"),
    ("SCALE", "Scaling and deployment"),
    ("SDK", "SDK usage"),
    ("SEC", "Security"),
];

const SEVERITIES: &[&str] = &["critical", "high", "high", "medium", "medium", "low"];
const EXPRESSIONS: &[&str] = &[
    "always",
    "tools_make_external_requests == true",
    "transport != \"stdio-only\"",
    "is_cloud_deployed == true and data_class != \"Public Open Data\"",
    "auth_model == \"OAuth-Proxy\" or auth_model == \"API-Key\"",
    "deployment.includes(\"Railway\") or deployment.includes(\"Render\")",
    "sdk_language == \"Python\" and (transport == \"HTTP/SSE\" or transport == \"dual\")",
    "write_capable == true",
    "data_source.is_swiss_open_data == true",
];

/// Body size: `Realistic` is about the size of the shipped checks (3–4 KB), `Short` a few
/// lines (for very large catalogues).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    Realistic,
    Short,
    /// Realistic with long descriptions: about 8 KB a check, as long as the shipped and the
    /// real German catalogue's checks (120 of them make about 1 MB of Markdown).
    Heavy,
}

/// A small deterministic generator (xorshift), so no dependency and no run-to-run change.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The id of check `i` (0-based): categories take turns, numbers grow. Three digits, as in
/// real catalogues, more once a category passes 999 (see `ID_PATTERN`).
pub fn id_of(i: usize) -> String {
    let (prefix, _) = CATEGORIES[i % CATEGORIES.len()];
    format!("{prefix}-{:03}", i / CATEGORIES.len() + 1)
}

/// Wide enough for a category with more than 999 checks.
const ID_PATTERN: &str = r"'^[A-Z]{2,6}-\d{3,5}$'";

const PROFILE_SCHEMA: &str = r#"profile:
  fields:
    transport: {type: string, values: [stdio-only, dual, HTTP/SSE]}
    sdk_language: {type: string, values: [Python, TypeScript], open: true}
    mcp_spec_version: {type: string, values: ["2025-11-25", "2026-07-28"], required: false}
    auth_model: {type: string, values: [none, API-Key, OAuth-Proxy, OIDC], open: true}
    data_class: {type: string, values: [Public Open Data, Verwaltungsdaten, PII], open: true}
    write_capable: {type: bool}
    deployment: {type: list, values: [local-stdio, Railway, Render, Kubernetes, Docker, andere], open: true}
    is_cloud_deployed:
      type: bool
      derived: {any_other_than: {field: deployment, values: [local-stdio]}}
    tools_make_external_requests: {type: bool}
    data_source.is_swiss_open_data: {type: bool}
"#;

// Writes with plain `fs::write`, deliberately not through `crate::write`: it fills a fresh
// folder the caller just made (benchmarks, tests) with up to 100,000 files, where a flush to disk
// per file would cost minutes and there is nothing to protect.
/// Write a catalogue of `n` checks into `dir` (which must exist and be empty).
pub fn generate(dir: &Path, n: usize, body: Body) -> std::io::Result<()> {
    let checks = dir.join("checks");
    let rules = dir.join("rules");
    std::fs::create_dir_all(&checks)?;
    std::fs::create_dir_all(&rules)?;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ n as u64);

    // Every 40th check is retired (its number burned, its file absent) into the next one.
    let retired: Vec<usize> = (0..n)
        .filter(|i| i % 40 == 39 && i + CATEGORIES.len() < n)
        .collect();
    let live: Vec<usize> = (0..n).filter(|i| !retired.contains(i)).collect();

    let mut config = String::new();
    let _ = writeln!(
        config,
        "name: generated\nversion: 1.0.0\nid_pattern: {ID_PATTERN}\ncategories:"
    );
    for (p, name) in CATEGORIES {
        let _ = writeln!(config, "  - {{prefix: {p}, name: {name}}}");
    }
    let _ = writeln!(config, "required_sections: [Description, Verification, Pass Criteria, Common Failures, Remediation, Effort, References]");
    let _ = writeln!(config, "retired:");
    for &i in &retired {
        let _ = writeln!(
            config,
            "  - {{id: {}, retired: \"2026-01-01\", merged_into: {}, reason: \"merged\"}}",
            id_of(i),
            id_of(i + CATEGORIES.len())
        );
    }
    config.push_str(PROFILE_SCHEMA);
    let _ = writeln!(config, "rules:\n  dir: rules\nrequire_coverage:\n  - 'category == \"FID\" and severity == \"critical\"'\ndocs: [README.md]");
    std::fs::write(dir.join("catalogue.yaml"), config)?;

    let mut manifest = String::from("# generated\n");
    for &i in &live {
        let id = id_of(i);
        let _ = writeln!(manifest, "{id}");
        let text = check_text(&id, i, n, &live, &mut rng, body);
        std::fs::write(checks.join(format!("{id}.md")), text)?;
    }
    std::fs::write(checks.join("MANIFEST.txt"), manifest)?;

    // One rule per ten live checks, each mapping two or three of them; every critical FID
    // check is covered so require_coverage holds.
    let mut rule_no = 0;
    for chunk in live.chunks(10) {
        rule_no += 1;
        let mapped: Vec<String> = chunk.iter().take(3).map(|&i| id_of(i)).collect();
        let critical_fid: Vec<String> = chunk
            .iter()
            .filter(|&&i| {
                CATEGORIES[i % CATEGORIES.len()].0 == "FID"
                    && SEVERITIES[i % SEVERITIES.len()] == "critical"
            })
            .map(|&i| id_of(i))
            .filter(|id| !mapped.contains(id))
            .collect();
        let all: Vec<String> = mapped.into_iter().chain(critical_fid).collect();
        let links: String = all
            .iter()
            .map(|id| format!("- [{id}](../checks/{id}.md)\n"))
            .collect();
        let text = format!(
            "---\nid: RULE-{rule_no}\ntitle: \"Generated rule {rule_no}\"\nchecks: [{}]\ncoverage: partial\n---\n\n# RULE-{rule_no}\n\n## Rule\n\nA generated rule.\n\n## How the checks enforce it\n\n{links}",
            all.join(", ")
        );
        std::fs::write(rules.join(format!("RULE-{rule_no}.md")), text)?;
    }

    let readme = "# Generated catalogue\n\n## Counts\n\n<!-- auditbook:begin category-counts -->\n<!-- auditbook:end category-counts -->\n\n## Severities\n\n<!-- auditbook:begin severity-counts -->\n<!-- auditbook:end severity-counts -->\n";
    std::fs::write(dir.join("README.md"), readme)?;

    let profiles = dir.join("profiles");
    std::fs::create_dir_all(&profiles)?;
    for p in 0..50 {
        std::fs::write(profiles.join(format!("p{p:02}.yaml")), profile_text(p))?;
    }
    Ok(())
}

/// Add `n` declared claims to a catalogue `generate` wrote, every form in turn: a sentence
/// with a count, a whole category table (counts, severity profiles, a total row), a per-line
/// range held by `$GROUP` comparisons, and a policy with no document. The numbers are the
/// loaded catalogue's, so `verify` finds nothing; `CLAIMS.md` holds one section per claim.
pub fn add_claims(dir: &Path, n: usize) -> std::io::Result<()> {
    let loaded = crate::load::load(dir).map_err(|e| std::io::Error::other(format!("{e:?}")))?;
    let cat = &loaded.catalogue;
    let count = |p: &str| cat.checks.iter().filter(|c| c.category == p).count();
    let severities = ["critical", "high", "medium", "low"];
    let profile = |p: &str| {
        let parts: Vec<String> = severities
            .iter()
            .filter_map(|s| {
                let k = cat
                    .checks
                    .iter()
                    .filter(|c| c.category == p && c.severity == *s)
                    .count();
                (k > 0).then(|| format!("{k} {s}"))
            })
            .collect();
        if parts.is_empty() {
            "—".to_string()
        } else {
            parts.join(" · ")
        }
    };
    let mut doc = String::from("# Claims\n\nWhat this catalogue says about itself.\n");
    let mut yaml = String::from("claims:\n");
    for k in 0..n {
        let (p, _) = CATEGORIES[k % CATEGORIES.len()];
        let section = format!("Claim {k}");
        match k % 4 {
            0 => {
                let _ = write!(
                    doc,
                    "\n## {section}\n\nThe category {p} holds {} checks.\n",
                    count(p)
                );
                let _ = write!(yaml, "  - name: c{k}\n    doc: CLAIMS.md\n    section: \"{section}\"\n    pattern: 'category {p} holds (?P<n>\\d+) checks'\n    expect:\n      n: count(checks where category == \"{p}\")\n");
            }
            1 => {
                let _ = write!(
                    doc,
                    "\n## {section}\n\n| Category | Checks | Severities |\n|---|---:|---|\n"
                );
                for (q, _) in CATEGORIES {
                    let _ = writeln!(doc, "| {q} | {} | {} |", count(q), profile(q));
                }
                let _ = writeln!(doc, "| **Total** | **{}** | |", cat.checks.len());
                let _ = write!(yaml, "  - name: c{k}\n    doc: CLAIMS.md\n    section: \"{section}\"\n    table:\n      keys: ids(categories)\n      total: Total\n      columns:\n        Checks: count(checks where category == $key)\n        Severities: profile(severity, checks where category == $key)\n");
            }
            2 => {
                let c = count(p);
                let _ = write!(
                    doc,
                    "\n## {section}\n\n- {p}: {}–{} | {c}\n",
                    c.saturating_sub(2),
                    c + 3
                );
                let _ = write!(yaml, "  - name: c{k}\n    doc: CLAIMS.md\n    section: \"{section}\"\n    pattern: '(?m)^- (?P<cat>\\w+): (?P<lo>\\d+)–(?P<hi>\\d+) \\| (?P<n>\\d+)'\n    expect:\n      n: count(checks where category == $cat)\n      lo: '<= $n'\n      hi: '>= $n'\n");
            }
            _ => {
                let _ = write!(yaml, "  - name: c{k}\n    holds: 'count(checks where category == \"{p}\") * {} <= count(checks) + {}'\n", CATEGORIES.len() / 2, cat.checks.len());
            }
        }
    }
    std::fs::write(dir.join("CLAIMS.md"), doc)?;
    let config = std::fs::read_to_string(dir.join("catalogue.yaml"))?;
    std::fs::write(dir.join("catalogue.yaml"), format!("{config}{yaml}"))
}

/// Server profile number `p` of 50: every combination class appears.
pub fn profile_text(p: usize) -> String {
    let transport = ["stdio-only", "dual", "HTTP/SSE"][p % 3];
    let sdk = ["Python", "TypeScript", "Go"][p % 3];
    let auth = ["none", "API-Key", "OAuth-Proxy", "OIDC"][p % 4];
    let class = ["Public Open Data", "Verwaltungsdaten", "PII"][p % 3];
    let deployment = [
        r#"[local-stdio]"#,
        r#"[Railway]"#,
        r#"[Kubernetes, Docker]"#,
        r#"[Render]"#,
    ][p % 4];
    let cloud = !p.is_multiple_of(4);
    format!(
        "transport: {transport}\nsdk_language: {sdk}\nmcp_spec_version: \"{}\"\nauth_model: {auth}\ndata_class: {class}\nwrite_capable: {}\ndeployment: {deployment}\nis_cloud_deployed: {cloud}\ntools_make_external_requests: {}\ndata_source:\n  is_swiss_open_data: {}\n",
        ["2025-11-25", "2026-07-28"][p % 2],
        p.is_multiple_of(5),
        p.is_multiple_of(2),
        p.is_multiple_of(7),
    )
}

fn check_text(id: &str, i: usize, n: usize, live: &[usize], rng: &mut Rng, body: Body) -> String {
    let (category, _) = CATEGORIES[i % CATEGORIES.len()];
    let severity = SEVERITIES[i % SEVERITIES.len()];
    let expr = EXPRESSIONS[i % EXPRESSIONS.len()];
    let baseline = match i % 20 {
        0 => "\"2025-11-25\"",
        1 | 2 => "\"2026-07-28\"",
        _ => "both",
    };
    let adoption = if i % 5 == 4 { "advisory" } else { "enforced" };
    let evidence = 1 + i % 3;
    let mut out = format!(
        "---\nid: {id}\ntitle: \"Generated check {i} about {category}\"\ncategory: {category}\nseverity: {severity}\napplies_when: '{expr}'\nspec_baseline: {baseline}\nadoption: {adoption}\nevidence_required: {evidence}\n---\n\n# {id} — Generated check {i}\n\n"
    );
    let pick = |rng: &mut Rng| id_of(live[rng.below(live.len())]);
    let related: Vec<String> = (0..3).map(|_| pick(rng)).filter(|r| r != id).collect();
    let mention = pick(rng);
    let paragraphs = match body {
        Body::Realistic => 3,
        Body::Short => 0,
        Body::Heavy => 24,
    };
    let filler = "The server must keep this property under every input it accepts, and an auditor records the file and line that show it. A failure here is observable from the outside and costs the caller a wrong answer that looks right.";
    out.push_str("## Description\n\n");
    for _ in 0..paragraphs {
        let _ = writeln!(
            out,
            "{filler} See `{mention}` for the neighbouring concern.\n"
        );
    }
    if body == Body::Short {
        let _ = writeln!(out, "Short body for check {i} of {n}; see {mention}.\n");
    }
    out.push_str("## Verification\n\n");
    if body != Body::Short {
        out.push_str("### Code review\n\n1. Search the handlers:\n\n```bash\ngrep -rn \"get(\" src/ | grep -v test\n## not a heading inside code\n```\n\n2. Compare the result with the declared contract (SHA-256 digests are not ids).\n\n### Runtime test\n\n1. Call the tool with a known input and record the response.\n2. Repeat with a negative control.\n\n");
    } else {
        out.push_str("Read the code.\n\n");
    }
    out.push_str("## Pass Criteria\n\n- [ ] The property holds on the happy path.\n- [ ] A negative control fails as expected.\n");
    if body != Body::Short {
        out.push_str("- [ ] The evidence names file and line.\n");
    }
    out.push_str("\n## Common Failures\n\n| Anti-pattern | Risk |\n|---|---|\n| Silent default | Wrong answer that looks right |\n");
    if body != Body::Short {
        out.push_str("| Swallowed error | An empty result where an error was due |\n| Untested fallback | Drift goes unnoticed |\n");
    }
    out.push_str("\n## Remediation\n\n");
    if body != Body::Short {
        out.push_str("Before:\n\n```python\nrows = payload.get(\"rows\", [])\n```\n\nAfter:\n\n```python\nrows = payload[\"rows\"]\n```\n\n");
        let _ = writeln!(out, "{filler}\n");
    } else {
        out.push_str("Fix it.\n\n");
    }
    out.push_str("## Effort\n\nS — a local change.\n\n## References\n\n");
    for r in &related {
        let _ = writeln!(out, "- [{r}](../checks/{r}.md) — related.");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_catalogue_lints_clean() {
        let dir = tempfile::tempdir().unwrap();
        generate(dir.path(), 300, Body::Realistic).unwrap();
        let loaded = crate::load::load(dir.path()).unwrap();
        let graph = crate::graph::Graph::build(&loaded.catalogue);
        let mut diags = loaded.diagnostics.clone();
        diags.extend(crate::lint::run(&loaded.catalogue, &graph));
        let loud: Vec<_> = diags
            .iter()
            .filter(|d| d.level != crate::diag::Level::Note)
            .collect();
        assert!(loud.is_empty(), "{loud:#?}");
        assert_eq!(loaded.catalogue.checks.len(), 300 - 7);
    }

    #[test]
    fn generated_claims_verify_clean() {
        let dir = tempfile::tempdir().unwrap();
        generate(dir.path(), 120, Body::Short).unwrap();
        add_claims(dir.path(), 40).unwrap();
        let loaded = crate::load::load(dir.path()).unwrap();
        assert_eq!(loaded.catalogue.config.claims.len(), 40);
        let graph = crate::graph::Graph::build(&loaded.catalogue);
        let templates = crate::render::templates::Templates::new(None).unwrap();
        let loud: Vec<_> = crate::claims::verify(&loaded.catalogue, &graph, &templates)
            .into_iter()
            .filter(|d| d.level != crate::diag::Level::Note && !d.code.starts_with("AB601"))
            .collect();
        assert!(loud.is_empty(), "{loud:#?}");
    }
}
