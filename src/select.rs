//! Selecting checks with an expression over their fields (`list --where`, claims,
//! `require_coverage`). A selection that can never match (a typo'd category) is an error, not
//! an empty answer.

use crate::diag::{codes, Diagnostic};
use crate::dsl::analysis::code_for;
use crate::dsl::{self, Expr, FindingKind};
use crate::model::check_fields::{schema, CheckEnv};
use crate::model::{Catalogue, Check};

/// Parse and type an expression over check fields. `what` names it in messages.
pub fn compile(cat: &Catalogue, src: &str, what: &str) -> Result<Expr, Vec<Diagnostic>> {
    let expr = dsl::parse(src).map_err(|e| {
        vec![Diagnostic::new(
            &codes::EXPR_PARSE,
            format!(
                "{what} `{src}` does not parse at column {}: {}",
                e.span.column(src),
                e.message
            ),
        )]
    })?;
    let fatal: Vec<Diagnostic> = dsl::check(&expr, &schema(cat))
        .into_iter()
        .filter(|f| {
            !matches!(
                f.kind,
                FindingKind::ConstantSubexpression | FindingKind::AlwaysTrue
            )
        })
        .map(|f| {
            let code = code_for(&f.kind);
            Diagnostic::new(code, format!("{what} `{src}`: {}", f.message))
                .level(crate::diag::Level::Error)
                .help(f.help.unwrap_or_else(|| code.help.to_string()))
        })
        .collect();
    if fatal.is_empty() {
        Ok(expr)
    } else {
        Err(fatal)
    }
}

/// Report an expression problem of a setting under the setting's own code, except an unknown
/// set: that keeps its code (AB310), whichever setting names it.
pub fn under(d: Diagnostic, code: &'static crate::diag::Code) -> Diagnostic {
    if d.code == codes::EXPR_UNKNOWN_SET.code {
        d
    } else {
        d.under(code)
    }
}

/// Whether an expression written `src` may read the check field `key`: an expression reads a
/// field only by writing its key, so one whose text does not hold the key never reads it.
pub fn may_read(src: &str, key: &str) -> bool {
    src.contains(key)
}

/// Whether some `require_coverage` (the catalogue's or a rule table's) may read the check
/// field `key`.
pub fn coverage_may_read(cat: &Catalogue, key: &str) -> bool {
    cat.config
        .require_coverage
        .iter()
        .chain(
            cat.config
                .rules
                .iter()
                .flat_map(|r| &r.tables)
                .flat_map(|t| &t.require_coverage),
        )
        .any(|src| may_read(src, key))
}

/// The checks (sorted by id) the expression selects.
pub fn select<'c>(cat: &'c Catalogue, expr: &Expr) -> Result<Vec<&'c Check>, Diagnostic> {
    let mut out = Vec::new();
    for c in cat.checks_by_id() {
        match dsl::eval(expr, &CheckEnv(c, &cat.config.sets)) {
            Ok(true) => out.push(c),
            Ok(false) => {}
            Err(e) => {
                return Err(Diagnostic::new(
                    &codes::EXPR_TYPE,
                    format!("selection failed on {}: {e}", c.id),
                )
                .id(c.id.clone()))
            }
        }
    }
    Ok(out)
}
