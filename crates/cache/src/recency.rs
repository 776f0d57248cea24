//! Per-set recency order, for LRU-like policies, two ways:
//! [`RecencyList`], a doubly linked list over the ways of each set, where
//! every operation is O(1) whatever the associativity, so that fully
//! associative caches cost no more per access; and [`RecencyRanks`], one
//! rank byte per way, faster for sets of up to 64 ways.

use crate::error::CacheError;
use crate::table::filled;

const NIL: u32 = u32::MAX;

pub struct RecencyList {
    ways: usize,
    /// Per slot: the next more recent / less recent way in its set.
    newer: Vec<u32>,
    older: Vec<u32>,
    /// Per set: most and least recent way.
    head: Vec<u32>,
    tail: Vec<u32>,
}

impl RecencyList {
    /// An error where the lists do not fit in memory.
    pub fn new(sets: usize, ways: usize) -> Result<RecencyList, CacheError> {
        let what = "the recency lists";
        Ok(RecencyList {
            ways,
            newer: filled(sets * ways, NIL, what)?,
            older: filled(sets * ways, NIL, what)?,
            head: filled(sets, NIL, what)?,
            tail: filled(sets, NIL, what)?,
        })
    }

    /// The most recently touched way of `set`.
    #[inline(always)]
    pub fn most_recent(&self, set: usize) -> Option<usize> {
        let h = self.head[set];
        (h != NIL).then_some(h as usize)
    }

    /// The least recently touched way of `set`.
    #[inline(always)]
    pub fn least_recent(&self, set: usize) -> Option<usize> {
        let t = self.tail[set];
        (t != NIL).then_some(t as usize)
    }

    /// Makes `way` the most recent of `set`, linking it in if it was not yet.
    #[inline(always)]
    pub fn touch(&mut self, set: usize, way: usize) {
        let base = set * self.ways;
        let slot = base + way;
        if self.head[set] == way as u32 {
            return;
        }
        // An unlinked way has no neighbours and is not the head.
        if self.newer[slot] != NIL || self.older[slot] != NIL {
            self.unlink(set, way);
        }
        let old_head = self.head[set];
        self.older[slot] = old_head;
        self.newer[slot] = NIL;
        if old_head != NIL {
            self.newer[base + old_head as usize] = way as u32;
        } else {
            self.tail[set] = way as u32;
        }
        self.head[set] = way as u32;
    }

    #[inline(always)]
    fn unlink(&mut self, set: usize, way: usize) {
        let base = set * self.ways;
        let slot = base + way;
        let (n, o) = (self.newer[slot], self.older[slot]);
        if n != NIL {
            self.older[base + n as usize] = o;
        } else {
            self.head[set] = o;
        }
        if o != NIL {
            self.newer[base + o as usize] = n;
        } else {
            self.tail[set] = n;
        }
    }
}

/// Per-set recency ranks, one byte per way: 0 is the most recently touched
/// way, `n - 1` the least of the `n` touched so far, [`UNTOUCHED`] a way
/// never touched. For sets of at most 64 ways: a touch updates the whole set in
/// one or a few 16-byte vector operations and the least recent way is one
/// compare away, with a single host cache line per set of 16 ways (the
/// linked [`RecencyList`] needs three).
pub struct RecencyRanks {
    ways: usize,
    ranks: Vec<u8>,
}

/// The rank of a way never touched: above every real rank, and below 128
/// so that every rank is positive as a signed byte (see
/// [`crate::lanes::touch16_ranks`]).
pub const UNTOUCHED: u8 = 127;

impl RecencyRanks {
    /// The largest associativity ranks serve.
    pub const MAX_WAYS: usize = 64;

    /// An error where the ranks do not fit in memory.
    pub fn new(sets: usize, ways: usize) -> Result<RecencyRanks, CacheError> {
        assert!(
            ways <= Self::MAX_WAYS,
            "{ways} ways: ranks serve at most 64"
        );
        Ok(RecencyRanks {
            ways,
            ranks: filled(sets * ways, UNTOUCHED, "the recency ranks")?,
        })
    }

    /// Makes `way` the most recent of `set`.
    #[inline(always)]
    pub fn touch(&mut self, set: usize, way: usize) {
        let r = &mut self.ranks[set * self.ways..(set + 1) * self.ways];
        let a = r[way];
        if a == 0 {
            return;
        }
        // Every way more recent than `way` (or any touched way, when `way`
        // is new) ages by one.
        if let Ok(chunk) = <&mut [u8; crate::lanes::LANES]>::try_from(&mut *r) {
            for b in chunk.iter_mut() {
                *b += u8::from(*b < a);
            }
        } else {
            for b in r.iter_mut() {
                *b += u8::from(*b < a);
            }
        }
        r[way] = 0;
    }

    /// The least recently touched way of a full `set`.
    #[inline(always)]
    pub fn least_recent(&self, set: usize) -> usize {
        let r = &self.ranks[set * self.ways..(set + 1) * self.ways];
        crate::lanes::first_eq(r, (self.ways - 1) as u8).unwrap_or(0)
    }

    /// The ranks as one 16-byte row per set, when sets have 16 ways.
    pub(crate) fn rows16(&mut self) -> Option<&mut [[u8; 16]]> {
        (self.ways == 16).then(|| self.ranks.as_chunks_mut().0)
    }

    /// Prefetches the ranks of `set` (a hint; see [`crate::policy::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, set: usize) {
        crate::policy::prefetch(&self.ranks, set * self.ways);
    }
}
