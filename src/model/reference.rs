//! A reference from a check, rule or document to a check id: a link or a mention.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RefKind {
    Link,
    Mention,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Reference {
    /// Ids are short: stored inline, with no allocation of their own (a large catalogue holds
    /// several references per check).
    pub target: CompactString,
    pub kind: RefKind,
    pub line: usize,
    pub column: usize,
    /// The link destination as written (links only).
    pub url: Option<CompactString>,
}

/// A link or image whose destination the engine can follow (relative, `#fragment` alone, or
/// under a configured base), as written: the path and fragment checks read these. Links to
/// external sites are not kept.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LocalLink {
    pub dest: CompactString,
    pub line: u32,
    pub column: u32,
}
