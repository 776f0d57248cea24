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
//! ([`Throttle`]) serves every set.
//!
//! Too few sets for the duel ([`duel::shape`]; each a note, see
//! [`drrip_notes`]): with one set (a fully associative cache) there are no
//! leaders, PSEL never moves and DRRIP is exactly SRRIP; with `sets <= 2 *
//! leaders` every set leads (`sets / 2` SRRIP and as many BRRIP leaders,
//! but for the last set of an odd count), so the duel's outcome reaches
//! at most that one follower; and where leaders are more than a quarter
//! of the sets (ours: [`LEADING_SHARE_DENOMINATOR`]), most sets never
//! follow, unlike a large cache's (a SHARDS mini-cache of a large cache
//! is such a cache: `docs/src/sim.md` measures what it does to DRRIP's
//! sampled curve).
//!
//! Parameters: `bits` (1 to 8, default 2), `psel` (1 to 31, default 10),
//! `leaders` (1 to 2^20, default 32), `throttle` (1 to 2^20, default 32).
//!
//! Report: `psel`, the final counter; `fills_at_max`, the fraction of fills
//! inserted at the maximum RRPV.

use gfxcache_trace::Access;

use crate::duel::{self, Psel, Role, SetDuel};
use crate::engine::{Engine16, Kernel16};
use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env};
use crate::rrip::{FillsAtMax, Insert16, Rows16, RripPolicy, Rrpv, Throttle};
use crate::spec::Params;

pub struct Drrip {
    rrpv: Rrpv,
    duel: SetDuel,
    insert: Dueling,
}

/// DRRIP's insertion rule: the set's role in the duel ([`Psel::choose`],
/// which trains the counter), then SRRIP's or BRRIP's RRPV.
struct Dueling {
    psel: Psel,
    throttle: Throttle,
    fills: FillsAtMax,
}

impl Dueling {
    #[inline(always)]
    fn rrpv(&mut self, role: Role, max: u8) -> u8 {
        let bimodal = self.psel.choose(role);
        self.fills
            .count(self.throttle.dueling_insertion(bimodal, max), max)
    }
}

/// The parameters of DRRIP, and of the stream-aware GS-DRRIP that
/// `gfxcache-llc` derives from it: `bits` (1 to 8, default 2), `psel` (1 to
/// 31, default 10), `leaders` (1 to 2^20, default 32), `throttle` (1 to
/// 2^20, default 32).
#[derive(Clone, Copy, Debug)]
pub struct DrripParams {
    pub bits: u32,
    pub psel: u32,
    pub leaders: u32,
    pub throttle: u32,
}

impl DrripParams {
    pub fn take(p: &mut Params) -> Result<DrripParams, CacheError> {
        Ok(DrripParams {
            bits: p.take_u32("bits", 2, 1, 8)?,
            psel: p.take_u32("psel", 10, 1, 31)?,
            leaders: p.take_u32("leaders", 32, 1, 1 << 20)?,
            throttle: p.take_u32("throttle", 32, 1, 1 << 20)?,
        })
    }
}

/// What DRRIP does on `sets` sets with `leaders` leaders per policy, where
/// that is not a duel ([`duel::shape`]).
pub fn drrip_notes(sets: u32, leaders: u32) -> Vec<String> {
    let (l, followers) = duel::shape(sets, leaders);
    let fewer = if l < leaders {
        format!(", fewer than the {leaders} asked")
    } else {
        String::new()
    };
    if l == 0 {
        vec![
            "a single set (fully associative) has no leader sets: PSEL never moves and \
              every fill inserts as SRRIP's, so this runs exactly as srrip"
                .to_string(),
        ]
    } else if followers == 0 {
        vec![format!(
            "all {sets} sets are leader sets ({l} SRRIP and {l} BRRIP{fewer}): no set follows \
             PSEL, so the duel decides nothing and half the sets always run SRRIP, half BRRIP"
        )]
    } else if l < leaders {
        vec![format!(
            "{sets} sets have room for {l} leader sets per policy{fewer}: only {followers} \
             follower set applies the duel's outcome"
        )]
    } else if u64::from(2 * l) * LEADING_SHARE_DENOMINATOR > u64::from(sets) {
        vec![format!(
            "{} of {sets} sets are leader sets ({:.0}%), which always run SRRIP or BRRIP: \
             the duel's outcome reaches only {followers} follower set{}, so this cache runs \
             unlike a large one (e.g. a SHARDS mini-cache of a large cache)",
            2 * l,
            200.0 * f64::from(l) / f64::from(sets),
            if followers == 1 { "" } else { "s" }
        )]
    } else {
        Vec::new()
    }
}

/// Leader sets above one in this many of the sets make a note: ours, a
/// quarter, where a large LLC's duel (64 of 8,192 sets, under 1 %) and
/// the DRRIP paper's (64 of 2,048, 3 %) leave most sets following.
const LEADING_SHARE_DENOMINATOR: u64 = 4;

impl RripPolicy for Drrip {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Drrip, CacheError> {
        let d = DrripParams::take(p)?;
        Ok(Drrip {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, d.bits)?,
            duel: SetDuel::try_new(g.sets, d.leaders)?,
            insert: Dueling {
                psel: Psel::new(d.psel),
                throttle: Throttle::new(d.throttle),
                fills: FillsAtMax::default(),
            },
        })
    }

    fn notes(p: &mut Params, g: &Geometry) -> Result<Vec<String>, CacheError> {
        Ok(drrip_notes(g.sets, DrripParams::take(p)?.leaders))
    }

    #[inline(always)]
    fn fill_rrpv(&mut self, ctx: &Ctx, _: usize) -> u8 {
        self.insert.rrpv(self.duel.role(ctx.set), self.rrpv.max())
    }

    #[inline]
    fn run16(&mut self, engine: &mut Engine16<'_>, accesses: &[Access]) -> bool {
        engine.run(self.kernel16(), accesses)
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("psel", f64::from(self.insert.psel.value())),
            self.insert.fills.report(),
        ]
    }

    fn rrpvs(&self) -> &Rrpv {
        &self.rrpv
    }

    fn rrpvs_mut(&mut self) -> &mut Rrpv {
        &mut self.rrpv
    }
}

impl Drrip {
    /// The 16-way kernel, for sets of 16 ways.
    fn kernel16(&mut self) -> Option<Rows16<'_, Dueling16<'_>>> {
        let roles = self.duel.roles();
        let rows = self.rrpv.rows16(Dueling16 {
            roles,
            rule: &mut self.insert,
        })?;
        assert_eq!(rows.sets(), roles.len());
        Some(rows)
    }
}

/// [`Dueling`] in the 16-way kernel: the roles of the sets, as many as
/// the kernel's rows.
struct Dueling16<'a> {
    roles: &'a [Role],
    rule: &'a mut Dueling,
}

impl Insert16 for Dueling16<'_> {
    #[inline(always)]
    unsafe fn rrpv(&mut self, set: usize, max: u8) -> u8 {
        // SAFETY: the caller promises `set` below the kernel's set count,
        // which is `roles.len()` (asserted in `Drrip::kernel16`).
        let role = unsafe { *self.roles.get_unchecked(set) };
        self.rule.rrpv(role, max)
    }
}
