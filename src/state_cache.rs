//! Built objects (compiled fixed-function routines, prepared shader
//! variants) kept by the state key that chose them, with a bound on how
//! many.
//!
//! Invariants: a cache never holds more than `LIMIT` entries; while it
//! holds a key, every lookup of that key returns the same value (a state
//! change back to an earlier state costs a lookup, not a rebuild). Past the
//! bound the cache starts over rather than evicting one entry: an
//! application that walks through more states than the bound in one frame
//! is rare (a frame of real D3D9 state has a few dozen variants), and
//! starting over costs each state still in use one rebuild, where an LRU
//! list would cost every hit its bookkeeping.

use std::collections::HashMap;
use std::hash::Hash;

/// Values by key, at most `LIMIT` of them (see the module docs).
#[derive(Debug)]
pub struct StateCache<K, V, const LIMIT: usize> {
    map: HashMap<K, V>,
}

impl<K, V, const LIMIT: usize> Default for StateCache<K, V, LIMIT> {
    fn default() -> Self {
        StateCache {
            map: HashMap::new(),
        }
    }
}

impl<K: Eq + Hash + Clone, V: Clone, const LIMIT: usize> StateCache<K, V, LIMIT> {
    /// The value for `key`, built by `build` when the cache does not hold
    /// it.
    ///
    /// A miss hashes the key twice (look-up, then insert): the key is
    /// cloned only on a miss, and a miss costs a build, beside which the
    /// second hash is noise.
    pub fn get_or_build(&mut self, key: &K, build: impl FnOnce(&K) -> V) -> V {
        if let Some(v) = self.map.get(key) {
            return v.clone();
        }
        if self.map.len() >= LIMIT {
            self.map.clear();
        }
        let v = build(key);
        self.map.insert(key.clone(), v.clone());
        v
    }

    /// Number of values held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the cache holds nothing.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::StateCache;

    #[test]
    fn holds_at_most_its_limit_and_keeps_what_it_holds() {
        let mut cache = StateCache::<u32, u64, 4>::default();
        let mut builds = 0;
        let mut get = |cache: &mut StateCache<u32, u64, 4>, k: u32| {
            cache.get_or_build(&k, |&k| {
                builds += 1;
                u64::from(k) * 10
            })
        };
        assert_eq!(get(&mut cache, 1), 10);
        assert_eq!(get(&mut cache, 1), 10);
        for k in 2..=4 {
            assert_eq!(get(&mut cache, k), u64::from(k) * 10);
        }
        assert_eq!(cache.len(), 4);
        // Hits do not build.
        assert_eq!(get(&mut cache, 3), 30);
        // The fifth key starts the cache over: it alone is held.
        assert_eq!(get(&mut cache, 5), 50);
        assert_eq!(cache.len(), 1);
        assert_eq!(get(&mut cache, 5), 50);
        assert_eq!(builds, 5);
    }
}
