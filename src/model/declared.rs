//! What the evidence declarations of a check (`probe:`, `scan:`) share: the status an
//! observation records, how much of the check a declaration covers, where a declared probe
//! runs, and a problem with its place, which lint reports at the line it is written on.

use serde::Serialize;

/// What an observation records in the results: a defect proven on the wire fails the check, a
/// heuristic's suspicion is at most `partial`, and `not_verified` leaves it to a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Records {
    Fail,
    Partial,
    NotVerified,
}

impl Records {
    pub const ALL: [Records; 3] = [Records::Fail, Records::Partial, Records::NotVerified];

    pub fn as_str(self) -> &'static str {
        match self {
            Records::Fail => "fail",
            Records::Partial => "partial",
            Records::NotVerified => "not_verified",
        }
    }

    pub fn parse(s: &str) -> Option<Records> {
        Records::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// The worse of two: `fail` before `partial` before `not_verified`.
    pub fn worst(self, other: Records) -> Records {
        self.min(other)
    }
}

/// How much of the check a probe decides: `all` lets a clean probe pass the check; `part`
/// means a clean probe leaves the rest to a person (the result is then `not_verified`), while
/// a defect it sees still records its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Covers {
    All,
    Part,
}

/// Where a declared probe runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    Any,
    Http,
    Stdio,
}

/// A problem with a declaration: where it is (a key path, e.g. `probe[1].steps[0].expect[2]`),
/// the message and a help line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
    pub help: String,
}

pub(crate) fn problem(
    path: impl Into<String>,
    message: String,
    help: impl Into<String>,
) -> Problem {
    Problem {
        path: path.into(),
        message,
        help: help.into(),
    }
}
