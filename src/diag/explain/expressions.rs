//! AB3xx: the applies_when language.
use super::row::*;

pub static ROWS: &[Explanation] = &[];
