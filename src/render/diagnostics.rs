//! Diagnostics as human text (with the source line), JSON, GitHub workflow commands and SARIF.

use crate::diag::{codes, Diagnostic, Level, Summary};
use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity};
use codespan_reporting::files::SimpleFiles;
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

/// Byte offset of a 1-based (line, column) in `text`, column counted in characters.
fn offset_of(text: &str, line: usize, column: usize) -> Option<usize> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let rest = text.get(start..)?;
    let line_text = rest.split('\n').next().unwrap_or("");
    let col = column.saturating_sub(1);
    let within = line_text
        .char_indices()
        .nth(col)
        .map(|(i, _)| i)
        .unwrap_or(line_text.len());
    Some(start + within)
}

fn byte_width(text: &str, offset: usize, chars: usize) -> usize {
    let rest = text.get(offset..).unwrap_or("");
    let line = rest.split('\n').next().unwrap_or("");
    let end = line
        .char_indices()
        .nth(chars)
        .map(|(i, _)| i)
        .unwrap_or(line.len());
    end.max(usize::from(!line.is_empty()))
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
    // Only the files a finding points into: indexing the lines of every source would cost
    // tens of megabytes on a large catalogue that has one finding.
    let mut files = SimpleFiles::new();
    let mut ids: BTreeMap<&str, (usize, Arc<str>)> = BTreeMap::new();
    for name in diags.iter().filter_map(|d| d.file.as_deref()) {
        if ids.contains_key(name) {
            continue;
        }
        if let Some(text) = sources.text_of(name) {
            let id = files.add(join(prefix, name), Arc::clone(&text));
            ids.insert(name, (id, text));
        }
    }
    let mut buf = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = Config::default();
    for d in diags {
        let severity = match d.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Note => Severity::Note,
        };
        let mut report = Report::new(severity)
            .with_code(d.code)
            .with_message(&d.message);
        let mut notes = Vec::new();
        let located = d.file.as_deref().and_then(|f| {
            let (id, text) = ids.get(f)?;
            let id = *id;
            let off = offset_of(text, d.line?, d.column.unwrap_or(1))?;
            Some((id, off, byte_width(text, off, d.width)))
        });
        match (located, &d.file) {
            (Some((id, off, w)), _) => {
                report = report.with_labels(vec![Label::primary(id, off..off + w)]);
            }
            (None, Some(f)) => {
                let at = match (d.line, d.column) {
                    (Some(l), Some(c)) => format!(":{l}:{c}"),
                    (Some(l), None) => format!(":{l}"),
                    _ => String::new(),
                };
                notes.push(format!("in {}{at}", join(prefix, f)));
            }
            _ => {}
        }
        if let Some(h) = &d.help {
            notes.push(format!("help: {h}"));
        }
        report = report.with_notes(notes);
        // Writing into an in-memory buffer cannot fail on I/O; a rendering error falls back
        // to the plain line so no finding is ever dropped.
        if term::emit(&mut buf, &config, &files, &report).is_err() {
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
        d.message,
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
