//! A check file's text, held or released. Loading always reads the whole file; a lean load
//! (`load::Options::keep_check_texts = false`, what `lint` and `verify` use) drops it once the
//! frontmatter and body have been read, keeping only a stamp so the file can be read again
//! for a finding's source line and known to be the same text. At 100,000 checks the texts
//! were the largest single part of the model.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckText {
    Held(Arc<str>),
    Released(Stamp),
}

/// Length and hash of a text as it was loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    len: usize,
    hash: u64,
}

impl Stamp {
    pub fn of(text: &str) -> Stamp {
        // The standard hasher with its fixed keys: the stamp is compared only within one run.
        let mut h = std::hash::DefaultHasher::new();
        text.hash(&mut h);
        Stamp {
            len: text.len(),
            hash: h.finish(),
        }
    }

    pub fn matches(&self, text: &str) -> bool {
        text.len() == self.len && Stamp::of(text) == *self
    }
}

impl CheckText {
    /// The text, when it is held.
    pub fn get(&self) -> Option<&Arc<str>> {
        match self {
            CheckText::Held(t) => Some(t),
            CheckText::Released(_) => None,
        }
    }

    /// Drop the text, keeping its stamp.
    pub fn release(&mut self) {
        if let CheckText::Held(t) = self {
            *self = CheckText::Released(Stamp::of(t));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_released_text_matches_only_itself() {
        let mut t = CheckText::Held(Arc::from("---\nid: A-001\n---\nbody\n"));
        t.release();
        let CheckText::Released(stamp) = t else {
            panic!("release keeps a stamp")
        };
        assert!(stamp.matches("---\nid: A-001\n---\nbody\n"));
        assert!(
            !stamp.matches("---\nid: A-002\n---\nbody\n"),
            "same length, other text"
        );
        assert!(!stamp.matches("---\nid: A-001\n---\nbody!\n"));
    }
}
