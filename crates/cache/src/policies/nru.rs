//! NRU (not recently used): one bit per line, i.e. 1-bit RRIP. Fills and
//! hits clear the bit; the victim is the lowest way whose bit is set, and
//! when none is, every bit of the set is set first ([`Rrpv::victim`]).

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env};
use crate::rrip::{RripPolicy, Rrpv};
use crate::spec::Params;

pub struct Nru {
    rrpv: Rrpv,
}

impl RripPolicy for Nru {
    fn build(_: &mut Params, g: &Geometry, _: &Env) -> Result<Nru, CacheError> {
        Ok(Nru {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, 1)?,
        })
    }

    #[inline(always)]
    fn fill_rrpv(&mut self, _: &Ctx, _: usize) -> u8 {
        0
    }

    fn rrpvs(&self) -> &Rrpv {
        &self.rrpv
    }

    fn rrpvs_mut(&mut self) -> &mut Rrpv {
        &mut self.rrpv
    }
}
