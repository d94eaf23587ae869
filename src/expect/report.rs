//! Outcomes as text (a diff per failing case) and as lint findings (`AB902`).

use super::outcome::Outcome;
use crate::diag::{codes, Diagnostic};

/// Human output: one line per case, and for a failing case the unified diff of expected
/// against decided.
pub fn human(outcomes: &[Outcome], prefix: &str) -> String {
    let mut out = String::new();
    for o in outcomes {
        let at = format!(
            "{}:{}",
            crate::render::diagnostics::join(prefix, &o.file),
            o.line
        );
        if o.passed() {
            out.push_str(&format!("ok    {} ({at})\n", o.name));
            continue;
        }
        out.push_str(&format!("FAIL  {} ({at})\n", o.name));
        for p in &o.problems {
            out.push_str(&format!("      {p}\n"));
        }
        if o.expected != o.actual {
            out.push_str(&diff(o));
        }
    }
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    out.push_str(&format!(
        "{} test(s): {} passed, {failed} failed\n",
        outcomes.len(),
        outcomes.len() - failed
    ));
    out
}

/// `--- expected` / `+++ catalogue` with two lines of context.
pub fn diff(o: &Outcome) -> String {
    let expected = lines(&o.expected);
    let actual = lines(&o.actual);
    similar::TextDiff::from_lines(&expected, &actual)
        .unified_diff()
        .context_radius(2)
        .header("expected", "catalogue")
        .to_string()
}

fn lines(v: &[String]) -> String {
    v.iter().map(|l| format!("{l}\n")).collect()
}

/// One `AB902` per failing case, at its place in the expectation file.
pub fn findings(outcomes: &[Outcome]) -> Vec<Diagnostic> {
    outcomes
        .iter()
        .filter(|o| !o.passed())
        .map(|o| {
            let mut what: Vec<String> = o.problems.clone();
            what.extend(
                o.expected
                    .iter()
                    .zip(&o.actual)
                    .filter(|(e, a)| e != a)
                    .map(|(e, a)| format!("expected `{e}`, the catalogue decides `{a}`")),
            );
            Diagnostic::new(
                &codes::TEST_FAILED,
                format!("test `{}` fails: {}", o.name, what.join("; ")),
            )
            .file(o.file.clone())
            .line(o.line)
        })
        .collect()
}
