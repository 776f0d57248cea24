//! SRRIP (static re-reference interval prediction, Jaleel et al. ISCA'10):
//! `bits`-bit RRPVs, fills at `2^bits - 2` ("intermediate" re-reference),
//! hits at 0, victim by [`Rrpv::victim`].
//!
//! Parameters: `bits` (1 to 8, default 2).

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::rrip::Rrpv;
use crate::spec::Params;

pub struct Srrip {
    rrpv: Rrpv,
    insert: u8,
}

impl Policy for Srrip {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Srrip, CacheError> {
        let bits = p.take_u32("bits", 2, 1, 8)?;
        let rrpv = Rrpv::new(g.sets as usize, g.ways as usize, bits);
        let insert = rrpv.max() - 1;
        Ok(Srrip { rrpv, insert })
    }

    #[inline(always)]
    fn hit(&mut self, ctx: &Ctx, way: usize) {
        self.rrpv.set(ctx.set, way, 0);
    }

    #[inline(always)]
    fn prefetch(&self, set: usize, _: u64) {
        self.rrpv.prefetch(set);
    }

    #[inline(always)]
    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        Some(self.rrpv.victim(ctx.set))
    }

    #[inline(always)]
    fn fill(&mut self, ctx: &Ctx, way: usize) {
        self.rrpv.set(ctx.set, way, self.insert);
    }
}
