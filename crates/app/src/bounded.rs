//! A map for per-key counters kept in memory (login throttling, rate limits): it prunes stale
//! entries as it grows, with a mark that moves with its size so that pruning is paid for by many
//! inserts, and past a hard cap drops the entries that matter least. Whatever keys a client
//! invents, memory stays bounded.

use std::collections::HashMap;

use chrono::NaiveDateTime;

/// Entries kept before stale ones are pruned.
pub(crate) const PRUNE_ABOVE: usize = 10_000;
/// Entries kept at most; past it the unprotected, then the longest idle, go first.
pub(crate) const HARD_CAP: usize = 50_000;

/// A map that prunes itself when it reaches `prune_at`, a mark that moves with its size so that
/// the cost of pruning is spread over many inserts.
#[derive(Debug)]
pub(crate) struct Bounded<K, V> {
    pub(crate) map: HashMap<K, V>,
    prune_at: usize,
}

impl<K, V> Default for Bounded<K, V> {
    fn default() -> Self {
        Self { map: HashMap::new(), prune_at: PRUNE_ABOVE }
    }
}

impl<K: Clone + Eq + std::hash::Hash, V> Bounded<K, V> {
    /// Before inserting `key`: when the map is full, drops what `expired` says is stale, then,
    /// past the hard cap, what `rank` orders first (not protected, then idle longest).
    pub(crate) fn make_room(
        &mut self,
        key: &K,
        expired: impl Fn(&V) -> bool,
        rank: impl Fn(&V) -> (bool, NaiveDateTime),
    ) {
        if self.map.len() < self.prune_at || self.map.contains_key(key) {
            return;
        }
        self.map.retain(|_, v| !expired(v));
        if self.map.len() >= HARD_CAP {
            let mut order: Vec<(bool, NaiveDateTime, K)> = self
                .map
                .iter()
                .map(|(k, v)| {
                    let (protected, at) = rank(v);
                    (protected, at, k.clone())
                })
                .collect();
            order.sort_by_key(|entry| (entry.0, entry.1));
            let excess = self.map.len() - HARD_CAP * 3 / 4;
            for (_, _, k) in order.into_iter().take(excess) {
                self.map.remove(&k);
            }
        }
        self.prune_at = (self.map.len() * 2).clamp(PRUNE_ABOVE, HARD_CAP);
    }
}
