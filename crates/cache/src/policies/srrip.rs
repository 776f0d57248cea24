//! SRRIP (static re-reference interval prediction, Jaleel et al. ISCA'10):
//! `bits`-bit RRPVs, fills at `2^bits - 2` ("intermediate" re-reference),
//! hits at 0, victim by [`Rrpv::victim`].
//!
//! Parameters: `bits` (1 to 8, default 2).

use gfxcache_trace::Access;

use crate::engine::Engine16;
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env};
use crate::rrip::{Rows16, RripPolicy, Rrpv};
use crate::spec::Params;

pub struct Srrip {
    rrpv: Rrpv,
    insert: u8,
}

impl RripPolicy for Srrip {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Srrip, CacheError> {
        let bits = p.take_u32("bits", 2, 1, 8)?;
        let rrpv = Rrpv::new(g.sets as usize, g.ways as usize, bits)?;
        let insert = rrpv.max() - 1;
        Ok(Srrip { rrpv, insert })
    }

    #[inline(always)]
    fn fill_rrpv(&mut self, _: &Ctx, _: usize) -> u8 {
        self.insert
    }

    #[inline]
    fn run16(&mut self, engine: &mut Engine16<'_>, accesses: &[Access]) -> bool {
        engine.run(self.kernel16(), accesses)
    }

    fn rrpvs(&self) -> &Rrpv {
        &self.rrpv
    }

    fn rrpvs_mut(&mut self) -> &mut Rrpv {
        &mut self.rrpv
    }
}

impl Srrip {
    /// The 16-way kernel, for sets of 16 ways.
    fn kernel16(&mut self) -> Option<Rows16<'_, u8>> {
        self.rrpv.rows16(self.insert)
    }
}
