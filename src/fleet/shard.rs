//! Which share of a portfolio a run takes: `--shard I/N` takes the servers whose stable hash
//! of the name is `I-1` modulo `N`. The hash is the first eight bytes of the name's SHA-256,
//! so every machine, build and run puts a server in the same shard, and adding a server to the
//! portfolio moves no other.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based.
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// `I/N` with `1 <= I <= N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard: write I/N with 1 <= I <= N (1/4 … 4/4)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the server named `name` belongs to this shard.
    pub fn holds(&self, name: &str) -> bool {
        hash(name) % self.count == self.index - 1
    }
}

/// The stable hash of a server's name.
pub fn hash(name: &str) -> u64 {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(name.as_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[..8]);
    u64::from_be_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_lands_in_exactly_one_shard() {
        let shards: Vec<Shard> = (1..=4).map(|i| Shard { index: i, count: 4 }).collect();
        let mut sizes = [0usize; 4];
        for n in 0..400 {
            let name = format!("io.example/server-{n}");
            let held: Vec<usize> = (0..4).filter(|i| shards[*i].holds(&name)).collect();
            assert_eq!(held.len(), 1, "{name}");
            sizes[held[0]] += 1;
        }
        assert!(sizes.iter().all(|s| *s > 60), "{sizes:?}");
    }

    #[test]
    fn shards_are_parsed_and_bad_ones_refused() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x", "1-4"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::WHOLE.holds("anything"));
    }
}
