//! SHiP-mem (signature-based hit prediction with memory-region signatures,
//! Wu et al. MICRO'11), as the GSPC paper (Gaur et al. MICRO'13, section 5)
//! evaluates it.
//!
//! The address space is cut into 16 KB regions; a block's signature is its
//! region id, byte-address bits `[27:14]`, which index a 16K-entry table of
//! `bits`-bit saturating counters, one table per LLC bank ([`Ctx::bank`]).
//! Each line remembers the signature it was filled with and whether it has
//! been hit since. A hit increments its signature's counter and sets the
//! line's RRPV to 0; a line evicted without a hit since its fill decrements
//! its signature's counter; a fill goes in at RRPV 3 when its signature's
//! counter is 0 and at RRPV 2 otherwise. RRPVs are 2 bits, victims by
//! [`Rrpv::victim`]. On a miss into a full set the eviction's training
//! happens before the fill reads the table.
//!
//! Parameters: `bits` (1 to 8, default 3), `init` (0 to `2^bits - 1`,
//! default 1), the counters' starting value. The default 1 makes an
//! untrained region "possibly reused": its fills go in at RRPV 2, so an
//! untrained predictor behaves exactly as SRRIP, and one dead eviction is
//! enough to mark a streaming region as dead (RRPV 3). Starting at 0 would
//! insert every block of every new region at distant RRPV until one of its
//! blocks happened to be hit, a BRRIP without throttle that cannot learn
//! the reuse it prevents.
//!
//! Report: `fills_at_max`, the fraction of fills inserted at RRPV 3.

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env};
use crate::rrip::{FillsAtMax, RripPolicy, Rrpv};
use crate::spec::Params;
use crate::table;

/// Entries per bank's table: one per 14-bit signature.
pub const TABLE: usize = 1 << 14;
/// Region size: 16 KB.
pub const REGION_BITS: u32 = 14;
/// Line flag: hit since its fill. The low 14 bits hold the signature.
const REUSED: u16 = 1 << 15;

/// The signature of a block: bits `[27:14]` of its byte address.
#[inline(always)]
pub fn signature(block: u64, block_shift: u32) -> u16 {
    ((block << block_shift >> REGION_BITS) as usize & (TABLE - 1)) as u16
}

pub struct ShipMem {
    rrpv: Rrpv,
    ways: usize,
    shift: u32,
    /// `banks - 1` when the bank count is a power of two (for prefetching
    /// only; [`Ctx::bank`] is the bank).
    bank_mask: usize,
    /// Counters, `banks * TABLE`.
    shct: Vec<u8>,
    max: u8,
    /// Per line: signature | REUSED.
    line: Vec<u16>,
    fills: FillsAtMax,
}

impl ShipMem {
    #[inline(always)]
    fn counter(&mut self, bank: usize, sig: u16) -> &mut u8 {
        &mut self.shct[bank * TABLE + sig as usize]
    }
}

impl RripPolicy for ShipMem {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<ShipMem, CacheError> {
        let bits = p.take_u32("bits", 3, 1, 8)?;
        let max = ((1u32 << bits) - 1) as u8;
        let init = p.take_u32("init", 1, 0, max.into())? as u8;
        Ok(ShipMem {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, 2)?,
            ways: g.ways as usize,
            shift: g.block_shift(),
            bank_mask: if g.banks.is_power_of_two() {
                g.banks as usize - 1
            } else {
                0
            },
            shct: table::filled(g.banks as usize * TABLE, init, "SHiP's counters")?,
            max,
            line: table::zeroed(g.blocks(), "SHiP's signatures per line")?,
            fills: FillsAtMax::default(),
        })
    }

    #[inline(always)]
    fn hit_rrpv(&mut self, ctx: &Ctx, way: usize) -> u8 {
        self.line[ctx.set * self.ways + way] |= REUSED;
        // The line holds this very block, so its stored signature is the
        // block's: no need to wait for the line's to load.
        let max = self.max;
        let c = self.counter(ctx.bank, signature(ctx.block, self.shift));
        *c += u8::from(*c < max);
        0
    }

    #[inline(always)]
    fn prefetch(&self, set: usize, block: u64) {
        self.rrpv.prefetch(set);
        crate::policy::prefetch(&self.line, set * self.ways);
        let bank = set & self.bank_mask;
        crate::policy::prefetch(
            &self.shct,
            bank * TABLE + signature(block, self.shift) as usize,
        );
    }

    #[inline(always)]
    fn evict(&mut self, ctx: &Ctx, way: usize) {
        let l = self.line[ctx.set * self.ways + way];
        // Branch-free: whether the line was reused is anyone's guess.
        let c = self.counter(ctx.bank, l & !REUSED);
        *c -= u8::from(l & REUSED == 0 && *c > 0);
    }

    #[inline(always)]
    fn fill_rrpv(&mut self, ctx: &Ctx, way: usize) -> u8 {
        let sig = signature(ctx.block, self.shift);
        self.line[ctx.set * self.ways + way] = sig;
        let dead = *self.counter(ctx.bank, sig) == 0;
        self.fills.count(if dead { 3 } else { 2 }, 3)
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        vec![self.fills.report()]
    }

    fn rrpvs(&self) -> &Rrpv {
        &self.rrpv
    }

    fn rrpvs_mut(&mut self) -> &mut Rrpv {
        &mut self.rrpv
    }
}
