//! The difference between two catalogue snapshots, classified for re-audit: what makes earlier
//! audits stale (severity raised, applicability widened or narrowed, pass criteria changed,
//! advisory promoted to enforced, baseline changed) versus what does not (prose only).

use crate::dsl::{self, Comparison, Schema};
use crate::snapshot::{CheckRecord, Snapshot};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Trigger {
    SeverityRaised {
        from: String,
        to: String,
    },
    ApplicabilityWidened {
        example: String,
    },
    ApplicabilityNarrowed {
        example: String,
    },
    ApplicabilityChanged {
        widened: String,
        narrowed: String,
    },
    /// The two expressions could not be compared exactly (too many fields, or a parse error).
    ApplicabilityUndecided {
        from: String,
        to: String,
    },
    PassCriteriaChanged {
        added: Vec<String>,
        removed: Vec<String>,
    },
    PromotedToEnforced,
    BaselineChanged {
        from: String,
        to: String,
    },
    EvidenceRaised {
        from: u32,
        to: u32,
    },
}

impl Trigger {
    pub fn describe(&self) -> String {
        match self {
            Trigger::SeverityRaised { from, to } => format!("severity raised from {from} to {to}"),
            Trigger::ApplicabilityWidened { example } => {
                format!("applies to more servers, e.g. {example}")
            }
            Trigger::ApplicabilityNarrowed { example } => {
                format!("applies to fewer servers, e.g. no longer to {example}")
            }
            Trigger::ApplicabilityChanged { widened, narrowed } => {
                format!("applicability changed: now also {widened}; no longer {narrowed}")
            }
            Trigger::ApplicabilityUndecided { from, to } => {
                format!("applies_when changed from `{from}` to `{to}` (not decidable exactly)")
            }
            Trigger::PassCriteriaChanged { added, removed } => {
                format!(
                    "pass criteria changed ({} added, {} removed)",
                    added.len(),
                    removed.len()
                )
            }
            Trigger::PromotedToEnforced => "promoted from advisory to enforced".into(),
            Trigger::BaselineChanged { from, to } => {
                format!("spec baseline changed from {from} to {to}")
            }
            Trigger::EvidenceRaised { from, to } => {
                format!("evidence required raised from {from} to {to}")
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Changed {
    pub id: String,
    pub title: String,
    /// Changes that make an earlier audit of this check stale.
    pub reaudit: Vec<Trigger>,
    /// Changes that relax the check (no re-audit, but worth a changelog line).
    pub relaxed: Vec<String>,
    /// Title or prose changed.
    pub prose: Vec<String>,
}

impl Changed {
    pub fn prose_only(&self) -> bool {
        self.reaudit.is_empty() && self.relaxed.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    pub id: String,
    pub title: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetiredEntry {
    pub id: String,
    pub date: String,
    pub successor: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    pub old: Version,
    pub new: Version,
    pub semantic_change: bool,
    pub added: Vec<Entry>,
    pub removed: Vec<Entry>,
    pub retired: Vec<RetiredEntry>,
    pub changed: Vec<Changed>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Version {
    pub name: String,
    pub version: Option<String>,
    pub semantic: String,
}

fn version(s: &Snapshot) -> Version {
    Version {
        name: s.name.clone(),
        version: s.version.clone(),
        semantic: s.fingerprints.semantic.clone(),
    }
}

fn rank(severities: &[String], s: &str) -> usize {
    severities
        .iter()
        .position(|x| x == s)
        .unwrap_or(severities.len())
}

fn applicability(old: &str, new: &str, schema: &Schema) -> Option<Trigger> {
    if old == new {
        return None;
    }
    let (Ok(a), Ok(b)) = (dsl::parse(old), dsl::parse(new)) else {
        return Some(Trigger::ApplicabilityUndecided {
            from: old.into(),
            to: new.into(),
        });
    };
    match dsl::compare(&a, &b, schema) {
        Comparison::Equivalent => None,
        Comparison::Widened { example } => Some(Trigger::ApplicabilityWidened {
            example: dsl::describe(&example),
        }),
        Comparison::Narrowed { example } => Some(Trigger::ApplicabilityNarrowed {
            example: dsl::describe(&example),
        }),
        Comparison::Changed { widened, narrowed } => Some(Trigger::ApplicabilityChanged {
            widened: dsl::describe(&widened),
            narrowed: dsl::describe(&narrowed),
        }),
        Comparison::Undecided => Some(Trigger::ApplicabilityUndecided {
            from: old.into(),
            to: new.into(),
        }),
    }
}

fn compare_check(
    o: &CheckRecord,
    n: &CheckRecord,
    severities: &[String],
    schema: &Schema,
) -> Option<Changed> {
    let mut reaudit = Vec::new();
    let mut relaxed = Vec::new();
    let mut prose = Vec::new();
    if o.severity != n.severity {
        if rank(severities, &n.severity) < rank(severities, &o.severity) {
            reaudit.push(Trigger::SeverityRaised {
                from: o.severity.clone(),
                to: n.severity.clone(),
            });
        } else {
            relaxed.push(format!(
                "severity lowered from {} to {}",
                o.severity, n.severity
            ));
        }
    }
    if let Some(t) = applicability(&o.applies_when, &n.applies_when, schema) {
        reaudit.push(t);
    } else if o.applies_when != n.applies_when {
        prose.push("applies_when rewritten, same meaning".into());
    }
    if o.pass_criteria != n.pass_criteria {
        let added = n
            .pass_criteria
            .iter()
            .filter(|c| !o.pass_criteria.contains(c))
            .cloned()
            .collect();
        let removed = o
            .pass_criteria
            .iter()
            .filter(|c| !n.pass_criteria.contains(c))
            .cloned()
            .collect();
        reaudit.push(Trigger::PassCriteriaChanged { added, removed });
    }
    match (o.adoption.as_str(), n.adoption.as_str()) {
        ("advisory", "enforced") => reaudit.push(Trigger::PromotedToEnforced),
        ("enforced", "advisory") => relaxed.push("demoted from enforced to advisory".into()),
        _ => {}
    }
    if o.spec_baseline != n.spec_baseline {
        reaudit.push(Trigger::BaselineChanged {
            from: o.spec_baseline.clone(),
            to: n.spec_baseline.clone(),
        });
    }
    if n.evidence_required > o.evidence_required {
        reaudit.push(Trigger::EvidenceRaised {
            from: o.evidence_required,
            to: n.evidence_required,
        });
    } else if n.evidence_required < o.evidence_required {
        relaxed.push(format!(
            "evidence required lowered from {} to {}",
            o.evidence_required, n.evidence_required
        ));
    }
    if o.category != n.category {
        relaxed.push(format!(
            "category changed from {} to {}",
            o.category, n.category
        ));
    }
    if o.title != n.title {
        prose.push(format!("title: \"{}\" → \"{}\"", o.title, n.title));
    }
    if o.body_digest != n.body_digest {
        prose.push("body text edited".into());
    }
    if reaudit.is_empty() && relaxed.is_empty() && prose.is_empty() {
        return None;
    }
    Some(Changed {
        id: n.id.clone(),
        title: n.title.clone(),
        reaudit,
        relaxed,
        prose,
    })
}

pub fn diff(old: &Snapshot, new: &Snapshot) -> Diff {
    let olds: BTreeMap<&str, &CheckRecord> =
        old.checks.iter().map(|c| (c.id.as_str(), c)).collect();
    let news: BTreeMap<&str, &CheckRecord> =
        new.checks.iter().map(|c| (c.id.as_str(), c)).collect();
    let newly_retired: BTreeMap<&str, _> = new
        .retired
        .iter()
        .filter(|r| !old.retired.iter().any(|o| o.id == r.id))
        .map(|r| (r.id.as_str(), r))
        .collect();
    // Applicability is judged against the newer schema: it says what profiles exist now.
    let schema = new
        .profile_schema
        .clone()
        .or_else(|| old.profile_schema.clone())
        .unwrap_or_default();
    let entry = |c: &CheckRecord| Entry {
        id: c.id.clone(),
        title: c.title.clone(),
    };
    let added = news
        .iter()
        .filter(|(id, _)| !olds.contains_key(*id))
        .map(|(_, c)| entry(c))
        .collect();
    let removed = olds
        .iter()
        .filter(|(id, _)| !news.contains_key(*id) && !newly_retired.contains_key(*id))
        .map(|(_, c)| entry(c))
        .collect();
    let retired = newly_retired
        .values()
        .map(|r| RetiredEntry {
            id: r.id.clone(),
            date: r.retired.clone(),
            successor: r.merged_into.clone().or_else(|| r.replaced_by.clone()),
        })
        .collect();
    let changed = olds
        .iter()
        .filter_map(|(id, o)| {
            news.get(id)
                .and_then(|n| compare_check(o, n, &new.severities, &schema))
        })
        .collect();
    Diff {
        old: version(old),
        new: version(new),
        semantic_change: old.fingerprints.semantic != new.fingerprints.semantic,
        added,
        removed,
        retired,
        changed,
    }
}

/// Markdown, ready for a changelog and a re-audit queue.
pub fn markdown(d: &Diff) -> String {
    let v = |x: &Version| {
        format!(
            "{} {}",
            x.name,
            x.version.as_deref().unwrap_or("(unversioned)")
        )
    };
    let mut out = format!("# Catalogue changes: {} → {}\n\n", v(&d.old), v(&d.new));
    if !d.semantic_change {
        out.push_str("No semantic change: audits made against either version stay comparable.\n\n");
    }
    let reaudit: Vec<&Changed> = d.changed.iter().filter(|c| !c.reaudit.is_empty()).collect();
    out.push_str("## Re-audit queue\n\n");
    if reaudit.is_empty() && d.added.is_empty() {
        out.push_str("Nothing to re-audit.\n\n");
    }
    for c in &reaudit {
        let why: Vec<String> = c.reaudit.iter().map(Trigger::describe).collect();
        out.push_str(&format!(
            "- **{}** {} — {}\n",
            c.id,
            c.title,
            why.join("; ")
        ));
    }
    for a in &d.added {
        out.push_str(&format!("- **{}** {} — new check\n", a.id, a.title));
    }
    if !reaudit.is_empty() || !d.added.is_empty() {
        out.push('\n');
    }
    let mut section = |title: &str, lines: Vec<String>| {
        if !lines.is_empty() {
            out.push_str(&format!("## {title}\n\n"));
            for l in lines {
                out.push_str(&format!("- {l}\n"));
            }
            out.push('\n');
        }
    };
    section(
        "Added",
        d.added
            .iter()
            .map(|a| format!("{} — {}", a.id, a.title))
            .collect(),
    );
    section(
        "Retired",
        d.retired
            .iter()
            .map(|r| match &r.successor {
                Some(s) => format!("{} on {} (successor {s})", r.id, r.date),
                None => format!("{} on {}", r.id, r.date),
            })
            .collect(),
    );
    section(
        "Removed without retirement",
        d.removed
            .iter()
            .map(|a| format!("{} — {}", a.id, a.title))
            .collect(),
    );
    section(
        "Relaxed (no re-audit)",
        d.changed
            .iter()
            .filter(|c| !c.relaxed.is_empty())
            .map(|c| format!("{}: {}", c.id, c.relaxed.join("; ")))
            .collect(),
    );
    section(
        "Prose only (no re-audit)",
        d.changed
            .iter()
            .filter(|c| c.prose_only())
            .map(|c| format!("{}: {}", c.id, c.prose.join("; ")))
            .collect(),
    );
    out
}
