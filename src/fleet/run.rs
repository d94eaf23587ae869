//! Run files: what one run of `collect --portfolio` did, one JSON object a line. A header line
//! names the portfolio (and its digest), the catalogue's fingerprint, the shard and the servers
//! of its share; then one line per server as it finished: its bucket, what was observed, the
//! digests an incremental run compares (definitions, artifact, catalogue), its results and how
//! long it took. Timings live here only, never in a report, so a merged report does not depend
//! on how the work was split. A resumed run appends a new header and the servers it adds; the
//! last line of a server wins.

use super::shard::Shard;
use crate::diag::{codes, Diagnostic, SourceMap};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The format's version, the key that tells a header from a server line.
pub const VERSION: u64 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub auditbook_run: u64,
    /// The portfolio as it was named.
    pub portfolio: String,
    /// sha256 of the portfolio file's bytes.
    pub portfolio_digest: String,
    /// The catalogue's fingerprint.
    pub catalogue: String,
    pub shard: Shard,
    /// The servers of this share, by name, sorted.
    pub declared: Vec<String>,
    /// Seconds since the Unix epoch when the run started.
    pub started: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Line {
    pub server: String,
    /// A bucket's name (`fleet::bucket`), or `skipped` for a server the run could not start
    /// (no target, a profile with errors, a name that is not a plain file name).
    pub bucket: String,
    /// Why it landed there when it was not assessed (what it answered; quoted).
    #[serde(default)]
    pub detail: Option<String>,
    /// The revisions it served.
    #[serde(default)]
    pub serves: Vec<String>,
    /// Digest of its definitions, when it showed them whole.
    #[serde(default)]
    pub definitions: Option<String>,
    /// Digest of what the entry says the server is (its version and target).
    pub artifact: String,
    /// The catalogue's fingerprint the results were judged against.
    pub catalogue: String,
    /// The results file's name (in the results folder) and its content as written.
    #[serde(default)]
    pub results_file: Option<String>,
    /// Kept as the JSON text it was written as: a fleet's run holds thousands, and parsed
    /// trees of them would not fit in memory.
    #[serde(default)]
    pub results: Option<Box<serde_json::value::RawValue>>,
    /// Probed checks by id: their status.
    #[serde(default)]
    pub checks: BTreeMap<String, String>,
    /// Whether the results were kept from an earlier run without a full probe.
    #[serde(default)]
    pub reused: bool,
    /// Kept from an earlier run without contacting the server at all (`--fresh-for`): what
    /// it shows is as old as `observed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uncontacted: bool,
    /// Seconds since the Unix epoch when the server was last contacted (0: not known).
    #[serde(default)]
    pub observed: u64,
    /// Milliseconds the server took.
    #[serde(default)]
    pub ms: u64,
}

/// One line of JSON with its newline.
pub fn line_text<T: Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string(v).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// What run files held: the headers (one per run file, the last of each) and the last line of
/// every server.
#[derive(Default)]
pub struct Runs {
    pub headers: Vec<Header>,
    pub lines: BTreeMap<String, Line>,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

impl Runs {
    /// Every server the headers declare, sorted.
    pub fn declared(&self) -> Vec<String> {
        let mut all: Vec<String> = self
            .headers
            .iter()
            .flat_map(|h| h.declared.iter().cloned())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// The shards of the run that no file given holds (`1/4`, …).
    pub fn missing_shards(&self) -> Vec<String> {
        let Some(first) = self.headers.first() else {
            return Vec::new();
        };
        let n = first.shard.count;
        (1..=n)
            .filter(|i| !self.headers.iter().any(|h| h.shard.index == *i))
            .map(|i| format!("{i}/{n}"))
            .collect()
    }
}

/// Read one run file's text into `runs`. A header that does not match the first one read
/// (another portfolio, catalogue or shard count) leaves that file out.
pub fn read_text(shown: &str, text: &str, runs: &mut Runs) {
    runs.sources.insert(shown.to_string(), Arc::from(text));
    let mut r = Reading::new(shown, runs);
    for (i, raw) in text.lines().enumerate() {
        r.line(i + 1, raw);
    }
    r.finish();
}

/// One run file read a line at a time (a fleet's run file can hold hundreds of megabytes:
/// it is never held whole).
pub struct Reading<'r> {
    shown: String,
    runs: &'r mut Runs,
    header: Option<Header>,
    lines: Vec<Line>,
    findings_before: usize,
}

impl<'r> Reading<'r> {
    pub fn new(shown: &str, runs: &'r mut Runs) -> Reading<'r> {
        let findings_before = runs.diagnostics.len();
        Reading {
            shown: shown.to_string(),
            runs,
            header: None,
            lines: Vec::new(),
            findings_before,
        }
    }

    fn bad(&mut self, line: usize, msg: String) {
        self.runs.diagnostics.push(
            Diagnostic::new(&codes::RUN_FILE_INVALID, msg)
                .file(self.shown.clone())
                .line(line),
        );
    }

    /// A line longer than the reader keeps: reported and left out.
    pub fn too_long(&mut self, n: usize, limit: usize) {
        self.bad(
            n,
            format!("line {n} is longer than {limit} bytes; it is left out"),
        );
    }

    /// Line `n` (1-based) of the file.
    pub fn line(&mut self, n: usize, raw: &str) {
        if raw.trim().is_empty() {
            return;
        }
        let v: Json = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => {
                // The last line of a run that was stopped may be cut short.
                self.bad(n, format!("line {n} is not JSON ({e}); it is left out"));
                return;
            }
        };
        if v.get("auditbook_run").is_some() {
            match serde_json::from_value::<Header>(v) {
                Ok(h) if h.auditbook_run != VERSION => self.bad(
                    n,
                    format!(
                        "the run file's version is {}; this auditbook reads version {VERSION}",
                        h.auditbook_run
                    ),
                ),
                Ok(h) => self.header = Some(h),
                Err(e) => self.bad(n, format!("the run header is not one ({e})")),
            }
            return;
        }
        if self.header.is_none() {
            self.bad(
                n,
                "a server line before the run's header line; it is left out".into(),
            );
            return;
        }
        match serde_json::from_value::<Line>(v) {
            Ok(l) => self.lines.push(l),
            Err(e) => self.bad(n, format!("line {n} is not a server's line ({e})")),
        }
    }

    /// The file is read: its lines join `runs` unless its header does not match.
    pub fn finish(mut self) {
        let Some(h) = self.header.take() else {
            // One finding is enough for a file whose lines were already found wanting.
            if self.runs.diagnostics.len() == self.findings_before {
                self.bad(1, "the file holds no run header line".into());
            }
            return;
        };
        if let Some(first) = self.runs.headers.first() {
            let mismatch = if first.portfolio_digest != h.portfolio_digest {
                Some("another portfolio")
            } else if first.catalogue != h.catalogue {
                Some("another catalogue")
            } else if first.shard.count != h.shard.count {
                Some("another number of shards")
            } else if self
                .runs
                .headers
                .iter()
                .any(|o| o.shard.index == h.shard.index)
            {
                Some("a shard already given")
            } else {
                None
            };
            if let Some(why) = mismatch {
                let first = first.portfolio.clone();
                self.bad(
                    1,
                    format!(
                        "this run file is of {why} than the first one merged ({first}); it is left out"
                    ),
                );
                return;
            }
        }
        for l in std::mem::take(&mut self.lines) {
            self.runs.lines.insert(l.server.clone(), l);
        }
        self.runs.headers.push(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(index: u64) -> String {
        line_text(&Header {
            auditbook_run: VERSION,
            portfolio: "pf.yaml".into(),
            portfolio_digest: "d".into(),
            catalogue: "c".into(),
            shard: Shard { index, count: 2 },
            declared: vec![format!("s{index}")],
            started: 0,
        })
    }

    fn server(name: &str, bucket: &str) -> String {
        format!("{{\"server\":\"{name}\",\"bucket\":\"{bucket}\",\"artifact\":\"a\",\"catalogue\":\"c\"}}\n")
    }

    #[test]
    fn the_last_line_of_a_server_wins_and_cut_lines_are_findings() {
        let mut runs = Runs::default();
        let text = format!(
            "{}{}{}{{\"server\":",
            header(1),
            server("s1", "timed-out"),
            server("s1", "both")
        );
        read_text("a.jsonl", &text, &mut runs);
        assert_eq!(runs.lines["s1"].bucket, "both");
        assert_eq!(runs.diagnostics.len(), 1);
        assert_eq!(runs.diagnostics[0].line, Some(4));
        assert_eq!(runs.missing_shards(), vec!["2/2".to_string()]);
        read_text("b.jsonl", &header(2), &mut runs);
        assert!(runs.missing_shards().is_empty());
        assert_eq!(runs.declared(), vec!["s1".to_string(), "s2".to_string()]);
    }

    #[test]
    fn a_line_before_the_header_and_a_second_copy_of_a_shard_are_refused() {
        let mut runs = Runs::default();
        read_text(
            "a.jsonl",
            &format!("{}{}", server("x", "both"), header(1)),
            &mut runs,
        );
        assert!(runs.lines.is_empty());
        read_text("b.jsonl", &header(1), &mut runs);
        assert_eq!(runs.headers.len(), 1);
        assert_eq!(runs.diagnostics.len(), 2);
    }
}
