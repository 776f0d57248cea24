//! Re-reference prediction values (RRPVs), shared by the RRIP family
//! (NRU, SRRIP, BRRIP, DRRIP, SHiP-mem and the GSPC policies).
//!
//! Victim rule, as the GSPC paper states it: the victim is the way of lowest
//! id whose RRPV is the maximum; when no way has it, every way of the set is
//! aged by one until one does.

use crate::lanes;

/// RRPVs of every line, `sets * ways`, all of `bits` bits.
pub struct Rrpv {
    ways: usize,
    max: u8,
    values: Vec<u8>,
}

impl Rrpv {
    /// `bits` from 1 to 8.
    pub fn new(sets: usize, ways: usize, bits: u32) -> Rrpv {
        assert!((1..=8).contains(&bits), "RRPV width {bits} out of 1..=8");
        let max = ((1u32 << bits) - 1) as u8;
        Rrpv {
            ways,
            max,
            values: vec![max; sets * ways],
        }
    }

    /// The largest RRPV: "re-referenced in the distant future".
    #[inline(always)]
    pub fn max(&self) -> u8 {
        self.max
    }

    #[inline(always)]
    pub fn get(&self, set: usize, way: usize) -> u8 {
        self.values[set * self.ways + way]
    }

    #[inline(always)]
    pub fn set(&mut self, set: usize, way: usize, v: u8) {
        debug_assert!(v <= self.max);
        self.values[set * self.ways + way] = v;
    }

    /// Prefetches the RRPVs of `set` (a hint; see [`crate::policy::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, set: usize) {
        crate::policy::prefetch(&self.values, set * self.ways);
    }

    /// The RRPVs as one 16-byte row per set, when sets have 16 ways: what
    /// the 16-way kernels of the RRIP family work on.
    pub(crate) fn rows16(&mut self) -> Option<Rows16<'_>> {
        let max = self.max;
        (self.ways == 16).then(|| Rows16 {
            rows: self.values.as_chunks_mut().0,
            max,
        })
    }

    /// The RRPVs of one set.
    pub fn of_set(&self, set: usize) -> &[u8] {
        &self.values[set * self.ways..(set + 1) * self.ways]
    }

    /// Ages the set until some way reaches the maximum, and returns the
    /// lowest such way.
    #[inline(always)]
    pub fn victim(&mut self, set: usize) -> usize {
        let max = self.max;
        let vals = &mut self.values[set * self.ways..(set + 1) * self.ways];
        if vals.len() <= 64 {
            // 16 ways per compare (see `lanes`).
            if let Some(way) = lanes::first_eq(vals, max) {
                return way;
            }
            let top = lanes::max(vals);
            lanes::add(vals, max - top);
            return lanes::first_eq(vals, max).unwrap_or(0);
        }
        let top = vals.iter().copied().max().unwrap_or(max);
        if top < max {
            let age = max - top;
            for v in vals.iter_mut() {
                *v += age;
            }
        }
        vals.iter().position(|&v| v == max).unwrap_or(0)
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

/// [`Rrpv`] of 16-way sets borrowed for one batch, with the RRIP rules every
/// 16-way kernel of the family shares: a hit makes the line's RRPV 0, and
/// the victim rule is [`Rrpv::victim`]'s. Kernels add their insertion rule.
/// A row is written as a whole ([`crate::lanes::set16`]), as the victim
/// search reads it.
pub(crate) struct Rows16<'a> {
    rows: &'a mut [[u8; 16]],
    max: u8,
}

impl Rows16<'_> {
    pub(crate) fn sets(&self) -> usize {
        self.rows.len()
    }

    pub(crate) fn max(&self) -> u8 {
        self.max
    }

    /// # Safety
    /// `set < self.sets()` and `way < 16`.
    #[inline(always)]
    pub(crate) unsafe fn hit(&mut self, set: usize, way: usize) {
        // SAFETY: the caller promises `set < sets`.
        crate::lanes::set16(unsafe { self.rows.get_unchecked_mut(set) }, way, 0);
    }

    /// # Safety
    /// `set < self.sets()`.
    #[inline(always)]
    pub(crate) unsafe fn victim(&mut self, set: usize) -> usize {
        // SAFETY: the caller promises `set < sets`.
        crate::lanes::rrip_victim16(unsafe { self.rows.get_unchecked_mut(set) }, self.max)
    }

    /// # Safety
    /// `set < self.sets()` and `way < 16`.
    #[inline(always)]
    pub(crate) unsafe fn insert(&mut self, set: usize, way: usize, v: u8) {
        // SAFETY: the caller promises `set < sets`.
        crate::lanes::set16(unsafe { self.rows.get_unchecked_mut(set) }, way, v);
    }
}
