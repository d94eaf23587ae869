//! The audit report as one serialisable value. Everything a reader sees is decided here; the
//! Markdown and HTML templates and the JSON output only lay this value out. Every list is in a
//! total order, and nothing depends on time or the machine, so two runs are byte-identical.

use super::applicability::{percent, Status as Gate, Summary};
use super::profile::{display_json, Checked};
use super::results::{Status, EFFORTS};
use super::score::Score;
use super::verdict::{Audit, Row, Verdict};
use super::waivers::State as WaiverState;
use super::Run;
use crate::diag::Level;
use crate::model::{Catalogue, Check};
use serde::Serialize;
use serde_json::{Map, Value as Json};

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub title: String,
    pub server: String,
    pub verdict: Verdict,
    /// One line a reader can act on.
    pub verdict_line: String,
    pub complete: bool,
    pub incomplete: Vec<String>,
    /// No results file was given: every applicable check is `todo`.
    pub plan: bool,
    pub policy: &'static str,
    /// The statuses the policy reports as findings.
    pub policy_statuses: Vec<&'static str>,
    /// Severities whose enforced failures block.
    pub blocking_severities: Vec<String>,
    pub counts: Counts,
    pub score: Score,
    pub measured: Vec<String>,
    pub concluded: Vec<String>,
    pub open: Vec<String>,
    pub profile: Vec<ProfileField>,
    pub categories: Vec<CategoryLine>,
    pub not_applicable_categories: Vec<NotApplicableCategory>,
    pub severities: Vec<SeverityLine>,
    /// Enforced checks whose status the policy counts; severity, then id.
    pub findings: Vec<FindingRow>,
    /// Advisory checks whose status the policy counts; severity, then id.
    pub advisory_findings: Vec<FindingRow>,
    /// One block per applicable fail or partial result; severity, then id.
    pub details: Vec<Detail>,
    pub blocking: Vec<String>,
    pub not_verified: Vec<Item>,
    pub missing: Vec<Item>,
    pub todo: Vec<Item>,
    pub rejected: Vec<Item>,
    pub undecided: Vec<Item>,
    /// Fail and partial results in the order to fix them: severity, then effort, then id.
    pub remediation: Vec<Step>,
    /// Fail and partial results accepted by an active waiver; severity, then id.
    pub accepted_risks: Vec<AcceptedRisk>,
    /// Every waiver read, with its state, by check id.
    pub waivers: Vec<WaiverLine>,
    /// The day waivers were judged on (`None` when there are none).
    pub waivers_as_of: Option<String>,
    /// Every check of the catalogue with its applicability and status (for `--previous`).
    pub checks: Vec<CheckLine>,
    pub problems: Vec<Problem>,
    pub comparison: Option<Comparison>,
    /// Set when the results carry a probe's `probe:` block.
    pub probe: Option<ProbeSummary>,
    /// Who gathered each applicable check's evidence; set when any result came from a machine.
    pub evidence: Option<super::evidence_by::EvidenceSummary>,
    pub meta: Meta,
}

#[derive(Clone, Debug, Serialize)]
pub struct Counts {
    pub checks: usize,
    pub applicable: usize,
    /// Applicable checks by status, every status listed, in status order.
    pub by_status: Map<String, Json>,
    pub findings: usize,
    pub advisory_findings: usize,
    pub would_have_blocked: usize,
    pub blocking: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct ProfileField {
    pub field: String,
    /// The value as written (null when the profile does not give the field).
    pub value: Json,
    /// The value as the expression language prints it, for reading.
    pub display: String,
    pub declared: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct CategoryLine {
    pub prefix: String,
    pub name: String,
    pub applicable: usize,
    pub total: usize,
    pub share: u32,
    pub findings: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct NotApplicableCategory {
    pub prefix: String,
    pub name: String,
    pub total: usize,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeverityLine {
    pub severity: String,
    pub applicable: usize,
    /// Applicable checks of this severity by status, every status listed, in status order.
    pub by_status: Map<String, Json>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Sources {
    pub link: String,
    pub spec_ref: Option<String>,
    pub pdf_ref: Option<String>,
    /// The check's external sources (its cited specification pages, SEPs, RFCs, laws), in
    /// the order the check lists them, each address once.
    pub external: Vec<ExternalSource>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ExternalSource {
    /// The link's text, or its address when it has none.
    pub label: String,
    pub url: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FindingRow {
    pub id: String,
    pub title: String,
    pub category: String,
    pub severity: String,
    pub adoption: &'static str,
    pub status: &'static str,
    pub blocking: bool,
    pub would_have_blocked: bool,
    pub sources: Sources,
    /// Who recorded the result: `probe` when `auditbook probe` observed it, else a person.
    pub source: Option<String>,
}

/// A finding with what was observed and what to do about it.
#[derive(Clone, Debug, Serialize)]
pub struct Detail {
    #[serde(flatten)]
    pub finding: FindingRow,
    pub evidence: Vec<String>,
    pub gaps: Vec<String>,
    pub effort: Option<String>,
    pub remediation: Option<String>,
    /// The Remediation rendered as HTML (raw HTML in it escaped), for the HTML report only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediation_html: Option<String>,
    /// Until when an active waiver accepts this result (`None`: not waived).
    pub waived_until: Option<String>,
    /// The line of the result in the results file.
    pub line: Option<usize>,
}

/// A fail or partial result that an approver accepted until a date.
#[derive(Clone, Debug, Serialize)]
pub struct AcceptedRisk {
    #[serde(flatten)]
    pub finding: FindingRow,
    pub reason: String,
    pub approved_by: String,
    pub date: String,
    pub until: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct WaiverLine {
    pub check: String,
    pub state: WaiverState,
    pub reason: String,
    pub approved_by: String,
    pub date: String,
    pub until: String,
    pub file: String,
    pub line: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Item {
    pub id: String,
    pub title: String,
    pub severity: String,
    pub adoption: &'static str,
    /// What was recorded or why the item is listed.
    pub note: String,
    pub link: String,
    /// Who recorded the result, as in `FindingRow::source`.
    pub source: Option<String>,
}

/// A result recorded against other server definitions than the latest probe saw.
#[derive(Clone, Debug, Serialize)]
pub struct StaleItem {
    pub id: String,
    pub title: String,
    pub link: String,
    pub status: Option<Status>,
    pub source: Option<String>,
    /// The definitions digest the result was recorded against.
    pub recorded_against: String,
}

/// What the probe behind the results saw, and which results it recorded.
#[derive(Clone, Debug, Serialize)]
pub struct ProbeSummary {
    /// The definitions digest of the latest probe (`probe.definitions` in the results file).
    pub latest: String,
    /// Applicable checks whose result the probe recorded (`source: probe`), by id.
    pub recorded: Vec<String>,
    /// Results recorded against other definitions than `latest`, by id: the re-audit queue.
    pub stale: Vec<StaleItem>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub rank: usize,
    pub id: String,
    pub title: String,
    pub severity: String,
    pub adoption: &'static str,
    pub status: &'static str,
    pub effort: Option<String>,
    /// Where the effort came from: `result` or `check`.
    pub effort_from: Option<&'static str>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CheckLine {
    pub id: String,
    pub title: String,
    pub category: String,
    pub severity: String,
    pub applicability: Gate,
    pub status: Option<Status>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub code: &'static str,
    pub level: Level,
    pub message: String,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub id: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct StatusChange {
    pub id: String,
    pub then: Option<String>,
    pub now: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub previous: String,
    /// Why the comparison was refused; `None` when it was made.
    pub refused: Option<String>,
    pub verdict_then: Option<String>,
    pub score_then: Option<Json>,
    pub changes: Vec<StatusChange>,
    /// Checks that now fail or are partial but did not before.
    pub worse: Vec<String>,
    /// Checks that failed or were partial before and now pass.
    pub fixed: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Meta {
    pub engine: EngineMeta,
    pub catalogue: CatalogueMeta,
    pub profile: FileMeta,
    pub results: Option<ResultsMeta>,
    pub policy: &'static str,
    pub scoring: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct EngineMeta {
    pub name: &'static str,
    pub version: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct CatalogueMeta {
    pub name: String,
    pub version: Option<String>,
    pub root: String,
    pub checks: usize,
    /// sha256 over every catalogue file read.
    pub files_digest: String,
    /// sha256 over what an audit depends on; `--previous` compares this.
    pub semantic_fingerprint: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FileMeta {
    pub file: String,
    pub server: Option<String>,
    pub digest: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ResultsMeta {
    pub file: String,
    pub digest: String,
    /// As written, in the file's order.
    pub audit_meta: Map<String, Json>,
}

/// Choices that shape the report but not the verdict.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The catalogue root as the user named it.
    pub catalogue_root: String,
    /// Links to checks: `BASE/checks/ID.md` instead of a path relative to `link_from`.
    pub check_url_base: Option<String>,
    /// Prefix making a check file's root-relative path reachable from where the report is read.
    pub link_prefix: String,
    /// `--previous`: the file as named and its parsed content (or why it could not be read).
    pub previous: Option<(String, Result<Json, String>)>,
    /// The day waivers were judged on.
    pub as_of: String,
    /// Render catalogue Markdown as HTML too (for the HTML report).
    pub html: bool,
}

/// Where links in a check's text lead from the report: ids and relative check links to the
/// check files as the report links them, addresses as they are; anything else keeps its text.
struct ReportLinks<'a> {
    cat: &'a Catalogue,
    options: &'a Options,
}

impl crate::text::html_markdown::Links for ReportLinks<'_> {
    fn href(&self, dest: &str) -> Option<String> {
        let dest = dest.trim();
        let lower = dest.to_ascii_lowercase();
        if lower.starts_with("https://")
            || lower.starts_with("http://")
            || lower.starts_with("mailto:")
        {
            return Some(dest.to_string());
        }
        let (path, fragment) = dest.split_once('#').unwrap_or((dest, ""));
        let stem = path.rsplit('/').next()?.strip_suffix(".md")?;
        let c = self.cat.check(stem)?;
        let frag = if fragment.is_empty() {
            String::new()
        } else {
            format!("#{fragment}")
        };
        Some(link(c, self.options) + &frag)
    }

    fn id_href(&self, id: &str) -> Option<String> {
        self.cat.check(id).map(|c| link(c, self.options))
    }
}

fn link(c: &Check, o: &Options) -> String {
    match &o.check_url_base {
        Some(base) => format!("{}/{}", base.trim_end_matches('/'), c.file),
        None if o.link_prefix.is_empty() || o.link_prefix == "." => c.file.to_string(),
        None => format!("{}/{}", o.link_prefix.trim_end_matches('/'), c.file),
    }
}

fn sources(c: &Check, o: &Options) -> Sources {
    Sources {
        link: link(c, o),
        spec_ref: c.spec_ref().map(String::from),
        pdf_ref: c.pdf_ref().map(String::from),
        external: external_sources(c),
    }
}

fn external_sources(c: &Check) -> Vec<ExternalSource> {
    let mut seen = std::collections::BTreeSet::new();
    c.sources
        .iter()
        .filter(|s| seen.insert(&*s.url))
        .map(|s| ExternalSource {
            label: s.shown().to_string(),
            url: s.url.to_string(),
        })
        .collect()
}

/// The leading effort token of a check's Effort section (`S — one afternoon` → `S`).
fn check_effort(c: &Check) -> Option<String> {
    let text = c.section_text("Effort")?;
    let first = text
        .split(|ch: char| ch.is_whitespace() || ch == '—' || ch == '-' || ch == ':' || ch == ',')
        .find(|t| !t.is_empty())?
        .trim_matches(|ch: char| ch == '*' || ch == '`')
        .to_uppercase();
    EFFORTS.contains(&first.as_str()).then_some(first)
}

/// The effort to fix a check and where it came from: the result's `effort`, else the check's
/// Effort section.
fn effort(r: &Row) -> (Option<String>, Option<&'static str>) {
    match r.recorded.as_ref().and_then(|x| x.effort.clone()) {
        Some(e) => (Some(e), Some("result")),
        None => match check_effort(r.check) {
            Some(e) => (Some(e), Some("check")),
            None => (None, None),
        },
    }
}

fn effort_rank(e: Option<&str>) -> usize {
    e.and_then(|e| EFFORTS.iter().position(|x| *x == e))
        .unwrap_or(EFFORTS.len())
}

fn server_name(checked: &Checked, run: &Run) -> String {
    if let Some(s) = &checked.profile.server {
        return s.clone();
    }
    if let Some(s) = run.results.as_ref().and_then(|r| r.meta("server_name")) {
        if !s.trim().is_empty() {
            return s.to_string();
        }
    }
    let file = std::path::Path::new(&checked.profile.source.shown)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut stem = file.as_str();
    for ext in [".json", ".yaml", ".yml", ".profile"] {
        stem = stem.strip_suffix(ext).unwrap_or(stem);
    }
    stem.to_string()
}

fn remediation_of(r: &Row) -> Option<String> {
    r.check
        .section_text("Remediation")
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

fn status_str(r: &Row) -> &'static str {
    r.status.map(Status::as_str).unwrap_or("")
}

fn finding_row(r: &Row, audit: &Audit, o: &Options) -> FindingRow {
    let c = r.check;
    FindingRow {
        id: c.id.to_string(),
        title: c.title.clone(),
        category: c.category.to_string(),
        severity: c.severity.to_string(),
        adoption: c.adoption.as_str(),
        status: status_str(r),
        blocking: audit.blocking.iter().any(|b| b.as_str() == c.id.as_str()),
        would_have_blocked: audit
            .would_have_blocked
            .iter()
            .any(|b| b.as_str() == c.id.as_str()),
        sources: sources(c, o),
        source: source_of(r),
    }
}

fn source_of(r: &Row) -> Option<String> {
    r.recorded.as_ref().and_then(|x| x.source.clone())
}

fn item(row: &Row, note: String, o: &Options) -> Item {
    Item {
        id: row.check.id.to_string(),
        title: row.check.title.clone(),
        severity: row.check.severity.to_string(),
        adoption: row.check.adoption.as_str(),
        note,
        link: link(row.check, o),
        source: source_of(row),
    }
}

fn by_status(rows: &[&Row]) -> Map<String, Json> {
    Status::ALL
        .iter()
        .map(|s| {
            let n = rows.iter().filter(|r| r.status == Some(*s)).count();
            (s.as_str().to_string(), Json::from(n))
        })
        .collect()
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What the sections of a report read: the catalogue, the audit and its applicable rows, the
/// options.
struct Ctx<'a, 'c> {
    cat: &'a Catalogue,
    run: &'a Run<'c>,
    audit: &'a Audit<'c>,
    o: &'a Options,
    applicable: Vec<&'a Row<'c>>,
    /// The blocking severities as a reader says them (`critical or high`).
    blocking_names: String,
}

impl<'a, 'c> Ctx<'a, 'c> {
    /// The rows of some ids of the audit, in the order given.
    fn rows<'i>(&self, ids: &'i [String]) -> impl Iterator<Item = &'a Row<'c>> + 'i
    where
        'a: 'i,
    {
        let audit = self.audit;
        ids.iter().filter_map(move |id| audit.row(id))
    }

    fn findings_of(&self, ids: &[String]) -> Vec<FindingRow> {
        self.rows(ids)
            .map(|r| finding_row(r, self.audit, self.o))
            .collect()
    }

    fn items(&self, ids: &[String], note: &dyn Fn(&Row) -> String) -> Vec<Item> {
        self.rows(ids).map(|r| item(r, note(r), self.o)).collect()
    }
}

pub fn build(cat: &Catalogue, checked: &Checked, run: &Run, score: Score, o: &Options) -> Report {
    let audit = &run.audit;
    let server = server_name(checked, run);
    let fp = crate::snapshot::fingerprints(cat);
    let blocking_sev = cat.config.blocking_severities();
    let x = Ctx {
        cat,
        run,
        audit,
        o,
        applicable: audit.applicable().collect(),
        blocking_names: blocking_sev.join(" or "),
    };
    let failing = failing(&x);
    let summary = run.applicability.summary(cat);
    let waivers = waiver_lines(audit);
    let probe = probe_summary(run, &x.applicable, o);
    let evidence = super::evidence_by::summarise(&x.applicable, &|r| link(r.check, o));
    let comparison = o
        .previous
        .as_ref()
        .map(|(file, prev)| compare(file, prev, &fp.semantic, &server, audit));
    Report {
        title: format!("Audit report: {server}"),
        verdict: audit.verdict,
        verdict_line: verdict_line(&x),
        complete: audit.incomplete.is_empty(),
        incomplete: audit.incomplete.clone(),
        plan: audit.planned,
        policy: audit.policy.as_str(),
        policy_statuses: audit.policy.statuses().iter().map(|s| s.as_str()).collect(),
        blocking_severities: blocking_sev,
        counts: Counts {
            checks: cat.checks.len(),
            applicable: x.applicable.len(),
            by_status: by_status(&x.applicable),
            findings: audit.findings.len(),
            advisory_findings: audit.advisory.len(),
            would_have_blocked: audit.would_have_blocked.len(),
            blocking: audit.blocking.len(),
        },
        measured: measured(&x, probe.as_ref()),
        concluded: concluded(&x, &score),
        open: open(&x, probe.as_ref()),
        profile: profile_fields(cat, checked),
        categories: category_lines(&x, &summary),
        not_applicable_categories: not_applicable_categories(run, &summary),
        severities: severity_lines(&x),
        findings: x.findings_of(&audit.findings),
        advisory_findings: x.findings_of(&audit.advisory),
        details: details(&x, &failing),
        blocking: audit.blocking.clone(),
        not_verified: x.items(&audit.not_verified, &|r| {
            r.recorded
                .as_ref()
                .and_then(|x| x.evidence.first().cloned())
                .unwrap_or_default()
        }),
        missing: x.items(&audit.missing, &|_| "no result recorded".into()),
        todo: x.items(&audit.todo, &|_| "not yet looked at".into()),
        rejected: x.items(&audit.rejected, &|r| r.rejected.clone().unwrap_or_default()),
        undecided: x.items(&audit.undecided, &|r| r.reason.clone()),
        remediation: remediation_order(&x, &failing),
        accepted_risks: accepted_risks(&x),
        waivers_as_of: (!waivers.is_empty()).then(|| o.as_of.clone()),
        waivers,
        checks: check_lines(audit),
        problems: problems(audit),
        comparison,
        probe,
        evidence,
        meta: meta(&x, checked, &fp, &score),
        score,
        server,
    }
}

/// The applicable checks that fail or partly fail, most severe first.
fn failing<'a, 'c>(x: &Ctx<'a, 'c>) -> Vec<&'a Row<'c>> {
    let mut failing: Vec<&Row> = x
        .applicable
        .iter()
        .copied()
        .filter(|r| matches!(r.status, Some(Status::Fail | Status::Partial)))
        .collect();
    failing.sort_by_key(|r| {
        (
            x.cat.config.severity_rank(&r.check.severity),
            r.check.id.clone(),
        )
    });
    failing
}

/// One detail per failing check: its evidence, gaps, effort and remediation.
fn details(x: &Ctx, failing: &[&Row]) -> Vec<Detail> {
    let (cat, o) = (x.cat, x.o);
    failing
        .iter()
        .map(|r| {
            let rec = r.recorded.as_ref();
            Detail {
                finding: finding_row(r, x.audit, o),
                evidence: rec.map(|x| x.evidence.clone()).unwrap_or_default(),
                gaps: rec.map(|x| x.gaps.clone()).unwrap_or_default(),
                effort: effort(r).0,
                remediation: remediation_of(r),
                remediation_html: remediation_of(r).filter(|_| o.html).map(|t| {
                    crate::text::html_markdown::to_html(&t, &ReportLinks { cat, options: o })
                }),
                waived_until: r.waiver.as_ref().map(|w| w.until.clone()),
                line: rec.map(|x| x.line),
            }
        })
        .collect()
}

/// The failing checks in the order to fix them: most severe first, then the smallest effort.
fn remediation_order(x: &Ctx, failing: &[&Row]) -> Vec<Step> {
    let mut remediation: Vec<Step> = failing
        .iter()
        .map(|r| {
            let c = r.check;
            let (effort, effort_from) = effort(r);
            Step {
                rank: 0,
                id: c.id.to_string(),
                title: c.title.clone(),
                severity: c.severity.to_string(),
                adoption: c.adoption.as_str(),
                status: status_str(r),
                effort,
                effort_from,
            }
        })
        .collect();
    remediation.sort_by_key(|s| {
        (
            x.cat.config.severity_rank(&s.severity),
            effort_rank(s.effort.as_deref()),
            s.id.clone(),
        )
    });
    for (i, s) in remediation.iter_mut().enumerate() {
        s.rank = i + 1;
    }
    remediation
}

fn accepted_risks(x: &Ctx) -> Vec<AcceptedRisk> {
    x.rows(&x.audit.accepted)
        .filter_map(|r| {
            let w = r.waiver.as_ref()?;
            Some(AcceptedRisk {
                finding: finding_row(r, x.audit, x.o),
                reason: w.reason.clone(),
                approved_by: w.approved_by.clone(),
                date: w.date.clone(),
                until: w.until.clone(),
            })
        })
        .collect()
}

fn waiver_lines(audit: &Audit) -> Vec<WaiverLine> {
    audit
        .waivers
        .entries
        .iter()
        .map(|(w, state)| WaiverLine {
            check: w.check.clone(),
            state: *state,
            reason: w.reason.clone(),
            approved_by: w.approved_by.clone(),
            date: w.date.clone(),
            until: w.until.clone(),
            file: w.file.clone(),
            line: w.line,
        })
        .collect()
}

fn category_lines(x: &Ctx, summary: &Summary) -> Vec<CategoryLine> {
    let audit = x.audit;
    summary
        .by_category
        .iter()
        .map(|c| CategoryLine {
            prefix: c.prefix.clone(),
            name: c.name.clone(),
            applicable: c.applies,
            total: c.total,
            share: c.share,
            findings: audit
                .findings
                .iter()
                .chain(audit.advisory.iter())
                .filter(|id| audit.row(id).is_some_and(|r| r.check.category == c.prefix))
                .count(),
        })
        .collect()
}

/// Categories none of whose checks apply, each with why (counts by reason, one example).
fn not_applicable_categories(run: &Run, summary: &Summary) -> Vec<NotApplicableCategory> {
    summary
        .by_category
        .iter()
        .filter(|c| c.applies == 0 && c.total > 0)
        .map(|c| {
            let mut parts = Vec::new();
            for (n, what) in [
                (c.no_match, "no-match"),
                (c.baseline_mismatch, "baseline-mismatch"),
                (c.baseline_unresolved, "baseline-unresolved"),
                (c.error, "error"),
            ] {
                if n > 0 {
                    parts.push(format!("{n} {what}"));
                }
            }
            let example = run
                .applicability
                .entries
                .iter()
                .find(|e| e.category == c.prefix)
                .map(|e| format!("; e.g. {}: {}", e.id, e.reason))
                .unwrap_or_default();
            NotApplicableCategory {
                prefix: c.prefix.clone(),
                name: c.name.clone(),
                total: c.total,
                reason: format!("no check applies ({}){example}", parts.join(", ")),
            }
        })
        .collect()
}

fn severity_lines(x: &Ctx) -> Vec<SeverityLine> {
    x.cat
        .config
        .severities()
        .into_iter()
        .map(|sev| {
            let of: Vec<&Row> = x
                .applicable
                .iter()
                .copied()
                .filter(|r| r.check.severity == sev)
                .collect();
            SeverityLine {
                applicable: of.len(),
                by_status: by_status(&of),
                severity: sev,
            }
        })
        .collect()
}

/// Every field the profile gives or the catalogue declares, in path order.
fn profile_fields(cat: &Catalogue, checked: &Checked) -> Vec<ProfileField> {
    let declared = cat.config.profile.as_ref().map(|p| &p.fields);
    let mut paths: Vec<&String> = checked.profile.fields.keys().collect();
    if let Some(d) = declared {
        paths.extend(d.keys());
    }
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .map(|p| ProfileField {
            field: p.clone(),
            value: checked.profile.fields.get(p).cloned().unwrap_or(Json::Null),
            display: checked
                .profile
                .fields
                .get(p)
                .map(display_json)
                .unwrap_or_else(|| "(not given)".into()),
            declared: declared.is_none_or(|d| d.contains_key(p)),
        })
        .collect()
}

fn verdict_line(x: &Ctx) -> String {
    let audit = x.audit;
    let blocking_names = &x.blocking_names;
    let n_findings = audit.findings.len();
    match audit.verdict {
        Verdict::NotProductionReady => format!(
            "Fix {} first: {} with status fail.",
            audit.blocking.join(", "),
            plural(
                audit.blocking.len(),
                &format!("enforced {blocking_names} check"),
                &format!("enforced {blocking_names} checks")
            )
        ),
        Verdict::Incomplete => format!(
            "Not decided yet: {}. A verdict needs every applicable check decided.",
            audit.incomplete.join("; ")
        ),
        Verdict::ProductionReady if n_findings == 0 && audit.advisory.is_empty() => format!(
            "No enforced {blocking_names} check fails, and nothing is open under the {} policy.",
            audit.policy.as_str()
        ),
        Verdict::ProductionReady => format!(
            "No enforced {blocking_names} check fails; {} and {} remain: work through them in the remediation order.",
            plural(n_findings, "finding", "findings"),
            plural(audit.advisory.len(), "advisory finding", "advisory findings")
        ),
    }
}

/// What was measured: how many checks apply, what was recorded, what a probe recorded.
fn measured(x: &Ctx, probe: Option<&ProbeSummary>) -> Vec<String> {
    let (cat, audit, applicable) = (x.cat, x.audit, &x.applicable);
    let evidence_items: usize = applicable
        .iter()
        .filter_map(|r| r.recorded.as_ref())
        .map(|x| x.evidence.len())
        .sum();
    let recorded = applicable.iter().filter(|r| r.recorded.is_some()).count();
    let counts_line = by_status(applicable)
        .into_iter()
        .filter(|(_, n)| n.as_u64().is_some_and(|n| n > 0))
        .map(|(s, n)| format!("{s} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut measured = vec![format!(
        "{} of {} checks apply to this profile ({}%).",
        applicable.len(),
        cat.checks.len(),
        percent(applicable.len(), cat.checks.len())
    )];
    if audit.planned {
        measured.push(
            "No results file: nothing has been observed yet; every applicable check is todo."
                .into(),
        );
    } else {
        measured.push(format!(
            "{} recorded for applicable checks, with {} evidence items.",
            plural(recorded, "result", "results"),
            evidence_items
        ));
        measured.push(format!("Statuses of the applicable checks: {counts_line}."));
    }
    if let Some(p) = probe.filter(|p| !p.recorded.is_empty()) {
        measured.push(format!(
            "{} recorded by a probe of the server (source: probe): {}.",
            plural(p.recorded.len(), "result was", "results were"),
            p.recorded.join(", ")
        ));
    }
    measured
}

/// What the audit concludes: the verdict, what blocks, the findings, waivers and the score.
fn concluded(x: &Ctx, score: &Score) -> Vec<String> {
    let audit = x.audit;
    let blocking_names = &x.blocking_names;
    let mut concluded = vec![format!("Verdict: {}.", audit.verdict.as_str())];
    concluded.push(if audit.blocking.is_empty() {
        format!("No enforced {blocking_names} check fails.")
    } else {
        format!(
            "Blocking: {} ({}).",
            audit.blocking.join(", "),
            plural(
                audit.blocking.len(),
                "enforced check fails",
                "enforced checks fail"
            )
        )
    });
    concluded.push(format!(
        "{} and {} under the {} policy ({}).",
        plural(audit.findings.len(), "finding", "findings"),
        plural(
            audit.advisory.len(),
            "advisory finding",
            "advisory findings"
        ),
        audit.policy.as_str(),
        audit
            .policy
            .statuses()
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if !audit.accepted.is_empty() {
        concluded.push(format!(
            "Accepted risks (waived, listed with their approvers): {}.",
            audit.accepted.join(", ")
        ));
    }
    if !audit.would_have_blocked.is_empty() {
        concluded.push(format!(
            "Would have blocked if enforced: {}.",
            audit.would_have_blocked.join(", ")
        ));
    }
    concluded.push(format!("{}; {}.", score.headline, score.share_line()));
    if let Some(t) = &score.to_final {
        concluded.push(t.clone());
    }
    concluded
}

/// What is still open: undecided checks by kind, input errors, stale probe results.
fn open(x: &Ctx, probe: Option<&ProbeSummary>) -> Vec<String> {
    let audit = x.audit;
    let mut open = Vec::new();
    for (ids, what) in [
        (&audit.not_verified, "not verified (looked, could not tell)"),
        (&audit.todo, "todo (not yet looked at)"),
        (&audit.missing, "missing (no result)"),
        (&audit.rejected, "rejected (result failed validation)"),
        (&audit.undecided, "undecided (applicability error)"),
    ] {
        if !ids.is_empty() {
            open.push(format!("{} {what}: {}.", ids.len(), ids.join(", ")));
        }
    }
    let problem_errors = audit
        .problems
        .iter()
        .filter(|d| d.level == Level::Error)
        .count();
    if problem_errors > 0 {
        open.push(format!(
            "{} in the profile or results file (listed under Input problems).",
            plural(problem_errors, "error", "errors")
        ));
    }
    if let Some(p) = probe.filter(|p| !p.stale.is_empty()) {
        let ids: Vec<&str> = p.stale.iter().map(|s| s.id.as_str()).collect();
        open.push(format!(
            "{} stale (recorded against other server definitions than the latest probe saw): {}.",
            ids.len(),
            ids.join(", ")
        ));
    }
    if open.is_empty() {
        open.push("Nothing is open: every applicable check has a decided result.".into());
    }
    open
}

fn check_lines(audit: &Audit) -> Vec<CheckLine> {
    audit
        .rows
        .iter()
        .map(|r| CheckLine {
            id: r.check.id.to_string(),
            title: r.check.title.clone(),
            category: r.check.category.to_string(),
            severity: r.check.severity.to_string(),
            applicability: r.gate,
            status: r.status,
        })
        .collect()
}

fn problems(audit: &Audit) -> Vec<Problem> {
    audit
        .problems
        .iter()
        .map(|d| Problem {
            code: d.code,
            level: d.level,
            message: d.message.clone(),
            file: d.file.clone(),
            line: d.line,
            id: d.id.clone(),
        })
        .collect()
}

/// What the report was made from: engine, catalogue (with fingerprints), profile, results.
fn meta(x: &Ctx, checked: &Checked, fp: &crate::snapshot::Fingerprints, score: &Score) -> Meta {
    let cat = x.cat;
    Meta {
        engine: EngineMeta {
            name: env!("CARGO_PKG_NAME"),
            version: env!("CARGO_PKG_VERSION"),
        },
        catalogue: CatalogueMeta {
            name: cat.name().to_string(),
            version: cat.config.version.clone(),
            root: x.o.catalogue_root.clone(),
            checks: cat.checks.len(),
            files_digest: fp.bytes.clone(),
            semantic_fingerprint: fp.semantic.clone(),
        },
        profile: FileMeta {
            file: checked.profile.source.shown.clone(),
            server: checked.profile.server.clone(),
            digest: checked.profile.source.digest.clone(),
        },
        results: x.run.results.as_ref().map(|r| ResultsMeta {
            file: r.shown.clone(),
            digest: r.digest.clone(),
            audit_meta: r
                .meta
                .iter()
                .map(|(k, v)| (k.clone(), Json::String(v.clone())))
                .collect(),
        }),
        policy: x.audit.policy.as_str(),
        scoring: score.policy.describe(),
    }
}

/// The probe behind the results, when the results file has a `probe:` block: which applicable
/// results it recorded, and which results are stale against it.
fn probe_summary(run: &Run, applicable: &[&Row], o: &Options) -> Option<ProbeSummary> {
    let results = run.results.as_ref()?;
    let latest = results.latest_probe.clone()?;
    let recorded = applicable
        .iter()
        .filter(|r| {
            source_of(r).is_some_and(|s| s.split('+').any(|p| p == super::results::PROBE_SOURCE))
        })
        .map(|r| r.check.id.to_string())
        .collect();
    let stale = results
        .stale
        .iter()
        .filter_map(|id| run.audit.row(id))
        .map(|r| StaleItem {
            id: r.check.id.to_string(),
            title: r.check.title.clone(),
            link: link(r.check, o),
            status: r.status,
            source: source_of(r),
            recorded_against: r
                .recorded
                .as_ref()
                .and_then(|x| x.fingerprint.clone())
                .unwrap_or_default(),
        })
        .collect();
    Some(ProbeSummary {
        latest,
        recorded,
        stale,
    })
}

/// Compare with an earlier json report of the same server, or say why not.
fn compare(
    file: &str,
    prev: &Result<Json, String>,
    semantic: &str,
    server: &str,
    audit: &Audit,
) -> Comparison {
    let mut c = Comparison {
        previous: file.to_string(),
        refused: None,
        verdict_then: None,
        score_then: None,
        changes: Vec::new(),
        worse: Vec::new(),
        fixed: Vec::new(),
    };
    let prev = match comparable(prev, semantic, server) {
        Ok(v) => v,
        Err(why) => {
            c.refused = Some(why);
            return c;
        }
    };
    c.verdict_then = prev
        .get("verdict")
        .and_then(Json::as_str)
        .map(str::to_string);
    c.score_then = prev.pointer("/score/value").cloned();
    let mut then = std::collections::BTreeMap::new();
    if let Some(items) = prev.get("checks").and_then(Json::as_array) {
        for i in items {
            if let Some(id) = i.get("id").and_then(Json::as_str) {
                then.insert(
                    id.to_string(),
                    i.get("status").and_then(Json::as_str).map(str::to_string),
                );
            }
        }
    }
    let bad = |s: Option<&str>| matches!(s, Some("fail" | "partial"));
    for r in &audit.rows {
        let now = r.status.map(|s| s.as_str().to_string());
        let was = then.get(r.check.id.as_str()).cloned().flatten();
        if was != now {
            if bad(now.as_deref()) && !bad(was.as_deref()) {
                c.worse.push(r.check.id.to_string());
            }
            if bad(was.as_deref()) && now.as_deref() == Some("pass") {
                c.fixed.push(r.check.id.to_string());
            }
            c.changes.push(StatusChange {
                id: r.check.id.to_string(),
                then: was,
                now,
            });
        }
    }
    c
}

/// The previous report, when its statuses can be compared with this audit's: same catalogue
/// semantics, same server. Otherwise why not.
fn comparable<'p>(
    prev: &'p Result<Json, String>,
    semantic: &str,
    server: &str,
) -> Result<&'p Json, String> {
    let prev = prev.as_ref().map_err(Clone::clone)?;
    let Some(then_fp) = prev
        .pointer("/meta/catalogue/semantic_fingerprint")
        .and_then(Json::as_str)
    else {
        return Err(
            "it is not an auditbook json audit report (no meta.catalogue.semantic_fingerprint)"
                .into(),
        );
    };
    if then_fp != semantic {
        return Err(format!(
            "the catalogue changed semantically between the two audits (fingerprint {} then, {} now): checks, applicability or evidence rules differ, so statuses are not comparable",
            short(then_fp),
            short(semantic)
        ));
    }
    let then_server = prev.get("server").and_then(Json::as_str).unwrap_or("");
    if then_server != server {
        return Err(format!(
            "it audits server `{then_server}`, this report audits `{server}`"
        ));
    }
    Ok(prev)
}

fn short(fp: &str) -> String {
    fp.chars().take(12).collect()
}
