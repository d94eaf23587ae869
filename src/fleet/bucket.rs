//! How an endpoint is counted. Every endpoint a run tried lands in exactly one bucket:
//! assessed (the revisions it serves), answered-but-not-MCP (by the kind of answer), unreachable,
//! timed out, or refused by the opt-out list. "It answered" is not "it was assessed": a 403 of a
//! web application firewall, a 404 of a moved path or a captive proxy's page would otherwise
//! count as clean, so shares are computed over assessed endpoints only and every report states
//! that denominator.

use crate::evidence::probe::client::Era;
use crate::evidence::probe::observe::{Foreign, Observation, Reach};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bucket {
    /// Assessed: only the legacy (2025-11-25) revision.
    LegacyOnly,
    /// Assessed: both revisions.
    Both,
    /// Assessed: only the modern revision.
    ModernOnly,
    /// It answered, but not as MCP.
    NotMcp(Foreign),
    /// Refused, reset, closed, or it could not be started.
    Unreachable,
    /// No answer within the time-out (also after it was opened).
    TimedOut,
    /// On the opt-out list: no request was sent.
    OptedOut,
}

impl Bucket {
    /// Every bucket, in report order.
    pub const ALL: [Bucket; 11] = [
        Bucket::LegacyOnly,
        Bucket::Both,
        Bucket::ModernOnly,
        Bucket::NotMcp(Foreign::Denied),
        Bucket::NotMcp(Foreign::NotFound),
        Bucket::NotMcp(Foreign::Redirect),
        Bucket::NotMcp(Foreign::Html),
        Bucket::NotMcp(Foreign::Other),
        Bucket::Unreachable,
        Bucket::TimedOut,
        Bucket::OptedOut,
    ];

    /// The bucket's name in run files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Bucket::LegacyOnly => "legacy-only",
            Bucket::Both => "both",
            Bucket::ModernOnly => "modern-only",
            Bucket::NotMcp(Foreign::Denied) => "not-mcp-denied",
            Bucket::NotMcp(Foreign::NotFound) => "not-mcp-not-found",
            Bucket::NotMcp(Foreign::Redirect) => "not-mcp-redirect",
            Bucket::NotMcp(Foreign::Html) => "not-mcp-html",
            Bucket::NotMcp(Foreign::Other) => "not-mcp-other",
            Bucket::Unreachable => "unreachable",
            Bucket::TimedOut => "timed-out",
            Bucket::OptedOut => "opted-out",
        }
    }

    /// Every bucket's name, in report order.
    pub fn names() -> Vec<&'static str> {
        Bucket::ALL.iter().map(|b| b.name()).collect()
    }

    pub fn of_name(n: &str) -> Option<Bucket> {
        Bucket::ALL.into_iter().find(|b| b.name() == n)
    }

    /// Whether the endpoint was assessed (counted in the denominator).
    pub fn assessed(self) -> bool {
        matches!(self, Bucket::LegacyOnly | Bucket::Both | Bucket::ModernOnly)
    }

    /// The bucket of what a probe saw.
    pub fn of(obs: &Observation) -> Bucket {
        match &obs.reach {
            Some(Reach::Reached) => {
                match (obs.serves(Era::Legacy), obs.serves(Era::Modern)) {
                    (true, true) => Bucket::Both,
                    (false, true) => Bucket::ModernOnly,
                    // Reached means one era opened; without the modern one it is the legacy.
                    _ => Bucket::LegacyOnly,
                }
            }
            Some(Reach::NotMcp(_)) => Bucket::NotMcp(obs.foreign.unwrap_or(Foreign::Other)),
            Some(Reach::Hung(_)) => Bucket::TimedOut,
            Some(Reach::Unreachable(_)) | Some(Reach::Crashed(_)) | None => Bucket::Unreachable,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::probe::observe::Opening;

    fn opened(era: Era, ok: bool) -> Opening {
        Opening {
            era,
            asked: "v".into(),
            answered: if ok { Ok("v".into()) } else { Err("no".into()) },
            supported: Vec::new(),
        }
    }

    #[test]
    fn each_observation_has_one_bucket() {
        let mut o = Observation {
            reach: Some(Reach::Reached),
            openings: vec![opened(Era::Modern, false), opened(Era::Legacy, true)],
            ..Observation::default()
        };
        assert_eq!(Bucket::of(&o), Bucket::LegacyOnly);
        o.openings[0] = opened(Era::Modern, true);
        assert_eq!(Bucket::of(&o), Bucket::Both);
        o.openings[1] = opened(Era::Legacy, false);
        assert_eq!(Bucket::of(&o), Bucket::ModernOnly);
        o.reach = Some(Reach::NotMcp("HTTP 403".into()));
        o.foreign = Some(Foreign::Denied);
        assert_eq!(Bucket::of(&o), Bucket::NotMcp(Foreign::Denied));
        assert!(!Bucket::of(&o).assessed());
        o.reach = Some(Reach::Hung("t".into()));
        assert_eq!(Bucket::of(&o), Bucket::TimedOut);
    }

    #[test]
    fn names_are_unique_and_read_back() {
        let names = Bucket::names();
        assert_eq!(names.len(), 11);
        for n in names {
            assert_eq!(Bucket::of_name(n).map(Bucket::name), Some(n));
        }
    }
}
