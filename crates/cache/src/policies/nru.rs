//! NRU (not recently used): one bit per line, i.e. 1-bit RRIP. Fills and
//! hits clear the bit; the victim is the lowest way whose bit is set, and
//! when none is, every bit of the set is set first ([`Rrpv::victim`]).

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::rrip::Rrpv;
use crate::spec::Params;

pub struct Nru {
    rrpv: Rrpv,
}

impl Policy for Nru {
    fn build(_: &mut Params, g: &Geometry, _: &Env) -> Result<Nru, CacheError> {
        Ok(Nru {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, 1),
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
        self.rrpv.set(ctx.set, way, 0);
    }
}
