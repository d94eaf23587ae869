//! GitHub Actions workflow commands: one annotation per finding; `-q` drops notes.

use super::{Emitted, Emitter, Run};
use crate::diag::{codes, Diagnostic, Level};
use crate::render::diagnostics::join;

pub struct Github;

impl Emitter for Github {
    fn emit(&self, run: &Run<'_>) -> Emitted {
        Ok(github(&run.visible(), run.prefix))
    }
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
