//! Fully associative LRU ([`FullLru`]) and FIFO ([`FullFifo`]), in place
//! of the engine's hash index and linked recency list or rotating pointer:
//! one queue of touches, where LRU touches a line on every access and FIFO
//! on its fill only.
//!
//! Recency is kept as a queue of touches with lazy deletion rather than a
//! linked list:
//!
//! - every touch of a block appends its line to the queue ([`FullQueue::q`])
//!   and marks that position live in a bitset ([`FullQueue::alive`]),
//!   clearing the position of its previous touch; the least recently used
//!   line is then the oldest live position, found by scanning the bitset
//!   forward from the queue's head a word at a time;
//! - when the queue is full, its live positions are moved to its front, in
//!   order, each line told its new position: after that at least as many
//!   touches as there are lines come before the next move, so it costs O(1)
//!   a touch;
//! - the lines live in the index itself, an open-addressing table of at
//!   most half load (linear probing, deletion by backward shift): each
//!   entry holds a block, the position of its last touch and its meta byte
//!   (dirty bit and owner, as the engine's), 16 bytes, so that a lookup
//!   compares blocks without following a pointer, and an eviction finds its
//!   entry from the queue without hashing.
//!
//! A hit therefore touches its entry and one bit, where the list touched
//! the entry, its node and both neighbours' nodes; a miss touches the
//! victim's entry (prefetched from the queue, where the next victims are
//! known ahead) and the new block's (prefetched a dozen accesses ahead).

use gfxcache_trace::Stream;

use super::{Accounts, FullKernel};
use crate::engine::DIRTY;
use crate::error::CacheError;
use crate::outcome::BlockOutcome;
use crate::policy::prefetch;
use crate::table::filled;

/// The block of an empty entry; no block address reaches it (as the
/// engine's invalid tag).
const EMPTY: u64 = u64::MAX;

/// How many queue positions past the head an eviction prefetches the
/// entry of: a later victim, if the lines between are touched no more.
const VICTIM_AHEAD: usize = 16;

/// The fewest touches the queue holds: a small cache's queue fits the
/// host's L2 anyway, and the longer it is the rarer its compaction.
const MIN_QUEUE: usize = 1 << 16;

/// One line: its block, the queue position of its last touch and its
/// meta byte (the engine's: [`DIRTY`] | owner's stream id).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Entry {
    block: u64,
    pos: u32,
    meta: u8,
}

const VACANT: Entry = Entry {
    block: EMPTY,
    pos: 0,
    meta: 0,
};

/// The lines of a fully associative LRU cache.
pub type FullLru = FullQueue<true>;

/// The lines of a fully associative FIFO cache: no hit reorders them.
pub type FullFifo = FullQueue<false>;

/// The lines of a fully associative cache that evicts the line touched
/// longest ago, touched on every access (`HIT_TOUCHES`: LRU) or on its
/// fill only (FIFO). See the module's documentation.
pub struct FullQueue<const HIT_TOUCHES: bool> {
    /// The lines, by block: a power of two of entries, at least twice the
    /// lines.
    table: Vec<Entry>,
    mask: usize,
    /// The top bits of a block's Fibonacci hash are its home entry.
    hash_shift: u32,
    lines: usize,
    capacity: usize,
    /// Per touch, the entry of the line touched; `q.len()` is the next
    /// position, never more than `qcap`.
    q: Vec<u32>,
    qcap: usize,
    /// Per queue position, whether it is its line's last touch.
    alive: Vec<u64>,
    /// No live position lies before it.
    head: usize,
}

impl<const HIT_TOUCHES: bool> FullQueue<HIT_TOUCHES> {
    /// The lines of a cache of `capacity` (at most 2^30) blocks, or
    /// [`CacheError::OutOfMemory`].
    pub fn try_new(capacity: usize) -> Result<FullQueue<HIT_TOUCHES>, CacheError> {
        debug_assert!(capacity <= 1 << 30);
        let size = (capacity * 2).next_power_of_two();
        let qcap = (capacity * 2).max(MIN_QUEUE).next_multiple_of(64);
        let mut q = Vec::new();
        q.try_reserve_exact(qcap)
            .map_err(|_| CacheError::out_of_memory::<u32>(qcap, "the recency queue"))?;
        Ok(FullQueue {
            table: filled(size, VACANT, "the tag index")?,
            mask: size - 1,
            hash_shift: 64 - size.trailing_zeros(),
            lines: 0,
            capacity,
            q,
            qcap,
            alive: filled(qcap / 64, 0, "the recency queue's live bits")?,
            head: 0,
        })
    }

    #[inline(always)]
    fn home(&self, block: u64) -> usize {
        (block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.hash_shift) as usize
    }

    /// The entry holding `block`, or the empty entry where it would go.
    #[inline(always)]
    fn find(&self, block: u64) -> (usize, bool) {
        let mut i = self.home(block);
        loop {
            let b = self.table[i].block;
            if b == block {
                return (i, true);
            }
            if b == EMPTY {
                return (i, false);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Makes the line in `entry` the most recently used.
    #[inline(always)]
    fn touch(&mut self, entry: usize) {
        if self.q.len() == self.qcap {
            self.compact();
        }
        let p = self.q.len();
        self.q.push(entry as u32);
        self.alive[p / 64] |= 1 << (p % 64);
        self.table[entry].pos = p as u32;
    }

    #[inline(always)]
    fn forget(&mut self, p: usize) {
        self.alive[p / 64] &= !(1 << (p % 64));
    }

    /// Moves the live positions to the queue's front, in order.
    #[cold]
    fn compact(&mut self) {
        let mut n = 0;
        let mut p = self.head;
        while let Some(live) = self.next_live(p) {
            let entry = self.q[live];
            self.q[n] = entry;
            self.table[entry as usize].pos = n as u32;
            n += 1;
            p = live + 1;
        }
        self.q.truncate(n);
        self.alive.fill(0);
        self.alive[..n / 64].fill(u64::MAX);
        if n % 64 != 0 {
            self.alive[n / 64] = (1 << (n % 64)) - 1;
        }
        self.head = 0;
    }

    /// The first live position at or after `p`.
    #[inline(always)]
    fn next_live(&self, mut p: usize) -> Option<usize> {
        while p < self.q.len() {
            let w = self.alive[p / 64] >> (p % 64);
            if w != 0 {
                let live = p + w.trailing_zeros() as usize;
                return (live < self.q.len()).then_some(live);
            }
            p = (p / 64 + 1) * 64;
        }
        None
    }

    /// Evicts the least recently used line: its block, its meta byte and
    /// the entry the removal emptied.
    #[inline(always)]
    fn evict(&mut self) -> (u64, u8, usize) {
        let p = self
            .next_live(self.head)
            .expect("a full cache has a live touch");
        self.forget(p);
        self.head = p + 1;
        if let Some(&later) = self.q.get(p + VICTIM_AHEAD) {
            prefetch(&self.table, later as usize);
        }
        let at = self.q[p] as usize;
        let Entry { block, meta, .. } = self.table[at];
        let emptied = self.remove(at);
        self.lines -= 1;
        (block, meta, emptied)
    }

    /// Empties entry `at`, moving back the entries after it that could not
    /// be found otherwise (and telling the queue where they went); the
    /// entry left empty.
    fn remove(&mut self, mut at: usize) -> usize {
        let mut j = at;
        loop {
            j = (j + 1) & self.mask;
            let e = self.table[j];
            if e.block == EMPTY {
                break;
            }
            let home = self.home(e.block);
            // Whether `home` lies cyclically in (at, j]: then it stays.
            let stays = if at <= j {
                at < home && home <= j
            } else {
                at < home || home <= j
            };
            if !stays {
                self.table[at] = e;
                self.q[e.pos as usize] = at as u32;
                at = j;
            }
        }
        self.table[at] = VACANT;
        at
    }

    /// Whether `block` is resident.
    pub fn contains(&self, block: u64) -> bool {
        self.find(block).1
    }

    /// The resident lines, the next victim first: block and dirty bit.
    pub fn lines_by_recency(&self) -> Vec<(u64, bool)> {
        let mut out = Vec::with_capacity(self.lines);
        let mut p = self.head;
        while let Some(live) = self.next_live(p) {
            let e = self.table[self.q[live] as usize];
            out.push((e.block, e.meta & DIRTY != 0));
            p = live + 1;
        }
        out
    }
}

impl<const HIT_TOUCHES: bool> FullKernel for FullQueue<HIT_TOUCHES> {
    #[inline(always)]
    fn access(
        &mut self,
        acc: &mut Accounts,
        block: u64,
        stream: Stream,
        write: bool,
    ) -> BlockOutcome {
        let (at, hit) = self.find(block);
        if hit {
            acc.hit(stream, write, &mut self.table[at].meta);
            let pos = self.table[at].pos as usize;
            if HIT_TOUCHES && pos + 1 != self.q.len() {
                self.forget(pos);
                self.touch(at);
            }
            return BlockOutcome::Hit;
        }
        if !acc.miss(stream, write) {
            return BlockOutcome::Bypass;
        }
        let (at, victim) = if self.lines < self.capacity {
            (at, None)
        } else {
            let (old, m, emptied) = self.evict();
            let dirty = acc.evict(m);
            // Every entry from the block's home up to `at` was full, and
            // the removal emptied one entry only: if that one is on the
            // way, it is now the first empty one there.
            let home = self.home(block);
            let on_the_way =
                (emptied.wrapping_sub(home) & self.mask) < (at.wrapping_sub(home) & self.mask);
            (if on_the_way { emptied } else { at }, Some((old, dirty)))
        };
        self.table[at] = Entry {
            block,
            pos: 0,
            meta: acc.fill(stream, write),
        };
        self.lines += 1;
        self.touch(at);
        BlockOutcome::Fill { victim }
    }

    fn resident(&self) -> Vec<(u64, bool)> {
        self.lines_by_recency()
    }

    #[inline(always)]
    fn prefetch(&self, block: u64) {
        prefetch(&self.table, self.home(block));
    }
}

#[cfg(test)]
mod tests {
    use gfxcache_trace::{Access, Stream};
    use proptest::prelude::*;

    use super::*;
    use crate::engine::{Cache, StreamMask};
    use crate::full::testing::{geom, raw_trace, same_as_engine, trace};
    use crate::full::Full;
    use crate::geometry::{Geometry, WritePolicy};
    use crate::policies::{fifo::Fifo, lru::Lru};
    use crate::policy::{Env, Policy};
    use crate::sim::CacheSim;
    use crate::spec::Params;

    fn full(g: Geometry, mask: StreamMask) -> Full<FullLru> {
        let lines = FullLru::try_new(g.ways as usize).unwrap();
        Full::new(g, mask, "lru".into(), Vec::new(), lines)
    }

    /// [`same_as_engine`] for LRU, the lines compared as sets.
    fn same_as_engines_lru(g: Geometry, mask: StreamMask, accesses: &[Access]) {
        let lru = Lru::build(
            &mut Params::new(&"lru".parse().unwrap()),
            &g,
            &Env::default(),
        )
        .unwrap();
        let ours = same_as_engine(Cache::new(g, lru, mask), full(g, mask), accesses);
        check_lines(&ours);
    }

    fn check_lines<const T: bool>(ours: &Full<FullQueue<T>>) {
        let lines = ours.kernel().lines_by_recency();
        assert_eq!(lines.len(), ours.kernel().lines);
        assert!(lines.iter().all(|&(b, _)| ours.kernel().contains(b)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn counts_as_the_engines_lru(
            ways in 65u32..300,
            raw in raw_trace(),
            write_back in any::<bool>(),
            allocate in any::<bool>(),
            ucd in any::<bool>(),
        ) {
            let write = if write_back { WritePolicy::WriteBack } else { WritePolicy::WriteThrough };
            let mask = if ucd { StreamMask::default().with(Stream::Display) } else { StreamMask::default() };
            same_as_engines_lru(geom(ways, write, allocate), mask, &trace(&raw));
        }

        #[test]
        fn counts_as_the_engines_fifo(
            ways in 65u32..300,
            raw in raw_trace(),
            write_back in any::<bool>(),
            allocate in any::<bool>(),
            ucd in any::<bool>(),
        ) {
            let write = if write_back { WritePolicy::WriteBack } else { WritePolicy::WriteThrough };
            let mask = if ucd { StreamMask::default().with(Stream::Display) } else { StreamMask::default() };
            let g = geom(ways, write, allocate);
            let fifo = Fifo::build(&mut Params::new(&"fifo".parse().unwrap()), &g, &Env::default()).unwrap();
            let lines = FullFifo::try_new(ways as usize).unwrap();
            let full = Full::new(g, mask, "fifo".into(), Vec::new(), lines);
            let ours = same_as_engine(Cache::new(g, fifo, mask), full, &trace(&raw));
            check_lines(&ours);
            // No hit touches a line: the queue holds its fills only.
            prop_assert_eq!(ours.kernel().q.len() - ours.kernel().head, ours.kernel().lines);
        }
    }

    #[test]
    fn the_recency_queue_is_compacted_and_keeps_lru_order() {
        // 65 lines: cycling through 60 blocks (all hits after the first
        // pass) fills the queue many times over.
        let g = geom(65, WritePolicy::WriteBack, true);
        let mut raw: Vec<(u64, usize, bool, u32)> =
            (0..60 * 3300).map(|i| (i % 60, 0, i % 7 == 0, 1)).collect();
        assert!(raw.len() > 3 * MIN_QUEUE);
        // Then 5 new blocks fill the cache and one more evicts block 0, the
        // least recent, as the last pass ended on 59.
        raw.extend((1000..1006).map(|b| (b, 1, false, 1)));
        let accesses = trace(&raw);
        same_as_engines_lru(g, StreamMask::default(), &accesses);
        let mut full = full(g, StreamMask::default());
        full.access_batch(&accesses);
        let order = full.kernel().lines_by_recency();
        assert_eq!(order.len(), 65);
        assert_eq!(order[0].0, 1, "block 0 was evicted: 1 is now least recent");
        assert!(!full.kernel().contains(0));
        assert_eq!(order[64].0, 1005);
    }

    #[test]
    fn a_hit_on_the_most_recent_line_leaves_the_queue_alone() {
        let g = geom(100, WritePolicy::WriteBack, true);
        let mut full = full(g, StreamMask::default());
        full.access_batch(&trace(&[(7, 0, false, 1); 1000]));
        assert_eq!(full.kernel().q.len(), 1);
        assert_eq!(full.stats().total().hits, 999);
        assert_eq!(full.access_block(7, Stream::Tex, true), BlockOutcome::Hit);
        assert_eq!(full.kernel().lines_by_recency(), vec![(7, true)]);
    }
}
