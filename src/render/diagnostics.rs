//! Diagnostics as human text (with the source line), JSON, GitHub workflow commands and SARIF.

use super::excerpt::{terminal_safe, Excerpt, Excerpts};
use crate::diag::{codes, Diagnostic, Level, Summary};
use crate::load::text::LineIndex;
use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity};
use codespan_reporting::term::{self, Config};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;
use termcolor::Buffer;

/// Where the human renderer finds the text of a file a finding points into.
pub trait Sources {
    fn text_of(&self, file: &str) -> Option<Arc<str>>;
}

impl Sources for crate::diag::SourceMap {
    fn text_of(&self, file: &str) -> Option<Arc<str>> {
        self.get(file).cloned()
    }
}

impl Sources for crate::model::Catalogue {
    fn text_of(&self, file: &str) -> Option<Arc<str>> {
        crate::load::source(self, file)
    }
}

/// Human output: each diagnostic with its source line and a caret, then a summary line.
pub fn human(diags: &[Diagnostic], sources: &dyn Sources, prefix: &str, color: bool) -> String {
    let mut out = human_findings(diags, sources, prefix, color);
    out.push_str(&summary_line(&Summary::of(diags)));
    out
}

/// Human output without the summary line.
pub fn human_findings(
    diags: &[Diagnostic],
    sources: &dyn Sources,
    prefix: &str,
    color: bool,
) -> String {
    // Only the files a finding points into, each indexed once: indexing every source would
    // cost tens of megabytes on a large catalogue that has one finding, and searching a file
    // from its start per finding made many findings in a large file quadratic.
    let mut files: BTreeMap<&str, Option<(Arc<str>, LineIndex)>> = BTreeMap::new();
    let mut excerpts = Excerpts::default();
    let mut located = Vec::with_capacity(diags.len());
    for d in diags {
        let at = d.file.as_deref().zip(d.line).and_then(|(name, line)| {
            let (text, index) = files
                .entry(name)
                .or_insert_with(|| {
                    sources.text_of(name).map(|t| {
                        let index = LineIndex::new(&t);
                        (t, index)
                    })
                })
                .as_ref()?;
            let line_text = index.line(text, line)?;
            excerpts.0.push(Excerpt::new(
                join(prefix, name),
                line,
                line_text,
                d.column.unwrap_or(1),
                d.width,
            ));
            Some(excerpts.0.len() - 1)
        });
        located.push(at);
    }
    let mut buf = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = Config::default();
    for (d, at) in diags.iter().zip(located) {
        let severity = match d.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Note => Severity::Note,
        };
        let mut report = Report::new(severity)
            .with_code(d.code)
            .with_message(terminal_safe(&d.message, true));
        let mut notes = Vec::new();
        match (at.and_then(|i| excerpts.0.get(i).map(|e| (i, e))), &d.file) {
            (Some((id, e)), _) => {
                report = report.with_labels(vec![Label::primary(id, e.caret.clone())]);
            }
            (None, Some(f)) => {
                let at = match (d.line, d.column) {
                    (Some(l), Some(c)) => format!(":{l}:{c}"),
                    (Some(l), None) => format!(":{l}"),
                    _ => String::new(),
                };
                notes.push(format!("in {}{at}", terminal_safe(&join(prefix, f), false)));
            }
            _ => {}
        }
        if let Some(h) = &d.help {
            notes.push(format!("help: {}", terminal_safe(h, true)));
        }
        report = report.with_notes(notes);
        // Writing into an in-memory buffer cannot fail on I/O; a rendering error falls back
        // to the plain line so no finding is ever dropped.
        if term::emit(&mut buf, &config, &excerpts, &report).is_err() {
            let _ = std::io::Write::write_all(&mut buf, plain_line(d, prefix).as_bytes());
        }
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

fn plain_line(d: &Diagnostic, prefix: &str) -> String {
    format!(
        "{}[{}]: {} ({}:{})\n",
        d.level.as_str(),
        d.code,
        terminal_safe(&d.message, true),
        d.file
            .as_deref()
            .map(|f| join(prefix, f))
            .unwrap_or_default(),
        d.line.unwrap_or(0)
    )
}

pub fn summary_line(s: &Summary) -> String {
    fn n(count: usize, word: &str) -> String {
        format!("{count} {word}{}", if count == 1 { "" } else { "s" })
    }
    format!(
        "{}, {}, {}\n",
        n(s.errors, "error"),
        n(s.warnings, "warning"),
        n(s.notes, "note")
    )
}

/// `prefix/file`, where prefix is the catalogue root as the user named it, with `dir/..`
/// pairs folded so a document outside the root (`../README.md`) gets the path a CI system
/// knows it by (`README.md`, not `catalogue/../README.md`).
pub fn join(prefix: &str, file: &str) -> String {
    let joined = if prefix.is_empty() || prefix == "." {
        file.to_string()
    } else {
        format!("{}/{}", prefix.trim_end_matches('/'), file)
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "." if !parts.is_empty() => {}
            ".." if parts
                .last()
                .is_some_and(|p| *p != ".." && *p != "." && !p.is_empty()) =>
            {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// `{"diagnostics": [...], "summary": {...}}` — `extra` adds keys to the summary.
pub fn json(diags: &[Diagnostic], extra: serde_json::Map<String, serde_json::Value>) -> String {
    let s = Summary::of(diags);
    let mut summary = serde_json::Map::new();
    summary.insert("errors".into(), s.errors.into());
    summary.insert("warnings".into(), s.warnings.into());
    summary.insert("notes".into(), s.notes.into());
    summary.extend(extra);
    let doc = json!({ "diagnostics": diags, "summary": summary });
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow commands: one annotation per diagnostic.
pub fn github(diags: &[Diagnostic], prefix: &str) -> String {
    let mut out = String::new();
    for d in diags {
        let command = match d.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "notice",
        };
        let mut props = Vec::new();
        if let Some(f) = &d.file {
            props.push(format!("file={}", escape_property(&join(prefix, f))));
        }
        if let Some(l) = d.line {
            props.push(format!("line={l}"));
            // GitHub reads a column range only within one line; the end column is inclusive.
            if let Some(c) = d.column {
                props.push(format!("endLine={l}"));
                props.push(format!("col={c}"));
                props.push(format!("endColumn={}", c + d.width.max(1) - 1));
            }
        }
        let name = codes::lookup(d.code).map(|c| c.name).unwrap_or("");
        props.push(format!(
            "title={}",
            escape_property(&format!("{} {name}", d.code))
        ));
        let mut message = d.message.clone();
        if let Some(h) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(h);
        }
        out.push_str(&format!(
            "::{command} {}::{}\n",
            props.join(","),
            escape_data(&message)
        ));
    }
    out
}

/// SARIF 2.1.0 lives in its own module; re-exported here beside the other formats.
pub use super::sarif::{sarif, Successors};

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn join_folds_parent_steps() {
        assert_eq!(join("catalogue", "../README.md"), "README.md");
        assert_eq!(join(".", "checks/A-001.md"), "checks/A-001.md");
        assert_eq!(join("a/b/", "../../x.md"), "x.md");
        assert_eq!(join("..", "../x.md"), "../../x.md");
        assert_eq!(join("/abs/cat", "checks/A.md"), "/abs/cat/checks/A.md");
    }
}
