//! The L1 texture cache: read-only, set-associative, LRU, with a probe
//! that changes nothing (the tag check of a request the unit may refuse)
//! apart from the hit that refreshes a line and the fill.
//!
//! Not the cache engine's `Cache<Lru>`: its access always fills on a
//! miss, while here a missing block is filled only when memory returns
//! it, many cycles later. The LRU order is a last-use stamp per line: the
//! value of an access counter that counts the L1's hits and fills (not
//! the simulated cycle), so that uses within one cycle stay ordered.

use gfxcache_cache::Geometry;

/// A tag no block address has: blocks are byte addresses shifted by at
/// least one bit.
const INVALID: u64 = u64::MAX;

pub struct L1 {
    geom: Geometry,
    ways: usize,
    /// Per set, `ways` tags.
    tags: Vec<u64>,
    /// Per line, `clock` at its last fill or hit.
    stamps: Vec<u64>,
    /// Hits and fills so far (an access counter, not the cycle).
    clock: u64,
}

impl L1 {
    pub fn new(geom: &Geometry) -> L1 {
        let lines = geom.blocks();
        L1 {
            geom: *geom,
            ways: geom.ways as usize,
            tags: vec![INVALID; lines],
            stamps: vec![0; lines],
            clock: 0,
        }
    }

    /// The line holding `block`, if any.
    #[inline]
    fn find(&self, block: u64) -> Option<usize> {
        let base = self.geom.set_of(block) * self.ways;
        (base..base + self.ways).find(|&i| self.tags[i] == block)
    }

    /// Whether `block` is present; changes nothing.
    #[inline]
    pub fn probe(&self, block: u64) -> bool {
        self.find(block).is_some()
    }

    /// Refreshes `block`'s line if present (a hit the unit accepted).
    #[inline]
    pub fn touch(&mut self, block: u64) {
        if let Some(i) = self.find(block) {
            self.clock += 1;
            self.stamps[i] = self.clock;
        }
    }

    /// Writes `block` in place of its set's least recently used line
    /// (an empty way first).
    pub fn fill(&mut self, block: u64) {
        if self.find(block).is_some() {
            return;
        }
        let base = self.geom.set_of(block) * self.ways;
        let victim = (base..base + self.ways)
            .min_by_key(|&i| {
                if self.tags[i] == INVALID {
                    0
                } else {
                    self.stamps[i] + 1
                }
            })
            .expect("a set has at least one way");
        self.clock += 1;
        self.tags[victim] = block;
        self.stamps[victim] = self.clock;
    }
}
