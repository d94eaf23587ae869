//! Sources, as data (`require_sources`): the lint pairs (a planted defect is found, its clean
//! twin is not), and the sources as `show`, the audit report and the site carry them. The
//! fixture is written like a real catalogue: German prose, inline, reference-style, autolink
//! and titled links, a link to a check by absolute URL, links outside the sources section.

use crate::common;
use common::{codes_in, Fixture};
use serde_json::Value;

const FID1: &str = "checks/FID-001.md";
const ARCH1: &str = "checks/ARCH-001.md";

fn sources() -> Fixture {
    Fixture::new("sources")
}

#[track_caller]
fn assert_silent(f: &Fixture) {
    let (v, code) = f.lint_json();
    assert_eq!(codes_in(&v), Vec::<String>::new(), "{v:#}");
    assert_eq!(code, 0);
}

/// The findings of `code` as (file, line, id).
fn found(f: &Fixture, code: &str) -> Vec<(String, Option<u64>, Option<String>)> {
    f.findings(code)
}

fn finding(f: &Fixture, code: &str) -> Value {
    let (v, _) = f.lint_json();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code)
        .cloned()
        .unwrap_or_else(|| panic!("no {code} in {v:#}"))
}

/// FID-001's References section without its two external sources (the check link stays).
fn strip_fid1_sources(f: &Fixture) -> &Fixture {
    f.edit(
        FID1,
        "- [MCP 2025-11-25 — *Tools*, Abschnitt „Security\n  Considerations“](https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations)\n- [`RFC 9728` §3][rfc9728] — Metadaten des geschützten Ressourcenservers.\n\n[rfc9728]: https://www.rfc-editor.org/rfc/rfc9728#section-3",
        "- Quelle folgt.",
    )
}

#[test]
fn the_fixture_with_every_link_form_is_clean() {
    assert_silent(&sources());
}

#[test]
fn selected_check_without_a_source_is_an_error() {
    let f = sources();
    strip_fid1_sources(&f);
    // FID-001 is selected (`category == "FID"`); its only remaining link is to a check, by
    // absolute URL, which is a reference, not a source.
    assert_eq!(
        found(&f, "AB222"),
        vec![(FID1.to_string(), Some(29), Some("FID-001".to_string()))]
    );
    let d = finding(&f, "AB222");
    assert_eq!(d["level"], "error");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("category == \"FID\""),
        "{d}"
    );
    assert_eq!(f.lint_json().1, 1);
}

#[test]
fn a_link_only_inside_a_fenced_code_block_is_not_a_source() {
    let f = sources();
    strip_fid1_sources(&f).edit(
        FID1,
        "- Quelle folgt.",
        "- Quelle folgt.\n\n```markdown\n- [MCP Tools](https://modelcontextprotocol.io/specification/2025-11-25/server/tools)\n```\n\n    [eingerückt](https://www.rfc-editor.org/rfc/rfc9728)\n",
    );
    assert_eq!(found(&f, "AB222").len(), 1, "{}", f.lint_json().0);
    // The twin: the same link outside the code block is a source.
    let twin = sources();
    strip_fid1_sources(&twin).edit(
        FID1,
        "- Quelle folgt.",
        "- [MCP Tools](https://modelcontextprotocol.io/specification/2025-11-25/server/tools)",
    );
    assert_silent(&twin);
}

#[test]
fn a_source_outside_the_sources_section_does_not_count() {
    let f = sources();
    strip_fid1_sources(&f).edit(
        FID1,
        "A source's default scope is not the caller's scope.",
        "A source's default scope is not the caller's scope ([RFC 9728](https://www.rfc-editor.org/rfc/rfc9728)).",
    );
    assert_eq!(found(&f, "AB222").len(), 1);
}

#[test]
fn selected_check_without_the_section_points_at_the_body() {
    let f = sources();
    let text = f.read(FID1);
    let cut = text.find("## References").unwrap();
    f.write(FID1, &text[..cut]);
    // Where the body starts, as for the missing section's own finding (AB220).
    assert_eq!(
        found(&f, "AB222"),
        vec![(FID1.to_string(), Some(10), Some("FID-001".to_string()))]
    );
    assert_eq!(found(&f, "AB220")[0].1, Some(10));
}

#[test]
fn house_practice_does_not_excuse_a_selected_check() {
    let f = sources();
    strip_fid1_sources(&f).edit(
        FID1,
        "- Quelle folgt.",
        "- Hauspraxis: bewährt im Portfolio.",
    );
    let d = finding(&f, "AB222");
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("line 32 says the basis is house practice"),
        "{d}"
    );
}

#[test]
fn unselected_check_without_source_or_house_practice_is_a_warning() {
    let f = sources();
    f.edit(
        ARCH1,
        "- Hauspraxis: eine Namenskonvention des Hauses, strenger als die Spezifikation.",
        "- Eine Namenskonvention des Hauses.",
    );
    assert_eq!(
        found(&f, "AB223"),
        vec![(ARCH1.to_string(), Some(29), Some("ARCH-001".to_string()))]
    );
    let d = finding(&f, "AB223");
    assert_eq!(d["level"], "warning");
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("^(House practice|Hauspraxis):"),
        "{d}"
    );
    // Warnings fail only under --deny warnings.
    assert_eq!(f.lint_json().1, 0);
    let (_, code) = f.json_and_code(&["lint", "--format", "json", "--deny", "warnings"]);
    assert_eq!(code, 1);
}

#[test]
fn house_practice_in_every_list_form_counts_but_not_in_code() {
    for line in [
        "House practice: stricter than the specification.",
        "1. Hauspraxis: strenger als die Spezifikation.",
        "> * Hauspraxis: zitiert.",
    ] {
        let f = sources();
        f.edit(
            ARCH1,
            "- Hauspraxis: eine Namenskonvention des Hauses, strenger als die Spezifikation.",
            line,
        );
        assert_silent(&f);
    }
    let f = sources();
    f.edit(
        ARCH1,
        "- Hauspraxis: eine Namenskonvention des Hauses, strenger als die Spezifikation.",
        "```text\nHauspraxis: nur ein Beispiel\n```",
    );
    assert_eq!(found(&f, "AB223").len(), 1);
    // A marker elsewhere in the check is not the sources section's.
    let f = sources();
    f.edit(
        ARCH1,
        "- Hauspraxis: eine Namenskonvention des Hauses, strenger als die Spezifikation.",
        "",
    )
    .edit(ARCH1, "Rename the tools.", "Hauspraxis: Rename the tools.");
    assert_eq!(found(&f, "AB223").len(), 1);
}

#[test]
fn an_unselected_check_with_a_source_needs_no_marker() {
    let f = sources();
    f.edit(
        ARCH1,
        "- Hauspraxis: eine Namenskonvention des Hauses, strenger als die Spezifikation.",
        "- [MCP 2025-11-25, Tools: Tool names](https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names)",
    );
    assert_silent(&f);
}

#[test]
fn a_source_link_that_cannot_be_verified_is_a_note() {
    let f = sources();
    f.edit(
        FID1,
        "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations",
        "https://modelcontextprotocol.io/specification/latest/server/tools#security-considerations",
    )
    .edit(FID1, "[`RFC 9728` §3][rfc9728]", "[][rfc9728]");
    let got = found(&f, "AB224");
    assert_eq!(
        got,
        vec![
            (FID1.to_string(), Some(32), Some("FID-001".to_string())),
            (FID1.to_string(), Some(34), Some("FID-001".to_string())),
        ],
        "{}",
        f.lint_json().0
    );
    assert_eq!(finding(&f, "AB224")["level"], "note");
    assert_eq!(f.lint_json().1, 0);
}

#[test]
fn a_where_expression_that_cannot_select_is_reported_on_the_config() {
    for (expr, code) in [
        // The form some write; the language has no `in`.
        (r#"category in ["FID", "SEC"]"#, "AB225"),
        (r#"category == "SECURITY""#, "AB225"),
        (r#"severity == true"#, "AB225"),
    ] {
        let f = sources();
        f.edit(
            "catalogue.yaml",
            r#"where: 'category == "FID" or spec_baseline != "both"'"#,
            &format!("where: '{expr}'"),
        );
        let got = found(&f, code);
        assert_eq!(got.len(), 1, "{expr}: {}", f.lint_json().0);
        assert_eq!(got[0].0, "catalogue.yaml");
        assert_eq!(got[0].1, Some(21));
        // No per-check findings from a selection nobody can evaluate.
        assert!(found(&f, "AB222").is_empty());
    }
}

#[test]
fn a_bad_house_practice_pattern_is_a_config_error() {
    let f = sources();
    f.edit(
        "catalogue.yaml",
        "house_practice: '^(House practice|Hauspraxis):'",
        "house_practice: '^(House practice'",
    );
    assert_eq!(
        found(&f, "AB122"),
        vec![("catalogue.yaml".to_string(), Some(23), None)]
    );
}

#[test]
fn accepted_findings_stay_silent() {
    let f = sources();
    strip_fid1_sources(&f);
    let text = f.read("catalogue.yaml");
    f.write(
        "catalogue.yaml",
        &format!("{text}lint:\n  allow:\n    - {{code: AB222, id: FID-001, reason: \"Quelle wird nachgetragen.\"}}\n"),
    );
    assert_silent(&f);
}

#[test]
fn without_require_sources_nothing_is_asked() {
    let f = Fixture::new("clean");
    let (v, code) = f.lint_json();
    assert_eq!(codes_in(&v), Vec::<String>::new());
    assert_eq!(code, 0);
    // ... but the sources are still read from References.
    let f = sources();
    let text = f.read("catalogue.yaml");
    let cut = text.find("# Kriterien").unwrap();
    f.write("catalogue.yaml", &text[..cut]);
    assert_silent(&f);
    let v = f.json(&["show", "FID-001", "--format", "json"]);
    assert_eq!(v["sources"].as_array().unwrap().len(), 2);
}

#[test]
fn show_lists_the_sources() {
    let f = sources();
    let v = f.json(&["show", "FID-001", "--format", "json"]);
    assert_eq!(
        v["sources"],
        serde_json::json!([
            {"label": "MCP 2025-11-25 — Tools, Abschnitt „Security Considerations“", "url": "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations", "line": 32},
            {"label": "RFC 9728 §3", "url": "https://www.rfc-editor.org/rfc/rfc9728#section-3", "line": 34},
        ])
    );
    let human = f.stdout(&["show", "DRIFT-001"]);
    assert!(
        human.contains("sources:\n  SEP-1686: Tasks <https://modelcontextprotocol.io/seps/1686-tasks> (line 37)\n"),
        "{human}"
    );
    let none = f.stdout(&["show", "ARCH-001"]);
    assert!(none.contains("sources:\n  (none)\n"), "{none}");
}

const PROFILE: &str = "transport: dual\nsdk_language: Python\nwrite_capable: false\ndeployment: [Railway]\ntools_make_external_requests: true\ndata_source: {is_swiss_open_data: true}\nmcp_spec_version: \"2026-07-28\"\n";

const RESULTS: &str = r#"audit_meta: {server_name: quellen-mcp, audit_date: 2026-12-01, auditor: "R. Brunner"}
results:
  FID-001: {status: fail, evidence: ["src/client.py:40 — kein Kanton-Parameter", "Test fehlt"], gaps: []}
  FID-002: {status: partial, evidence: ["parser.py:12 — Schlüssel nur teilweise geprüft"], gaps: []}
  DRIFT-001: {status: pass, evidence: ["urls.py:3 — ein Builder", "tests/test_urls.py:8"], gaps: []}
  ARCH-001: {status: partial, evidence: ["zwei Tools mit Bindestrich"], gaps: []}
"#;

fn audited(format: &str) -> String {
    let f = sources();
    f.write("quellen.profile.yaml", PROFILE)
        .write("quellen.results.yaml", RESULTS);
    let out = f
        .cmd()
        .args([
            "audit",
            "quellen.profile.yaml",
            "--results",
            "quellen.results.yaml",
            "--format",
            format,
        ])
        .output()
        .unwrap();
    // FID-001 is an enforced critical fail: exit 1, report still written.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_json_report_carries_each_findings_sources() {
    let v: Value = serde_json::from_str(&audited("json")).unwrap();
    let external = |list: &str, id: &str| {
        v[list]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id)
            .unwrap_or_else(|| panic!("{id} not in {list}"))["sources"]["external"]
            .clone()
    };
    assert_eq!(
        external("findings", "FID-001"),
        serde_json::json!([
            {"label": "MCP 2025-11-25 — Tools, Abschnitt „Security Considerations“", "url": "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations"},
            {"label": "RFC 9728 §3", "url": "https://www.rfc-editor.org/rfc/rfc9728#section-3"},
        ])
    );
    // An autolink has no text of its own: its address is its label.
    assert_eq!(
        external("details", "FID-002")[0]["label"],
        "https://www.fedlex.admin.ch/eli/cc/2022/491/de#art_8"
    );
    assert_eq!(external("findings", "ARCH-001"), serde_json::json!([]));
}

#[test]
fn the_markdown_report_shows_sources_beside_each_finding() {
    let md = audited("md");
    let start = md.find("## Findings").unwrap();
    let end = md.find("## Not verified").unwrap();
    insta::assert_snapshot!("sources_report_findings_md", &md[start..end]);
}

#[test]
fn the_html_report_links_each_findings_sources() {
    let html = audited("html");
    assert!(
        html.contains(r#"<a href="https:&#x2F;&#x2F;www.rfc-editor.org&#x2F;rfc&#x2F;rfc9728#section-3">RFC 9728 §3</a>"#),
        "{html}"
    );
    assert!(html.contains("<strong>Sources:</strong> none cited"));
    // A label cannot inject markup.
    assert!(html.contains("Datenschutz (Schweiz) [Übersicht] | Hintergrund</a>"));
}

#[test]
fn the_site_lists_a_checks_sources() {
    let f = sources();
    f.edit(
        FID1,
        "- [`RFC 9728` §3][rfc9728]",
        "- [<script>alert(1)</script> RFC 9728 §3][rfc9728]",
    );
    let out = tempfile::tempdir().unwrap();
    f.cmd()
        .args(["site", "--out"])
        .arg(out.path())
        .assert()
        .success();
    let page = std::fs::read_to_string(out.path().join("checks/FID-001.html")).unwrap();
    let start = page.find("<h2>Sources</h2>").unwrap();
    let list = &page[start..page[start..].find("</ul>").unwrap() + start];
    assert!(
        list.contains(
            r#"<li><a href="https:&#x2F;&#x2F;www.rfc-editor.org&#x2F;rfc&#x2F;rfc9728#section-3">"#
        ),
        "{list}"
    );
    assert!(!list.contains("<script>"), "{list}");
    let arch = std::fs::read_to_string(out.path().join("checks/ARCH-001.html")).unwrap();
    assert!(arch.contains("This check cites no external source."));
}
