//! Text helpers every layer may use and that use nothing of the crate: "did you mean"
//! suggestions, digests, Markdown to safe HTML, the lines of YAML keys.

pub mod digest;
pub mod html_markdown;
pub mod suggest;
pub mod yaml_lines;
pub mod yaml_value;
