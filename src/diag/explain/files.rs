//! AB0xx: reading files.
use super::row::*;

pub static ROWS: &[Explanation] = &[];
