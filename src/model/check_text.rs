//! A check file's text, held or released. Loading always reads the whole file; a lean load
//! (`load::Options::keep_check_texts = false`, what `lint` and `verify` use) drops it once the
//! frontmatter and body have been read, keeping only a stamp so the file can be read again
//! for a finding's source line and known to be the same text. At 100,000 checks the texts
//! were the largest single part of the model.

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
        Stamp {
            len: text.len(),
            hash: word_hash(text.as_bytes()),
        }
    }

    pub fn matches(&self, text: &str) -> bool {
        text.len() == self.len && Stamp::of(text) == *self
    }
}

/// A multiply-rotate hash over eight bytes at a time. The stamp only tells whether a file
/// still holds the text loaded moments before in the same run (nobody crafts collisions
/// against it), and SipHash over every check's text was a measurable share of a lint.
fn word_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let step = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    let mut h = 0u64;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = step(h, u64::from_le_bytes(w));
    }
    let mut tail = [0u8; 8];
    let rest = chunks.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    h = step(h, u64::from_le_bytes(tail));
    // Spread the last word's bits over the whole hash.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
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

    #[test]
    fn one_changed_byte_anywhere_changes_the_stamp() {
        let text = "---\nid: FID-001\ntitle: Prüfung der Übergänge\n---\n\n## Ziel\n\nText.\n";
        let stamp = Stamp::of(text);
        for i in 0..text.len() {
            let mut b = text.as_bytes().to_vec();
            b[i] ^= 0x01;
            let changed = String::from_utf8_lossy(&b);
            assert!(!stamp.matches(&changed), "byte {i}");
        }
    }
}
