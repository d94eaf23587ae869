//! What every diagnostics format shares: where the files of findings are read from and how
//! their paths are shown. Each format has its own emitter in `emit/`.

use std::sync::Arc;

/// Where the human renderer finds the text of a file a finding points into.
pub trait Sources {
    fn text_of(&self, file: &str) -> Option<Arc<str>>;
}

impl Sources for crate::diag::SourceMap {
    fn text_of(&self, file: &str) -> Option<Arc<str>> {
        self.get(file).cloned()
    }
}

impl Sources for crate::model::Catalogue {
    fn text_of(&self, file: &str) -> Option<Arc<str>> {
        crate::load::source(self, file)
    }
}

pub use super::sarif::Successors;

/// The human emitter's pieces, for commands that print findings of their own input (a
/// profile, a `--where` expression) beside their data.
pub use super::emit::human::human;
#[cfg(any(test, feature = "internals"))]
pub use super::emit::human::{human_findings, summary_line};

/// `prefix/file`, where prefix is the catalogue root as the user named it, with `dir/..`
/// pairs folded so a document outside the root (`../README.md`) gets the path a CI system
/// knows it by (`README.md`, not `catalogue/../README.md`).
pub fn join(prefix: &str, file: &str) -> String {
    let joined = if prefix.is_empty() || prefix == "." {
        file.to_string()
    } else {
        format!("{}/{}", prefix.trim_end_matches('/'), file)
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "." if !parts.is_empty() => {}
            ".." if parts
                .last()
                .is_some_and(|p| *p != ".." && *p != "." && !p.is_empty()) =>
            {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn join_folds_parent_steps() {
        assert_eq!(join("catalogue", "../README.md"), "README.md");
        assert_eq!(join(".", "checks/A-001.md"), "checks/A-001.md");
        assert_eq!(join("a/b/", "../../x.md"), "x.md");
        assert_eq!(join("..", "../x.md"), "../../x.md");
        assert_eq!(join("/abs/cat", "checks/A.md"), "/abs/cat/checks/A.md");
    }
}
