//! The cache engine: tags, valid and dirty bits, write policy, bypass and
//! statistics, generic over the replacement policy.
//!
//! How the access loop is kept fast:
//! - a batch runs in one non-inlined function whose arguments are the
//!   cache's parts, each a separate `&mut`, so the compiler knows they do not
//!   alias and keeps their addresses in registers; it is monomorphized for
//!   the common shape (power-of-two sets, modulo index, 16 ways) as well as
//!   for the general one;
//! - a lookup compares a one-byte fingerprint of all 16 ways at once (SSE2)
//!   and reads a full tag only where one matches;
//! - dirty bit and owning stream share one byte per line;
//! - one set's fingerprints, line bytes and filled count share one 64-byte
//!   record (`Rec`), found from one base address;
//! - the general loop prefetches the set of the access a dozen ahead (tags,
//!   record, and the policy's state through [`Policy::prefetch`]); the
//!   16-way loop prefetches nothing, being bound by its instructions;
//! - the 16-way loop (`run16_loop`) holds its state in a local that never
//!   has its address taken (so in registers), is specialised for 64-byte
//!   blocks and for the write policy, finds a set's record and tags from
//!   one offset (`set * 64`, taken straight from the address for 64-byte
//!   blocks), and counts `seq` only for kernels that read it;
//! - a write hit marks its line with a select, not a branch, and 16-byte
//!   rows (fingerprints, LRU ranks, RRPVs) are only written whole, so that
//!   the set's next lookup takes them from the store buffer;
//! - it also skips the allocation test when every miss allocates, and
//!   keeps the batch's counts in a local `Tally16` of one array per
//!   count, so that counting is one increment at `stream id * 8` (about 64
//!   instructions per block access for LRU, policy included).

use gfxcache_trace::{Access, Stream};
use rustc_hash::FxHashMap;

use crate::error::CacheError;
use crate::geometry::{Geometry, IndexFn, WritePolicy};
use crate::lanes;
use crate::outcome::{BlockOutcome, Line, Placed};
use crate::policy::{Ctx, Policy};
use crate::stats::{Counts, Stats};
use crate::table;

/// Tag of an invalid way; no block address reaches it (addresses are shifted
/// by at least one block bit... or are blocks of size 1, where u64::MAX
/// itself is the only address lost).
const INVALID: u64 = u64::MAX;

/// Above this associativity, lookups go through a hash index instead of a
/// scan of the set's tags.
const SCAN_WAYS: u32 = 64;

/// [`Access::block_range`], as the engine and its users call it.
#[inline(always)]
pub fn block_range(a: &Access, shift: u32) -> (u64, u64) {
    a.block_range(shift)
}

/// A set of streams, as a bit mask over [`Stream::id`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamMask(pub u16);

impl StreamMask {
    pub fn with(self, s: Stream) -> StreamMask {
        StreamMask(self.0 | 1 << s.id())
    }

    #[inline(always)]
    pub fn contains(self, s: Stream) -> bool {
        self.0 >> s.id() & 1 != 0
    }
}

/// Bit of a line's [`Cache::meta`] byte that marks it dirty; the low bits
/// hold the owner's [`Stream::id`].
pub(crate) const DIRTY: u8 = 0x80;

/// How many accesses ahead [`Cache::access_all`] prefetches.
const PREFETCH_AHEAD: usize = 12;

/// A byte of hash of a block, kept per line so that a lookup compares 16
/// ways at once and reads a full tag only where the byte matches.
#[inline(always)]
fn fingerprint(block: u64) -> u8 {
    (block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8
}

#[inline(always)]
pub(crate) fn meta(stream: Stream, dirty: bool) -> u8 {
    stream.id() | if dirty { DIRTY } else { 0 }
}

/// The fixed shape of a cache, as the access loop needs it.
#[derive(Clone, Copy)]
struct Shape {
    geom: Geometry,
    shift: u32,
    ways: usize,
    /// `block & set_mask` is the set, when `fast_set` (modulo indexing of a
    /// power-of-two set count).
    set_mask: u64,
    fast_set: bool,
    write_back: bool,
    unallocated: StreamMask,
    /// Bytes of one set's record in [`Cache::recs`] (a multiple of 64).
    stride: usize,
    /// Offsets in a set's record of its meta bytes and filled count (its
    /// fingerprints, in scanned caches, are at 0).
    meta_at: usize,
    filled_at: usize,
}

impl Shape {
    /// Record layout for `WAYS` known at compile time (16: scanned, one
    /// 64-byte record) or not (0).
    #[inline(always)]
    fn layout<const WAYS: usize>(&self) -> (usize, usize, usize) {
        if WAYS == 16 {
            (64, 16, 32)
        } else {
            (self.stride, self.meta_at, self.filled_at)
        }
    }

    #[inline(always)]
    fn set_of<const FAST: bool>(&self, block: u64) -> usize {
        if FAST || self.fast_set {
            (block & self.set_mask) as usize
        } else {
            self.geom.set_of(block)
        }
    }
}

/// 64 bytes of per-set engine state, on a host cache line of its own. A
/// set's record is one or more of them: its fingerprints (scanned caches
/// only), then its meta bytes, then its filled count (a `u32`); for 16
/// ways, exactly one: fingerprints at 0, meta at 16, filled count at 32.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Rec([u8; 64]);

impl Rec {
    #[inline(always)]
    fn fp16(&self) -> &[u8; 16] {
        self.0[..16].try_into().unwrap()
    }

    #[inline(always)]
    fn fp16_mut(&mut self) -> &mut [u8; 16] {
        (&mut self.0[..16]).try_into().unwrap()
    }

    #[inline(always)]
    fn meta16(&mut self) -> &mut [u8; 16] {
        (&mut self.0[16..32]).try_into().unwrap()
    }

    #[inline(always)]
    fn filled16(&self) -> u32 {
        u32::from_ne_bytes(self.0[32..36].try_into().unwrap())
    }

    #[inline(always)]
    fn set_filled16(&mut self, n: u32) {
        self.0[32..36].copy_from_slice(&n.to_ne_bytes());
    }
}

/// The records as bytes.
fn rec_bytes(recs: &[Rec]) -> &[u8] {
    // SAFETY: a `Rec` is 64 initialised bytes with no padding.
    unsafe { std::slice::from_raw_parts(recs.as_ptr().cast(), std::mem::size_of_val(recs)) }
}

/// The records as bytes.
fn rec_bytes_mut(recs: &mut [Rec]) -> &mut [u8] {
    let len = std::mem::size_of_val(recs);
    // SAFETY: as in `rec_bytes`; every byte pattern is a valid `Rec`.
    unsafe { std::slice::from_raw_parts_mut(recs.as_mut_ptr().cast(), len) }
}

#[inline(always)]
fn get_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_ne_bytes(bytes[at..at + 4].try_into().unwrap())
}

#[inline(always)]
fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_ne_bytes());
}

/// A cache running policy `P`.
pub struct Cache<P> {
    shape: Shape,
    tags: Vec<u64>,
    /// Per set, one record ([`Rec`]) of:
    /// - per line, [`fingerprint`] of its tag (scanned caches only);
    /// - per line, one byte: [`DIRTY`] | id of the stream of the last access
    ///   that filled or wrote it (evictions and write-backs are counted
    ///   against that stream);
    /// - valid ways, a `u32`. Lines are never invalidated, so the valid ways
    ///   of a set are exactly `0..filled` and the lowest invalid way is
    ///   `filled`.
    recs: Vec<Rec>,
    /// Block -> slot, for caches too associative to scan.
    index: Option<FxHashMap<u64, u32>>,
    /// Lines invalidated ([`Cache::invalidate`]) and not yet filled again:
    /// ways below a set's filled count whose tag is [`INVALID`]. While
    /// there are any, a miss to a full set looks for one before asking the
    /// policy for a victim, and batches take the general loop.
    holes: u64,
    seq: u64,
    stats: Stats,
    policy: P,
}

/// The line arrays of a cache, borrowed apart from its policy and
/// statistics (and passed as separate arguments to the batch loop) so that
/// the compiler knows none of them alias.
struct Lines<'a> {
    tags: &'a mut [u64],
    /// [`Cache::recs`], as bytes.
    recs: &'a mut [u8],
    index: Option<&'a mut FxHashMap<u64, u32>>,
    /// [`Cache::holes`].
    holes: &'a mut u64,
}

impl<P: Policy> Cache<P> {
    /// A cache of `geom` running `policy`, `unallocated` streams bypassing
    /// it. Panics where its tables do not fit in memory: for the small
    /// fixed caches of a model (a GPU's render caches); a cache sized by a
    /// user comes from [`Cache::try_new`].
    pub fn new(geom: Geometry, policy: P, unallocated: StreamMask) -> Cache<P> {
        Cache::try_new(geom, policy, unallocated).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Cache::new`], or [`CacheError::OutOfMemory`] where its tags, line
    /// records or (above 64 ways) index do not fit in the memory at hand.
    pub fn try_new(
        geom: Geometry,
        policy: P,
        unallocated: StreamMask,
    ) -> Result<Cache<P>, CacheError> {
        let n = geom.blocks();
        let ways = geom.ways as usize;
        let scanned = geom.ways <= SCAN_WAYS;
        let meta_at = if scanned { ways } else { 0 };
        let filled_at = meta_at + ways;
        let stride = (filled_at + 4).div_ceil(64) * 64;
        let mut recs = table::filled(
            geom.sets as usize * stride / 64,
            Rec([0; 64]),
            "the line records (fingerprints, dirty bits, owners)",
        )?;
        for r in rec_bytes_mut(&mut recs).chunks_exact_mut(stride) {
            if scanned {
                r[..ways].fill(fingerprint(INVALID));
            }
            r[meta_at..meta_at + ways].fill(meta(Stream::Other, false));
        }
        let tags = table::filled(n, INVALID, "the tags")?;
        let index = if geom.ways > SCAN_WAYS {
            let mut ix = FxHashMap::default();
            ix.try_reserve(n)
                .map_err(|_| CacheError::out_of_memory::<(u64, u32)>(n, "the tag index"))?;
            Some(ix)
        } else {
            None
        };
        Ok(Cache {
            shape: Shape {
                geom,
                shift: geom.block_shift(),
                ways: geom.ways as usize,
                set_mask: u64::from(geom.sets) - 1,
                fast_set: geom.index == IndexFn::Modulo && geom.sets.is_power_of_two(),
                write_back: geom.write == WritePolicy::WriteBack,
                unallocated,
                stride,
                meta_at,
                filled_at,
            },
            tags,
            recs,
            index,
            holes: 0,
            seq: 0,
            stats: Stats::default(),
            policy,
        })
    }

    pub fn geometry(&self) -> &Geometry {
        &self.shape.geom
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// Block accesses made so far.
    pub fn block_accesses(&self) -> u64 {
        self.seq
    }

    /// Whether `block` is resident.
    pub fn contains(&self, block: u64) -> bool {
        let set = self.shape.set_of::<false>(block);
        let ways = self.shape.ways;
        match &self.index {
            Some(ix) => ix.contains_key(&block),
            None => scan(
                &rec_bytes(&self.recs)[set * self.shape.stride..][..ways],
                &self.tags[set * ways..(set + 1) * ways],
                block,
            )
            .is_some(),
        }
    }

    /// The block and dirty bit held by `way` of `set`, or `None` when that
    /// way has not been filled yet or was invalidated. For inspection and
    /// tests.
    pub fn line(&self, set: usize, way: usize) -> Option<(u64, bool)> {
        let rec = &rec_bytes(&self.recs)[set * self.shape.stride..][..self.shape.stride];
        let slot = set * self.shape.ways + way;
        (way < get_u32(rec, self.shape.filled_at) as usize && self.tags[slot] != INVALID)
            .then(|| (self.tags[slot], rec[self.shape.meta_at + way] & DIRTY != 0))
    }

    /// Writes back every dirty line: clears its dirty bit and returns its
    /// block, all in address order; lines stay valid. This is what a flush
    /// at the end of a frame does to the render caches. The statistics'
    /// `writebacks` count evictions only and do not change.
    pub fn clean_dirty(&mut self) -> Vec<u64> {
        let shape = &self.shape;
        let recs = rec_bytes_mut(&mut self.recs);
        let mut blocks = Vec::new();
        for set in 0..shape.geom.sets as usize {
            let rec = &mut recs[set * shape.stride..][..shape.stride];
            let valid = get_u32(rec, shape.filled_at) as usize;
            for way in 0..valid {
                let m = &mut rec[shape.meta_at + way];
                if *m & DIRTY != 0 {
                    *m &= !DIRTY;
                    blocks.push(self.tags[set * shape.ways + way]);
                }
            }
        }
        blocks.sort_unstable();
        blocks
    }

    /// The cache's parts, borrowed apart.
    fn parts(&mut self) -> (&Shape, Lines<'_>, &mut Stats, &mut P, &mut u64) {
        let lines = Lines {
            tags: &mut self.tags,
            recs: rec_bytes_mut(&mut self.recs),
            index: self.index.as_mut(),
            holes: &mut self.holes,
        };
        (
            &self.shape,
            lines,
            &mut self.stats,
            &mut self.policy,
            &mut self.seq,
        )
    }

    /// Every access of `accesses`, in order. Prefetches the state of the set
    /// a few accesses ahead so that the host's cache misses overlap.
    pub fn access_all(&mut self, accesses: &[Access]) {
        let fast = self.shape.fast_set && self.index.is_none();
        // The 16-way kernels know nothing of holes.
        if fast && self.shape.ways == 16 && self.holes == 0 && self.access_all_16(accesses) {
            return;
        }
        let run = match (fast, self.shape.ways) {
            (true, 16) => run::<P, true, 16>,
            (true, _) => run::<P, true, 0>,
            _ => run::<P, false, 0>,
        };
        run(
            &self.shape,
            &mut self.tags,
            rec_bytes_mut(&mut self.recs),
            self.index.as_mut(),
            &mut self.holes,
            &mut self.stats,
            &mut self.policy,
            &mut self.seq,
            accesses,
        );
    }

    /// [`Cache::access_all`] through the policy's 16-way kernel
    /// ([`Policy::run16`]) when it has one; `false` (and nothing done) when not.
    #[inline]
    fn access_all_16(&mut self, accesses: &[Access]) -> bool {
        let mut engine = Engine16(Parts16 {
            shape: &self.shape,
            tags: self.tags.as_chunks_mut().0,
            recs: &mut self.recs,
            stats: &mut self.stats,
            seq: &mut self.seq,
        });
        self.policy.run16(&mut engine, accesses)
    }

    /// One trace access: every block it touches, in address order.
    #[inline]
    pub fn access(&mut self, a: &Access) {
        self.access_all(std::slice::from_ref(a));
    }

    /// One block access.
    #[inline]
    pub fn access_block(
        &mut self,
        block: u64,
        stream: Stream,
        write: bool,
        unit: u16,
    ) -> BlockOutcome {
        let (shape, mut lines, stats, policy, seq) = self.parts();
        let outcome = step::<P, false, 0>(
            shape, &mut lines, stats, policy, seq, block, stream, write, unit,
        );
        let c = &mut self.stats.per_stream[stream.index()];
        c.accesses = c.hits + c.misses;
        outcome
    }
}

/// The batch loop. Not inlined: its arguments are the cache's parts, each
/// a separate `&mut`, which tells the compiler that none aliases another.
/// `FAST`: a scanned cache (no hash index) with mask indexing; `WAYS`: the
/// associativity when known at compile time (16, the common LLC), else 0.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn run<P: Policy, const FAST: bool, const WAYS: usize>(
    shape: &Shape,
    tags: &mut [u64],
    recs: &mut [u8],
    index: Option<&mut FxHashMap<u64, u32>>,
    holes: &mut u64,
    stats: &mut Stats,
    policy: &mut P,
    seq: &mut u64,
    accesses: &[Access],
) {
    let mut lines = Lines {
        tags,
        recs,
        index,
        holes,
    };
    let mut s = *seq;
    for (i, a) in accesses.iter().enumerate() {
        if let Some(ahead) = accesses.get(i + PREFETCH_AHEAD) {
            prefetch::<P, FAST>(shape, &lines, policy, ahead.addr >> shape.shift);
        }
        let (first, last) = block_range(a, shape.shift);
        let write = a.op.is_write();
        step::<P, FAST, WAYS>(
            shape, &mut lines, stats, policy, &mut s, first, a.stream, write, a.unit,
        );
        if first != last {
            rest::<P>(shape, &mut lines, stats, policy, &mut s, first, last, a);
        }
    }
    *seq = s;
    for c in &mut stats.per_stream {
        c.accesses = c.hits + c.misses;
    }
}

/// The blocks after the first of an access that spans several.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn rest<P: Policy>(
    shape: &Shape,
    lines: &mut Lines,
    stats: &mut Stats,
    policy: &mut P,
    seq: &mut u64,
    first: u64,
    last: u64,
    a: &Access,
) {
    let write = a.op.is_write();
    let mut b = first;
    while b < last {
        b += 1;
        step::<P, false, 0>(shape, lines, stats, policy, seq, b, a.stream, write, a.unit);
    }
}

/// Hints that `block` will be accessed soon: brings its set's tags, record
/// ([`Rec`]) and replacement state towards the host's L1. Changes
/// nothing.
#[inline(always)]
fn prefetch<P: Policy, const FAST: bool>(shape: &Shape, lines: &Lines, policy: &P, block: u64) {
    let set = shape.set_of::<FAST>(block);
    let base = set * shape.ways;
    if FAST || lines.index.is_none() {
        crate::policy::prefetch(lines.tags, base);
        crate::policy::prefetch(lines.tags, base + shape.ways - 1);
    }
    crate::policy::prefetch(lines.recs, set * shape.stride);
    policy.prefetch(set, block);
}

/// The way of a set holding `block`: fingerprints first, 16 ways per
/// compare, then the full tag only where a fingerprint matches (about one
/// way in 256 besides the hit).
#[inline(always)]
fn scan(fp: &[u8], tags: &[u64], block: u64) -> Option<usize> {
    let mut m = lanes::eq_mask(fp, fingerprint(block));
    while m != 0 {
        let way = m.trailing_zeros() as usize;
        if tags[way] == block {
            return Some(way);
        }
        m &= m - 1;
    }
    None
}

/// One block access.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn step<P: Policy, const FAST: bool, const WAYS: usize>(
    shape: &Shape,
    lines: &mut Lines,
    stats: &mut Stats,
    policy: &mut P,
    seq: &mut u64,
    block: u64,
    stream: Stream,
    write: bool,
    unit: u16,
) -> BlockOutcome {
    let set = shape.set_of::<FAST>(block);
    let ctx = Ctx {
        block,
        set,
        bank: shape.geom.bank_of(set),
        stream,
        write,
        unit,
        seq: *seq,
    };
    *seq += 1;
    if hit::<P, FAST, WAYS>(shape, lines, stats, policy, &ctx) {
        return BlockOutcome::Hit;
    }
    miss::<P, FAST, WAYS, true>(shape, lines, stats, policy, &ctx).outcome()
}

/// The way of `ctx.set` holding `ctx.block`, if any.
#[inline(always)]
fn lookup<const FAST: bool, const WAYS: usize>(
    shape: &Shape,
    lines: &Lines,
    ctx: &Ctx,
) -> Option<usize> {
    let ways = if WAYS > 0 { WAYS } else { shape.ways };
    let base = ctx.set * ways;
    let (stride, _, _) = shape.layout::<WAYS>();
    match &lines.index {
        Some(ix) if !FAST => ix.get(&ctx.block).map(|&slot| slot as usize - base),
        _ => scan(
            &lines.recs[ctx.set * stride..][..ways],
            &lines.tags[base..base + ways],
            ctx.block,
        ),
    }
}

/// The hit path of one block access: `false` (and nothing done) when the
/// block is not resident.
#[inline(always)]
fn hit<P: Policy, const FAST: bool, const WAYS: usize>(
    shape: &Shape,
    lines: &mut Lines,
    stats: &mut Stats,
    policy: &mut P,
    ctx: &Ctx,
) -> bool {
    let Some(way) = lookup::<FAST, WAYS>(shape, lines, ctx) else {
        return false;
    };
    // `accesses` is filled in as `hits + misses` at the end of the batch.
    let c = &mut stats.per_stream[ctx.stream.index()];
    c.hits += 1;
    if ctx.write {
        if shape.write_back {
            let (stride, meta_at, _) = shape.layout::<WAYS>();
            lines.recs[ctx.set * stride + meta_at + way] = meta(ctx.stream, true);
        } else {
            c.write_throughs += 1;
        }
    }
    policy.hit(ctx, way);
    true
}

/// The miss path of one block access (the block is not resident): fills
/// the lowest invalid way, else a hole, else the policy's victim, or
/// bypasses. `DEMAND`: an access of the cache's own stream, counted as a
/// miss (and as a bypass or write-through where it is one); otherwise a
/// block written into the cache from above in a hierarchy
/// ([`Cache::absorb`]), counted only as the fill and eviction it causes.
#[inline(always)]
fn miss<P: Policy, const FAST: bool, const WAYS: usize, const DEMAND: bool>(
    shape: &Shape,
    lines: &mut Lines,
    stats: &mut Stats,
    policy: &mut P,
    ctx: &Ctx,
) -> Placed {
    let (set, block, stream, write) = (ctx.set, ctx.block, ctx.stream, ctx.write);
    let c = &mut stats.per_stream[stream.index()];
    if DEMAND {
        c.misses += 1;
    }
    if shape.unallocated.contains(stream) || (write && !shape.geom.write_allocate) {
        if DEMAND {
            count_bypass(c, write);
        }
        policy.bypass(ctx);
        return Placed::Bypassed;
    }
    let ways = if WAYS > 0 { WAYS } else { shape.ways };
    let base = set * ways;
    let (stride, meta_at, filled_at) = shape.layout::<WAYS>();
    let rec = &mut lines.recs[set * stride..][..stride];
    let valid = get_u32(rec, filled_at);
    let (way, victim) = if (valid as usize) < ways {
        put_u32(rec, filled_at, valid + 1);
        (valid as usize, None)
    } else if let Some(way) = hole::<FAST, WAYS>(shape, lines, set) {
        *lines.holes -= 1;
        (way, None)
    } else {
        match policy.victim(ctx) {
            Some(way) => {
                let m = lines.recs[set * stride + meta_at + way];
                let victim = Line {
                    block: lines.tags[base + way],
                    dirty: m & DIRTY != 0,
                    stream: owner(m),
                };
                evict::<FAST>(lines, stats, base + way, m);
                policy.evict(ctx, way);
                (way, Some(victim))
            }
            None => {
                if DEMAND {
                    count_bypass(&mut stats.per_stream[stream.index()], write);
                }
                policy.bypass(ctx);
                return Placed::Bypassed;
            }
        }
    };
    let c = &mut stats.per_stream[stream.index()];
    if DEMAND && write && !shape.write_back {
        c.write_throughs += 1;
    }
    c.fills += 1;
    let slot = base + way;
    lines.tags[slot] = block;
    let rec = &mut lines.recs[set * stride..][..stride];
    rec[meta_at + way] = meta(stream, write && shape.write_back);
    match &mut lines.index {
        Some(ix) if !FAST => {
            ix.insert(block, slot as u32);
        }
        _ => rec[way] = fingerprint(block),
    }
    policy.fill(ctx, way);
    Placed::Filled { victim }
}

/// A hole of a full `set` ([`Cache::holes`]), if the cache has any and
/// this set holds one.
#[inline(always)]
fn hole<const FAST: bool, const WAYS: usize>(
    shape: &Shape,
    lines: &Lines,
    set: usize,
) -> Option<usize> {
    if *lines.holes == 0 {
        return None;
    }
    let ways = if WAYS > 0 { WAYS } else { shape.ways };
    let tags = &lines.tags[set * ways..(set + 1) * ways];
    match &lines.index {
        Some(_) if !FAST => tags.iter().position(|&t| t == INVALID),
        _ => {
            let (stride, _, _) = shape.layout::<WAYS>();
            scan(&lines.recs[set * stride..][..ways], tags, INVALID)
        }
    }
}

/// The stream a line's meta byte names as its owner.
#[inline(always)]
fn owner(m: u8) -> Stream {
    Stream::from_id(m & !DIRTY).unwrap_or_default()
}

#[inline(always)]
pub(crate) fn count_bypass(c: &mut Counts, write: bool) {
    c.bypasses += 1;
    if write {
        c.write_throughs += 1;
    }
}

#[inline(always)]
fn evict<const FAST: bool>(lines: &mut Lines, stats: &mut Stats, slot: usize, m: u8) {
    let o = &mut stats.per_stream[(m & !DIRTY) as usize];
    o.evictions += 1;
    o.writebacks += u64::from(m >> 7);
    if !FAST {
        if let Some(ix) = &mut lines.index {
            ix.remove(&lines.tags[slot]);
        }
    }
}

mod level;
mod sixteen;

pub use level::Cursor;
pub use sixteen::Engine16;
pub(crate) use sixteen::Kernel16;
use sixteen::Parts16;
