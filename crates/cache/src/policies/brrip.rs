//! BRRIP (bimodal RRIP, Jaleel et al. ISCA'10): fills at `2^bits - 1`
//! ("distant" re-reference) except every `throttle`-th fill, which goes in at
//! `2^bits - 2`; hits at 0; victim by [`crate::rrip::Rrpv::victim`]. The
//! throttle is one deterministic counter per cache, as ChampSim's
//! `bip_counter` ([`Throttle`]).
//!
//! Parameters: `bits` (1 to 8, default 2), `throttle` (1 to 2^20, default 32).

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::rrip::{Rrpv, Throttle};
use crate::spec::Params;
use crate::stats::ratio;

pub struct Brrip {
    rrpv: Rrpv,
    throttle: Throttle,
    fills: u64,
    fills_at_max: u64,
}

impl Policy for Brrip {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Brrip, CacheError> {
        let bits = p.take_u32("bits", 2, 1, 8)?;
        let throttle = p.take_u32("throttle", 32, 1, 1 << 20)?;
        Ok(Brrip {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, bits),
            throttle: Throttle::new(throttle),
            fills: 0,
            fills_at_max: 0,
        })
    }

    #[inline(always)]
    fn hit(&mut self, ctx: &Ctx, way: usize) {
        self.rrpv.set(ctx.set, way, 0);
    }

    #[inline(always)]
    fn prefetch(&self, set: usize, _: u64) {
        self.rrpv.prefetch(set);
    }

    fn rrpv(&self, set: usize, way: usize) -> Option<(u8, u8)> {
        Some((self.rrpv.get(set, way), self.rrpv.max()))
    }

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        Some(self.rrpv.victim(ctx.set))
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        let max = self.rrpv.max();
        let v = self.throttle.insertion(max);
        self.fills += 1;
        self.fills_at_max += u64::from(v == max);
        self.rrpv.set(ctx.set, way, v);
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        vec![("fills_at_max", ratio(self.fills_at_max, self.fills))]
    }
}
