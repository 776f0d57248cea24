//! Next-use indices: for every block access of a trace, the index of the
//! next access to the same block. Belady's OPT needs them; computing them is
//! one forward pass over the trace that remembers each block's last access.

use gfxcache_trace::{Access, TraceRead};

use crate::engine::block_range;
use crate::error::CacheError;
use crate::table;

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

    /// The next uses of an empty trace.
    pub fn empty() -> NextUse {
        NextUse { next: Vec::new() }
    }
}

/// Builds a [`NextUse`] as the trace streams past.
pub struct NextUseBuilder {
    shift: u32,
    next: Vec<u32>,
    last: LastSeen,
}

/// Why next uses could not be computed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NextUseError {
    /// A trace with more block accesses than [`NextUse`] can number.
    #[error("trace has more than {} block accesses, more than OPT can number", NextUse::NEVER - 1)]
    TooLong,
    /// The indices or the table of last uses outgrew the memory at hand.
    #[error(transparent)]
    OutOfMemory(#[from] CacheError),
}

/// What the tables are, in an error.
const INDICES: &str = "the next-use indices";
const LAST_USES: &str = "the table of last uses (next uses)";

/// Block accesses numbered at a time: all are hashed first, then looked up
/// in order while the slots of those [`AHEAD`] later are prefetched.
const CHUNK: usize = 512;
const _: () = assert!(CHUNK.is_power_of_two());

/// How many block accesses ahead the lookups prefetch.
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

    /// Makes room for `accesses` block accesses at once, as a trace
    /// announces them, so that the indices are not copied as they grow
    /// (a copy holds old and new at once). Only a hint: without room, or
    /// when the trace has more, the indices grow as they come.
    pub fn expect(&mut self, accesses: u64) {
        // Accesses that span blocks count more than once: a sixteenth
        // more, untouched (so not resident) when unused, keeps a trace
        // with a few such from growing the indices, which would copy them.
        let want = accesses.saturating_add(accesses / 16);
        let want = want.min(u64::from(NextUse::NEVER)) as usize;
        let more = want.saturating_sub(self.next.len());
        if self.next.try_reserve_exact(more).is_ok() {
            crate::table::advise(&self.next);
        }
    }

    /// Sizes the table of last uses for `blocks` distinct blocks at once,
    /// as a trace's footprint estimate announces them, so that it is not
    /// rehashed (and fresh memory zeroed for it) at every doubling on the
    /// way: `opt` on the `city` frame's LLC trace spent a tenth of its run
    /// there. Only a hint, and only before the first access and after
    /// [`NextUseBuilder::expect`], whose room for accesses bounds it (a
    /// block is accessed at least once); where the memory is refused, the
    /// table grows as it would have.
    pub fn expect_blocks(&mut self, blocks: u64) {
        if !self.next.is_empty() {
            return;
        }
        // A few per cent over the estimate, its error.
        let want = blocks.saturating_add(blocks / 32);
        let want = want.min(self.next.capacity() as u64) as usize;
        self.last.narrow.presize(want);
    }

    /// [`NextUseBuilder::expect`] and [`NextUseBuilder::expect_blocks`]
    /// from what `reader` announces before it is read, where it does.
    pub fn expect_announced(&mut self, reader: &dyn TraceRead) {
        if let Some(t) = reader.announced_totals() {
            self.expect(t.accesses);
        }
        let block = 1u32 << self.shift;
        if let Some(f) = reader.announced_footprint().filter(|f| f.block == block) {
            self.expect_blocks(f.blocks);
        }
    }

    #[inline(never)]
    pub fn push_all(&mut self, accesses: &[Access]) -> Result<(), NextUseError> {
        // Not advised as it grows: advising memory that `realloc` then
        // moves made `opt` 5 % slower (criterion's `policies`).
        self.next.try_reserve(accesses.len()).map_err(|_| {
            CacheError::out_of_memory::<u32>(self.next.len() + accesses.len(), INDICES)
        })?;
        // The blocks of a chunk, then room for the lookups to read [`AHEAD`]
        // past its end (stale blocks there only cost a useless prefetch).
        let mut buf = [0u64; CHUNK + AHEAD];
        let mut n = 0;
        // The chunk's blocks, or-ed: their high halves tell whether all fit
        // 32 bits.
        let mut high = 0;
        // In locals, so that the loop does not reload them through `self`.
        let shift = self.shift;
        let block_bytes = 1u64 << shift;
        for a in accesses {
            // Within its first block unless it runs past the block's end (a
            // size of 0 counts as 1, which never does): the common case.
            if (a.addr & (block_bytes - 1)) + u64::from(a.size) <= block_bytes {
                let b = a.addr >> shift;
                high |= b;
                // `n < CHUNK` here; the mask only spares a bounds check.
                buf[n & (CHUNK - 1)] = b;
                n += 1;
                if n == CHUNK {
                    self.push_blocks(&buf, n, high >> 32 == 0)?;
                    (n, high) = (0, 0);
                }
            } else {
                let (first, last) = block_range(a, shift);
                for b in first..=last {
                    high |= b;
                    buf[n] = b;
                    n += 1;
                    if n == CHUNK {
                        self.push_blocks(&buf, n, high >> 32 == 0)?;
                        // `last` bounds the rest of this access's blocks.
                        (n, high) = (0, last);
                    }
                }
            }
        }
        self.push_blocks(&buf, n, high >> 32 == 0)
    }

    /// Numbers the block accesses `buf[..n]` (`n` at most [`CHUNK`]), as many
    /// as there is room for; `narrow` if they all fit 32 bits.
    fn push_blocks(
        &mut self,
        buf: &[u64; CHUNK + AHEAD],
        n: usize,
        narrow: bool,
    ) -> Result<(), NextUseError> {
        let base = self.next.len();
        let room = (NextUse::NEVER - 1) as usize - base;
        let (n, result) = if n > room {
            (room, Err(NextUseError::TooLong))
        } else {
            (n, Ok(()))
        };
        // Room for the blocks past `push_all`'s reservation of one per
        // access (accesses that span blocks), not advised (see there).
        self.next
            .try_reserve(n)
            .map_err(|_| CacheError::out_of_memory::<u32>(base + n, INDICES))?;
        self.next.resize(base + n, NextUse::NEVER);
        if narrow {
            self.last.narrow.replace_all(buf, n, base, &mut self.next)?;
        } else {
            for (j, &b) in buf[..n].iter().enumerate() {
                let i = (base + j) as u32;
                if let Some(prev) = self.last.replace(b, i)? {
                    self.next[prev as usize] = i;
                }
            }
        }
        result
    }

    pub fn finish(self) -> NextUse {
        NextUse { next: self.next }
    }
}

/// Block -> index of its last access. Blocks that fit 32 bits (all of them
/// in most traces) live in [`Narrow`], 8 bytes a slot; any others in
/// [`Wide`], 16 bytes a slot. A block is in exactly one of them, chosen by
/// its value, so the two never disagree.
struct LastSeen {
    narrow: Narrow,
    wide: Wide,
}

impl LastSeen {
    fn new() -> LastSeen {
        // Half a megabyte to start with.
        let start =
            || Ok::<_, CacheError>((Narrow::with_slots(1 << 16)?, Wide::with_slots(1 << 4)?));
        let (narrow, wide) = start().unwrap_or_else(|e| panic!("{e}"));
        LastSeen { narrow, wide }
    }

    /// Sets `block`'s last access to `i`, returning the previous one: the
    /// slow path, for chunks with blocks beyond 32 bits.
    #[inline(never)]
    fn replace(&mut self, block: u64, i: u32) -> Result<Option<u32>, CacheError> {
        let Ok(b) = u32::try_from(block) else {
            return self.wide.replace(block, i);
        };
        let t = &mut self.narrow;
        t.reserve(1)?;
        let k = t.find(b);
        let s = t.slots[k];
        t.slots[k] = Narrow::slot(b, i);
        Ok(if s == 0 {
            t.len += 1;
            None
        } else {
            Some(((s >> 32) - 1) as u32)
        })
    }
}

/// 32-bit blocks: open addressing with linear probing over 8-byte slots, at
/// most three quarters full, eight slots a host cache line, so that a
/// lookup is usually one line, which [`Narrow::replace_all`] prefetches
/// ahead of time. A slot holds the block in its low half and the index of
/// its last access plus one in its high half; 0 is a free slot, so that a
/// fresh table is zeroed memory, which the allocator hands out without
/// writing it.
///
/// Any number of slots: grown from nothing it doubles, but sized from a
/// footprint estimate ([`Narrow::presize`]) it takes just the slots that
/// keep it three quarters full, where the next power of two could nearly
/// double it (the `city` frame's 2.1M blocks: 2.9M slots, not 4M).
struct Narrow {
    slots: Vec<u64>,
    len: usize,
}

/// Fibonacci hashing's multiplier.
const FIB: u64 = 0x9E37_79B9_7F4A_7C15;

/// The first slot of `block` among `n`: the product's top bits scaled to
/// `n` (Lemire's range reduction), so that `n` need not be a power of two.
#[inline(always)]
fn home(block: u64, n: usize) -> usize {
    ((u128::from(block.wrapping_mul(FIB)) * n as u128) >> 64) as usize
}

/// The slot after `k` among `n`, wrapping.
#[inline(always)]
fn after(k: usize, n: usize) -> usize {
    if k + 1 == n {
        0
    } else {
        k + 1
    }
}

impl Narrow {
    fn with_slots(n: usize) -> Result<Narrow, CacheError> {
        // Zeroed memory (`calloc`), advised before its first touch.
        Ok(Narrow {
            slots: table::zeroed(n, LAST_USES)?,
            len: 0,
        })
    }

    /// Replaces an empty table by one that holds `blocks` blocks without
    /// growing, if it is larger and its memory is granted.
    fn presize(&mut self, blocks: usize) {
        let Some(n) = blocks.checked_mul(4).map(|b| b.div_ceil(3)) else {
            return;
        };
        if self.len != 0 || n <= self.slots.len() {
            return;
        }
        if let Some(slots) = crate::table::try_zeroed(n) {
            *self = Narrow { slots, len: 0 };
        }
    }

    /// The slot for `block` at access `i`.
    #[inline(always)]
    fn slot(block: u32, i: u32) -> u64 {
        u64::from(block) | (u64::from(i) + 1) << 32
    }

    /// `block`'s slot, or the free one where it belongs.
    #[inline(always)]
    fn find(&self, block: u32) -> usize {
        let n = self.slots.len();
        let mut k = home(u64::from(block), n);
        loop {
            let s = self.slots[k];
            if s == 0 || s as u32 == block {
                return k;
            }
            k = after(k, n);
        }
    }

    /// Grows the table, if need be, so that `more` new blocks keep it at
    /// most three quarters full.
    #[inline(always)]
    fn reserve(&mut self, more: usize) -> Result<(), CacheError> {
        while 4 * (self.len + more) > 3 * self.slots.len() {
            self.grow()?;
        }
        Ok(())
    }

    /// Numbers the block accesses `buf[..n]` (all 32-bit, `n` at most
    /// [`CHUNK`]) from `base` on, writing the next use of their previous
    /// accesses.
    fn replace_all(
        &mut self,
        buf: &[u64; CHUNK + AHEAD],
        n: usize,
        base: usize,
        next: &mut [u32],
    ) -> Result<(), CacheError> {
        self.reserve(n)?;
        let slots = &mut self.slots[..];
        let size = slots.len();
        for &b in &buf[..AHEAD] {
            crate::policy::prefetch(slots, home(b, size));
        }
        let mut added = 0;
        // The block looked up last and its slot, since graphics streams
        // often touch a block twice in a row (read-modify-write): then the
        // slot is at hand. `u64::MAX` is no 32-bit block.
        let (mut rb, mut rk) = (u64::MAX, 0);
        // `slot(_, i)` without the block: the index plus one, high half.
        let mut stamp = (base as u64 + 1) << 32;
        for j in 0..n.min(CHUNK) {
            crate::policy::prefetch(slots, home(buf[j + AHEAD], size));
            let block = buf[j];
            let i = (base + j) as u32;
            let mut k = rk;
            if block != rb {
                k = home(block, size);
                loop {
                    let s = slots[k];
                    if s == 0 || s as u32 == block as u32 {
                        break;
                    }
                    k = after(k, size);
                }
            }
            let s = slots[k];
            slots[k] = block | stamp;
            stamp += 1 << 32;
            if s == 0 {
                added += 1;
            } else {
                next[((s >> 32) - 1) as usize] = i;
            }
            (rb, rk) = (block, k);
        }
        self.len += added;
        Ok(())
    }

    #[cold]
    fn grow(&mut self) -> Result<(), CacheError> {
        let mut bigger = Narrow::with_slots(2 * self.slots.len())?;
        bigger.len = self.len;
        for &s in &self.slots {
            if s != 0 {
                let k = bigger.find(s as u32);
                bigger.slots[k] = s;
            }
        }
        *self = bigger;
        Ok(())
    }
}

/// Blocks beyond 32 bits: open addressing with linear probing over 16-byte
/// slots, at most half full. Slot `k` is `slots[2k]` (the block) and
/// `slots[2k + 1]` (the index of its last access plus one; 0 for a free
/// slot).
struct Wide {
    slots: Vec<u64>,
    /// Slots - 1 (a power of two minus one).
    mask: usize,
    /// `64 - log2(slots)`.
    shift: u32,
    len: usize,
}

impl Wide {
    fn with_slots(n: usize) -> Result<Wide, CacheError> {
        Ok(Wide {
            slots: table::zeroed(2 * n, LAST_USES)?,
            mask: n - 1,
            shift: 64 - n.trailing_zeros(),
            len: 0,
        })
    }

    /// A block's first slot (Fibonacci hashing).
    #[inline(always)]
    fn home(&self, block: u64) -> usize {
        (block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Sets `block`'s last access to `i`, returning the previous one.
    #[inline(never)]
    fn replace(&mut self, block: u64, i: u32) -> Result<Option<u32>, CacheError> {
        let mut k = self.home(block);
        loop {
            let last = self.slots[2 * k + 1];
            if last == 0 {
                self.slots[2 * k] = block;
                self.slots[2 * k + 1] = u64::from(i) + 1;
                self.len += 1;
                if 2 * self.len > self.mask + 1 {
                    self.grow()?;
                }
                return Ok(None);
            }
            if self.slots[2 * k] == block {
                self.slots[2 * k + 1] = u64::from(i) + 1;
                return Ok(Some((last - 1) as u32));
            }
            k = (k + 1) & self.mask;
        }
    }

    #[cold]
    fn grow(&mut self) -> Result<(), CacheError> {
        let mut bigger = Wide::with_slots(2 * (self.mask + 1))?;
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
        Ok(())
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

    #[test]
    fn expect_is_only_a_hint() {
        let trace: Vec<Access> = (0..5000u64)
            .map(|i| Access::read((i * 7919) % 1500 * 64 + i % 96, Stream::Tex))
            .collect();
        let build = |expected: Option<u64>, blocks: Option<u64>| {
            let mut b = NextUseBuilder::new(64);
            if let Some(e) = expected {
                b.expect(e);
            }
            if let Some(n) = blocks {
                b.expect_blocks(n);
            }
            b.push_all(&trace).unwrap();
            b.finish().next
        };
        let plain = build(None, None);
        for e in [0, 1, 2500, 5000, 20_000, 3 << 20] {
            assert_eq!(build(Some(e), None), plain, "expect({e})");
            // The trace has 1500 blocks; estimates far under and over it,
            // and one that asks for more than memory holds.
            for n in [0, 1, 700, 1500, 1600, 100_000, u64::MAX] {
                assert_eq!(build(Some(e), Some(n)), plain, "expect({e}), blocks {n}");
            }
        }
        assert_eq!(build(None, Some(1500)), plain);
    }

    /// A table sized for the blocks announced does not grow on the way.
    #[test]
    fn expect_blocks_sizes_the_table_once() {
        let mut b = NextUseBuilder::new(64);
        b.expect(100_000);
        b.expect_blocks(50_000);
        let slots = b.last.narrow.slots.len();
        assert!(slots * 3 >= 50_000 * 4, "{slots} slots");
        let trace: Vec<Access> = (0..100_000u64)
            .map(|i| Access::read(i % 50_000 * 64, Stream::Tex))
            .collect();
        b.push_all(&trace).unwrap();
        assert_eq!(b.last.narrow.slots.len(), slots);
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
