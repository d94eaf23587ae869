//! AB7xx and AB8xx: scoring and probing live servers.
use super::row::*;

pub static ROWS: &[Explanation] = &[];
