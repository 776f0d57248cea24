//! Next-use indices: for every block access of a trace, the index of the
//! next access to the same block. Belady's OPT needs them; computing them is
//! one forward pass over the trace that remembers each block's last access.

use gfxcache_trace::Access;

use crate::engine::block_range;

/// Next use of each block access, by access index. 4 bytes per access.
pub struct NextUse {
    pub(crate) next: Vec<u32>,
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
    last: LastSeen,
}

/// A trace with more block accesses than [`NextUse`] can number.
#[derive(Debug, Clone, thiserror::Error)]
#[error("trace has more than {} block accesses, more than OPT can number", NextUse::NEVER - 1)]
pub struct TooLong;

/// How many accesses ahead [`NextUseBuilder::push_all`] prefetches.
const AHEAD: usize = 16;

impl NextUseBuilder {
    /// For caches of `block` bytes per line (a power of two).
    pub fn new(block: u32) -> NextUseBuilder {
        NextUseBuilder {
            shift: block.trailing_zeros(),
            next: Vec::new(),
            last: LastSeen::new(),
        }
    }

    pub fn push_all(&mut self, accesses: &[Access]) -> Result<(), TooLong> {
        self.next.reserve(accesses.len());
        for (i, a) in accesses.iter().enumerate() {
            if let Some(ahead) = accesses.get(i + AHEAD) {
                self.last.prefetch(ahead.addr >> self.shift);
            }
            let (first, last) = block_range(a, self.shift);
            for b in first..=last {
                if self.next.len() >= (NextUse::NEVER - 1) as usize {
                    return Err(TooLong);
                }
                self.push_block(b);
            }
        }
        Ok(())
    }

    /// Numbers one block access; the caller has checked there is room.
    #[inline(always)]
    fn push_block(&mut self, block: u64) {
        let i = self.next.len() as u32;
        if let Some(prev) = self.last.replace(block, i) {
            self.next[prev as usize] = i;
        }
        self.next.push(NextUse::NEVER);
    }

    pub fn finish(self) -> NextUse {
        NextUse { next: self.next }
    }
}

/// Block -> index of its last access: open addressing with linear probing
/// over 16-byte slots, at most half full, so that a lookup is usually one
/// host cache line, which [`LastSeen::prefetch`] can ask for ahead of time.
/// Slot `k` is `slots[2k]` (the block) and `slots[2k + 1]` (the index of its
/// last access plus one; 0 for a free slot, so that a fresh table is zeroed
/// memory, which the allocator hands out without writing it).
struct LastSeen {
    slots: Vec<u64>,
    /// Slots - 1 (a power of two minus one).
    mask: usize,
    /// `64 - log2(slots)`.
    shift: u32,
    len: usize,
    /// The block looked up last and its slot (`usize::MAX`: none), since
    /// graphics streams often touch a block twice in a row
    /// (read-modify-write): then the slot is at hand without hashing.
    recent: (u64, usize),
}

impl LastSeen {
    fn new() -> LastSeen {
        Self::with_slots(1 << 16)
    }

    fn with_slots(n: usize) -> LastSeen {
        LastSeen {
            slots: vec![0; 2 * n],
            mask: n - 1,
            shift: 64 - n.trailing_zeros(),
            len: 0,
            recent: (0, usize::MAX),
        }
    }

    /// A block's first slot (Fibonacci hashing).
    #[inline(always)]
    fn home(&self, block: u64) -> usize {
        (block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline(always)]
    fn prefetch(&self, block: u64) {
        crate::policy::prefetch(&self.slots, 2 * self.home(block));
    }

    /// Sets `block`'s last access to `i`, returning the previous one.
    #[inline(always)]
    fn replace(&mut self, block: u64, i: u32) -> Option<u32> {
        let (rb, rk) = self.recent;
        if rb == block && rk != usize::MAX {
            let last = self.slots[2 * rk + 1];
            self.slots[2 * rk + 1] = u64::from(i) + 1;
            return Some((last - 1) as u32);
        }
        let mut k = self.home(block);
        loop {
            let last = self.slots[2 * k + 1];
            if last == 0 {
                self.slots[2 * k] = block;
                self.slots[2 * k + 1] = u64::from(i) + 1;
                self.len += 1;
                self.recent = (block, k);
                if 2 * self.len > self.mask + 1 {
                    self.grow();
                }
                return None;
            }
            if self.slots[2 * k] == block {
                self.slots[2 * k + 1] = u64::from(i) + 1;
                self.recent = (block, k);
                return Some((last - 1) as u32);
            }
            k = (k + 1) & self.mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let mut bigger = LastSeen::with_slots(2 * (self.mask + 1));
        bigger.len = self.len;
        for pair in self.slots.chunks_exact(2) {
            if pair[1] != 0 {
                let mut k = bigger.home(pair[0]);
                while bigger.slots[2 * k + 1] != 0 {
                    k = (k + 1) & bigger.mask;
                }
                bigger.slots[2 * k] = pair[0];
                bigger.slots[2 * k + 1] = pair[1];
            }
        }
        *self = bigger;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfxcache_trace::Stream;

    #[test]
    fn next_uses_by_brute_force() {
        // Enough distinct blocks to grow the table several times; then a
        // small footprint with many immediate repeats.
        check(300_000, 200_000);
        check(50_000, 40);
    }

    fn check(n: usize, footprint: u64) {
        let mut x = 12345u64;
        let mut prev = 0;
        let trace: Vec<Access> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if !x.is_multiple_of(3) {
                    prev = x % footprint * 64 + x % 64;
                }
                let mut a = Access::read(prev, Stream::Tex);
                a.size = (x >> 40) as u32 % 130;
                a
            })
            .collect();
        let mut b = NextUseBuilder::new(64);
        b.push_all(&trace[..1000]).unwrap();
        b.push_all(&trace[1000..]).unwrap();
        let nu = b.finish();
        let blocks: Vec<u64> = trace
            .iter()
            .flat_map(|a| {
                let (f, l) = block_range(a, 6);
                f..=l
            })
            .collect();
        assert_eq!(nu.len(), blocks.len());
        let mut seen = std::collections::HashMap::new();
        for (i, &blk) in blocks.iter().enumerate().rev() {
            let want = seen.insert(blk, i as u32).unwrap_or(NextUse::NEVER);
            assert_eq!(nu.after(i as u64), want, "access {i}");
        }
    }
}
