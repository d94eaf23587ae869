//! applies_when expressions: syntax always; with a declared profile schema, full static typing
//! (unknown fields, type mismatches, impossible literals, constant parts, the baseline field).

use crate::diag::{codes, Code, Diagnostic};
use crate::dsl;
use crate::dsl::analysis::code_for;
#[cfg(any(test, feature = "internals"))]
use crate::model::Catalogue;
use crate::model::Check;

#[cfg(any(test, feature = "internals"))]
pub fn check(cat: &Catalogue) -> Vec<Diagnostic> {
    let schema = cat.config.profile_schema();
    // Typing and constant analysis are independent per check: spread over the cores when
    // there are many. `collect` keeps check order, and the caller sorts, so scheduling never shows.
    let per_check: Vec<Vec<Diagnostic>> =
        crate::par::map(&cat.checks, |c| check_one(c, schema.as_ref()));
    per_check.into_iter().flatten().collect()
}

pub fn check_one(c: &Check, schema: Option<&dsl::Schema>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let src = c.applies_when.as_str();
    let (line, col) = (c.field_line("applies_when"), c.applies_when_column as usize);
    let at = |code: &'static Code, span: dsl::Span, message: String, help: Option<String>| {
        let width = src
            .get(span.start..span.end.max(span.start))
            .map(|s| s.chars().count())
            .unwrap_or(1);
        Diagnostic::new(code, message)
            .file(c.file.clone())
            .at(line, col + span.column(src) - 1)
            .width(width)
            .id(c.id.clone())
            .help(help.unwrap_or_else(|| code.help.to_string()))
    };
    match dsl::parse(src) {
        Err(e) => out.push(at(
            &codes::EXPR_PARSE,
            e.span,
            format!("applies_when does not parse: {}", e.message),
            e.help.clone(),
        )),
        Ok(expr) => {
            if let Some(schema) = schema {
                for f in dsl::check(&expr, schema) {
                    out.push(at(code_for(&f.kind), f.span, f.message, f.help));
                }
            }
        }
    }
    out
}
