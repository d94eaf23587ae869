//! `docs/lint-codes.md`, generated from the code registry and the explanations so the three
//! cannot disagree; `auditbook explain` prints one code's section of it.

use crate::diag::explain::{self, Edit, Example, Explanation, BASE};
use crate::diag::Code;
#[cfg(any(test, feature = "internals"))]
use crate::diag::CODES;

#[cfg(any(test, feature = "internals"))]
pub fn render() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         Every finding auditbook reports carries one of these codes. A code keeps its meaning \
         for good; new findings get new codes. Levels are the defaults (`lint.allow` in \
         `catalogue.yaml` accepts a reviewed finding by code and id; `--deny warnings` makes \
         warnings fail the run).\n\n\
         This file is generated from `src/diag/codes.rs` and `src/diag/explain/`; the test suite \
         fails when it is stale (regenerate with `AUDITBOOK_UPDATE_DOCS=1 cargo test --test \
         suite docs_current`). `auditbook explain CODE` prints one code's explanation.\n\n\
         | code | name | level | meaning | what to do |\n|---|---|---|---|---|\n",
    );
    for c in CODES {
        out.push_str(&format!(
            // The anchor is what SARIF's helpUri points at.
            "| <a id=\"{}\"></a>{} | `{}` | {} | {} | {} |\n",
            c.code.to_lowercase(),
            c.code,
            c.name,
            c.level.as_str(),
            c.summary.replace('|', "\\|"),
            c.help.replace('|', "\\|")
        ));
    }
    out.push_str(
        "\n## Explanations and examples\n\n\
         Each code below comes with an example that produces the finding and a clean twin that \
         does not. The examples are run by the test suite (`tests/suite/code_coverage.rs`), so they \
         show what the engine does today. Unless an example says it stands alone, its files are \
         laid over this base catalogue, which lints, verifies and audits clean:\n\n",
    );
    out.push_str(&base());
    for c in CODES {
        out.push('\n');
        out.push_str(&section(c, explain::lookup(c.code), "###"));
    }
    out
}

/// The base catalogue's files, as the examples refer to them.
pub fn base() -> String {
    BASE.iter()
        .map(|(path, text)| file_block(path, text))
        .collect()
}

/// One code's section: heading, summary, explanation and both examples.
pub fn section(c: &Code, e: Option<&Explanation>, heading: &str) -> String {
    let mut out = format!("{heading} {} `{}`\n\n", c.code, c.name);
    out.push_str(&format!("{}\n\n", c.summary));
    let since = e.map_or("", |e| e.since);
    out.push_str(&format!("Level: {}", c.level.as_str()));
    if !since.is_empty() {
        out.push_str(&format!(" · since {since}"));
    }
    out.push_str(&format!("  \nWhat to do: {}\n\n", c.help));
    let Some(e) = e else {
        out.push_str("No explanation has been written for this code yet.\n");
        return out;
    };
    for p in e.paragraphs() {
        out.push_str(p);
        out.push_str("\n\n");
    }
    out.push_str(&example("Reported", &e.bad));
    out.push_str(&example("Not reported", &e.good));
    out
}

fn example(title: &str, ex: &Example) -> String {
    let mut out = format!("**{title}:** `{}`", ex.run.shown());
    if let explain::Run::Library { how, .. } = &ex.run {
        out.push_str(&format!(" ({how})"));
    }
    if ex.over_base {
        out.push_str(if ex.files.is_empty() {
            " on the base catalogue as it is.\n\n"
        } else {
            " on the base catalogue with these changes:\n\n"
        });
    } else {
        out.push_str(" on these files alone:\n\n");
    }
    for (path, edit) in ex.files {
        out.push_str(&match edit {
            Edit::Text { text } => file_block(path, text),
            Edit::Bytes { bytes } => format!(
                "- `{path}`, bytes that are not UTF-8 (`\\xNN` is one byte):\n\n{}",
                indent(&fence(&escaped(bytes)))
            ),
            Edit::Append { text } => {
                format!("- `{path}`, added at the end:\n\n{}", indent(&fence(text)))
            }
            Edit::Replace { find, with } => format!(
                "- `{path}`, replace\n\n{}  with\n\n{}",
                indent(&fence(find)),
                indent(&fence(with))
            ),
            Edit::Remove => format!("- `{path}` is removed\n\n"),
            Edit::Link { target } => format!("- `{path}` is a symbolic link to `{target}`\n\n"),
            Edit::Fifo => format!("- `{path}` is a named pipe (FIFO)\n\n"),
            Edit::Large { line, bytes } => format!(
                "- `{path}` repeats `{}` until it is larger than {bytes} bytes\n\n",
                line.trim_end()
            ),
        });
    }
    out
}

/// Bytes as text: printable ASCII and line breaks as they are, every other byte as `\xNN`.
fn escaped(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            b'\n' | 0x20..=0x7e => char::from(b).to_string(),
            _ => format!("\\x{b:02x}"),
        })
        .collect()
}

fn file_block(path: &str, text: &str) -> String {
    format!("- `{path}`:\n\n{}", indent(&fence(text)))
}

/// A fenced block longer than any run of backticks in the text, with visible line ends kept.
fn fence(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let marks = "`".repeat(longest.max(2) + 1);
    let shown = text.replace('\r', "⟨CR⟩").replace('\u{feff}', "⟨BOM⟩");
    let body = shown.strip_suffix('\n').unwrap_or(&shown);
    format!("{marks}\n{body}\n{marks}\n\n")
}

fn indent(block: &str) -> String {
    block
        .trim_end()
        .lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("  {l}\n")
            }
        })
        .collect::<String>()
        + "\n"
}
