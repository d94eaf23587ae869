//! The in-memory model of a catalogue: what loading produces and every later stage reads.

pub mod catalogue;
pub mod check;
pub mod check_fields;
pub mod check_text;
pub mod config;
pub mod date;
pub mod declared;
pub mod document;
pub mod fields;
pub mod outline;
pub mod probe;
pub mod probe_steps;
pub mod reference;
pub mod rule;
pub mod scan;
pub mod scoring;
pub mod source;

pub use catalogue::{Catalogue, Mode};
pub use check::{Adoption, Check, Criterion, FieldLines, Section};
pub use check_text::CheckText;
pub use config::Config;
pub use document::Document;
pub use reference::{LocalLink, RefKind, Reference};
pub use rule::{Coverage, Rule, RuleOrigin};
pub use source::Source;
