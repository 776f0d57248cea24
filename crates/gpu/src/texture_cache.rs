//! The texture cache of one texture unit: read-only, set-associative, LRU
//! (DTM-NUCA's Table I: 16 KiB, 4-way, 64 B blocks; the NBTC slides' L1:
//! 32 KiB, 4-way, 32 B blocks).
//!
//! Not the cache engine's `Cache<Lru>`: DTM-NUCA needs a hit that leaves
//! the LRU order alone (Section III-B: a just-exchanged owner serves its
//! stale copy without refreshing it), a probe that changes nothing (the
//! replication count, D-NUCA's checks, the tag check of a request the
//! NBTC's unit may refuse) and the victim of a fill; a non-blocking cache
//! fills a missing block only when memory returns it, many cycles after
//! the miss ([`TextureCache::fill_unless_present`]). None of that is in
//! the engine's `Policy` interface. The LRU order is a
//! last-use stamp per line (the engine's `RecencyList` cannot be walked,
//! which the tests need): a lookup already scans the set, and the victim
//! is found by the same scan, on misses only.

use gfxcache_cache::{Geometry, IndexFn};

/// A tag that no block address has: blocks are byte addresses shifted by
/// at least one bit.
const INVALID: u64 = u64::MAX;

/// What [`TextureCache::access`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum Lookup {
    Hit,
    /// The block was filled, in place of `evicted` if the set was full.
    Miss {
        evicted: Option<u64>,
    },
}

/// One texture cache. Block addresses are byte addresses shifted by the
/// block size.
pub struct TextureCache {
    /// The set index function ([`Geometry::set_of`]).
    geom: Geometry,
    sets: usize,
    ways: usize,
    /// `sets - 1` when the set count is a power of two.
    set_mask: Option<u64>,
    /// Per set, `ways` tags; [`INVALID`] for a way not filled yet.
    tags: Vec<u64>,
    /// Per set, how many ways are filled: lines are never invalidated, so
    /// the filled ways are `0..filled` and the lowest free one is `filled`.
    filled: Vec<u32>,
    /// Per line, the clock at its last fill or refreshing hit: the least
    /// recently used line of a full set has the smallest.
    stamps: Vec<u64>,
    clock: u64,
}

impl TextureCache {
    /// An empty cache of `geom`'s sets and ways (its block size is the
    /// caller's business: block addresses come in already shifted).
    pub fn new(geom: &Geometry) -> TextureCache {
        let (sets, ways) = (geom.sets as usize, geom.ways as usize);
        TextureCache {
            geom: *geom,
            sets,
            ways,
            // The common case without a call: modulo a power of two.
            set_mask: (geom.sets.is_power_of_two() && geom.index == IndexFn::Modulo)
                .then(|| u64::from(geom.sets) - 1),
            tags: vec![INVALID; sets * ways],
            filled: vec![0; sets],
            stamps: vec![0; sets * ways],
            clock: 0,
        }
    }

    pub fn sets(&self) -> usize {
        self.sets
    }

    pub fn ways(&self) -> usize {
        self.ways
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        match self.set_mask {
            Some(mask) => (block & mask) as usize,
            None => self.geom.set_of(block),
        }
    }

    #[inline]
    fn way_of(&self, set: usize, block: u64) -> Option<usize> {
        let filled = self.filled[set] as usize;
        self.tags[set * self.ways..][..filled]
            .iter()
            .position(|&t| t == block)
    }

    /// Whether `block` is resident; changes nothing.
    #[inline]
    pub fn contains(&self, block: u64) -> bool {
        self.way_of(self.set_of(block), block).is_some()
    }

    /// Looks `block` up. On a hit it becomes the most recent of its set when
    /// `refresh` is true, and keeps its place when it is false (DTM-NUCA's
    /// rule for a local hit on a bucket the requester does not own). A miss
    /// changes nothing.
    #[inline]
    pub fn hit(&mut self, block: u64, refresh: bool) -> bool {
        let set = self.set_of(block);
        match self.way_of(set, block) {
            Some(way) => {
                if refresh {
                    self.touch(set * self.ways + way);
                }
                true
            }
            None => false,
        }
    }

    /// Puts `block`, which must not be resident, in the lowest free way of
    /// its set, or else in place of the least recently used block, and
    /// makes it the most recent. Returns the block it evicted.
    #[inline]
    pub fn fill(&mut self, block: u64) -> Option<u64> {
        debug_assert!(block != INVALID && !self.contains(block));
        let set = self.set_of(block);
        let filled = self.filled[set] as usize;
        let (way, victim) = if filled < self.ways {
            self.filled[set] += 1;
            (filled, None)
        } else {
            let way = self.least_recent(set);
            (way, Some(self.tags[set * self.ways + way]))
        };
        self.tags[set * self.ways + way] = block;
        self.touch(set * self.ways + way);
        victim
    }

    #[inline]
    fn touch(&mut self, line: usize) {
        self.clock += 1;
        self.stamps[line] = self.clock;
    }

    /// The least recently used way of a full set.
    #[inline]
    fn least_recent(&self, set: usize) -> usize {
        let stamps = &self.stamps[set * self.ways..][..self.ways];
        let mut way = 0;
        for (w, &s) in stamps.iter().enumerate().skip(1) {
            if s < stamps[way] {
                way = w;
            }
        }
        way
    }

    /// Fills `block` as [`TextureCache::fill`] does, unless it is resident
    /// already (memory returned a block that a fill since has brought):
    /// then nothing changes.
    #[inline]
    pub fn fill_unless_present(&mut self, block: u64) -> Option<u64> {
        if self.contains(block) {
            None
        } else {
            self.fill(block)
        }
    }

    /// A hit that refreshes, or else a fill: what a private LRU cache does
    /// with one access.
    #[inline]
    pub fn access(&mut self, block: u64) -> Lookup {
        if self.hit(block, true) {
            Lookup::Hit
        } else {
            Lookup::Miss {
                evicted: self.fill(block),
            }
        }
    }

    /// Every resident block, set by set, way by way. For tests and checks.
    pub fn blocks(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.sets).flat_map(move |set| {
            self.tags[set * self.ways..][..self.filled[set] as usize]
                .iter()
                .copied()
        })
    }

    /// The resident blocks of `block`'s set from most to least recently
    /// used. For tests.
    pub fn recency_order(&self, block: u64) -> Vec<u64> {
        let set = self.set_of(block);
        let base = set * self.ways;
        let mut lines: Vec<usize> = (base..base + self.filled[set] as usize).collect();
        lines.sort_by_key(|&l| std::cmp::Reverse(self.stamps[l]));
        lines.into_iter().map(|l| self.tags[l]).collect()
    }
}
