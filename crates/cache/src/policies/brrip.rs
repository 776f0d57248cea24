//! BRRIP (bimodal RRIP, Jaleel et al. ISCA'10): fills at `2^bits - 1`
//! ("distant" re-reference) except every `throttle`-th fill, which goes in at
//! `2^bits - 2`; hits at 0; victim by [`crate::rrip::Rrpv::victim`]. The
//! throttle is one deterministic counter per cache, as ChampSim's
//! `bip_counter` ([`Throttle`]).
//!
//! Parameters: `bits` (1 to 8, default 2), `throttle` (1 to 2^20, default 32).

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env};
use crate::rrip::{FillsAtMax, RripPolicy, Rrpv, Throttle};
use crate::spec::Params;

pub struct Brrip {
    rrpv: Rrpv,
    throttle: Throttle,
    fills: FillsAtMax,
}

impl RripPolicy for Brrip {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Brrip, CacheError> {
        let bits = p.take_u32("bits", 2, 1, 8)?;
        let throttle = p.take_u32("throttle", 32, 1, 1 << 20)?;
        Ok(Brrip {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, bits)?,
            throttle: Throttle::new(throttle),
            fills: FillsAtMax::default(),
        })
    }

    #[inline(always)]
    fn fill_rrpv(&mut self, _: &Ctx, _: usize) -> u8 {
        let max = self.rrpv.max();
        self.fills.count(self.throttle.insertion(max), max)
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
