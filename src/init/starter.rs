//! The starter catalogue: one category, one check with every standard section, a rule, and a
//! README with a generated region and a claim, all of which lint clean. `catalogue.yaml` says
//! on each line what the line does.

/// Files of the starter, root-relative, in the order they are written.
pub fn files(name: &str) -> Vec<(&'static str, String)> {
    vec![
        ("catalogue.yaml", config(name)),
        ("checks/MANIFEST.txt", MANIFEST.to_string()),
        ("checks/CORE-001.md", CHECK.to_string()),
        ("rules/CORE-R1.md", RULE.to_string()),
        ("README.md", readme(name)),
    ]
}

fn config(name: &str) -> String {
    let name = serde_json::to_string(name).unwrap_or_else(|_| "\"catalogue\"".into());
    format!(
        r#"# catalogue.yaml: what this catalogue declares; auditbook checks every file against it.
name: {name}                      # shown in reports, schemas and the site
version: 0.1.0                    # the catalogue's own version; results files record it
checks_dir: checks                # one Markdown file per check, named after its id
id_pattern: '^[A-Z]{{2,6}}-\d{{3}}$'  # what a check id looks like (prefix, dash, three digits)

categories:                       # the id prefixes, in display order
  - prefix: CORE                  # CORE-001, CORE-002, …
    name: Core practice           # the category's display name
    description: Practices every server follows, whatever it does.

severities: [critical, high, medium, low]   # most severe first
blocking_severities: [critical, high]       # an enforced failure of these blocks production readiness

required_sections:                # the `## ` sections every check must have, in this order
  - Description
  - Verification
  - Pass Criteria
  - Common Failures
  - Remediation
  - Effort
  - References

extra_fields: []                  # further frontmatter keys a check may hold (none: a typo is an error)

retired: []                       # burned ids: `auditbook retire` records them here, never reused

profile:                          # the fields a server profile gives; applies_when reads them
  fields:
    transport:                    # how clients reach the server
      type: string
      values: [stdio-only, dual, HTTP/SSE]  # closed: any other value is an error
    write_capable:                # whether a tool changes state outside the server
      type: bool

rules:                            # rules and the checks that enforce them
  dir: rules                      # one Markdown file per rule

docs: [README.md]                 # documents `auditbook verify` holds to the catalogue

claims:                           # sentences in documents that must stay true
  - name: check-count             # shown in findings
    doc: README.md                # the document the sentence is in
    pattern: 'holds (?P<total>\d+) checks?'   # a regular expression with named groups
    expect:
      total: count(checks)        # what each group must equal
"#
    )
}

const MANIFEST: &str =
    "# One check id per line; `auditbook new` and `auditbook retire` keep it current.\nCORE-001\n";

const CHECK: &str = r#"---
id: CORE-001
title: "Every tool states what it returns when nothing matches"
category: CORE
severity: medium
applies_when: 'always'
spec_baseline: both
adoption: enforced
evidence_required: 1
---

# CORE-001 — Every tool states what it returns when nothing matches

## Description

An empty answer is ambiguous: nothing exists, or the query was wrong. A tool says which, and what
the caller can try next.

## Verification

Call every tool with a query that matches nothing and read the result.

## Pass Criteria

- [ ] An empty result names the query it answered.
- [ ] It suggests a next step (a broader query, a related tool).

## Common Failures

- An empty list with no text at all.

## Remediation

Return a short message with the query and a next step whenever a result is empty.

## Effort

S — one helper used by every tool.

## References

House practice: written for this starter catalogue.
"#;

const RULE: &str = r#"---
id: CORE-R1
title: "Answers say what they are about"
checks: [CORE-001]
coverage: full
source: "starter catalogue"
---

# CORE-R1 — Answers say what they are about

## Rule

A caller can tell from any answer which question it answers.

## How the checks enforce it

[CORE-001](../checks/CORE-001.md) holds the empty case to it.
"#;

fn readme(name: &str) -> String {
    format!(
        r#"# {name}

This catalogue holds 1 check. The table below is generated: `auditbook sync` rewrites it and
`auditbook verify` fails when it is stale.

<!-- auditbook:begin category-counts -->
<!-- auditbook:end category-counts -->

Start with `auditbook lint --verify`, add checks with `auditbook new CORE --title "…"`.
"#
    )
}
