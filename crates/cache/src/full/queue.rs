//! Fully associative LRU ([`FullLru`]) and FIFO ([`FullFifo`]), in place
//! of the engine's hash index and linked recency list or rotating pointer:
//! one queue of touches, where LRU touches a line on every access and FIFO
//! on its fill only.
//!
//! Recency is kept as a queue of touches with lazy deletion rather than a
//! linked list:
//!
//! - every touch of a block appends its line to the queue (`q`)
//!   and marks that position live in a bitset (`alive`),
//!   clearing the position of its previous touch; the least recently used
//!   line is then the oldest live position, found by scanning the bitset
//!   forward from the queue's head a word at a time;
//! - when the queue is full, its live positions are moved to its front, in
//!   order, each line told its new position: after that at least as many
//!   touches as there are lines come before the next move, so it costs O(1)
//!   a touch;
//! - the lines live in the index itself ([`PackedLines`]), each entry
//!   holding a block, the position of its last touch and its meta byte,
//!   so that an eviction finds its entry from the queue without hashing.
//!
//! A hit therefore touches its entry and one bit, where the list touched
//! the entry, its node and both neighbours' nodes; a miss touches the
//! victim's entry (prefetched from the queue, where the next victims are
//! known ahead) and the new block's (prefetched a dozen accesses ahead).

use gfxcache_trace::Stream;

use super::lines::{Line, PackedLines};
use super::{Accounts, FullKernel};
use crate::engine::DIRTY;
use crate::error::CacheError;
use crate::outcome::BlockOutcome;
use crate::table::filled;

/// How many queue positions past the head an eviction prefetches the
/// entry of: a later victim, if the lines between are touched no more.
const VICTIM_AHEAD: usize = 16;

/// The fewest touches the queue holds: a small cache's queue fits the
/// host's L2 anyway, and the longer it is the rarer its compaction.
const MIN_QUEUE: usize = 1 << 16;

/// The lines of a fully associative LRU cache.
pub type FullLru = FullQueue<true>;

/// The lines of a fully associative FIFO cache: no hit reorders them.
pub type FullFifo = FullQueue<false>;

/// The lines of a fully associative cache that evicts the line touched
/// longest ago, touched on every access (`HIT_TOUCHES`: LRU) or on its
/// fill only (FIFO). See the module's documentation.
pub struct FullQueue<const HIT_TOUCHES: bool> {
    /// The lines, by block; a line's link is the position of its last
    /// touch.
    table: PackedLines,
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
        let qcap = (capacity * 2).max(MIN_QUEUE).next_multiple_of(64);
        let mut q = Vec::new();
        q.try_reserve_exact(qcap)
            .map_err(|_| CacheError::out_of_memory::<u32>(qcap, "the recency queue"))?;
        Ok(FullQueue {
            table: PackedLines::try_new(capacity)?,
            lines: 0,
            capacity,
            q,
            qcap,
            alive: filled(qcap / 64, 0, "the recency queue's live bits")?,
            head: 0,
        })
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
        self.table.get_mut(entry).link = p as u32;
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
            self.table.get_mut(entry as usize).link = n as u32;
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

    /// Evicts the line touched longest ago to make room for `block`,
    /// which [`PackedLines::find`] would have put at `at`: the victim's
    /// block and meta byte, and the entry `block` now goes to.
    #[inline(always)]
    fn evict(&mut self, block: u64, at: usize) -> (u64, u8, usize) {
        let p = self
            .next_live(self.head)
            .expect("a full cache has a live touch");
        self.forget(p);
        self.head = p + 1;
        if let Some(&later) = self.q.get(p + VICTIM_AHEAD) {
            self.table.prefetch_entry(later as usize);
        }
        let gone = self.q[p] as usize;
        let Line {
            block: old, meta, ..
        } = *self.table.get(gone);
        let q = &mut self.q;
        let at = self
            .table
            .replace(gone, block, at, |pos, to| q[pos as usize] = to as u32);
        self.lines -= 1;
        (old, meta, at)
    }

    /// Whether `block` is resident.
    pub fn contains(&self, block: u64) -> bool {
        self.table.find(block).1
    }

    /// The resident lines, the next victim first: block and dirty bit.
    pub fn lines_by_recency(&self) -> Vec<(u64, bool)> {
        let mut out = Vec::with_capacity(self.lines);
        let mut p = self.head;
        while let Some(live) = self.next_live(p) {
            let e = self.table.get(self.q[live] as usize);
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
        _unit: u16,
    ) -> BlockOutcome {
        let (at, hit) = self.table.find(block);
        if hit {
            acc.hit(stream, write, &mut self.table.get_mut(at).meta);
            let pos = self.table.get(at).link as usize;
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
            let (old, m, at) = self.evict(block, at);
            (at, Some((old, acc.evict(m))))
        };
        let meta = acc.fill(stream, write);
        self.table.put(
            at,
            Line {
                block,
                link: 0,
                meta,
            },
        );
        self.lines += 1;
        self.touch(at);
        BlockOutcome::Fill { victim }
    }

    fn resident(&self) -> Vec<(u64, bool)> {
        self.lines_by_recency()
    }

    #[inline(always)]
    fn prefetch(&self, block: u64) {
        self.table.prefetch(block);
    }
}

#[cfg(test)]
mod tests {
    use gfxcache_trace::{Access, Stream};
    use proptest::prelude::*;

    use super::*;
    use crate::engine::{Cache, StreamMask};
    use crate::full::testing::{case, geom, same_as_engine, trace};
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
        fn counts_as_the_engines_lru((g, mask, raw) in case()) {
            same_as_engines_lru(g, mask, &trace(&raw));
        }

        #[test]
        fn counts_as_the_engines_fifo((g, mask, raw) in case()) {
            let fifo = Fifo::build(&mut Params::new(&"fifo".parse().unwrap()), &g, &Env::default()).unwrap();
            let lines = FullFifo::try_new(g.ways as usize).unwrap();
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
