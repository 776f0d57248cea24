//! D-NUCA's directory: for every block held in some texture cache, the one
//! cache that holds it ("a single sharer per directory entry", Section
//! VI). Exact (ours: the paper does not say how it is organized): its size
//! in hardware grows with the caches, which is the point the paper makes
//! against it.

use crate::block_hash::{block_map, BlockMap};

/// Block -> the fragment processor whose texture cache holds it.
#[derive(Clone, Debug, Default)]
pub struct Directory {
    holders: BlockMap<u16>,
}

impl Directory {
    /// An empty directory with room for `blocks` entries, so that it never
    /// grows while a trace runs (it holds at most every texture cache's
    /// blocks).
    pub fn with_capacity(blocks: usize) -> Directory {
        Directory {
            holders: block_map(blocks),
        }
    }

    /// The holder of `block`, if a texture cache holds it.
    #[inline]
    pub fn holder(&self, block: u64) -> Option<usize> {
        self.holders.get(&block).map(|&h| h as usize)
    }

    /// Records that `fp`'s texture cache now holds `block`.
    #[inline]
    pub fn insert(&mut self, block: u64, fp: usize) {
        let old = self.holders.insert(block, fp as u16);
        debug_assert!(old.is_none(), "D-NUCA never holds a block twice");
    }

    /// Clears `block`'s entry: its holder evicted it.
    #[inline]
    pub fn remove(&mut self, block: u64) {
        let old = self.holders.remove(&block);
        debug_assert!(old.is_some(), "an evicted block had an entry");
    }

    /// How many blocks have an entry.
    pub fn len(&self) -> usize {
        self.holders.len()
    }

    pub fn is_empty(&self) -> bool {
        self.holders.is_empty()
    }

    /// Every entry (block, holder), in no particular order. For checks.
    pub fn entries(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.holders.iter().map(|(&b, &h)| (b, h as usize))
    }
}
