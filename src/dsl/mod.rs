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

pub use analysis::{compare, constant_value, describe, Assignment, Comparison};
pub use ast::{CmpOp, Expr, ExprKind, Operand, Path, Span, StrLit, TextOp};
pub use eval::{eval, Env, EvalError, Value};
pub use parser::{parse, ParseError};
pub use schema::{FieldSpec, FieldType, Schema};
pub use typeck::{check, Finding, FindingKind};
