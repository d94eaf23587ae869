//! `auditbook init`: a starter catalogue for an empty folder, or a `catalogue.yaml` inferred
//! from a catalogue that has none (the compatibility layout). Both only plan text; the command
//! writes it through `write`, never over an existing file.

pub mod infer;
pub mod profile_schema;
pub mod starter;
