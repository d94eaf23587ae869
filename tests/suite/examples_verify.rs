//! Example inputs under `verify` (`examples:` in catalogue.yaml), portfolio entries written like
//! the real catalogue's (`repo`, `path`, `ignore`, keys for other tooling), and the note on a
//! vocabulary value no applies_when compares. Each defect is caught with its code and line;
//! its clean twin is silent.

use crate::common;

use common::{findings_in, loud_in, Fixture};
use serde_json::Value;

const PORTFOLIO: &str = "beispiele/portfolio.yaml";
const PROFILE: &str = "beispiele/schulamt.profile.yaml";

/// (code, file, line) of every error and warning, sorted.
fn loud(v: &Value) -> Vec<(String, String, u64)> {
    let mut l: Vec<(String, String, u64)> = loud_in(v)
        .into_iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["file"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    l.sort();
    l
}

fn verify(f: &Fixture) -> (Value, i32) {
    f.json_and_code(&["verify", "--format", "json"])
}

#[test]
fn the_declared_examples_of_the_german_fixture_are_silent() {
    let f = Fixture::new("compat-de-claims");
    let (v, code) = verify(&f);
    assert_eq!(loud(&v), [], "{v:#}");
    assert!(findings_in(&v, "AB511").is_empty(), "{v:#}");
    assert_eq!(code, 0);
    let (v, code) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
    assert_eq!(loud(&v), [], "{v:#}");
    assert_eq!(code, 0);
}

/// One planted defect per kind: (what, file, from, to, the errors of `verify`).
type Found = &'static [(&'static str, &'static str, u64)];
const MUTATIONS: &[(&str, &str, &str, &str, Found)] = &[
    (
        "an inline profile of the portfolio with a value outside the vocabulary",
        PORTFOLIO,
        "transport: dual ",
        "transport: duplex ",
        &[("AB505", PORTFOLIO, 13)],
    ),
    (
        "a flow-mapping profile with a misspelt field",
        PORTFOLIO,
        "{transport: \"stdio-only\", tools_make_external_requests: false}",
        "{transport: \"stdio-only\", tool_makes_external_requests: false}",
        &[("AB502", PORTFOLIO, 24), ("AB506", PORTFOLIO, 24)],
    ),
    (
        "the example profile with a quoted boolean (read once, though the portfolio names it too)",
        PROFILE,
        "tools_make_external_requests: false",
        "tools_make_external_requests: \"false\"",
        &[("AB504", PROFILE, 3)],
    ),
    (
        "the example profile with a value outside the vocabulary",
        PROFILE,
        "transport: 'HTTP/SSE'",
        "transport: 'HTTP'",
        &[("AB505", PROFILE, 2)],
    ),
    (
        "a portfolio entry naming a profile file that does not exist",
        PORTFOLIO,
        "profile: schulamt.profile.yaml",
        "profile: fehlt.profile.yaml",
        &[("AB510", PORTFOLIO, 19)],
    ),
    (
        "a portfolio entry with `repo` that is not a string",
        PORTFOLIO,
        "repo: 'https://github.com/beispiel-amt/parlament-mcp'",
        "repo: [parlament-mcp]",
        &[("AB510", PORTFOLIO, 17)],
    ),
    (
        "a declared example that does not exist",
        "catalogue.yaml",
        "profiles: [beispiele/schulamt.profile.yaml]",
        "profiles: [beispiele/fehlt.profile.yaml]",
        &[("AB001", "catalogue.yaml", 133)],
    ),
    (
        "a declared example outside the repository",
        "catalogue.yaml",
        "    - beispiele/portfolio.yaml",
        "    - /etc/passwd",
        &[("AB010", "catalogue.yaml", 135)],
    ),
    (
        "a portfolio declared as a profile",
        "catalogue.yaml",
        "profiles: [beispiele/schulamt.profile.yaml]",
        "profiles: [beispiele/portfolio.yaml]",
        &[("AB501", PORTFOLIO, 9)],
    ),
];

#[test]
fn each_planted_defect_in_an_example_is_caught_with_code_and_line() {
    for (what, file, from, to, want) in MUTATIONS {
        let f = Fixture::new("compat-de-claims");
        f.edit(file, from, to);
        let (v, code) = verify(&f);
        let want: Vec<(String, String, u64)> = want
            .iter()
            .map(|(c, file, n)| (c.to_string(), file.to_string(), *n))
            .collect();
        assert_eq!(loud(&v), want, "{what}: {v:#}");
        assert_eq!(code, 1, "{what}");
        // `lint --verify` sees the same defects.
        let (v, _) = f.json_and_code(&["lint", "--verify", "--format", "json"]);
        for w in &want {
            assert!(loud(&v).contains(w), "{what}: lint --verify: {v:#}");
        }
    }
}

#[test]
fn an_unknown_key_of_a_portfolio_entry_is_a_note_with_a_suggestion() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        PORTFOLIO,
        "path: openparldata-mcp",
        "paht: openparldata-mcp",
    );
    let (v, code) = verify(&f);
    assert_eq!(loud(&v), [], "{v:#}");
    assert_eq!(code, 0);
    let notes: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "AB511")
        .collect();
    assert_eq!(notes.len(), 1, "{v:#}");
    assert_eq!(notes[0]["level"], "note");
    assert_eq!(notes[0]["file"], PORTFOLIO);
    assert_eq!(notes[0]["line"], 18);
    assert!(notes[0]["message"].as_str().unwrap().contains("`paht`"));
    assert_eq!(notes[0]["help"], "did you mean `path`?");
}

/// The shipped examples with a portfolio written like the real one: `repo`, `path`, `ignore`
/// and a key for other tooling. The server with results keeps its verdict; the sources are
/// in every format of the report.
#[test]
fn a_portfolio_with_source_keys_keeps_its_verdicts_and_shows_the_sources() {
    let f = Fixture::shipped();
    let portfolio = f.dir.path().join("examples/portfolio.yaml");
    let text = std::fs::read_to_string(&portfolio).unwrap();
    let text = text.replace(
        "  - {name: amtsblatt-mcp, profile: amtsblatt-readonly.profile.yaml, results: amtsblatt-readonly.results.yaml}",
        "  - name: amtsblatt-mcp\n    repo: https://github.com/example/amtsblatt-mcp\n    path: server\n    ignore: [examples]\n    owner: Team Amtsblatt\n    profile: amtsblatt-readonly.profile.yaml\n    results: amtsblatt-readonly.results.yaml",
    );
    std::fs::write(&portfolio, text).unwrap();
    let p = portfolio.to_str().unwrap();
    let out = f
        .cmd()
        .args(["portfolio", p, "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["servers"][0]["name"], "amtsblatt-mcp");
    assert_eq!(v["servers"][0]["verdict"], "production-ready", "{v:#}");
    assert_eq!(
        v["servers"][0]["source"],
        serde_json::json!({"repo": "https://github.com/example/amtsblatt-mcp", "path": "server", "ignore": ["examples"]})
    );
    // A server whose entry names no source has no `source` key.
    assert!(v["servers"][1].get("source").is_none(), "{v:#}");
    assert!(stderr.contains("AB511"), "{stderr}");
    assert!(stderr.contains("`owner`"), "{stderr}");
    let (human, _) = f.run(&["portfolio", p]);
    assert!(
        human.contains("Sources:\n  amtsblatt-mcp: https://github.com/example/amtsblatt-mcp, path server, ignoring examples\n"),
        "{human}"
    );
    let (md, _) = f.run(&["portfolio", p, "--format", "md"]);
    assert!(
        md.contains(
            "| amtsblatt-mcp | https://github.com/example/amtsblatt-mcp | server | examples |"
        ),
        "{md}"
    );
}

/// `audit --server` over an entry with a key for other tooling: the key is noted, the verdict
/// is the one the results give, not `incomplete`.
#[test]
fn a_key_for_other_tooling_does_not_make_audit_server_incomplete() {
    let f = Fixture::shipped();
    let portfolio = f.dir.path().join("examples/portfolio.yaml");
    let text = std::fs::read_to_string(&portfolio).unwrap();
    std::fs::write(
        &portfolio,
        text.replace(
            "{name: amtsblatt-mcp, ",
            "{name: amtsblatt-mcp, betreuer: Team, ",
        ),
    )
    .unwrap();
    let out = f
        .cmd()
        .args([
            "audit",
            portfolio.to_str().unwrap(),
            "--server",
            "amtsblatt-mcp",
        ])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "production-ready", "{v:#}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("AB511") && !stderr.contains("AB510"),
        "{stderr}"
    );
}

#[test]
fn a_portfolio_without_source_keys_has_no_sources_section() {
    let f = Fixture::shipped();
    let p = f.dir.path().join("examples/portfolio.yaml");
    let (human, _) = f.run(&["portfolio", p.to_str().unwrap()]);
    assert!(!human.contains("Sources:"), "{human}");
    let (md, _) = f.run(&["portfolio", p.to_str().unwrap(), "--format", "md"]);
    assert!(!md.contains("## Sources"), "{md}");
}

#[test]
fn the_shipped_catalogue_checks_its_examples_and_stays_clean() {
    // In place: the copy below lacks the files the repository README links to.
    let out = common::auditbook()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-C",
            "catalogue",
            "lint",
            "--verify",
            "--deny",
            "warnings",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(loud(&v), [], "{v:#}");
    assert!(findings_in(&v, "AB311").is_empty(), "{v:#}");
    assert_eq!(out.status.code(), Some(0));
    let f = Fixture::shipped();
    // The examples are read: a defect planted in one is found.
    let profile = f.dir.path().join("examples/cloud-http-apikey.profile.yaml");
    let text = std::fs::read_to_string(&profile).unwrap();
    std::fs::write(&profile, format!("{text}zusatzfeld: 1\n")).unwrap();
    let (v, code) = f.json_and_code(&["verify", "--format", "json"]);
    let found = findings_in(&v, "AB506");
    assert_eq!(found.len(), 1, "{v:#}");
    assert_eq!(found[0].0, "../examples/cloud-http-apikey.profile.yaml");
    assert_eq!(code, 1);
}

fn dead_values(v: &Value) -> Vec<(u64, String)> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "AB311")
        .map(|d| {
            (
                d["line"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_vocabulary_value_no_expression_compares_is_noted_at_its_declaration() {
    // SCALE-001 asks `transport == "dual" or transport == "HTTP/SSE"`: nothing compares
    // `stdio-only`.
    let f = Fixture::new("compat-de-claims");
    let (v, code) = f.lint_json();
    let dead = dead_values(&v);
    assert_eq!(dead.len(), 1, "{v:#}");
    assert_eq!(dead[0].0, 15);
    assert!(dead[0].1.contains("`transport`") && dead[0].1.contains("`stdio-only`"));
    assert!(!dead[0].1.contains("`dual`"), "{}", dead[0].1);
    assert_eq!(code, 0, "a note fails nothing");
    // Two values never compared are listed in one finding.
    f.edit(
        "checks/SCALE-001.md",
        r#"'transport == "dual" or transport == "HTTP/SSE"'"#,
        r#"'transport == "dual"'"#,
    );
    let dead = dead_values(&f.lint_json().0);
    assert_eq!(dead.len(), 1);
    assert!(
        dead[0].1.contains("`stdio-only`, `HTTP/SSE`"),
        "{}",
        dead[0].1
    );
}

#[test]
fn every_form_of_comparison_keeps_a_value_alive() {
    for (what, expr) in [
        // `!=` names one value and selects every other: no value is left behind.
        ("`!=`", r#"'transport != "stdio-only"'"#),
        (
            "`==` of every value",
            r#"'transport == "dual" or transport == "HTTP/SSE" or transport == "stdio-only"'"#,
        ),
        (
            "a string test",
            r#"'transport starts_with "stdio" or transport == "dual" or transport contains "/"'"#,
        ),
        (
            "a pattern",
            r#"'transport matches "^(stdio-only|dual|HTTP/SSE)$"'"#,
        ),
    ] {
        let f = Fixture::new("compat-de-claims");
        f.edit(
            "checks/SCALE-001.md",
            r#"'transport == "dual" or transport == "HTTP/SSE"'"#,
            expr,
        );
        let (v, _) = f.lint_json();
        let dead = dead_values(&v);
        assert_eq!(dead, [], "{what}: {v:#}");
    }
}

#[test]
fn a_list_field_is_left_alone() {
    // `deployment.includes("Railway")` selects one entry; `local-stdio` and `Kubernetes` are
    // never compared, but a list entry takes nothing away from the others.
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "catalogue.yaml",
        "    transport: {type: string, values: [stdio-only, dual, HTTP/SSE]}\n",
        "    transport: {type: string, values: [stdio-only, dual, HTTP/SSE]}\n    deployment: {type: list, values: [local-stdio, Railway, Kubernetes], required: false}\n",
    );
    f.edit(
        "checks/SCALE-001.md",
        r#"'transport == "dual" or transport == "HTTP/SSE"'"#,
        r#"'transport != "stdio-only" or deployment.includes("Railway")'"#,
    );
    let (v, _) = f.lint_json();
    assert!(findings_in(&v, "AB301").is_empty(), "{v:#}");
    assert_eq!(dead_values(&v), [], "{v:#}");
}

#[test]
fn a_field_no_expression_reads_and_a_compatibility_catalogue_have_no_dead_values() {
    let f = Fixture::new("compat-de-claims");
    f.edit(
        "checks/SCALE-001.md",
        r#"'transport == "dual" or transport == "HTTP/SSE"'"#,
        "'tools_make_external_requests == true'",
    );
    assert_eq!(dead_values(&f.lint_json().0), []);
    // No catalogue.yaml: no declared vocabulary, nothing to judge.
    let f = Fixture::new("compat-de");
    assert_eq!(dead_values(&f.lint_json().0), []);
}

/// An example path naming a FIFO is refused as "not a regular file" at its line of
/// catalogue.yaml; verify neither blocks on it nor reads it. Its clean twin is the silent
/// fixture above.
#[cfg(unix)]
#[test]
fn an_example_that_is_a_fifo_is_refused_without_blocking() {
    let f = Fixture::new("compat-de-claims");
    let fifo = f.root().join("beispiele/schulamt.profile.yaml");
    std::fs::remove_file(&fifo).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo is needed for this test");
    assert!(status.success(), "mkfifo is needed for this test");
    let (v, code) = verify(&f);
    let found = loud(&v);
    // Refused as the declared example and as the profile the portfolio names for a server.
    for want in [
        ("AB001", "catalogue.yaml", 133),
        ("AB510", "beispiele/portfolio.yaml", 19),
    ] {
        let want = (want.0.to_string(), want.1.to_string(), want.2);
        assert!(found.contains(&want), "{want:?}: {v:#}");
    }
    assert!(v.to_string().contains("not a regular file"), "{v:#}");
    assert_eq!(code, 1);
}
