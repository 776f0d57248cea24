//! Next-use indices: for every block access of a trace, the index of the
//! next access to the same block. Belady's OPT needs them; computing them is
//! one forward pass over the trace that remembers each block's last access.

use gfxcache_trace::Access;
use rustc_hash::FxHashMap;

use crate::engine::block_range;

/// Next use of each block access, by access index. 4 bytes per access.
pub struct NextUse {
    next: Vec<u32>,
}

impl NextUse {
    /// The index used for "never used again".
    pub const NEVER: u32 = u32::MAX;

    /// The next access to the same block after block access `seq`, or [`NextUse::NEVER`].
    #[inline(always)]
    pub fn after(&self, seq: u64) -> u32 {
        self.next[seq as usize]
    }

    /// Block accesses covered.
    pub fn len(&self) -> usize {
        self.next.len()
    }

    pub fn is_empty(&self) -> bool {
        self.next.is_empty()
    }
}

/// Builds a [`NextUse`] as the trace streams past.
pub struct NextUseBuilder {
    shift: u32,
    next: Vec<u32>,
    last: FxHashMap<u64, u32>,
}

/// A trace with more block accesses than [`NextUse`] can number.
#[derive(Debug, Clone, thiserror::Error)]
#[error("trace has more than {} block accesses, more than OPT can number", NextUse::NEVER - 1)]
pub struct TooLong;

impl NextUseBuilder {
    /// For caches of `block` bytes per line (a power of two).
    pub fn new(block: u32) -> NextUseBuilder {
        NextUseBuilder {
            shift: block.trailing_zeros(),
            next: Vec::new(),
            last: FxHashMap::default(),
        }
    }

    pub fn push_all(&mut self, accesses: &[Access]) -> Result<(), TooLong> {
        for a in accesses {
            let (first, last) = block_range(a, self.shift);
            for b in first..=last {
                self.push_block(b)?;
            }
        }
        Ok(())
    }

    #[inline]
    fn push_block(&mut self, block: u64) -> Result<(), TooLong> {
        let i = self.next.len();
        if i >= (NextUse::NEVER - 1) as usize {
            return Err(TooLong);
        }
        let i = i as u32;
        if let Some(prev) = self.last.insert(block, i) {
            self.next[prev as usize] = i;
        }
        self.next.push(NextUse::NEVER);
        Ok(())
    }

    pub fn finish(self) -> NextUse {
        NextUse { next: self.next }
    }
}
