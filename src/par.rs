//! When work is spread over the cores. Starting rayon's pool (one thread per core, which then
//! wait for work by spinning) costs more CPU than it saves on a catalogue of a few hundred
//! checks: the shipped catalogue's `lint` spent about a sixth of its CPU time in idle workers
//! and their start-up. Below [`PARALLEL_FROM`] items the work stays on the calling thread and
//! the pool is never started; above it, the wall time parallel work saves is worth its cost.
//! Either way results come back in input order, so the choice never shows in the output.

use rayon::prelude::*;

/// The number of items from which work is spread over the cores.
pub const PARALLEL_FROM: usize = 400;

/// `AUDITBOOK_PARALLEL_FROM` moves the threshold (`1`: everything in parallel), so the tests
/// can hold both paths to the same bytes on one catalogue.
fn threshold() -> usize {
    static FROM: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *FROM.get_or_init(|| {
        std::env::var("AUDITBOOK_PARALLEL_FROM")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(PARALLEL_FROM)
    })
}

/// Whether `n` items are worth starting the pool for. (Asking rayon how many threads it has
/// would start the pool, so the machine's cores are not consulted here.)
pub fn worth(n: usize) -> bool {
    n >= threshold()
}

/// `f` over every item, in input order.
pub fn map<T, R, F>(items: &[T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    if worth(items.len()) {
        items.par_iter().map(f).collect()
    } else {
        items.iter().map(f).collect()
    }
}

/// `f` over every item, its pairs split into two vectors, both in input order (collected
/// straight into their own vectors, without a vector of pairs between).
pub fn map_unzip<T, A, B, F>(items: &[T], f: F) -> (Vec<A>, Vec<B>)
where
    T: Sync,
    A: Send,
    B: Send,
    F: Fn(&T) -> (A, B) + Sync + Send,
{
    if worth(items.len()) {
        items.par_iter().map(f).unzip()
    } else {
        items.iter().map(f).unzip()
    }
}

/// `f` over every item, by mutable reference.
pub fn for_each_mut<T, F>(items: &mut [T], f: F)
where
    T: Send,
    F: Fn(&mut T) + Sync + Send,
{
    if worth(items.len()) {
        items.par_iter_mut().for_each(f);
    } else {
        items.iter_mut().for_each(f);
    }
}

/// The items `f` yields for each item, concatenated in input order.
pub fn flat_map<'a, T, I, F>(items: &'a [T], f: F) -> Vec<I::Item>
where
    T: Sync,
    I: IntoIterator,
    I::Item: Send,
    F: Fn(&'a T) -> I + Sync + Send,
{
    if worth(items.len()) {
        items.par_iter().flat_map_iter(f).collect()
    } else {
        items.iter().flat_map(f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_paths_keep_input_order() {
        for n in [0, 3, PARALLEL_FROM - 1, PARALLEL_FROM, PARALLEL_FROM * 3] {
            let items: Vec<usize> = (0..n).collect();
            assert_eq!(map(&items, |i| i * 2), (0..n).map(|i| i * 2).collect::<Vec<_>>());
            let pairs = flat_map(&items, |&i| [i, i]);
            assert_eq!(pairs.len(), n * 2);
            assert!(pairs.windows(2).all(|w| w[0] <= w[1]));
            let mut m = items.clone();
            for_each_mut(&mut m, |i| *i += 1);
            assert_eq!(m, (1..=n).collect::<Vec<_>>());
        }
    }
}
