//! Human output: each finding with its source line and a caret (codespan-reporting), then a
//! summary line; `-q` drops notes and the summary.

use super::{Emitted, Emitter, Run};
use crate::diag::{Diagnostic, Level, Summary};
use crate::render::diagnostics::{join, Sources};
use crate::render::excerpt::{terminal_safe, Excerpt, Excerpts};
use crate::text::line_index::LineIndex;
use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity};
use codespan_reporting::term::{self, Config};
use std::collections::BTreeMap;
use std::sync::Arc;
use termcolor::Buffer;

pub struct Human;

impl Emitter for Human {
    fn emit(&self, run: &Run<'_>) -> Emitted {
        let shown = run.visible();
        Ok(if run.quiet {
            human_findings(&shown, run.sources, run.prefix, run.color)
        } else {
            human(&shown, run.sources, run.prefix, run.color)
        })
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
