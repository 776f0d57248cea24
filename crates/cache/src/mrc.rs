//! One-pass miss-ratio curves: the misses of LRU caches of every size from a
//! single pass over a trace, instead of one simulation per size.
//!
//! This is Mattson et al.'s stack algorithm (1970). LRU has the inclusion
//! property: a cache of C blocks holds exactly the C most recently used
//! blocks, so an access hits in it iff its *stack distance* (the number of
//! distinct other blocks touched since the previous access to the same
//! block) is below C. One histogram of stack distances therefore gives the
//! misses at every C: the cold misses plus the accesses at distance >= C.
//! Fully associative distances come from [`StackDistances`]: a 1 at each
//! block's last-access time, kept as a bitmap whose 512-time chunks are
//! summed by a Fenwick tree, with the times renumbered when they run out;
//! O(log M) per access and O(M) memory for M distinct blocks. With a fixed set count S
//! (modulo index, as the engine's default), the same argument holds per set:
//! the depth of a block in its set's recency stack, truncated at the deepest
//! associativity asked for, gives the misses of every S-set, A-way LRU cache
//! at once. Accesses are split into blocks exactly as the engine splits them
//! ([`block_range`]), so every figure here equals what [`crate::Cache`] with
//! `lru` counts, in total and per stream.

mod sets;
mod stack;

pub use stack::StackDistances;

use crate::stats::ratio;
use gfxcache_trace::{Access, Stream};
use serde::{Serialize, Serializer};

use crate::engine::block_range;
use crate::error::CacheError;
use crate::policy::prefetch;
use sets::SetStacks;
use stack::{COLD, NO_GROUP};

/// Accumulates stack distances as the trace streams past; [`finish`]
/// turns them into an [`Mrc`].
///
/// [`finish`]: MrcBuilder::finish
pub struct MrcBuilder {
    block: u32,
    shift: u32,
    stack: StackDistances,
    sets: Option<(u32, u32, SetStacks)>,
    /// Per stream: accesses by fully associative stack distance. Empty (no
    /// allocation) for streams that never occur; grown to the largest
    /// distance seen, so O(M) per stream present.
    hist: [Vec<u64>; Stream::COUNT],
    cold: [u64; Stream::COUNT],
    /// Per stream, distances of at least [`DIRECT`] not yet counted in
    /// `hist`. Such counters are scattered over megabytes, and each
    /// increment would miss the host's caches and stall the dependent
    /// lookups of the next access; counted in batches, the misses overlap.
    pending: [Vec<u32>; Stream::COUNT],
    /// Per stream, `max_ways + 1` counters: accesses by depth in their
    /// set's stack, the last one for "not in the truncated stack".
    way_hist: Vec<u64>,
    trace_accesses: u64,
    /// A histogram that could not grow: the pass must stop, and says why
    /// after the batch.
    failed: Option<CacheError>,
}

impl MrcBuilder {
    /// Fully associative curves for `block`-byte lines (a power of two).
    pub fn new(block: u32) -> Result<MrcBuilder, CacheError> {
        if block == 0 || !block.is_power_of_two() {
            return Err(CacheError::Geometry(format!(
                "block size {block}: expected a power of two"
            )));
        }
        Ok(MrcBuilder {
            block,
            shift: block.trailing_zeros(),
            stack: StackDistances::new(),
            sets: None,
            hist: Default::default(),
            pending: Default::default(),
            cold: [0; Stream::COUNT],
            way_hist: Vec::new(),
            trace_accesses: 0,
            failed: None,
        })
    }

    /// Whether [`MrcBuilder::with_sets`] takes `sets` and `max_ways`,
    /// before any table is made.
    pub fn check_sets(sets: u32, max_ways: u32) -> Result<(), CacheError> {
        if sets == 0 || max_ways == 0 {
            return Err(CacheError::Geometry(format!(
                "{sets} sets x {max_ways} ways: both must be positive"
            )));
        }
        if u64::from(sets) * u64::from(max_ways) > u64::from(u32::MAX) {
            return Err(CacheError::Geometry(format!(
                "{sets} sets x {max_ways} ways: more than 2^32 blocks"
            )));
        }
        Ok(())
    }

    /// Also the curve of `sets` sets (modulo index) for every way count up
    /// to `max_ways`. The fully associative curve is kept as well: it costs
    /// little more, since the block's dense id that the set stacks store
    /// comes from the same lookup.
    pub fn with_sets(mut self, sets: u32, max_ways: u32) -> Result<MrcBuilder, CacheError> {
        MrcBuilder::check_sets(sets, max_ways)?;
        self.sets = Some((sets, max_ways, SetStacks::new(sets, max_ways)?));
        self.way_hist = crate::table::filled(
            Stream::COUNT * (max_ways as usize + 1),
            0,
            "the per-way histograms",
        )?;
        Ok(self)
    }

    /// Every access of `accesses`, in order. An error where the tables
    /// outgrow the memory at hand (then the builder is of no further use).
    pub fn push_all(&mut self, accesses: &[Access]) -> Result<(), CacheError> {
        // Room for one block per access; an access that spans several
        // asks for the rest ([`MrcBuilder::push_with`]).
        self.stack.reserve(accesses.len())?;
        // Branch on the configuration once per batch, not per access.
        if self.sets.is_some() {
            self.push_all_with::<true>(accesses);
        } else {
            self.push_all_with::<false>(accesses);
        }
        self.failed.take().map_or(Ok(()), Err)
    }

    /// Looks ahead in three stages (see [`StackDistances::find_group`]):
    /// an access's lookups depend on each other, so without hints the
    /// host's caches would serve one miss at a time; with them, the misses
    /// of several accesses overlap. The groups found on the way are kept
    /// in `ring` for the accesses themselves.
    fn push_all_with<const SETS: bool>(&mut self, accesses: &[Access]) {
        let shift = self.shift;
        let mut ring = [NO_GROUP; RING];
        for (j, x) in accesses.iter().take(2 * AHEAD).enumerate() {
            ring[j % RING] = self.stack.find_group(x.addr >> shift);
        }
        for (i, a) in accesses.iter().enumerate() {
            // The trace itself, a few lines beyond the first stage: the
            // hardware's stream prefetcher alone falls behind here.
            prefetch(accesses, i + 8 * AHEAD);
            if let Some(x) = accesses.get(i + 3 * AHEAD) {
                self.stack.prefetch_index(x.addr >> shift);
            }
            if let Some(x) = accesses.get(i + 2 * AHEAD) {
                ring[(i + 2 * AHEAD) % RING] = self.stack.find_group(x.addr >> shift);
            }
            if let Some(x) = accesses.get(i + AHEAD) {
                let block = x.addr >> shift;
                self.stack.prefetch_bits(block, ring[(i + AHEAD) % RING]);
                if SETS {
                    if let Some((_, _, stacks)) = &self.sets {
                        stacks.prefetch(block);
                    }
                }
            }
            self.push_with::<SETS>(a, ring[i % RING], accesses.len() - i);
        }
    }

    /// One access; as [`MrcBuilder::push_all`].
    pub fn push(&mut self, a: &Access) -> Result<(), CacheError> {
        self.push_all(std::slice::from_ref(a))
    }

    /// One access, the first of the `ahead` the stack has room for, one
    /// block each.
    #[inline(always)]
    fn push_with<const SETS: bool>(&mut self, a: &Access, group: u32, ahead: usize) {
        self.trace_accesses += 1;
        let (first, last) = block_range(a, self.shift);
        if first != last && !self.reserve_span(ahead + (last - first) as usize) {
            return;
        }
        self.push_block::<SETS>(first, a.stream, group);
        let mut b = first;
        while b < last {
            b += 1;
            self.push_block::<SETS>(b, a.stream, NO_GROUP);
        }
    }

    #[inline(always)]
    fn push_block<const SETS: bool>(&mut self, block: u64, stream: Stream, group: u32) {
        let s = stream.index();
        let (d, id) = self.stack.access_id(block, group);
        if d == COLD {
            self.cold[s] += 1;
        } else if (d as usize) < DIRECT {
            let d = d as usize;
            if d < self.hist[s].len() || self.grow_hist(s, d) {
                self.hist[s][d] += 1;
            }
        } else {
            let p = &mut self.pending[s];
            p.push(d);
            if p.len() >= PENDING {
                self.flush_pending(s);
            }
        }
        if SETS {
            if let Some((_, ways, stacks)) = &mut self.sets {
                let depth = stacks.access(block, id);
                self.way_hist[s * (*ways as usize + 1) + depth] += 1;
            }
        }
    }

    /// Room for `blocks` more block accesses (an access that spans blocks,
    /// and those after it in the batch), or `false` with the error kept
    /// for the end of the batch: the access is then left out, and the
    /// room already made suffices for the rest.
    #[cold]
    #[inline(never)]
    fn reserve_span(&mut self, blocks: usize) -> bool {
        self.stack
            .reserve(blocks)
            .map_err(|e| self.failed.get_or_insert(e))
            .is_ok()
    }

    /// Grows stream `s`'s histogram to distance `d`, or `false` with the
    /// error kept for the end of the batch.
    #[cold]
    #[inline(never)]
    fn grow_hist(&mut self, s: usize, d: usize) -> bool {
        grow(&mut self.hist[s], d)
            .map_err(|e| self.failed.get_or_insert(e))
            .is_ok()
    }

    /// Counts stream `s`'s pending distances, keeping any error for the
    /// end of the batch.
    #[cold]
    #[inline(never)]
    fn flush_pending(&mut self, s: usize) {
        if let Err(e) = flush(&mut self.hist[s], &mut self.pending[s]) {
            self.failed.get_or_insert(e);
        }
    }

    /// The curves; an error where the histograms outgrow the memory.
    pub fn finish(mut self) -> Result<Mrc, CacheError> {
        for (h, p) in self.hist.iter_mut().zip(&mut self.pending) {
            flush(h, p)?;
        }
        let width = self.sets.as_ref().map_or(0, |(_, w, _)| *w as usize + 1);
        let mut streams = Vec::new();
        let mut total_hist: Vec<u64> = Vec::new();
        let mut total_ways = vec![0u64; width];
        let mut total_cold = 0;
        for stream in Stream::ALL {
            let s = stream.index();
            let h = &self.hist[s];
            let ways = self.way_hist.get(s * width..(s + 1) * width).unwrap_or(&[]);
            if h.is_empty() && self.cold[s] == 0 {
                continue;
            }
            if total_hist.len() < h.len() {
                crate::table::reserve_total(&mut total_hist, h.len(), HISTOGRAMS)?;
                total_hist.resize(h.len(), 0);
            }
            for (t, &n) in total_hist.iter_mut().zip(h) {
                *t += n;
            }
            for (t, &n) in total_ways.iter_mut().zip(ways) {
                *t += n;
            }
            total_cold += self.cold[s];
            streams.push((stream, MissCurve::new(self.cold[s], h, ways)));
        }
        Ok(Mrc {
            block: self.block,
            sets: self.sets.as_ref().map(|(s, w, _)| (*s, *w)),
            trace_accesses: self.trace_accesses,
            footprint: self.stack.distinct() as u64,
            total: MissCurve::new(total_cold, &total_hist, &total_ways),
            streams,
        })
    }
}

/// Accesses looked ahead for prefetching: far enough for a miss to the
/// host's memory to complete, near enough that the lines are still there.
const AHEAD: usize = 8;

/// Groups found ahead, by access index modulo this; more than the
/// `2 * AHEAD` in flight.
const RING: usize = 4 * AHEAD;

/// Distances below this are counted at once: their counters are few and
/// stay in the host's caches.
const DIRECT: usize = 1 << 12;

/// Distances held back per stream before they are counted.
const PENDING: usize = 1 << 12;

#[cold]
#[inline(never)]
fn flush(h: &mut Vec<u64>, pending: &mut Vec<u32>) -> Result<(), CacheError> {
    let grown = match pending.iter().max() {
        Some(&max) if max as usize >= h.len() => grow(h, max as usize),
        _ => Ok(()),
    };
    if grown.is_ok() {
        for &d in pending.iter() {
            h[d as usize] += 1;
        }
    }
    pending.clear();
    grown
}

/// What the histograms are, in an error.
const HISTOGRAMS: &str = "the stack-distance histograms";

#[cold]
#[inline(never)]
fn grow(h: &mut Vec<u64>, d: usize) -> Result<(), CacheError> {
    let n = (d + 1).next_power_of_two();
    crate::table::reserve(h, n - h.len(), HISTOGRAMS)?;
    h.resize(n, 0);
    Ok(())
}

/// Misses by cache size for one group of accesses (all, or one stream).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissCurve {
    accesses: u64,
    cold: u64,
    /// Distinct stack distances that occur, ascending, and for each the
    /// accesses at that distance or beyond: sparse, so that a stream with
    /// few accesses costs little however large the footprint.
    dist: Vec<u32>,
    at_or_beyond: Vec<u64>,
    /// Misses at `a` ways for `a` in `0..=max_ways`; empty without sets.
    ways: Vec<u64>,
}

impl MissCurve {
    fn new(cold: u64, hist: &[u64], way_hist: &[u64]) -> MissCurve {
        let mut dist = Vec::new();
        let mut at_or_beyond = Vec::new();
        let mut acc = 0u64;
        for (d, &n) in hist.iter().enumerate().rev() {
            if n != 0 {
                acc += n;
                dist.push(d as u32);
                at_or_beyond.push(acc);
            }
        }
        dist.reverse();
        at_or_beyond.reverse();
        let mut ways = way_hist.to_vec();
        let mut acc = 0u64;
        for w in ways.iter_mut().rev() {
            acc += *w;
            *w = acc;
        }
        MissCurve {
            accesses: cold + at_or_beyond.first().copied().unwrap_or(0),
            cold,
            dist,
            at_or_beyond,
            ways,
        }
    }

    /// Block accesses: a trace access spanning k blocks counts k times, as
    /// in the engine's statistics.
    pub fn accesses(&self) -> u64 {
        self.accesses
    }

    /// First accesses to a block: misses in a cache of any size.
    pub fn cold_misses(&self) -> u64 {
        self.cold
    }

    /// Misses of a fully associative LRU cache of `blocks` blocks.
    pub fn misses_at_blocks(&self, blocks: u64) -> u64 {
        let i = self.dist.partition_point(|&d| u64::from(d) < blocks);
        self.cold + self.at_or_beyond.get(i).copied().unwrap_or(0)
    }

    /// Misses of an LRU cache of the builder's set count and `ways` ways;
    /// `None` without sets or beyond the largest way count asked for.
    pub fn misses_at_ways(&self, ways: u32) -> Option<u64> {
        self.ways.get(ways as usize).copied()
    }
}

/// Miss-ratio curves of one trace at one block size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mrc {
    block: u32,
    sets: Option<(u32, u32)>,
    trace_accesses: u64,
    footprint: u64,
    total: MissCurve,
    /// Streams that occur, in [`Stream::ALL`] order.
    streams: Vec<(Stream, MissCurve)>,
}

/// One point of a curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    /// Capacity in bytes.
    pub size: u64,
    /// Capacity in blocks.
    pub blocks: u64,
    /// Associativity; equal to `blocks` when fully associative.
    pub ways: u64,
    pub misses: u64,
    pub miss_ratio: f64,
    /// Streams that occur in the trace, in [`Stream::ALL`] order.
    pub per_stream: Vec<StreamPoint>,
}

/// One stream's share of a [`CurvePoint`]: architects want to know which
/// stream the misses a larger cache saves come from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StreamPoint {
    #[serde(serialize_with = "stream_name")]
    pub stream: Stream,
    pub accesses: u64,
    pub misses: u64,
    pub miss_ratio: f64,
}

fn stream_name<S: Serializer>(s: &Stream, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s.name())
}

impl Mrc {
    pub fn block(&self) -> u32 {
        self.block
    }

    /// `(sets, max_ways)` when the builder was given a set count.
    pub fn sets(&self) -> Option<(u32, u32)> {
        self.sets
    }

    /// Trace records, before splitting into blocks.
    pub fn trace_accesses(&self) -> u64 {
        self.trace_accesses
    }

    /// Distinct blocks touched.
    pub fn footprint(&self) -> u64 {
        self.footprint
    }

    /// All streams together.
    pub fn total(&self) -> &MissCurve {
        &self.total
    }

    /// One stream; `None` if it never occurs.
    pub fn stream(&self, s: Stream) -> Option<&MissCurve> {
        self.streams.iter().find(|(t, _)| *t == s).map(|(_, c)| c)
    }

    /// Streams that occur, in [`Stream::ALL`] order.
    pub fn streams(&self) -> impl Iterator<Item = (Stream, &MissCurve)> {
        self.streams.iter().map(|(s, c)| (*s, c))
    }

    /// See [`MissCurve::accesses`].
    pub fn accesses(&self) -> u64 {
        self.total.accesses()
    }

    pub fn cold_misses(&self) -> u64 {
        self.total.cold_misses()
    }

    pub fn misses_at_blocks(&self, blocks: u64) -> u64 {
        self.total.misses_at_blocks(blocks)
    }

    pub fn misses_at_ways(&self, ways: u32) -> Option<u64> {
        self.total.misses_at_ways(ways)
    }

    /// The fixed-set curve when a set count was given, else the fully
    /// associative one.
    pub fn curve(&self) -> Vec<CurvePoint> {
        self.ways_curve().unwrap_or_else(|| self.blocks_curve())
    }

    /// Fully associative, at 1, 2, 4, ... blocks and at the footprint, where
    /// only cold misses remain; empty for an empty trace.
    pub fn blocks_curve(&self) -> Vec<CurvePoint> {
        let mut sizes = Vec::new();
        let mut c = 1u64;
        while c < self.footprint {
            sizes.push(c);
            c *= 2;
        }
        if self.footprint > 0 {
            sizes.push(self.footprint);
        }
        sizes.into_iter().map(|c| self.point_at_blocks(c)).collect()
    }

    /// Every way count from 1 to the largest asked for; `None` without sets.
    pub fn ways_curve(&self) -> Option<Vec<CurvePoint>> {
        let (_, max_ways) = self.sets?;
        (1..=max_ways).map(|a| self.point_at_ways(a)).collect()
    }

    pub fn point_at_blocks(&self, blocks: u64) -> CurvePoint {
        self.point(blocks, blocks, |c| c.misses_at_blocks(blocks))
    }

    /// `None` without sets or beyond the largest way count asked for.
    pub fn point_at_ways(&self, ways: u32) -> Option<CurvePoint> {
        let (sets, max_ways) = self.sets?;
        if ways > max_ways {
            return None;
        }
        let blocks = u64::from(sets) * u64::from(ways);
        Some(self.point(blocks, u64::from(ways), |c| {
            c.misses_at_ways(ways).unwrap_or(c.accesses)
        }))
    }

    fn point(&self, blocks: u64, ways: u64, misses: impl Fn(&MissCurve) -> u64) -> CurvePoint {
        let m = misses(&self.total);
        CurvePoint {
            size: blocks * u64::from(self.block),
            blocks,
            ways,
            misses: m,
            miss_ratio: ratio(m, self.total.accesses),
            per_stream: self
                .streams
                .iter()
                .map(|(s, c)| {
                    let m = misses(c);
                    StreamPoint {
                        stream: *s,
                        accesses: c.accesses,
                        misses: m,
                        miss_ratio: ratio(m, c.accesses),
                    }
                })
                .collect(),
        }
    }
}
