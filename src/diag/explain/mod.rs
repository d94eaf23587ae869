//! Each diagnostic code at length: since which version it exists, what it means and why it
//! matters, and two examples — one that produces the finding and its clean twin that does not.
//!
//! The examples are executable: a set of files laid over a small base catalogue and the
//! command line that runs on them. The same data is printed by `auditbook explain`, rendered
//! into `docs/lint-codes.md`, and run by the code-coverage test, so an explanation cannot
//! describe a finding the engine no longer reports.

mod audits;
mod documents;
mod expectations;
mod expressions;
mod files;
mod forms;
mod frontmatter;
mod probing;
mod references;
mod retired_rules;
mod snippets;

use serde::Serialize;

/// The version every code released so far first appeared in.
pub const V0_1_0: &str = "0.1.0";

#[derive(Debug, Serialize)]
pub struct Explanation {
    pub code: &'static str,
    /// The auditbook version that introduced the code.
    pub since: &'static str,
    /// Paragraphs separated by blank lines.
    pub text: &'static str,
    /// An example that produces the finding.
    pub bad: Example,
    /// Its twin, which does not.
    pub good: Example,
}

impl Explanation {
    pub fn paragraphs(&self) -> impl Iterator<Item = &'static str> {
        self.text
            .split("\n\n")
            .map(str::trim)
            .filter(|p| !p.is_empty())
    }
}

#[derive(Debug, Serialize)]
pub struct Example {
    /// Whether the files are laid over the base catalogue (`BASE`) or stand alone.
    pub over_base: bool,
    pub files: &'static [(&'static str, Edit)],
    pub run: Run,
}

/// How one file of an example differs from the base catalogue.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Edit {
    /// The file holds this text (in place of the base file, if there is one).
    Text { text: &'static str },
    /// The file holds these bytes, which are not text.
    Bytes { bytes: &'static [u8] },
    /// This text is added at the end of the base file.
    Append { text: &'static str },
    /// In the base file, the first occurrence of `find` is replaced by `with`.
    Replace {
        find: &'static str,
        with: &'static str,
    },
    /// The base file is removed.
    Remove,
    /// A symbolic link to `target`.
    Link { target: &'static str },
    /// A named pipe (FIFO).
    Fifo,
    /// `line` repeated until the file is larger than `bytes`.
    Large { line: &'static str, bytes: usize },
}

/// What runs on the files.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Run {
    /// `auditbook ARGS…` in the folder that holds the files.
    Command { args: &'static [&'static str] },
    /// Something no command line can bring about on its own (a file changing while it is
    /// read); the test suite reproduces it through the library, as `how` describes.
    Library {
        args: &'static [&'static str],
        how: &'static str,
    },
}

impl Run {
    pub fn args(&self) -> &'static [&'static str] {
        match self {
            Run::Command { args } | Run::Library { args, .. } => args,
        }
    }

    /// The command line as a reader would type it.
    pub fn shown(&self) -> String {
        let mut out = String::from("auditbook");
        for a in self.args() {
            out.push(' ');
            if a.is_empty() || a.contains([' ', '\'', '"', '*', '$', '|', '<', '>', '&', ';']) {
                out.push('\'');
                out.push_str(&a.replace('\'', "'\\''"));
                out.push('\'');
            } else {
                out.push_str(a);
            }
        }
        out
    }
}

/// The base catalogue: two checks that lint clean, a profile schema, a profile and results
/// that audit clean. Every example lays its files over these unless it says otherwise.
pub const BASE: &[(&str, &str)] = &[
    (
        "catalogue.yaml",
        "name: beispielkatalog
version: 1.0.0
categories:
  - {prefix: ARCH, name: Architektur}
  - {prefix: FID, name: Datentreue}
required_sections: [Beschreibung, Prüfung, Pass Criteria]
profile:
  fields:
    transport: {type: string, values: [stdio-only, dual, HTTP/SSE]}
    write_capable: {type: bool}
    deployment: {type: list, values: [local-stdio, Railway, Kubernetes]}
",
    ),
    (
        "checks/ARCH-001.md",
        "---
id: ARCH-001
title: \"Werkzeugnamen folgen einer Konvention\"
category: ARCH
severity: medium
applies_when: 'always'
---

# ARCH-001 — Werkzeugnamen folgen einer Konvention

## Beschreibung

Ein Modell wählt Werkzeuge über ihre Namen. Siehe auch [FID-001](FID-001.md).

House practice: Namenskonvention des Hauses.

## Prüfung

Die registrierten Werkzeuge auflisten.

## Pass Criteria

- [ ] Alle Namen folgen derselben Konvention.
",
    ),
    (
        "checks/FID-001.md",
        "---
id: FID-001
title: \"Zahlen werden unverändert durchgereicht\"
category: FID
severity: high
applies_when: 'write_capable == false'
---

# FID-001 — Zahlen werden unverändert durchgereicht

## Beschreibung

Werte aus der Quelle erreichen das Modell ohne Rundung.

Quelle: [MCP 2025-11-25, Tools](https://modelcontextprotocol.io/specification/2025-11-25/server/tools).

## Prüfung

Drei Datensätze mit der Quelle vergleichen.

## Pass Criteria

- [ ] Jede Zahl stimmt mit der Quelle überein.
",
    ),
    ("checks/MANIFEST.txt", "# Prüfungen des Beispielkatalogs\nARCH-001\nFID-001\n"),
    (
        "p.yaml",
        "transport: stdio-only\nwrite_capable: false\ndeployment: [local-stdio]\n",
    ),
    (
        "r.yaml",
        "results:
  ARCH-001: {status: pass, evidence: [\"tools/list: alle Namen in snake_case\"]}
  FID-001: {status: pass, evidence: [\"drei Stichproben stimmen mit der Quelle überein\"]}
",
    ),
];

/// The files of an example on disk, after its edits are applied.
#[derive(Debug, PartialEq, Eq)]
pub enum Content {
    Bytes(Vec<u8>),
    Link(&'static str),
    Fifo,
}

impl Example {
    /// Every file of the example, by path, in path order. `Err` names an edit of a base file
    /// that does not exist or a `find` text the base file does not hold.
    pub fn materialise(&self) -> Result<Vec<(&'static str, Content)>, String> {
        let mut files: std::collections::BTreeMap<&'static str, Content> = if self.over_base {
            BASE.iter()
                .map(|(p, t)| (*p, Content::Bytes(t.as_bytes().to_vec())))
                .collect()
        } else {
            Default::default()
        };
        for (path, edit) in self.files {
            let base = || match files.get(path) {
                Some(Content::Bytes(b)) => String::from_utf8(b.clone())
                    .map_err(|_| format!("`{path}` is not text, so it cannot be edited")),
                _ => Err(format!("`{path}` is not a file of the base catalogue")),
            };
            let content = match edit {
                Edit::Text { text } => Content::Bytes(text.as_bytes().to_vec()),
                Edit::Bytes { bytes } => Content::Bytes(bytes.to_vec()),
                Edit::Append { text } => Content::Bytes(format!("{}{text}", base()?).into_bytes()),
                Edit::Replace { find, with } => {
                    let old = base()?;
                    if !old.contains(find) {
                        return Err(format!("`{path}` does not contain `{find}`"));
                    }
                    Content::Bytes(old.replacen(find, with, 1).into_bytes())
                }
                Edit::Remove => {
                    files
                        .remove(path)
                        .ok_or_else(|| format!("`{path}` is not a file of the base catalogue"))?;
                    continue;
                }
                Edit::Link { target } => Content::Link(target),
                Edit::Fifo => Content::Fifo,
                Edit::Large { line, bytes } => {
                    let mut t = String::with_capacity(bytes + line.len());
                    while t.len() <= *bytes {
                        t.push_str(line);
                    }
                    Content::Bytes(t.into_bytes())
                }
            };
            files.insert(path, content);
        }
        Ok(files.into_iter().collect())
    }
}

/// Every explanation, in code order.
pub fn all() -> impl Iterator<Item = &'static Explanation> {
    [
        files::ROWS,
        frontmatter::ROWS,
        references::ROWS,
        snippets::ROWS,
        expressions::ROWS,
        forms::EXPRESSION_ROWS,
        expressions::VOCABULARY_ROWS,
        retired_rules::ROWS,
        audits::ROWS,
        documents::ROWS,
        forms::ROWS,
        probing::ROWS,
        expectations::ROWS,
    ]
    .into_iter()
    .flatten()
}

pub fn lookup(code: &str) -> Option<&'static Explanation> {
    all().find(|e| e.code == code)
}

/// Shorthands that keep the rows short.
mod row {
    pub use super::Edit::*;
    pub use super::{Edit, Example, Explanation, Run, V0_1_0};

    pub const LINT: Run = Run::Command {
        args: &["lint", "--format", "json"],
    };
    pub const VERIFY: Run = Run::Command {
        args: &["lint", "--verify", "--format", "json"],
    };
    pub const AUDIT: Run = Run::Command {
        args: &["audit", "p.yaml", "--results", "r.yaml", "--format", "json"],
    };

    /// An explanation of a code released in 0.1.0.
    pub const fn ex(
        code: &'static str,
        text: &'static str,
        bad: Example,
        good: Example,
    ) -> Explanation {
        Explanation {
            code,
            since: V0_1_0,
            text,
            bad,
            good,
        }
    }

    /// A replacement in the base check ARCH-001.
    pub const fn arch(find: &'static str, with: &'static str) -> (&'static str, super::Edit) {
        ("checks/ARCH-001.md", super::Edit::Replace { find, with })
    }

    /// A replacement in the base check FID-001.
    pub const fn fid(find: &'static str, with: &'static str) -> (&'static str, super::Edit) {
        ("checks/FID-001.md", super::Edit::Replace { find, with })
    }

    /// A replacement in the base catalogue.yaml.
    pub const fn cat(find: &'static str, with: &'static str) -> (&'static str, super::Edit) {
        ("catalogue.yaml", super::Edit::Replace { find, with })
    }

    /// Lines added at the end of the base catalogue.yaml.
    pub const fn cat_add(text: &'static str) -> (&'static str, super::Edit) {
        ("catalogue.yaml", super::Edit::Append { text })
    }

    /// A file with this text.
    pub const fn file(path: &'static str, text: &'static str) -> (&'static str, super::Edit) {
        (path, super::Edit::Text { text })
    }

    /// Files laid over the base catalogue.
    pub const fn over(files: &'static [(&'static str, super::Edit)], run: Run) -> Example {
        Example {
            over_base: true,
            files,
            run,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explanations_are_in_code_order_and_name_registered_codes() {
        let codes: Vec<&str> = all().map(|e| e.code).collect();
        for pair in codes.windows(2) {
            assert!(pair[0] < pair[1], "{} before {}", pair[0], pair[1]);
        }
        for c in codes {
            assert!(
                crate::diag::codes::lookup(c).is_some(),
                "{c} is not registered"
            );
        }
    }

    #[test]
    fn every_explanation_has_paragraphs_to_read() {
        for e in all() {
            assert!(e.paragraphs().count() >= 2, "{}: one paragraph", e.code);
        }
    }

    #[test]
    fn every_example_applies_to_the_base() {
        for e in all() {
            for ex in [&e.bad, &e.good] {
                if let Err(m) = ex.materialise() {
                    panic!("{}: {m}", e.code);
                }
            }
        }
    }
}
