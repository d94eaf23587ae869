//! AB4xx: retired ids, rules, coverage.
use super::row::*;

pub static ROWS: &[Explanation] = &[];
