//! `auditbook explain CODE`: one diagnostic code at length, with the example that produces
//! it and the twin that does not. Needs no catalogue.

use super::args::{Cli, ExplainArgs};
use super::common::{self, Failure};
use super::formats::TextFormat;
use crate::diag::{explain, Code, CODES};
use crate::render::codes_doc;

pub fn run(cli: &Cli, args: &ExplainArgs) -> Result<u8, Failure> {
    let fmt = common::format(cli, args.format);
    let code = find(&args.code)?;
    let e = explain::lookup(code.code);
    let text = match fmt {
        TextFormat::Json => common::json_text(&serde_json::json!({
            "code": code.code,
            "name": code.name,
            "level": code.level,
            "summary": code.summary,
            "help": code.help,
            "since": e.map(|e| e.since),
            "explanation": e.map(|e| e.paragraphs().collect::<Vec<_>>()),
            "bad": e.map(|e| example(&e.bad)),
            "good": e.map(|e| example(&e.good)),
            "base": explain::BASE.iter().map(|(path, text)| serde_json::json!({
                "path": path,
                "text": text,
            })).collect::<Vec<_>>(),
        }))?,
        _ => {
            let mut text = codes_doc::section(code, e, "#");
            if e.is_some_and(|e| e.bad.over_base || e.good.over_base) {
                text.push_str("\n## The base catalogue\n\n");
                text.push_str(&codes_doc::base());
            }
            text
        }
    };
    common::print(&text)?;
    Ok(super::EXIT_OK)
}

fn example(ex: &explain::Example) -> serde_json::Value {
    serde_json::json!({
        "command": ex.run.shown(),
        "run": ex.run,
        "over_base": ex.over_base,
        "files": ex.files.iter().map(|(path, edit)| {
            let mut v = serde_json::to_value(edit).unwrap_or_default();
            if let Some(m) = v.as_object_mut() {
                m.insert("path".into(), (*path).into());
            }
            v
        }).collect::<Vec<_>>(),
    })
}

/// A code by its number (any case) or its name; an unknown one fails with the nearest.
fn find(asked: &str) -> Result<&'static Code, Failure> {
    let wanted = asked.trim();
    if let Some(c) = CODES
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(wanted) || c.name == wanted)
    {
        return Ok(c);
    }
    let nearest = CODES
        .iter()
        .map(|c| {
            let by_code = strsim::levenshtein(&c.code.to_lowercase(), &wanted.to_lowercase());
            let by_name = strsim::levenshtein(c.name, wanted);
            (by_code.min(by_name), *c)
        })
        .min_by_key(|(d, c)| (*d, c.code));
    let hint = match nearest {
        Some((d, c)) if d <= 3 => format!(
            "; {}",
            crate::text::suggest::phrase(&format!("{} `{}`", c.code, c.name))
        ),
        _ => "; `docs/lint-codes.md` lists every code".to_string(),
    };
    Err(Failure::Message(format!(
        "no diagnostic code `{wanted}`{hint}"
    )))
}
