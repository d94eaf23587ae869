//! AB1xx: check frontmatter and catalogue.yaml.
use super::row::*;

pub static ROWS: &[Explanation] = &[];
