//! Markdown outlines kept between runs. The outline of a body (pulldown-cmark's events turned
//! into headings, task items, references and links) is most of what `lint` spends; it depends
//! only on the text and on the rules that tell ids, so a run can reuse the outline an earlier
//! run computed for the same bytes under the same rules.
//!
//! An entry's key is the SHA-256 of this build's version, the id rules, where the text sits
//! (file, first line, the check's own id, whether tables are kept) and the text itself: an
//! edited byte, another id pattern or a new release all miss. The file that holds the entries
//! lives in the user's cache directory, never in the catalogue, so a repository cannot ship
//! outlines that disagree with its files (see `session::outline_store`). The file ends with the
//! SHA-256 of everything before it: a torn or corrupted file is ignored as a whole, and a run
//! without a usable file computes every outline as if there were none.
//!
//! This module decides nothing about files: it turns bytes into entries and back.

use super::markdown::IdRules;
use crate::model::outline::Outline;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The first bytes of the file; a new layout of the file or of `Outline` changes it.
const MAGIC: &[u8; 8] = b"ABOUTL01";
const KEY: usize = 32;
/// The largest cache file read or written. It holds 10,000 realistic checks (6 MB) with room
/// to spare; past it a run outlines everything, as without a cache, and keeps nothing, so the
/// cache never adds more than this to the peak memory of a very large catalogue (at 100,000
/// checks the outlines alone would be tens of megabytes).
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;

type Key = [u8; KEY];

/// Where a text sits, besides its bytes: each is part of the key.
#[derive(Clone, Copy)]
pub struct Place<'a> {
    pub file: &'a str,
    pub first_line: usize,
    pub self_id: Option<&'a str>,
    pub tables: bool,
}

enum Entry {
    Read(std::ops::Range<usize>),
    Computed(Vec<u8>),
}

/// The entries a run found on disk, and those it used or computed.
#[derive(Default)]
pub struct OutlineCache {
    /// The file as read; `known` points into it.
    bytes: Vec<u8>,
    known: HashMap<Key, std::ops::Range<usize>>,
    /// Every entry this run asked for, by key: what the next file holds. An entry found in
    /// the file points into `bytes` (no copy: at 100,000 checks the outlines are tens of
    /// megabytes); a computed one holds its encoding.
    used: Mutex<BTreeMap<Key, Entry>>,
    /// An outline was computed (or an entry could not be decoded): the file is out of date.
    missed: AtomicBool,
    /// Bytes of the file this run would write; past `MAX_FILE_BYTES` nothing more is kept
    /// and nothing is written.
    size: AtomicUsize,
    /// `MAX_FILE_BYTES`, smaller in tests.
    limit: usize,
}

impl std::fmt::Debug for OutlineCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutlineCache")
            .field("known", &self.known.len())
            .field("missed", &self.missed.load(Ordering::Relaxed))
            .finish()
    }
}

impl OutlineCache {
    /// The entries of a cache file; anything but an intact file of this layout gives none.
    pub fn from_bytes(bytes: Vec<u8>) -> OutlineCache {
        OutlineCache::limited(bytes, MAX_FILE_BYTES)
    }

    fn limited(bytes: Vec<u8>, limit: usize) -> OutlineCache {
        let bytes = if bytes.len() > limit {
            Vec::new()
        } else {
            bytes
        };
        let known = entries(&bytes).unwrap_or_default();
        OutlineCache {
            bytes,
            known,
            limit,
            ..OutlineCache::default()
        }
    }

    /// The outline of `text` at `place` under `rules`: from the cache when an earlier run
    /// computed it for the same bytes and rules, else from `compute`.
    pub fn outline(
        &self,
        text: &str,
        place: &Place<'_>,
        rules: &IdRules<'_>,
        compute: impl FnOnce() -> Outline,
    ) -> Outline {
        let key = key(text, place, rules);
        let cached = self.known.get(&key).and_then(|r| {
            let o = postcard::from_bytes::<Outline>(self.bytes.get(r.clone())?).ok()?;
            Some((o, Entry::Read(r.clone())))
        });
        let (outline, entry) = match cached {
            Some(found) => found,
            None => {
                self.missed.store(true, Ordering::Relaxed);
                let o = compute();
                if self.size.load(Ordering::Relaxed) > self.limit {
                    return o;
                }
                // An outline that cannot be encoded is simply not kept.
                let Ok(b) = postcard::to_allocvec(&o) else {
                    return o;
                };
                (o, Entry::Computed(b))
            }
        };
        let len = match &entry {
            Entry::Read(r) => r.len(),
            Entry::Computed(b) => b.len(),
        };
        let size = self.size.fetch_add(len + KEY + 4, Ordering::Relaxed) + len + KEY + 4;
        if let Ok(mut used) = self.used.lock() {
            if size > self.limit {
                // Too large to keep: what was collected goes now, not at the end of the run.
                *used = BTreeMap::new();
            } else {
                used.insert(key, entry);
            }
        }
        outline
    }

    fn encoded<'a>(&'a self, e: &'a Entry) -> Option<&'a [u8]> {
        match e {
            Entry::Read(r) => self.bytes.get(r.clone()),
            Entry::Computed(b) => Some(b),
        }
    }

    /// The file the next run should find, if it differs from the one read: an outline was
    /// computed, or an entry of the old file was not asked for (the file holds only what the
    /// catalogue's current texts need, so it never grows past them).
    pub fn changed_file(&self) -> Option<Vec<u8>> {
        if self.size.load(Ordering::Relaxed) > self.limit {
            return None;
        }
        let used = self.used.lock().ok()?;
        let stale = self.known.keys().any(|k| !used.contains_key(k));
        if !self.missed.load(Ordering::Relaxed) && !stale {
            return None;
        }
        let size: usize = used
            .values()
            .filter_map(|e| self.encoded(e))
            .map(|b| b.len() + KEY + 4)
            .sum();
        let mut out = Vec::with_capacity(MAGIC.len() + size + KEY);
        out.extend_from_slice(MAGIC);
        for (k, e) in used.iter() {
            let v = self.encoded(e)?;
            out.extend_from_slice(k);
            out.extend_from_slice(&u32::try_from(v.len()).ok()?.to_le_bytes());
            out.extend_from_slice(v);
        }
        let sum = Sha256::digest(&out);
        out.extend_from_slice(&sum);
        Some(out)
    }
}

/// The entries of an intact file: magic, then key, length (u32, little-endian) and encoded
/// outline for each, then the SHA-256 of all of that.
fn entries(bytes: &[u8]) -> Option<HashMap<Key, std::ops::Range<usize>>> {
    let body_len = bytes.len().checked_sub(KEY)?;
    let (body, sum) = bytes.split_at(body_len);
    if body.get(..MAGIC.len())? != MAGIC || Sha256::digest(body).as_slice() != sum {
        return None;
    }
    let mut known = HashMap::new();
    let mut at = MAGIC.len();
    while at < body.len() {
        let key: Key = body.get(at..at + KEY)?.try_into().ok()?;
        let len_bytes: [u8; 4] = body.get(at + KEY..at + KEY + 4)?.try_into().ok()?;
        let len = usize::try_from(u32::from_le_bytes(len_bytes)).ok()?;
        let start = at + KEY + 4;
        let end = start.checked_add(len)?;
        body.get(start..end)?;
        known.insert(key, start..end);
        at = end;
    }
    Some(known)
}

fn key(text: &str, place: &Place<'_>, rules: &IdRules<'_>) -> Key {
    let mut h = Sha256::new();
    // Every part is length-prefixed, so no two different inputs run together the same way.
    let mut part = |b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    part(MAGIC);
    part(env!("CARGO_PKG_VERSION").as_bytes());
    part(rules.id_pattern.as_str().as_bytes());
    for c in rules.categories {
        part(c.as_bytes());
    }
    part(b"\0checks");
    part(rules.checks_dir.as_bytes());
    part(rules.checks_path.as_bytes());
    for b in rules.bases {
        part(b.as_bytes());
    }
    part(b"\0place");
    part(place.file.as_bytes());
    part(&(place.first_line as u64).to_le_bytes());
    part(place.self_id.unwrap_or("\0none").as_bytes());
    part(&[u8::from(place.tables)]);
    part(text.as_bytes());
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;
    use std::sync::LazyLock;

    static ID_PATTERN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new("^[A-Z]+-[0-9]{3}$").unwrap());
    static AB: LazyLock<Vec<String>> = LazyLock::new(|| vec!["AB".to_string()]);

    /// The rules every test outlines under, unless it asks for other categories.
    fn ab_rules() -> IdRules<'static> {
        rules(&AB)
    }

    fn rules(cats: &[String]) -> IdRules<'_> {
        IdRules {
            id_pattern: &ID_PATTERN,
            categories: cats,
            checks_dir: "checks",
            checks_path: "checks",
            bases: &[],
            outlines: None,
        }
    }

    fn place(file: &str) -> Place<'_> {
        Place {
            file,
            first_line: 1,
            self_id: None,
            tables: true,
        }
    }

    fn sample() -> Outline {
        Outline {
            code_blocks: vec![3..9, 12..20],
            ..Outline::default()
        }
    }

    /// Whether asking `cache` for `text` in `file` computed the outline (a miss).
    fn misses(cache: &OutlineCache, text: &str, file: &str, r: &IdRules<'_>) -> bool {
        let mut computed = false;
        let o = cache.outline(text, &place(file), r, || {
            computed = true;
            sample()
        });
        assert_eq!(o, sample());
        computed
    }

    /// A cache file holding the outline of `text` in `a.md`.
    fn file_with(text: &str, r: &IdRules<'_>) -> Vec<u8> {
        let first = OutlineCache::from_bytes(Vec::new());
        assert!(misses(&first, text, "a.md", r));
        first.changed_file().expect("a computed outline is written")
    }

    #[test]
    fn a_second_run_reuses_and_an_edit_misses() {
        let r = ab_rules();
        let file = file_with("text", &r);

        let second = OutlineCache::from_bytes(file.clone());
        assert!(!misses(&second, "text", "a.md", &r));
        assert!(second.changed_file().is_none(), "nothing new, nothing stale");

        let edited = OutlineCache::from_bytes(file.clone());
        assert!(misses(&edited, "text!", "a.md", &r), "an edited text");
        let moved = OutlineCache::from_bytes(file.clone());
        assert!(misses(&moved, "text", "b.md", &r), "another file");
        let other_cats = vec!["XY".to_string()];
        let other = OutlineCache::from_bytes(file);
        assert!(
            misses(&other, "text", "a.md", &rules(&other_cats)),
            "other id rules"
        );
    }

    #[test]
    fn past_the_size_limit_nothing_is_kept() {
        let r = ab_rules();
        let file = file_with("a", &r);
        // Room for one entry: the second goes over, and the run writes nothing.
        let c = OutlineCache::limited(Vec::new(), file.len());
        assert!(misses(&c, "a", "a.md", &r));
        assert!(misses(&c, "b", "b.md", &r));
        assert!(c.changed_file().is_none());
        // A file over the limit is not read.
        let big = OutlineCache::limited(file.clone(), file.len() - 1);
        assert!(misses(&big, "a", "a.md", &r));
    }

    #[test]
    fn a_damaged_file_is_ignored_whole() {
        let r = ab_rules();
        let file = file_with("text", &r);
        let mut flipped = file.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 1;
        for damaged in [
            flipped,
            file[..file.len() - 1].to_vec(),
            b"garbage".to_vec(),
            Vec::new(),
        ] {
            assert!(misses(&OutlineCache::from_bytes(damaged), "text", "a.md", &r));
        }
    }
}
