//! A number in prose that a claim found stale, set to what the catalogue holds (unsafe: the
//! sentence around it may need more than the number). The claim's pattern located the number;
//! only exact claims (`==`) are fixed, a bound says too little about the right value.

use super::text::offset;
use super::{Fix, Safety, TextEdit, TextOf};
use crate::diag::{codes, Diagnostic};

pub fn fixes(diags: &[Diagnostic], text_of: TextOf<'_>) -> Vec<Fix> {
    diags
        .iter()
        .filter(|d| d.code == codes::CLAIM_COUNT.code)
        .filter_map(|d| {
            let expected: u64 = d
                .help
                .as_deref()?
                .strip_prefix("write ")?
                .split_once(" here")?
                .0
                .parse()
                .ok()?;
            let file = d.file.as_deref()?;
            let raw = text_of(file)?;
            let start = offset(&raw, d.line?, d.column?)?;
            let len: usize = raw
                .get(start..)?
                .chars()
                .take(d.width)
                .map(char::len_utf8)
                .sum();
            let written = raw.get(start..start + len)?;
            // The text must still hold a number that is not the right one.
            match crate::claims::numbers::read(written) {
                Ok(n) if n != expected => {}
                _ => return None,
            }
            Some(Fix {
                code: codes::CLAIM_COUNT.code,
                title: format!("write {expected} instead of `{}`", written.trim()),
                safety: Safety::Unsafe,
                edits: vec![TextEdit {
                    file: file.to_string(),
                    start,
                    end: start + len,
                    replacement: expected.to_string(),
                }],
            })
        })
        .collect()
}
