//! The in-memory model of a catalogue: what loading produces and every later stage reads.

pub mod catalogue;
pub mod check;
pub mod check_fields;
pub mod config;
pub mod reference;

pub use catalogue::{Catalogue, Mode};
pub use check::{Adoption, Check, Criterion, Section};
pub use config::Config;
pub use reference::{RefKind, Reference};
