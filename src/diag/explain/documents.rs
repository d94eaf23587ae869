//! AB6xx: documents — generated regions, declared claims, links.
use super::row::*;

pub static ROWS: &[Explanation] = &[];
