//! GSPZTC, graphics stream-aware probabilistic Z and texture caching (GSPC
//! paper, Section 3, Table 3).
//!
//! "Each LLC block is assumed to have an RT bit to identify the render
//! target blocks. This bit is set on a render target access or fill and
//! reset on a texture sampler consumption or LLC eviction." Here a fill by
//! any other stream starts the line with the bit clear.
//!
//! Sample sets ([`crate::samples`]) run two-bit SRRIP and learn, per bank
//! ([`crate::counters`]):
//!
//! | event | action |
//! |---|---|
//! | Z fill | RRPV 2, FILL(Z)++, ACC(ALL)++ |
//! | Z hit | RRPV 0, HIT(Z)++, ACC(ALL)++ |
//! | TEX fill | RRPV 2, FILL(TEX)++, ACC(ALL)++ |
//! | RT -> TEX hit (RT bit set; clears it) | RRPV 0, FILL(TEX)++, ACC(ALL)++ |
//! | TEX hit (RT bit clear) | RRPV 0, HIT(TEX)++, ACC(ALL)++ |
//! | other fill (RT included; RT sets the bit) | RRPV 2, ACC(ALL)++ |
//! | other hit (RT included; RT sets the bit) | RRPV 0, ACC(ALL)++ |
//!
//! Non-sample sets:
//!
//! | event | action |
//! |---|---|
//! | Z fill | RRPV (FILL(Z) > t.HIT(Z)) ? 3 : 2 |
//! | TEX fill | RRPV (FILL(TEX) > t.HIT(TEX)) ? 3 : 0 |
//! | RT fill | RRPV 0 |
//! | other fill | RRPV 2 |
//! | any hit | RRPV 0 (RT hits set the RT bit, TEX hits clear it) |
//!
//! Streams are classed by [`crate::class`] (`display` is a render target).
//! The victim is the lowest way with RRPV 3, ageing the set until one has
//! it ([`Rrpv::victim`]), in samples and non-samples alike. RRPVs are two
//! bits: there is no `bits` parameter.
//!
//! Parameters: `t` (1 to 1024, default 8), `counter-bits` (1 to 16, default
//! 8), `acc-bits` (1 to 16, default 7).
//!
//! Report: `fill_z`, `hit_z`, `fill_tex`, `hit_tex` (summed over banks);
//! `z_fills_at_max`, `tex_fills_at_max`, `rt_fills_at_max` (fractions of
//! fills at RRPV 3); `rt_to_tex_hits`.

use gfxcache_cache::rrip::{RripPolicy, Rrpv};
use gfxcache_cache::table;
use gfxcache_cache::{CacheError, Ctx, Env, Geometry, Params};

use crate::class::Class;
use crate::counters::{BankCounters, Counter, Learning, Rule};
use crate::samples;

pub struct Gspztc {
    rrpv: Rrpv,
    /// The RT bit of every line, `sets * ways`.
    rt: Vec<bool>,
    ways: usize,
    learning: Learning,
}

impl Gspztc {
    /// The counters of `bank`.
    pub fn counters(&self, bank: usize) -> &BankCounters {
        self.learning.counters().bank(bank)
    }

    /// The RT bit of `way` of `set`.
    pub fn rt_bit(&self, set: usize, way: usize) -> bool {
        self.rt[set * self.ways + way]
    }
}

impl RripPolicy for Gspztc {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Gspztc, CacheError> {
        let learning = Learning::take(p, g, false)?;
        let n = g.sets as usize * g.ways as usize;
        Ok(Gspztc {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, 2)?,
            rt: table::filled(n, false, "the RT bits")?,
            ways: g.ways as usize,
            learning,
        })
    }

    fn notes(_: &mut Params, g: &Geometry) -> Result<Vec<String>, CacheError> {
        Ok(samples::notes(g.sets, g.banks, "Table 3"))
    }

    #[inline]
    fn hit_rrpv(&mut self, ctx: &Ctx, way: usize) -> u8 {
        let slot = ctx.set * self.ways + way;
        let events: &[Counter] = match Class::of(ctx.stream) {
            Class::Z => &[Counter::HitZ],
            Class::Tex if self.rt[slot] => {
                // Render target consumed by the sampler: it is a texture now.
                self.rt[slot] = false;
                self.learning.consumed();
                &[Counter::FILL_TEX]
            }
            Class::Tex => &[Counter::HIT_TEX],
            Class::Rt => {
                self.rt[slot] = true;
                &[]
            }
            Class::Other => &[],
        };
        // "On a hit, the RRPV of the block is updated to zero irrespective
        // of the stream", in samples (SRRIP) and non-samples alike.
        self.learning.rrpv(ctx, events, Rule::Fixed(0), 0)
    }

    #[inline]
    fn fill_rrpv(&mut self, ctx: &Ctx, way: usize) -> u8 {
        let class = Class::of(ctx.stream);
        let (events, rule): (&[Counter], Rule) = match class {
            Class::Z => (
                &[Counter::FillZ],
                Rule::Learned {
                    fill: Counter::FillZ,
                    hit: Counter::HitZ,
                    otherwise: 2,
                },
            ),
            Class::Tex => (
                &[Counter::FILL_TEX],
                Rule::Learned {
                    fill: Counter::FILL_TEX,
                    hit: Counter::HIT_TEX,
                    otherwise: 0,
                },
            ),
            // Highest protection, so that render targets can be consumed
            // as textures through the LLC.
            Class::Rt => (&[], Rule::Fixed(0)),
            Class::Other => (&[], Rule::Fixed(2)),
        };
        self.rt[ctx.set * self.ways + way] = class == Class::Rt;
        self.learning.fill(ctx, class, events, rule)
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        self.learning.report(&[
            ("fill_z", Counter::FillZ),
            ("hit_z", Counter::HitZ),
            ("fill_tex", Counter::FILL_TEX),
            ("hit_tex", Counter::HIT_TEX),
        ])
    }

    fn rrpvs(&self) -> &Rrpv {
        &self.rrpv
    }

    fn rrpvs_mut(&mut self) -> &mut Rrpv {
        &mut self.rrpv
    }
}
