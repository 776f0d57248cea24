//! What a level of a cache hierarchy ([`crate::hierarchy`]) asks of a
//! cache beyond the batch loop: the hit path and the miss path apart (a
//! level that misses asks the level below before it fills, as a cache
//! with miss handling does), blocks written into it from the level above,
//! and invalidation.
//!
//! An invalidated line leaves a hole: a way below the set's filled count
//! whose tag is [`INVALID`]. The engine's rule "fill the lowest invalid
//! way first" becomes "fill a never-filled way, else a hole, else ask the
//! policy": a policy is asked for a victim only when its set is full, and
//! sees a hole filled as a fill ([`Policy::fill`]), with no eviction before.

use super::*;

/// Where [`Cache::probe_run`] stands in a batch of accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The access under way (the batch's length once it is done).
    pub access: usize,
    /// The last block of that access done, when it spans several and the
    /// run stopped inside it.
    after: Option<u64>,
}

impl<P: Policy> Cache<P> {
    /// The hit path of a block access alone: when `block` is resident, the
    /// access is a hit (counted, the line marked dirty by a write, the
    /// policy told) and `true`; when not, nothing is done, not even
    /// counted, and `false`: [`Cache::fill`] finishes the access once the
    /// level below has answered.
    pub fn probe(&mut self, block: u64, stream: Stream, write: bool, unit: u16) -> bool {
        let (shape, mut lines, stats, policy, seq) = self.parts();
        let ctx = context(shape, block, stream, write, unit, *seq);
        let found = hit::<P, false, 0>(shape, &mut lines, stats, policy, &ctx);
        if found {
            *seq += 1;
            let c = &mut stats.per_stream[stream.index()];
            c.accesses = c.hits + c.misses;
        }
        found
    }

    /// The miss path of a block access whose [`Cache::probe`] found nothing:
    /// counts the miss and allocates (a never-filled way, else a hole, else
    /// the policy's victim) or bypasses, as [`Cache::access_block`] would.
    pub fn fill(&mut self, block: u64, stream: Stream, write: bool, unit: u16) -> Placed {
        debug_assert!(!self.contains(block), "fill of a resident block {block:#x}");
        let (shape, mut lines, stats, policy, seq) = self.parts();
        let ctx = context(shape, block, stream, write, unit, *seq);
        *seq += 1;
        let placed = miss::<P, false, 0, true>(shape, &mut lines, stats, policy, &ctx);
        let c = &mut stats.per_stream[stream.index()];
        c.accesses = c.hits + c.misses;
        placed
    }

    /// A block written into the cache from the level above: a dirty victim
    /// written back, or any victim when the cache is exclusive. Not a
    /// demand access: no hit or miss is counted. A resident block is marked
    /// dirty when `dirty` and its replacement state is left alone (a
    /// write-back is no sign of reuse; ChampSim's LRU does not promote on
    /// one either); an absent one is allocated as a miss would be (dirty
    /// when `dirty`), its fill and eviction counted, or bypassed where the
    /// stream is not allocated.
    pub fn absorb(&mut self, block: u64, stream: Stream, dirty: bool, unit: u16) -> Placed {
        let (shape, mut lines, stats, policy, seq) = self.parts();
        let ctx = context(shape, block, stream, dirty, unit, *seq);
        *seq += 1;
        if let Some(way) = lookup::<false, 0>(shape, &lines, &ctx) {
            if dirty && shape.write_back {
                lines.recs[ctx.set * shape.stride + shape.meta_at + way] = meta(stream, true);
            }
            return Placed::Present;
        }
        miss::<P, false, 0, false>(shape, &mut lines, stats, policy, &ctx)
    }

    /// Removes `block`, leaving a hole, and returns its line; `None` when
    /// it is not resident. The policy is not told: the next miss to the set
    /// fills the hole before it asks for a victim. Counted nowhere: who
    /// invalidates counts it.
    pub fn invalidate(&mut self, block: u64) -> Option<Line> {
        let shape = self.shape;
        let set = shape.set_of::<false>(block);
        let base = set * shape.ways;
        let way = match &mut self.index {
            Some(ix) => ix.remove(&block)? as usize - base,
            None => scan(
                &rec_bytes(&self.recs)[set * shape.stride..][..shape.ways],
                &self.tags[base..base + shape.ways],
                block,
            )?,
        };
        let rec = &mut rec_bytes_mut(&mut self.recs)[set * shape.stride..][..shape.stride];
        let m = rec[shape.meta_at + way];
        rec[shape.meta_at + way] = meta(Stream::Other, false);
        if self.index.is_none() {
            rec[way] = fingerprint(INVALID);
        }
        self.tags[base + way] = INVALID;
        self.holes += 1;
        Some(Line {
            block,
            dirty: m & DIRTY != 0,
            stream: owner(m),
        })
    }

    /// Whether a miss of `stream` may allocate a line here (it is not one of
    /// the cache's unallocated streams).
    pub fn allocates(&self, stream: Stream) -> bool {
        !self.shape.unallocated.contains(stream)
    }

    /// Invalidated lines not filled again ([`Cache::invalidate`]).
    pub fn holes(&self) -> u64 {
        self.holes
    }

    /// Runs the blocks of `accesses` from `cursor` through the hit path,
    /// in order, and stops at the first that misses: returns it with its
    /// access, the cursor past it, for the caller to finish with
    /// [`Cache::fill`] before it runs on; `None` once the batch is done.
    /// The top level of a hierarchy runs a batch so, its hits never
    /// leaving this loop, monomorphized for the policy.
    pub fn probe_run(&mut self, accesses: &[Access], cursor: &mut Cursor) -> Option<(u64, Access)> {
        let fast = self.shape.fast_set && self.index.is_none();
        let (shape, mut lines, stats, policy, seq) = self.parts();
        let run = if fast {
            probe_run::<P, true>
        } else {
            probe_run::<P, false>
        };
        let missed = run(shape, &mut lines, stats, policy, seq, accesses, cursor);
        for c in &mut stats.per_stream {
            c.accesses = c.hits + c.misses;
        }
        missed
    }
}

/// The policy's view of an access to `block`.
#[inline(always)]
fn context(shape: &Shape, block: u64, stream: Stream, write: bool, unit: u16, seq: u64) -> Ctx {
    let set = shape.set_of::<false>(block);
    Ctx {
        block,
        set,
        bank: shape.geom.bank_of(set),
        stream,
        write,
        unit,
        seq,
    }
}

/// [`Cache::probe_run`]'s loop.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn probe_run<P: Policy, const FAST: bool>(
    shape: &Shape,
    lines: &mut Lines,
    stats: &mut Stats,
    policy: &mut P,
    seq: &mut u64,
    accesses: &[Access],
    cursor: &mut Cursor,
) -> Option<(u64, Access)> {
    while let Some(a) = accesses.get(cursor.access) {
        let (first, last) = block_range(a, shape.shift);
        // `after` is below `last` whenever it is set.
        let from = cursor.after.map_or(first, |b| b + 1);
        let write = a.op.is_write();
        for block in from..=last {
            let set = shape.set_of::<FAST>(block);
            let ctx = Ctx {
                block,
                set,
                bank: shape.geom.bank_of(set),
                stream: a.stream,
                write,
                unit: a.unit,
                seq: *seq,
            };
            if !hit::<P, FAST, 0>(shape, lines, stats, policy, &ctx) {
                if block == last {
                    cursor.access += 1;
                    cursor.after = None;
                } else {
                    cursor.after = Some(block);
                }
                return Some((block, *a));
            }
            *seq += 1;
        }
        cursor.access += 1;
        cursor.after = None;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policies::{drrip::Drrip, fifo::Fifo, lru::Lru};
    use crate::spec::{Params, PolicySpec};
    use crate::Env;
    use gfxcache_trace::Op;

    fn cache<P: Policy>(spec: &str, sets: u32, ways: u32) -> Cache<P> {
        let g = Geometry::new(64, sets, ways).unwrap();
        let spec: PolicySpec = spec.parse().unwrap();
        let policy = P::build(&mut Params::new(&spec), &g, &Env::default()).unwrap();
        Cache::new(g, policy, StreamMask::default())
    }

    /// A few thousand accesses over a few hundred blocks, some spanning two.
    fn trace() -> Vec<Access> {
        let mut x = 7u64;
        (0..5000)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                Access {
                    addr: (x >> 33) % 300 * 64 + if i % 7 == 0 { 60 } else { 0 },
                    size: if i % 7 == 0 { 8 } else { 4 },
                    unit: 0,
                    stream: Stream::ALL[(x >> 20) as usize % 4],
                    op: if x >> 62 == 0 { Op::Write } else { Op::Read },
                }
            })
            .collect()
    }

    fn contents<P: Policy>(c: &Cache<P>) -> Vec<Option<(u64, bool)>> {
        let g = *c.geometry();
        (0..g.sets as usize)
            .flat_map(|s| (0..g.ways as usize).map(move |w| (s, w)))
            .map(|(s, w)| c.line(s, w))
            .collect()
    }

    /// `probe_run` with `fill` at each miss does what the batch loop does.
    fn split_paths_agree<P: Policy>(spec: &str, sets: u32, ways: u32) {
        let t = trace();
        let mut whole = cache::<P>(spec, sets, ways);
        whole.access_all(&t);
        let mut split = cache::<P>(spec, sets, ways);
        let mut cursor = Cursor::default();
        while let Some((block, a)) = split.probe_run(&t, &mut cursor) {
            split.fill(block, a.stream, a.op.is_write(), a.unit);
        }
        assert_eq!(cursor.access, t.len());
        assert_eq!(split.stats(), whole.stats(), "{spec} {sets}x{ways}");
        assert_eq!(contents(&split), contents(&whole), "{spec} {sets}x{ways}");
        assert_eq!(split.block_accesses(), whole.block_accesses());
    }

    #[test]
    fn hit_and_miss_paths_apart_equal_the_batch_loops() {
        split_paths_agree::<Lru>("lru", 16, 16);
        split_paths_agree::<Lru>("lru", 5, 3);
        split_paths_agree::<Lru>("lru", 1, 100);
        split_paths_agree::<Fifo>("fifo", 8, 4);
        split_paths_agree::<Drrip>("drrip:leaders=2", 16, 16);
    }

    #[test]
    fn a_hole_is_filled_before_the_policy_chooses_a_victim() {
        // One set of two ways: A, B resident, A the least recent.
        let mut c = cache::<Lru>("lru", 1, 2);
        c.access_block(1, Stream::Tex, true, 0);
        c.access_block(2, Stream::Z, false, 0);
        let a = c.invalidate(1).unwrap();
        assert_eq!(
            a,
            Line {
                block: 1,
                dirty: true,
                stream: Stream::Tex
            }
        );
        assert_eq!(c.invalidate(1), None);
        assert_eq!((c.holes(), c.line(0, 0)), (1, None));
        // C takes A's way; B stays though it is the least recent now.
        assert_eq!(
            c.access_block(3, Stream::Rt, false, 0),
            BlockOutcome::Fill { victim: None }
        );
        assert_eq!(c.holes(), 0);
        assert_eq!(c.line(0, 0), Some((3, false)));
        assert_eq!(c.line(0, 1), Some((2, false)));
        // Without holes the policy chooses again: B, the least recent.
        assert_eq!(
            c.access_block(4, Stream::Rt, false, 0),
            BlockOutcome::Fill {
                victim: Some((2, false))
            }
        );
        assert_eq!(c.stats().total().evictions, 1);
    }

    #[test]
    fn a_block_from_above_is_a_fill_not_a_miss() {
        let mut c = cache::<Lru>("lru", 1, 2);
        assert_eq!(
            c.absorb(5, Stream::Rt, true, 0),
            Placed::Filled { victim: None }
        );
        assert_eq!(
            c.absorb(6, Stream::Rt, false, 0),
            Placed::Filled { victim: None }
        );
        let t = c.stats().total();
        assert_eq!((t.accesses, t.misses, t.fills), (0, 0, 2));
        // Resident: marked dirty, not made more recent (5 stays the LRU line).
        assert_eq!(c.absorb(6, Stream::Z, true, 0), Placed::Present);
        assert_eq!(c.line(0, 1), Some((6, true)));
        assert_eq!(
            c.absorb(7, Stream::Rt, false, 0),
            Placed::Filled {
                victim: Some(Line {
                    block: 5,
                    dirty: true,
                    stream: Stream::Rt
                })
            }
        );
        assert_eq!(c.stats().stream(Stream::Rt).writebacks, 1);
    }

    #[test]
    fn batches_after_an_invalidation_take_the_general_loop() {
        let t = trace();
        let mut c = cache::<Lru>("lru", 16, 16);
        let mut reference = cache::<Lru>("lru", 16, 16);
        c.access_all(&t[..2000]);
        reference.access_all(&t[..2000]);
        let (block, _) = c.lines_for_test().next().unwrap();
        c.invalidate(block).unwrap();
        reference.invalidate(block).unwrap();
        c.access_all(&t[2000..]);
        for a in &t[2000..] {
            let (first, last) = block_range(a, 6);
            for b in first..=last {
                reference.access_block(b, a.stream, a.op.is_write(), a.unit);
            }
        }
        assert_eq!(c.stats(), reference.stats());
        assert_eq!(contents(&c), contents(&reference));
    }

    impl<P: Policy> Cache<P> {
        fn lines_for_test(&self) -> impl Iterator<Item = (u64, bool)> + '_ {
            contents(self).into_iter().flatten()
        }
    }
}
