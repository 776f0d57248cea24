//! GSPZTC+TSE, GSPZTC with texture sampler epochs (GSPC paper, Section 3,
//! Table 4, Figure 10), and the implementation GSPC shares
//! ([`super::gspc`]): one generic [`Epochs`], `Epochs<false>` here and
//! `Epochs<true>` there.
//!
//! Two state bits per line ([`State`]) replace GSPZTC's RT bit: 00 = E0,
//! 01 = E1, 10 = E>=2, 11 = render target. "When a texture sampler access
//! gets satisfied by a render target block in the LLC, its state changes
//! from 11 to 00. Also, when a texture sampler access misses the LLC, the
//! newly filled block is installed with state 00. Every subsequent texture
//! sampler hit to such a block increases the state by one ... until the
//! state reaches 10." A render-target fill or hit puts any line in 11 (a
//! render target reused to produce a new one).
//!
//! Lines filled by Z or other streams are no texture block in any epoch;
//! they start in 10 (E>=2), the state whose texture hits move no counter
//! and get RRPV 0 (Table 4's last "else"). So a depth buffer later sampled
//! as a shadow map gets Table 3's plain "hit -> RRPV 0" and does not
//! disturb what the samples learn about texture epochs. Two bits have no
//! fifth value for "none", and 10 is the neutral one. Z and other hits
//! leave the state alone.
//!
//! Sample sets ([`crate::samples`]) run two-bit SRRIP (fill 2, hit 0) and
//! learn ([`crate::counters`]; every row also does ACC(ALL)++):
//!
//! | event | state, counters |
//! |---|---|
//! | Z fill / Z hit | 10 / unchanged; FILL(Z)++ / HIT(Z)++ |
//! | other fill / hit | 10 / unchanged |
//! | RT fill | 11 (GSPC: PROD++) |
//! | RT hit | 11 |
//! | TEX fill | 00, FILL(0)++ |
//! | RT -> TEX hit (state 11) | 00, FILL(0)++ (GSPC: CONS++) |
//! | TEX hit in 00 | 01, HIT(0)++, FILL(1)++ |
//! | TEX hit in 01 | 10, HIT(1)++ |
//! | TEX hit in 10 | 10 |
//!
//! Non-sample sets:
//!
//! | event | RRPV, state |
//! |---|---|
//! | Z fill | (FILL(Z) > t.HIT(Z)) ? 3 : 2, 10 |
//! | other fill | 2, 10 |
//! | RT fill | 0 (GSPC: [`super::gspc`]'s PROD/CONS rule), 11 |
//! | RT hit | 0, 11 |
//! | TEX fill | (FILL(0) > t.HIT(0)) ? 3 : 0, 00 |
//! | RT -> TEX hit | (FILL(0) > t.HIT(0)) ? 3 : 0, 00 |
//! | TEX hit in 00 | (FILL(1) > t.HIT(1)) ? 3 : 0, 01 |
//! | TEX hit in 01 or 10 | 0, 10 |
//! | Z or other hit | 0, unchanged |
//!
//! Victims: [`Rrpv::victim`] everywhere. RRPVs are two bits: there is no
//! `bits` parameter.
//!
//! Parameters: `t` (1 to 1024, default 8), `counter-bits` (1 to 16, default
//! 8), `acc-bits` (1 to 16, default 7); GSPC adds `rt-hi` and `rt-lo`.
//!
//! Report: `fill_z`, `hit_z`, `fill_0`, `hit_0`, `fill_1`, `hit_1` (GSPC:
//! `prod`, `cons`), summed over banks; `z_fills_at_max`,
//! `tex_fills_at_max`, `rt_fills_at_max` (fractions of fills at RRPV 3);
//! `rt_to_tex_hits`.

use gfxcache_cache::rrip::{RripPolicy, Rrpv};
use gfxcache_cache::table;
use gfxcache_cache::{CacheError, Ctx, Env, Geometry, Params};

use crate::class::Class;
use crate::counters::{BankCounters, Counter, Learning, Rule, Thresholds};
use crate::samples;

/// The two state bits of a line (Figure 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum State {
    /// 00: a texture block before its first texture hit.
    E0 = 0b00,
    /// 01: after one texture hit.
    E1 = 0b01,
    /// 10: after two or more texture hits; also Z and other lines.
    E2 = 0b10,
    /// 11: a render target block.
    Rt = 0b11,
}

/// GSPZTC+TSE.
pub type GspztcTse = Epochs<false>;

/// GSPZTC+TSE (`GSPC == false`) or GSPC (`GSPC == true`): the same tables,
/// with GSPC's PROD/CONS learning and render-target fill rule on top.
pub struct Epochs<const GSPC: bool> {
    rrpv: Rrpv,
    state: Vec<State>,
    ways: usize,
    learning: Learning,
}

impl<const GSPC: bool> Epochs<GSPC> {
    /// The counters of `bank`.
    pub fn counters(&self, bank: usize) -> &BankCounters {
        self.learning.counters().bank(bank)
    }

    /// The state bits of `way` of `set`.
    pub fn state(&self, set: usize, way: usize) -> State {
        self.state[set * self.ways + way]
    }

    /// The thresholds in force (`t`, and for GSPC `rt-hi`, `rt-lo`).
    pub fn thresholds(&self) -> Thresholds {
        self.learning.thresholds()
    }
}

/// Table 4's non-sample rule for a texture block entering E0.
const ENTER_E0: Rule = Rule::Learned {
    fill: Counter::Fill0,
    hit: Counter::Hit0,
    otherwise: 0,
};

/// Table 4's non-sample rule for a texture block entering E1.
const ENTER_E1: Rule = Rule::Learned {
    fill: Counter::Fill1,
    hit: Counter::Hit1,
    otherwise: 0,
};

impl<const GSPC: bool> RripPolicy for Epochs<GSPC> {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Self, CacheError> {
        let learning = Learning::take(p, g, GSPC)?;
        let n = g.sets as usize * g.ways as usize;
        Ok(Epochs {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, 2)?,
            state: table::filled(n, State::E2, "the state bits")?,
            ways: g.ways as usize,
            learning,
        })
    }

    fn notes(_: &mut Params, g: &Geometry) -> Result<Vec<String>, CacheError> {
        let table = if GSPC { "Table 5" } else { "Table 4" };
        Ok(samples::notes(g.sets, g.banks, table))
    }

    #[inline]
    fn hit_rrpv(&mut self, ctx: &Ctx, way: usize) -> u8 {
        let slot = ctx.set * self.ways + way;
        let old = self.state[slot];
        let (state, events, rule): (State, &[Counter], Rule) = match Class::of(ctx.stream) {
            Class::Z => (old, &[Counter::HitZ], Rule::Fixed(0)),
            Class::Other => (old, &[], Rule::Fixed(0)),
            // Blending, or a texture/Z/other line reused as a render target.
            Class::Rt => (State::Rt, &[], Rule::Fixed(0)),
            Class::Tex => match old {
                State::Rt => {
                    self.learning.consumed();
                    let events: &[Counter] = if GSPC {
                        &[Counter::Fill0, Counter::Cons]
                    } else {
                        &[Counter::Fill0]
                    };
                    (State::E0, events, ENTER_E0)
                }
                State::E0 => (State::E1, &[Counter::Hit0, Counter::Fill1], ENTER_E1),
                State::E1 => (State::E2, &[Counter::Hit1], Rule::Fixed(0)),
                State::E2 => (State::E2, &[], Rule::Fixed(0)),
            },
        };
        let v = self.learning.rrpv(ctx, events, rule, 0);
        self.state[slot] = state;
        v
    }

    #[inline]
    fn fill_rrpv(&mut self, ctx: &Ctx, way: usize) -> u8 {
        let class = Class::of(ctx.stream);
        let (state, events, rule): (State, &[Counter], Rule) = match class {
            Class::Z => (
                State::E2,
                &[Counter::FillZ],
                Rule::Learned {
                    fill: Counter::FillZ,
                    hit: Counter::HitZ,
                    otherwise: 2,
                },
            ),
            Class::Other => (State::E2, &[], Rule::Fixed(2)),
            Class::Tex => (State::E0, &[Counter::Fill0], ENTER_E0),
            Class::Rt if GSPC => (State::Rt, &[Counter::Prod], Rule::ProdCons),
            Class::Rt => (State::Rt, &[], Rule::Fixed(0)),
        };
        self.state[ctx.set * self.ways + way] = state;
        self.learning.fill(ctx, class, events, rule)
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        let mut sums = vec![
            ("fill_z", Counter::FillZ),
            ("hit_z", Counter::HitZ),
            ("fill_0", Counter::Fill0),
            ("hit_0", Counter::Hit0),
            ("fill_1", Counter::Fill1),
            ("hit_1", Counter::Hit1),
        ];
        if GSPC {
            sums.extend([("prod", Counter::Prod), ("cons", Counter::Cons)]);
        }
        self.learning.report(&sums)
    }

    fn rrpvs(&self) -> &Rrpv {
        &self.rrpv
    }

    fn rrpvs_mut(&mut self) -> &mut Rrpv {
        &mut self.rrpv
    }
}
