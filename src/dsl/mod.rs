//! The `applies_when` expression language (catalogue format, section 4):
//! parsing, canonical printing, static checking against a schema, evaluation
//! against a profile, and exact semantic comparison of two expressions.

pub mod analysis;
pub mod ast;
pub mod eval;
pub mod lexer;
pub mod parser;
pub mod pretty;
pub mod schema;
pub mod typeck;

#[cfg(test)]
mod proptests;

pub use analysis::{compare, describe, Comparison};
pub use ast::{CmpOp, Expr, ExprKind, Operand, Span, TextOp};
pub use eval::{eval, Env, EvalError, Value};
pub use parser::parse;
pub use schema::{FieldSpec, FieldType, Schema};
pub use typeck::{check, FindingKind};
// The rest of the language's vocabulary, for the tests and fuzz targets that drive it directly.
#[cfg(any(test, feature = "internals"))]
pub use analysis::{constant_value, Assignment};
#[cfg(any(test, feature = "internals"))]
pub use ast::{Path, StrLit};
#[cfg(any(test, feature = "internals"))]
pub use parser::ParseError;
#[cfg(any(test, feature = "internals"))]
pub use typeck::Finding;
