//! Code in a check body that verifies nothing (AB226, AB227): each defect is found at its file,
//! line and column, its corrected twin is silent, and code under `## Common Failures`, which
//! shows wrong code on purpose, is not judged.

use crate::common::{findings_in, Fixture};
use serde_json::Value;

const ARCH1: &str = "checks/ARCH-001.md";
const LISTED: &str = "List the registered tools.";

/// The clean fixture with ARCH-001's Verification section replaced by `verification`.
fn with_verification(verification: &str) -> Fixture {
    let f = Fixture::new("clean");
    f.edit(ARCH1, LISTED, verification);
    f
}

fn diagnostics(f: &Fixture, code: &str) -> Vec<Value> {
    let (v, _) = f.lint_json();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .cloned()
        .collect()
}

#[track_caller]
fn assert_silent(f: &Fixture) {
    let (v, code) = f.lint_json();
    assert_eq!(
        findings_in(&v, "AB226").len() + findings_in(&v, "AB227").len(),
        0,
        "{v:#}"
    );
    assert_eq!(code, 0, "{v:#}");
}

#[test]
fn a_grep_pattern_with_an_escape_grep_does_not_read_is_a_warning_at_the_escape() {
    let f = with_verification(
        "Find version literals:\n\n```sh\ngrep -rnE '__version__\\s*=\\s*[\"\\x27][0-9]' src/\n```",
    );
    let found = diagnostics(&f, "AB226");
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(d["level"], "warning");
    assert_eq!(d["file"], ARCH1);
    assert_eq!(d["id"], "ARCH-001");
    // The fence opens on line 19; the command is on line 20, the escape at column 32.
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(20), Some(32))
    );
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("`\\x27`"), "{message}");
    assert!(message.contains("never a single quote"), "{message}");
    // A warning: `lint` passes, `--deny warnings` does not.
    assert_eq!(f.lint_json().1, 0);
    assert_eq!(f.run(&["lint", "--deny", "warnings", "-q"]).1, 1);
}

#[test]
fn the_corrected_pattern_is_silent() {
    assert_silent(&with_verification(
        "Find version literals:\n\n```sh\ngrep -rnE \"__version__\\s*=\\s*[\\\"'][0-9]\" src/\n```",
    ));
}

#[test]
fn inline_code_counts_and_other_regex_dialects_do_not() {
    let f = with_verification("Years: `grep -nE '\\d{4}' CHANGELOG.md`.");
    let found = diagnostics(&f, "AB226");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["line"], 17);
    assert!(found[0]["message"]
        .as_str()
        .unwrap()
        .contains("matches the text `d`, never a digit"));
    // Perl syntax reads `\d`; ripgrep is not grep; a fixed string has no escapes.
    assert_silent(&with_verification(
        "Years: `grep -nP '\\d{4}' CHANGELOG.md`, `rg '\\d{4}'`, `grep -F '\\d' f`.",
    ));
}

#[test]
fn an_assertion_no_answer_can_fail_is_a_warning() {
    let f = with_verification(
        "A live test:\n\n```python\n@pytest.mark.live\nasync def test_search_live(client):\n    assert len(await search(\"x\", client)) >= 0\n```",
    );
    let found = diagnostics(&f, "AB227");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["line"], 22);
    assert_eq!(found[0]["column"], 12);
    assert!(found[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("`len(await search(\"x\", client)) >= 0` cannot fail"));
    let f = with_verification("In Jest: `expect(hits.length).toBeGreaterThanOrEqual(0)`.");
    assert_eq!(diagnostics(&f, "AB227").len(), 1);
}

#[test]
fn an_assertion_that_can_fail_is_silent() {
    assert_silent(&with_verification(
        "A live test:\n\n```python\n@pytest.mark.live\nasync def test_search_live(client):\n    assert len(await search(\"x\", client)) >= 21\n    assert 0 <= share <= 0.4\n```\n\nIn Jest: `expect(hits.length).toBeGreaterThan(0)`.",
    ));
}

#[test]
fn code_under_common_failures_is_shown_wrong_on_purpose() {
    let f = Fixture::new("clean");
    f.edit(
        ARCH1,
        "## Remediation",
        "## Common Failures\n\n| Anti-pattern | Risk |\n|---|---|\n| `grep -E '[\"\\x27]'` | misses single quotes |\n| `assert count >= 0` | cannot fail |\n\n## Remediation",
    );
    assert_silent(&f);
    // The same lines under another heading are judged.
    let f = Fixture::new("clean");
    f.edit(
        ARCH1,
        "## Remediation\n\nRename the tools.",
        "## Remediation\n\n| Before | After |\n|---|---|\n| `grep -E '[\"\\x27]'` | `assert count >= 0` |",
    );
    let (v, _) = f.lint_json();
    assert_eq!(findings_in(&v, "AB226").len(), 1, "{v:#}");
    assert_eq!(findings_in(&v, "AB227").len(), 1, "{v:#}");
}

#[test]
fn the_language_server_reports_it_on_the_unsaved_buffer() {
    // The editor's buffer is judged, not the file: the language server holds the text.
    let f = Fixture::new("clean");
    let check = f.path(ARCH1);
    let mut c = crate::lsp_client::Client::start(f.root());
    let text = c.open(&check);
    c.sync();
    assert_eq!(c.codes(&check), Vec::<String>::new());
    let edited = text.replacen(LISTED, "Run `grep -nE '[\"\\x27]' src/`.", 1);
    c.change(&check, &edited);
    c.sync();
    assert_eq!(c.codes(&check), ["AB226"]);
    assert_eq!(f.read(ARCH1), text, "the file on disk was not changed");
    c.change(&check, &text);
    c.sync();
    assert_eq!(c.codes(&check), Vec::<String>::new());
    assert_eq!(c.finish(), Some(0));
}
