//! SRRIP (static re-reference interval prediction, Jaleel et al. ISCA'10):
//! `bits`-bit RRPVs, fills at `2^bits - 2` ("intermediate" re-reference),
//! hits at 0, victim by [`Rrpv::victim`].
//!
//! Parameters: `bits` (1 to 8, default 2).

use gfxcache_trace::Access;

use crate::engine::{Engine16, Kernel16};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::rrip::{Rows16, Rrpv};
use crate::spec::Params;

pub struct Srrip {
    rrpv: Rrpv,
    insert: u8,
}

impl Policy for Srrip {
    #[inline]
    fn run16(&mut self, engine: &mut Engine16<'_>, accesses: &[Access]) -> bool {
        let Some(mut k) = self.kernel16() else {
            return false;
        };
        engine.run(&mut k, accesses);
        true
    }

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

    fn rrpv(&self, set: usize, way: usize) -> Option<(u8, u8)> {
        Some((self.rrpv.get(set, way), self.rrpv.max()))
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

impl Srrip {
    /// The 16-way kernel, for sets of 16 ways.
    pub(crate) fn kernel16(&mut self) -> Option<Srrip16<'_>> {
        let insert = self.insert;
        self.rrpv.rows16().map(|rows| Srrip16 { rows, insert })
    }
}

/// [`Srrip`] over 16-way RRPV rows.
pub(crate) struct Srrip16<'a> {
    rows: Rows16<'a>,
    insert: u8,
}

impl Kernel16 for Srrip16<'_> {
    const SEQ: bool = false;

    fn sets(&self) -> usize {
        self.rows.sets()
    }

    #[inline(always)]
    unsafe fn hit(&mut self, set: usize, way: usize, _: u64) {
        // SAFETY: the caller's promise is `Rows16`'s.
        unsafe { self.rows.hit(set, way) };
    }

    #[inline(always)]
    unsafe fn victim(&mut self, set: usize, _: u64) -> Option<usize> {
        // SAFETY: as in `hit`.
        Some(unsafe { self.rows.victim(set) })
    }

    #[inline(always)]
    unsafe fn fill(&mut self, set: usize, way: usize, _: u64) {
        // SAFETY: as in `hit`.
        unsafe { self.rows.insert(set, way, self.insert) };
    }
}
