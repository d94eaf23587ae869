//! Which checks apply to a profile, each with exactly one reason, decided by gates in the order
//! of the catalogue format (section 5): the baseline gate first, then the expression. An
//! expression that cannot be evaluated is `error`, never folded into `no-match`.

use super::profile::Profile;
use crate::dsl::{self, EvalError};
use crate::model::config::BaselineConfig;
use crate::model::{Catalogue, Check};
use serde::Serialize;
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    BaselineUnresolved,
    BaselineMismatch,
    Applies,
    NoMatch,
    Error,
}

impl Status {
    /// In gate order.
    pub const ALL: [Status; 5] = [
        Status::BaselineUnresolved,
        Status::BaselineMismatch,
        Status::Applies,
        Status::NoMatch,
        Status::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::BaselineUnresolved => "baseline-unresolved",
            Status::BaselineMismatch => "baseline-mismatch",
            Status::Applies => "applies",
            Status::NoMatch => "no-match",
            Status::Error => "error",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub id: String,
    pub status: Status,
    pub reason: String,
    pub category: String,
    pub severity: String,
    pub adoption: &'static str,
    pub title: String,
    /// Profile fields the decision read (the baseline field for the baseline gates).
    #[serde(skip)]
    pub reads: Vec<String>,
}

impl Entry {
    /// The entry as the JSON outputs show it (without the title and the fields it read).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "status": self.status,
            "reason": self.reason,
            "category": self.category,
            "severity": self.severity,
            "adoption": self.adoption,
        })
    }
}

#[derive(Clone, Debug, Default)]
pub struct Applicability {
    /// One entry per check, sorted by id.
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CategoryRow {
    pub prefix: String,
    pub name: String,
    pub total: usize,
    pub applies: usize,
    pub no_match: usize,
    pub baseline_mismatch: usize,
    pub baseline_unresolved: usize,
    pub error: usize,
    /// Applicable share in whole percent (rounded half up).
    pub share: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub total: usize,
    /// Every reason in gate order, zeros included.
    pub by_reason: serde_json::Map<String, serde_json::Value>,
    pub by_category: Vec<CategoryRow>,
}

pub fn percent(part: usize, whole: usize) -> u32 {
    if whole == 0 {
        return 0;
    }
    ((part * 200 + whole) / (whole * 2)) as u32
}

impl Applicability {
    /// The entry of check `id`. Entries are sorted by id, so this is a binary search (a scan
    /// here made reports on large catalogues quadratic).
    pub fn get(&self, id: &str) -> Option<&Entry> {
        let i = self.entries.partition_point(|e| e.id.as_str() < id);
        self.entries.get(i).filter(|e| e.id == id)
    }

    pub fn count(&self, status: Status) -> usize {
        self.entries.iter().filter(|e| e.status == status).count()
    }

    pub fn summary(&self, cat: &Catalogue) -> Summary {
        let by_reason = Status::ALL
            .iter()
            .map(|s| (s.as_str().to_string(), self.count(*s).into()))
            .collect();
        let by_category = cat
            .categories
            .iter()
            .map(|prefix| {
                let of: Vec<&Entry> = self
                    .entries
                    .iter()
                    .filter(|e| &e.category == prefix)
                    .collect();
                let n = |s: Status| of.iter().filter(|e| e.status == s).count();
                CategoryRow {
                    prefix: prefix.clone(),
                    name: cat
                        .config
                        .category_name(prefix)
                        .unwrap_or(prefix)
                        .to_string(),
                    total: of.len(),
                    applies: n(Status::Applies),
                    no_match: n(Status::NoMatch),
                    baseline_mismatch: n(Status::BaselineMismatch),
                    baseline_unresolved: n(Status::BaselineUnresolved),
                    error: n(Status::Error),
                    share: percent(n(Status::Applies), of.len()),
                }
            })
            .collect();
        Summary {
            total: self.entries.len(),
            by_reason,
            by_category,
        }
    }
}

/// What applicability needs from each check whatever the profile: its expression parsed,
/// printed and the fields it reads, in id order. Prepared once per catalogue, it serves any
/// number of profiles (a portfolio, a diff, the benchmarks' fifty) without parsing again.
pub struct Prepared<'c> {
    checks: Vec<PreparedCheck<'c>>,
    /// The effective baseline configuration (`baselines()` builds it).
    baselines: BaselineConfig,
}

struct PreparedCheck<'c> {
    check: &'c Check,
    /// The parsed expression, or why it does not parse.
    expr: Result<dsl::Expr, String>,
    /// Profile fields the expression reads, sorted.
    reads: Vec<String>,
    /// The expression in canonical form.
    shown: String,
}

impl<'c> Prepared<'c> {
    pub fn new(cat: &'c Catalogue) -> Prepared<'c> {
        let by_id = cat.checks_by_id();
        let checks = crate::par::map(&by_id, |&c| match dsl::parse(&c.applies_when) {
            Ok(expr) => {
                let mut reads: Vec<String> = expr.paths().iter().map(|p| p.dotted()).collect();
                reads.sort();
                reads.dedup();
                let shown = expr.to_string();
                PreparedCheck {
                    check: c,
                    expr: Ok(expr),
                    reads,
                    shown,
                }
            }
            Err(e) => PreparedCheck {
                check: c,
                expr: Err(format!(
                    "applies_when `{}` does not parse at column {}: {}",
                    c.applies_when,
                    e.span.column(&c.applies_when),
                    e.message
                )),
                reads: Vec::new(),
                shown: String::new(),
            },
        });
        Prepared {
            checks,
            baselines: cat.config.baselines(),
        }
    }
}

/// Decide every check of the catalogue for this profile.
pub fn compute(cat: &Catalogue, profile: &Profile) -> Applicability {
    compute_with(&Prepared::new(cat), profile)
}

/// Decide every check for this profile from expressions prepared once.
pub fn compute_with(prepared: &Prepared<'_>, profile: &Profile) -> Applicability {
    let b = &prepared.baselines;
    // Independent per check; `collect` keeps id order, so scheduling never shows.
    let entries = crate::par::map(&prepared.checks, |p| {
        let c = p.check;
        let (status, reason, reads) = decide(b, p, profile);
        Entry {
            id: c.id.to_string(),
            status,
            reason,
            category: c.category.to_string(),
            severity: c.severity.to_string(),
            adoption: c.adoption.as_str(),
            title: c.title.clone(),
            reads,
        }
    });
    Applicability { entries }
}

fn decide(
    b: &BaselineConfig,
    p: &PreparedCheck<'_>,
    profile: &Profile,
) -> (Status, String, Vec<String>) {
    let c = p.check;
    if c.spec_baseline != b.universal {
        let field = b.profile_field.clone();
        match profile.values.get(&field) {
            Some(dsl::Value::Str(spoken)) if *spoken == c.spec_baseline => {}
            Some(dsl::Value::Str(spoken)) => {
                return (
                    Status::BaselineMismatch,
                    format!(
                        "the check is for protocol revision {}; the server speaks {spoken} (`{field}`)",
                        c.spec_baseline
                    ),
                    vec![field],
                )
            }
            _ => {
                return (
                    Status::BaselineUnresolved,
                    format!(
                        "the check is for protocol revision {} only, and the profile does not say which revision the server speaks (`{field}`)",
                        c.spec_baseline
                    ),
                    vec![field],
                )
            }
        }
    }
    let expr = match &p.expr {
        Ok(e) => e,
        Err(reason) => return (Status::Error, reason.clone(), Vec::new()),
    };
    let reads = p.reads.clone();
    let shown = &p.shown;
    let values = || {
        reads
            .iter()
            .map(|p| match profile.display(p) {
                Some(v) => format!("{p} = {v}"),
                None => format!("{p} absent"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match dsl::eval(expr, &profile.values) {
        Ok(true) if reads.is_empty() => (
            Status::Applies,
            format!("`{shown}`: applies to every server"),
            reads,
        ),
        Ok(true) => (
            Status::Applies,
            format!("`{shown}` is true ({})", values()),
            reads,
        ),
        Ok(false) => (
            Status::NoMatch,
            format!("`{shown}` is false ({})", values()),
            reads,
        ),
        Err(e) => {
            let why = match &e {
                EvalError::UnknownField { path, .. } => match profile.fields.get(path) {
                    Some(v) => format!("field `{path}` has no usable value in the profile ({})", v),
                    None => format!("the profile has no field `{path}`"),
                },
                EvalError::TypeMismatch { message, .. } => message.clone(),
                EvalError::UnknownSet { name, .. } => {
                    format!("a profile has no named sets, and `{name}` is one")
                }
            };
            (
                Status::Error,
                format!("cannot evaluate `{shown}`: {why}"),
                reads,
            )
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct FieldChange {
    pub field: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct StatusChange {
    pub id: String,
    pub title: String,
    pub severity: String,
    pub adoption: &'static str,
    pub from: Status,
    pub to: Status,
    /// The changed fields the check reads, then the new reason.
    pub why: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    pub fields: Vec<FieldChange>,
    pub checks: Vec<StatusChange>,
    /// Checks that apply under the second profile but not the first, and the reverse.
    pub gained: usize,
    pub lost: usize,
}

/// What changing the profile from `a` to `b` does to applicability.
pub fn diff(a: (&Profile, &Applicability), b: (&Profile, &Applicability)) -> Diff {
    let paths: BTreeSet<&String> = a.0.fields.keys().chain(b.0.fields.keys()).collect();
    let fields: Vec<FieldChange> = paths
        .into_iter()
        .filter_map(|p| {
            let (old, new) = (a.0.display(p), b.0.display(p));
            (old != new).then(|| FieldChange {
                field: p.clone(),
                old,
                new,
            })
        })
        .collect();
    let mut checks = Vec::new();
    for old in &a.1.entries {
        let Some(new) = b.1.get(&old.id) else {
            continue;
        };
        if old.status == new.status {
            continue;
        }
        let reads: BTreeSet<&String> = old.reads.iter().chain(new.reads.iter()).collect();
        let changed: Vec<String> = fields
            .iter()
            .filter(|f| reads.contains(&f.field))
            .map(|f| {
                format!(
                    "{}: {} → {}",
                    f.field,
                    f.old.as_deref().unwrap_or("absent"),
                    f.new.as_deref().unwrap_or("absent")
                )
            })
            .collect();
        let why = if changed.is_empty() {
            new.reason.clone()
        } else {
            format!("{}; now {}", changed.join("; "), new.reason)
        };
        checks.push(StatusChange {
            id: old.id.clone(),
            title: old.title.clone(),
            severity: old.severity.clone(),
            adoption: old.adoption,
            from: old.status,
            to: new.status,
            why,
        });
    }
    let gained = checks.iter().filter(|c| c.to == Status::Applies).count();
    let lost = checks.iter().filter(|c| c.from == Status::Applies).count();
    Diff {
        fields,
        checks,
        gained,
        lost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_half_up_and_survives_zero() {
        assert_eq!(percent(0, 0), 0);
        assert_eq!(percent(1, 2), 50);
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(2, 3), 67);
        assert_eq!(percent(1, 8), 13);
    }
}
