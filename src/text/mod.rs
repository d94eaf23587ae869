//! Text helpers every layer may use and that use nothing of the crate: "did you mean"
//! suggestions, digests, Markdown to safe HTML, the lines of YAML keys, line and column of an
//! offset.

pub mod digest;
pub mod html_markdown;
pub mod line_index;
pub mod patterns;
pub mod suggest;
pub mod yaml_lines;
pub mod yaml_value;
