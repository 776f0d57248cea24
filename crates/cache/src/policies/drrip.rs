//! DRRIP (dynamic RRIP, Jaleel et al. ISCA'10): set dueling between SRRIP
//! and BRRIP.
//!
//! `leaders` sets per policy ([`SetDuel`]) always run SRRIP or BRRIP; a fill
//! (a miss that allocates) in an SRRIP leader increments the `psel`-bit
//! counter, a fill in a BRRIP leader decrements it, both saturating
//! ([`Psel`]). Follower sets insert as BRRIP when the counter's MSB is set,
//! as SRRIP otherwise; the counter starts at `2^(psel-1) - 1`, so SRRIP is
//! the first choice. Misses the engine does not allocate (`+ucd`,
//! no-write-allocate) do not move the counter. One BRRIP throttle counter
//! ([`Throttle`]) serves every set. With fewer than two sets there are no
//! leaders and DRRIP is plain SRRIP.
//!
//! Parameters: `bits` (1 to 8, default 2), `psel` (1 to 31, default 10),
//! `leaders` (1 to 2^20, default 32), `throttle` (1 to 2^20, default 32).
//!
//! Report: `psel`, the final counter; `fills_at_max`, the fraction of fills
//! inserted at the maximum RRPV.

use gfxcache_trace::Access;

use crate::duel::{Psel, Role, SetDuel};
use crate::engine::{Engine16, Kernel16};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::rrip::{Rows16, Rrpv, Throttle};
use crate::spec::Params;

use crate::stats::ratio;

pub struct Drrip {
    rrpv: Rrpv,
    duel: SetDuel,
    psel: Psel,
    throttle: Throttle,
    fills: u64,
    fills_at_max: u64,
}

impl Policy for Drrip {
    #[inline]
    fn run16(&mut self, engine: &mut Engine16<'_>, accesses: &[Access]) -> bool {
        let Some(mut k) = self.kernel16() else {
            return false;
        };
        engine.run(&mut k, accesses);
        true
    }

    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Drrip, CacheError> {
        let bits = p.take_u32("bits", 2, 1, 8)?;
        let psel = p.take_u32("psel", 10, 1, 31)?;
        let leaders = p.take_u32("leaders", 32, 1, 1 << 20)?;
        let throttle = p.take_u32("throttle", 32, 1, 1 << 20)?;
        Ok(Drrip {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, bits),
            duel: SetDuel::new(g.sets, leaders),
            psel: Psel::new(psel),
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
        let bimodal = self.psel.choose(self.duel.role(ctx.set));
        let max = self.rrpv.max();
        let v = self.throttle.dueling_insertion(bimodal, max);
        self.fills += 1;
        self.fills_at_max += u64::from(v == max);
        self.rrpv.set(ctx.set, way, v);
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("psel", f64::from(self.psel.value())),
            ("fills_at_max", ratio(self.fills_at_max, self.fills)),
        ]
    }
}

impl Drrip {
    /// The 16-way kernel, for sets of 16 ways.
    pub(crate) fn kernel16(&mut self) -> Option<Drrip16<'_>> {
        let rows = self.rrpv.rows16()?;
        let roles = self.duel.roles();
        assert_eq!(rows.sets(), roles.len());
        Some(Drrip16 {
            rows,
            roles,
            psel: &mut self.psel,
            throttle: &mut self.throttle,
            fills: &mut self.fills,
            fills_at_max: &mut self.fills_at_max,
        })
    }
}

/// [`Drrip`] over 16-way RRPV rows.
pub(crate) struct Drrip16<'a> {
    rows: Rows16<'a>,
    /// As long as `rows`.
    roles: &'a [Role],
    psel: &'a mut Psel,
    throttle: &'a mut Throttle,
    fills: &'a mut u64,
    fills_at_max: &'a mut u64,
}

impl Kernel16 for Drrip16<'_> {
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
        // SAFETY: as in `hit` (`roles` is as long as `rows`).
        let role = unsafe { *self.roles.get_unchecked(set) };
        let bimodal = self.psel.choose(role);
        let max = self.rows.max();
        let v = self.throttle.dueling_insertion(bimodal, max);
        *self.fills += 1;
        *self.fills_at_max += u64::from(v == max);
        // SAFETY: as in `hit`.
        unsafe { self.rows.insert(set, way, v) };
    }
}
