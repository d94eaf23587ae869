//! What one case expected and what the catalogue decided, line by line: evaluation fills it,
//! the report prints it, so both depend on it and not on each other.

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    pub name: String,
    pub file: String,
    pub line: usize,
    /// One line per expectation, as written.
    pub expected: Vec<String>,
    /// The same lines as the catalogue decides them.
    pub actual: Vec<String>,
    /// Inputs that could not be read (the case fails with them).
    pub problems: Vec<String>,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.problems.is_empty() && self.expected == self.actual
    }
}
