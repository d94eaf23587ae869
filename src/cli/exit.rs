//! Exit codes of the catalogue format, section 8. A file of their own: every command returns
//! one, and none needs the dispatcher in `cli/mod.rs` for it.

pub const EXIT_OK: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_FAILURE: u8 = 2;
