//! Fully associative caches of their own (issue 35), which the registry
//! builds in place of the engine's for one set of more than 64 ways:
//! [`queue::FullLru`] for `lru`, [`queue::FullFifo`] for `fifo`,
//! [`opt::FullOpt`] for `opt`, and [`ways::FullWays`] for every other
//! policy (the engine's ways and policy hooks). Each keeps the lines in
//! the layout its policy wants, where the engine keeps tags, meta bytes
//! and the policy's state in separate arrays behind a hash index; each
//! counts exactly as the engine does (the tests run both).
//!
//! What they share is here: [`Full`], a [`CacheSim`] over a
//! [`FullKernel`] (the policy's lines and lookups), with the engine's
//! accounting of hits, misses, bypasses, fills, evictions and write-backs
//! ([`Accounts`]); and [`lines::PackedLines`], the index that holds the
//! lines of all but OPT.

pub mod lines;
pub mod opt;
pub mod queue;
pub mod ways;

use gfxcache_trace::{Access, Stream};

use crate::engine::{block_range, count_bypass, meta, StreamMask, DIRTY};
use crate::geometry::{Geometry, WritePolicy};
use crate::observe::Reuse;
use crate::outcome::{BlockEvent, BlockOutcome};
use crate::sim::CacheSim;
use crate::stats::Stats;

/// How many accesses ahead a batch asks its kernel to prefetch.
const PREFETCH_AHEAD: usize = 12;

/// Whether `geom` is one a fully associative cache of its own simulates:
/// one set of more than 64 ways (below, the engine's scanned sets are
/// faster) and few enough lines for 32-bit positions.
pub fn fits(geom: &Geometry) -> bool {
    geom.sets == 1 && geom.ways > 64 && geom.ways <= 1 << 30
}

/// The engine's accounting of block accesses, per stream, and its meta
/// byte per line (`DIRTY` | owner's stream id).
pub struct Accounts {
    write_back: bool,
    write_allocate: bool,
    unallocated: StreamMask,
    stats: Stats,
}

impl Accounts {
    pub fn new(geom: &Geometry, unallocated: StreamMask) -> Accounts {
        Accounts {
            write_back: geom.write == WritePolicy::WriteBack,
            write_allocate: geom.write_allocate,
            unallocated,
            stats: Stats::default(),
        }
    }

    /// A hit on a line whose meta byte is `line`.
    #[inline(always)]
    pub fn hit(&mut self, stream: Stream, write: bool, line: &mut u8) {
        let c = &mut self.stats.per_stream[stream.index()];
        c.hits += 1;
        if write {
            if self.write_back {
                *line = meta(stream, true);
            } else {
                c.write_throughs += 1;
            }
        }
    }

    /// A miss: whether it may allocate (otherwise it is counted as a
    /// bypass: a stream kept out, or a write miss under no-write-allocate).
    #[inline(always)]
    pub fn miss(&mut self, stream: Stream, write: bool) -> bool {
        let c = &mut self.stats.per_stream[stream.index()];
        c.misses += 1;
        if self.unallocated.contains(stream) || (write && !self.write_allocate) {
            count_bypass(c, write);
            return false;
        }
        true
    }

    /// A miss the policy does not allocate (OPT's bypass).
    #[inline(always)]
    pub fn refuse(&mut self, stream: Stream, write: bool) {
        count_bypass(&mut self.stats.per_stream[stream.index()], write);
    }

    /// The eviction of a line whose meta byte is `line`: whether it was dirty.
    #[inline(always)]
    pub fn evict(&mut self, line: u8) -> bool {
        let o = &mut self.stats.per_stream[usize::from(line & !DIRTY)];
        o.evictions += 1;
        o.writebacks += u64::from(line >> 7);
        line & DIRTY != 0
    }

    /// A fill: the new line's meta byte.
    #[inline(always)]
    pub fn fill(&mut self, stream: Stream, write: bool) -> u8 {
        let c = &mut self.stats.per_stream[stream.index()];
        if write && !self.write_back {
            c.write_throughs += 1;
        }
        c.fills += 1;
        meta(stream, write && self.write_back)
    }

    fn finish_batch(&mut self) {
        for c in &mut self.stats.per_stream {
            c.accesses = c.hits + c.misses;
        }
    }
}

/// A policy's fully associative lines: one block access at a time.
pub trait FullKernel: Send {
    /// One block access by `unit` ([`Access::unit`]), counted in `acc`:
    /// what it did.
    fn access(
        &mut self,
        acc: &mut Accounts,
        block: u64,
        stream: Stream,
        write: bool,
        unit: u16,
    ) -> BlockOutcome;

    /// The policy's named figures ([`crate::Policy::report`]).
    fn report(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    /// The resident lines: block and dirty bit, in any order.
    fn resident(&self) -> Vec<(u64, bool)>;

    /// Hints that `block` will be accessed soon, as the block access a few
    /// after the next one. Changes nothing.
    fn prefetch(&self, _block: u64) {}
}

/// A fully associative cache: a kernel, its accounts and its label.
pub struct Full<K> {
    label: String,
    notes: Vec<String>,
    geom: Geometry,
    shift: u32,
    acc: Accounts,
    kernel: K,
}

impl<K: FullKernel> Full<K> {
    pub fn new(
        geom: Geometry,
        unallocated: StreamMask,
        label: String,
        notes: Vec<String>,
        kernel: K,
    ) -> Full<K> {
        Full {
            label,
            notes,
            geom,
            shift: geom.block_shift(),
            acc: Accounts::new(&geom, unallocated),
            kernel,
        }
    }

    pub fn kernel(&self) -> &K {
        &self.kernel
    }

    /// One block access, outside a batch (the statistics' `accesses` are
    /// filled in at a batch's end).
    pub fn access_block(&mut self, block: u64, stream: Stream, write: bool) -> BlockOutcome {
        self.kernel.access(&mut self.acc, block, stream, write, 0)
    }
}

impl<K: FullKernel> CacheSim for Full<K> {
    fn label(&self) -> &str {
        &self.label
    }

    fn geometry(&self) -> &Geometry {
        &self.geom
    }

    fn access_batch(&mut self, accesses: &[Access]) {
        for (i, a) in accesses.iter().enumerate() {
            if let Some(ahead) = accesses.get(i + PREFETCH_AHEAD) {
                self.kernel.prefetch(ahead.addr >> self.shift);
            }
            let (first, last) = block_range(a, self.shift);
            let write = a.op.is_write();
            for block in first..=last {
                self.kernel
                    .access(&mut self.acc, block, a.stream, write, a.unit);
            }
        }
        self.acc.finish_batch();
    }

    fn stats(&self) -> &Stats {
        &self.acc.stats
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        self.kernel.report()
    }

    fn access_batch_events(&mut self, accesses: &[Access], events: &mut Vec<BlockEvent>) {
        events.clear();
        for a in accesses {
            let (first, last) = block_range(a, self.shift);
            let write = a.op.is_write();
            for block in first..=last {
                let outcome = self
                    .kernel
                    .access(&mut self.acc, block, a.stream, write, a.unit);
                events.push(BlockEvent {
                    block,
                    stream: a.stream,
                    write,
                    outcome,
                });
            }
        }
        self.acc.finish_batch();
    }

    fn reuse(&self) -> Option<Reuse> {
        None
    }

    fn notes(&self) -> &[String] {
        &self.notes
    }
}

/// What the kernels' tests share: traces, geometries and the comparison
/// with the engine.
#[cfg(test)]
pub(crate) mod testing {
    use gfxcache_trace::{Access, Op, Stream};
    use proptest::prelude::*;

    use super::{Full, FullKernel};
    use crate::engine::{block_range, Cache, StreamMask};
    use crate::geometry::{Geometry, WritePolicy};
    use crate::policy::Policy;
    use crate::sim::CacheSim;

    /// One set of `ways` 64-byte blocks.
    pub fn geom(ways: u32, write: WritePolicy, allocate: bool) -> Geometry {
        Geometry::new(64, 1, ways)
            .unwrap()
            .with_write(write, allocate)
    }

    /// Accesses from (block, stream index, write, blocks spanned).
    pub fn trace(raw: &[(u64, usize, bool, u32)]) -> Vec<Access> {
        raw.iter()
            .map(|&(block, stream, write, blocks)| Access {
                // A span of `blocks` blocks from the middle of `block`.
                addr: block * 64 + 32,
                size: (blocks - 1) * 64 + 1,
                unit: 0,
                stream: Stream::ALL[stream],
                op: if write { Op::Write } else { Op::Read },
            })
            .collect()
    }

    /// Random [`trace`] input over 400 blocks.
    pub fn raw_trace() -> impl Strategy<Value = Vec<(u64, usize, bool, u32)>> {
        prop::collection::vec(
            (0u64..400, 0..Stream::COUNT, any::<bool>(), 1u32..4),
            1..3000,
        )
    }

    /// A geometry, its unallocated streams and a [`trace`] input.
    pub type Case = (Geometry, StreamMask, Vec<(u64, usize, bool, u32)>);

    /// A random case: one set of 65 to 299 ways, either write policy,
    /// with or without write-allocate, with or without `+ucd`, and a
    /// [`trace`] input.
    pub fn case() -> impl Strategy<Value = Case> {
        (
            65u32..300,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            raw_trace(),
        )
            .prop_map(|(ways, write_back, allocate, ucd, raw)| {
                let write = if write_back {
                    WritePolicy::WriteBack
                } else {
                    WritePolicy::WriteThrough
                };
                let mask = if ucd {
                    StreamMask::default().with(Stream::Display)
                } else {
                    StreamMask::default()
                };
                (geom(ways, write, allocate), mask, raw)
            })
    }

    /// `engine` and `full`, built alike, over `accesses`: the same
    /// outcome of every block access (half the trace with events), the
    /// same statistics, the same final lines and dirty bits. `full`, after.
    pub fn same_as_engine<P: Policy, K: FullKernel>(
        mut engine: Cache<P>,
        mut full: Full<K>,
        accesses: &[Access],
    ) -> Full<K> {
        let g = *engine.geometry();
        let mut events = Vec::new();
        let (a, b) = accesses.split_at(accesses.len() / 2);
        full.access_batch_events(a, &mut events);
        let mut k = 0;
        for x in a {
            let (first, last) = block_range(x, g.block_shift());
            for block in first..=last {
                let want = engine.access_block(block, x.stream, x.op.is_write(), 0);
                assert_eq!(events[k].outcome, want, "block access {k} ({block:#x})");
                k += 1;
            }
        }
        assert_eq!(k, events.len());
        engine.access_all(b);
        full.access_batch(b);
        assert_eq!(full.stats(), engine.stats());
        let mut want: Vec<_> = (0..g.ways as usize)
            .filter_map(|w| engine.line(0, w))
            .collect();
        let mut ours = full.kernel().resident();
        want.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, want, "the final lines");
        full
    }
}
