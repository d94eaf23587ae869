//! Text helpers every layer may use and that use nothing of the crate: "did you mean"
//! suggestions, digests, Markdown to safe HTML.

pub mod digest;
pub mod html_markdown;
pub mod suggest;
pub mod yaml_value;
