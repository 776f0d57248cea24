//! Re-reference prediction values (RRPVs), shared by the RRIP family
//! (NRU, SRRIP, BRRIP, DRRIP, SHiP-mem and the GSPC policies).
//!
//! Victim rule, as the GSPC paper states it: the victim is the way of lowest
//! id whose RRPV is the maximum; when no way has it, every way of the set is
//! aged by one until one does.
//!
//! A policy of the family implements [`RripPolicy`]: where its [`Rrpv`]s
//! are and which RRPV a fill or a hit gives a line. The [`Policy`] methods
//! every member shares (the victim rule, writing the decided RRPV,
//! prefetching a set's RRPVs, [`Policy::rrpv`] for the reuse analyses)
//! are written once, in the generic implementation below.

use gfxcache_trace::Access;

use crate::engine::{Engine16, Kernel16};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::lanes;
use crate::policy::{Ctx, Env, Policy};
use crate::spec::Params;
use crate::way_bits::WayBits;

/// A policy of the RRIP family, by what sets it apart from the others:
/// where its RRPVs are and at which RRPV a fill inserts a line and a hit
/// leaves it. Every implementation is a [`Policy`] whose victim is
/// [`Rrpv::victim`]'s; the methods that share a name with [`Policy`]'s
/// mean the same and are what that [`Policy`] answers. All of it is
/// generic, so it is monomorphized and inlined into the engine's loop as
/// a policy written out by hand would be.
pub trait RripPolicy: Sized + Send + 'static {
    /// [`Policy::build`].
    fn build(params: &mut Params, geom: &Geometry, env: &Env) -> Result<Self, CacheError>;

    /// [`Policy::notes`].
    fn notes(_params: &mut Params, _geom: &Geometry) -> Result<Vec<String>, CacheError> {
        Ok(Vec::new())
    }

    /// The RRPVs of every line.
    fn rrpvs(&self) -> &Rrpv;

    fn rrpvs_mut(&mut self) -> &mut Rrpv;

    /// The RRPV a hit in `way` leaves its line at (with any learning the
    /// policy does on a hit): 0, "near-immediate re-reference", unless the
    /// policy says otherwise.
    #[inline(always)]
    fn hit_rrpv(&mut self, _ctx: &Ctx, _way: usize) -> u8 {
        0
    }

    /// The RRPV the block of `ctx` is inserted at in `way` (with any
    /// learning the policy does on a fill).
    fn fill_rrpv(&mut self, ctx: &Ctx, way: usize) -> u8;

    /// [`Policy::evict`].
    #[inline(always)]
    fn evict(&mut self, _ctx: &Ctx, _way: usize) {}

    /// [`Policy::prefetch`]: by default the set's RRPVs.
    #[inline(always)]
    fn prefetch(&self, set: usize, _block: u64) {
        self.rrpvs().prefetch(set);
    }

    /// [`Policy::run16`].
    #[doc(hidden)]
    #[inline]
    fn run16(&mut self, _engine: &mut Engine16<'_>, _accesses: &[Access]) -> bool {
        false
    }

    /// [`Policy::report`].
    fn report(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

impl<R: RripPolicy> Policy for R {
    fn build(params: &mut Params, geom: &Geometry, env: &Env) -> Result<R, CacheError> {
        <R as RripPolicy>::build(params, geom, env)
    }

    fn notes(params: &mut Params, geom: &Geometry) -> Result<Vec<String>, CacheError> {
        <R as RripPolicy>::notes(params, geom)
    }

    #[inline(always)]
    fn hit(&mut self, ctx: &Ctx, way: usize) {
        let v = self.hit_rrpv(ctx, way);
        self.rrpvs_mut().set(ctx.set, way, v);
    }

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        Some(self.rrpvs_mut().victim(ctx.set))
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        let v = self.fill_rrpv(ctx, way);
        self.rrpvs_mut().set(ctx.set, way, v);
    }

    #[inline(always)]
    fn evict(&mut self, ctx: &Ctx, way: usize) {
        <R as RripPolicy>::evict(self, ctx, way);
    }

    #[inline(always)]
    fn prefetch(&self, set: usize, block: u64) {
        <R as RripPolicy>::prefetch(self, set, block);
    }

    #[inline]
    fn run16(&mut self, engine: &mut Engine16<'_>, accesses: &[Access]) -> bool {
        <R as RripPolicy>::run16(self, engine, accesses)
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        <R as RripPolicy>::report(self)
    }

    fn rrpv(&self, set: usize, way: usize) -> Option<(u8, u8)> {
        let r = self.rrpvs();
        Some((r.get(set, way), r.max()))
    }
}

/// RRPVs of every line, `sets * ways`, all of `bits` bits.
///
/// Sets of up to [`SCAN_WAYS`] ways keep a byte a line and find the victim
/// by scanning the set (16 ways a compare). Larger sets (a fully
/// associative cache's one) keep their lines in tiers instead
/// ([`Tiers`]): a bitset of ways per RRPV, so that the victim is the
/// lowest way of the maximum's bitset, and aging every line of a set is
/// renaming its bitsets, whatever the associativity.
pub struct Rrpv {
    ways: usize,
    max: u8,
    /// A line's RRPV; in a tiered set, its tier ([`Tiers`]).
    values: Vec<u8>,
    tiers: Option<Tiers>,
}

/// The largest sets whose victim is found by a scan.
pub const SCAN_WAYS: usize = 64;

/// The lines of sets too large to scan, by RRPV. A set's lines of RRPV
/// `v` are the ways of tier `(v + shift) % (max + 1)`, so that aging the
/// whole set by `a` (no line passing `max`, as the victim rule ages) is
/// `shift -= a`: a line keeps its tier and its new RRPV is its tier's.
struct Tiers {
    /// `max + 1`, a power of two.
    count: usize,
    /// Per set, its shift.
    shift: Vec<u8>,
    /// Per set and tier (`set * count + tier`), that tier's ways.
    ways: Vec<WayBits>,
}

impl Tiers {
    #[inline(always)]
    fn tier(&self, set: usize, v: u8) -> usize {
        (usize::from(v) + usize::from(self.shift[set])) & (self.count - 1)
    }

    /// The ways of `set` whose RRPV is `v`.
    #[inline(always)]
    fn at(&self, set: usize, v: u8) -> &WayBits {
        &self.ways[set * self.count + self.tier(set, v)]
    }

    #[inline(always)]
    fn rrpv(&self, set: usize, tier: u8) -> u8 {
        ((usize::from(tier) + self.count - usize::from(self.shift[set])) & (self.count - 1)) as u8
    }
}

impl Rrpv {
    /// `bits` from 1 to 8; every line starts at the maximum. An error
    /// where the table does not fit in memory.
    pub fn new(sets: usize, ways: usize, bits: u32) -> Result<Rrpv, CacheError> {
        assert!((1..=8).contains(&bits), "RRPV width {bits} out of 1..=8");
        let max = ((1u32 << bits) - 1) as u8;
        let tiers = (ways > SCAN_WAYS)
            .then(|| {
                let count = usize::from(max) + 1;
                let mut all = Vec::new();
                all.try_reserve_exact(sets * count).map_err(|_| {
                    CacheError::out_of_memory::<WayBits>(sets * count, "the RRPV tiers")
                })?;
                for _ in 0..sets {
                    for tier in 0..count {
                        // Every line starts at the maximum, tier `max`.
                        all.push(if tier == usize::from(max) {
                            WayBits::full(ways)
                        } else {
                            WayBits::new(ways)
                        });
                    }
                }
                Ok(Tiers {
                    count,
                    shift: vec![0; sets],
                    ways: all,
                })
            })
            .transpose()?;
        Ok(Rrpv {
            ways,
            max,
            values: crate::table::filled(sets * ways, max, "the RRPVs")?,
            tiers,
        })
    }

    /// The largest RRPV: "re-referenced in the distant future".
    #[inline(always)]
    pub fn max(&self) -> u8 {
        self.max
    }

    #[inline(always)]
    pub fn get(&self, set: usize, way: usize) -> u8 {
        let v = self.values[set * self.ways + way];
        match &self.tiers {
            None => v,
            Some(t) => t.rrpv(set, v),
        }
    }

    #[inline(always)]
    pub fn set(&mut self, set: usize, way: usize, v: u8) {
        debug_assert!(v <= self.max);
        let slot = &mut self.values[set * self.ways + way];
        match &mut self.tiers {
            None => *slot = v,
            Some(t) => {
                let to = t.tier(set, v);
                let from = usize::from(*slot);
                if from != to {
                    t.ways[set * t.count + from].remove(way);
                    t.ways[set * t.count + to].insert(way);
                    *slot = to as u8;
                }
            }
        }
    }

    /// Prefetches the RRPVs of `set` (a hint; see [`crate::policy::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, set: usize) {
        crate::policy::prefetch(&self.values, set * self.ways);
    }

    /// The RRPVs as one 16-byte row per set, when sets have 16 ways: the
    /// 16-way kernel of an RRIP policy that inserts by `insert`.
    pub(crate) fn rows16<I: Insert16>(&mut self, insert: I) -> Option<Rows16<'_, I>> {
        let max = self.max;
        (self.ways == 16).then(|| Rows16 {
            rows: self.values.as_chunks_mut().0,
            max,
            insert,
        })
    }

    /// Ages the set until some way reaches the maximum, and returns the
    /// lowest such way.
    #[inline(always)]
    pub fn victim(&mut self, set: usize) -> usize {
        let max = self.max;
        if let Some(t) = &mut self.tiers {
            return tiered_victim(t, set, max);
        }
        let vals = &mut self.values[set * self.ways..(set + 1) * self.ways];
        // 16 ways per compare (see `lanes`).
        if let Some(way) = lanes::first_eq(vals, max) {
            return way;
        }
        let top = lanes::max(vals);
        lanes::add(vals, max - top);
        lanes::first_eq(vals, max).unwrap_or(0)
    }
}

/// [`Rrpv::victim`] of a tiered set: when no line is at `max`, the set
/// ages by `max` less its largest RRPV (a shift), then the victim is the
/// lowest way of the maximum's tier.
#[inline(never)]
fn tiered_victim(t: &mut Tiers, set: usize, max: u8) -> usize {
    if t.at(set, max).is_empty() {
        let top = (0..max)
            .rev()
            .find(|&v| !t.at(set, v).is_empty())
            .unwrap_or(max);
        let age = usize::from(max - top);
        t.shift[set] = ((usize::from(t.shift[set]) + t.count - age) & (t.count - 1)) as u8;
    }
    t.at(set, max).first().unwrap_or(0)
}

/// Fills and how many of them went in at the largest RRPV: a report's
/// `fills_at_max`, the share of fills predicted dead on arrival.
#[derive(Clone, Copy, Debug, Default)]
pub struct FillsAtMax {
    /// Fills below the largest RRPV, and at it: one increment per fill at
    /// an index, where two counters side by side would tempt the compiler
    /// into a slower vector add of both.
    counts: [u64; 2],
}

impl FillsAtMax {
    /// Counts a fill at `v` of RRPVs up to `max`, and returns `v`.
    #[inline(always)]
    pub fn count(&mut self, v: u8, max: u8) -> u8 {
        self.counts[usize::from(v == max)] += 1;
        v
    }

    /// `("fills_at_max", the share)`, 0 without fills.
    pub fn report(&self) -> (&'static str, f64) {
        let [below, at] = self.counts;
        ("fills_at_max", crate::stats::ratio(at, below + at))
    }
}

/// BRRIP's insertion throttle, as ChampSim's `bip_counter`: one counter per
/// cache, advanced on every BRRIP insertion; every `period`-th insertion
/// goes in at `max - 1` instead of `max`.
#[derive(Clone, Copy, Debug)]
pub struct Throttle {
    period: u32,
    count: u32,
}

impl Throttle {
    /// `period` >= 1 (1: every insertion at `max - 1`, i.e. SRRIP).
    pub fn new(period: u32) -> Throttle {
        assert!(period >= 1, "BRRIP throttle period must be positive");
        Throttle { period, count: 0 }
    }

    /// Counts one BRRIP insertion; `true` when this one goes in at `max - 1`.
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        self.count += 1;
        if self.count == self.period {
            self.count = 0;
            true
        } else {
            false
        }
    }

    /// The insertion RRPV of a DRRIP fill: BRRIP's (under this throttle)
    /// when `bimodal`, SRRIP's (`max - 1`) otherwise.
    #[inline(always)]
    pub fn dueling_insertion(&mut self, bimodal: bool, max: u8) -> u8 {
        if bimodal {
            self.insertion(max)
        } else {
            max - 1
        }
    }

    /// The insertion RRPV of one BRRIP fill under this throttle.
    #[inline(always)]
    pub fn insertion(&mut self, max: u8) -> u8 {
        if self.tick() {
            max - 1
        } else {
            max
        }
    }
}

/// The insertion rule of a 16-way RRIP kernel ([`Rows16`]).
pub(crate) trait Insert16 {
    /// The RRPV a fill into `set` inserts at (with any learning the
    /// policy does on a fill); `max` is the largest RRPV.
    ///
    /// # Safety
    /// `set` is below the kernel's set count.
    unsafe fn rrpv(&mut self, set: usize, max: u8) -> u8;
}

/// One RRPV for every fill (SRRIP's `max - 1`).
impl Insert16 for u8 {
    #[inline(always)]
    unsafe fn rrpv(&mut self, _: usize, _: u8) -> u8 {
        *self
    }
}

/// [`Rrpv`] of 16-way sets borrowed for one batch: the 16-way kernel
/// ([`Kernel16`]) of an RRIP policy whose insertion rule is `I`. A hit makes
/// the line's RRPV 0, and the victim rule is [`Rrpv::victim`]'s. A row is
/// written as a whole ([`crate::lanes::set16`]), as the victim search reads
/// it.
pub(crate) struct Rows16<'a, I> {
    rows: &'a mut [[u8; 16]],
    max: u8,
    insert: I,
}

impl<I: Insert16> Kernel16 for Rows16<'_, I> {
    const SEQ: bool = false;

    fn sets(&self) -> usize {
        self.rows.len()
    }

    #[inline(always)]
    unsafe fn hit(&mut self, set: usize, way: usize, _: u64) {
        // SAFETY: the caller promises `set < sets`.
        lanes::set16(unsafe { self.rows.get_unchecked_mut(set) }, way, 0);
    }

    #[inline(always)]
    unsafe fn victim(&mut self, set: usize, _: u64) -> Option<usize> {
        // SAFETY: as in `hit`.
        let row = unsafe { self.rows.get_unchecked_mut(set) };
        Some(lanes::rrip_victim16(row, self.max))
    }

    #[inline(always)]
    unsafe fn fill(&mut self, set: usize, way: usize, _: u64) {
        // SAFETY: as in `hit`; `Insert16::rrpv` asks the same.
        let v = unsafe { self.insert.rrpv(set, self.max) };
        // SAFETY: as in `hit`.
        lanes::set16(unsafe { self.rows.get_unchecked_mut(set) }, way, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The victim rule as the paper states it, on a byte a line.
    fn reference_victim(vals: &mut [u8], max: u8) -> usize {
        while !vals.contains(&max) {
            for v in vals.iter_mut() {
                *v += 1;
            }
        }
        vals.iter().position(|&v| v == max).unwrap()
    }

    proptest! {
        /// Sets too large to scan (tiered) and small ones (scanned) give
        /// every line the RRPV, and every set the victim, of the rule.
        #[test]
        fn every_set_follows_the_papers_victim_rule(
            ways in prop_oneof![1usize..=64, 65usize..3000],
            sets in 1usize..3,
            bits in prop_oneof![1u32..=3, Just(8u32)],
            ops in prop::collection::vec((any::<bool>(), any::<usize>(), any::<usize>(), any::<u8>()), 1..300),
        ) {
            let mut r = Rrpv::new(sets, ways, bits).unwrap();
            prop_assert_eq!(r.tiers.is_some(), ways > SCAN_WAYS);
            let max = r.max();
            let mut reference = vec![vec![max; ways]; sets];
            for (victim, set, way, v) in ops {
                let (set, way) = (set % sets, way % ways);
                if victim {
                    let want = reference_victim(&mut reference[set], max);
                    prop_assert_eq!(r.victim(set), want);
                } else {
                    let v = (u16::from(v) % (u16::from(max) + 1)) as u8;
                    r.set(set, way, v);
                    reference[set][way] = v;
                }
                for (s, vals) in reference.iter().enumerate() {
                    for (w, &v) in vals.iter().enumerate() {
                        prop_assert_eq!(r.get(s, w), v, "set {} way {}", s, w);
                    }
                }
            }
        }
    }
}
