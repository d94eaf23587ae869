//! Declared expectations that pin what a catalogue decides (`auditbook test`): for a named
//! profile, which checks must apply and which must not (with the reason); for an example
//! results file, the verdict and the score; for a document, which claims must pass.
//!
//! They live in the catalogue, in `tests/*.yaml` under its root, so an edit that changes a
//! decision fails the catalogue's own CI. Paths in them are relative to the catalogue root
//! (as in `catalogue.yaml`) and confined like those.

pub mod cases;
pub mod evaluate;
pub mod outcome;
pub mod report;
pub mod scan_cases;

pub use cases::discover;
#[cfg(any(test, feature = "internals"))]
pub use cases::{Case, Kind};
pub use evaluate::evaluate;
#[cfg(any(test, feature = "internals"))]
pub use outcome::Outcome;

/// The folder under the catalogue root that holds expectation files.
pub const DIR: &str = "tests";
