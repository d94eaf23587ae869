//! AB5xx: profiles, portfolios, results, audits.
use super::row::*;

pub static ROWS: &[Explanation] = &[];
