//! The learning counters of GSPZTC, GSPZTC+TSE and GSPC, one group per LLC
//! bank (`Ctx::bank`, i.e. `set % banks`).
//!
//! "We associate four eight-bit saturating counters with each LLC bank ...
//! There is a separate seven-bit counter ACC(ALL) that counts all accesses
//! to the samples. Whenever this counter saturates, the FILL and HIT
//! counters ... are halved and the ACC(ALL) counter is reset." GSPC halves
//! PROD and CONS with them.
//!
//! The counters ([`Counter`]): FILL(Z), HIT(Z); FILL(0), HIT(0), FILL(1),
//! HIT(1) (GSPZTC uses FILL(0)/HIT(0) as its FILL(TEX)/HIT(TEX)); PROD,
//! CONS. Each is `counter-bits` wide (default 8, 1 to 16) and saturates;
//! ACC(ALL) is `acc-bits` wide (default 7, 1 to 16).
//!
//! One access to a sample set is one [`Counters::learn`] call: first the
//! event counters of its table row are incremented (saturating), then
//! ACC(ALL); when ACC(ALL) thereby reaches its maximum (127 by default),
//! every counter of the bank is halved (rounding down) and ACC(ALL) is
//! reset to 0. So the access that saturates ACC(ALL) is counted before the
//! halving, and ACC(ALL) never rests at its maximum.
//!
//! Accesses the LLC does not allocate (the `display` stream under `+ucd`,
//! write misses without write-allocate) are neither fills nor hits: no row
//! of the tables applies and no counter moves, ACC(ALL) included.
//!
//! Non-sample sets read the counters through [`Rule`]: "FILL > t.HIT" is
//! `FILL > t * HIT` exactly (strictly greater), in 32-bit arithmetic.

use gfxcache_cache::{table, CacheError, Ctx, Geometry, Params};

use crate::class::{Class, FillMix};
use crate::samples::{is_sample, SAMPLE_FILL};

/// One event counter of a bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Counter {
    FillZ = 0,
    HitZ = 1,
    /// FILL(0, TEX); GSPZTC's FILL(TEX).
    Fill0 = 2,
    /// HIT(0, TEX); GSPZTC's HIT(TEX).
    Hit0 = 3,
    /// FILL(1, TEX).
    Fill1 = 4,
    /// HIT(1, TEX).
    Hit1 = 5,
    Prod = 6,
    Cons = 7,
}

impl Counter {
    pub const COUNT: usize = 8;

    pub const ALL: [Counter; Counter::COUNT] = [
        Counter::FillZ,
        Counter::HitZ,
        Counter::Fill0,
        Counter::Hit0,
        Counter::Fill1,
        Counter::Hit1,
        Counter::Prod,
        Counter::Cons,
    ];

    /// GSPZTC's names for the texture counters.
    pub const FILL_TEX: Counter = Counter::Fill0;
    pub const HIT_TEX: Counter = Counter::Hit0;
}

/// The counters of one bank, as read by tests and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BankCounters {
    values: [u16; Counter::COUNT],
    acc_all: u16,
}

impl BankCounters {
    #[inline(always)]
    pub fn get(&self, c: Counter) -> u32 {
        u32::from(self.values[c as usize])
    }

    /// ACC(ALL): sample accesses since the last halving.
    pub fn acc_all(&self) -> u32 {
        u32::from(self.acc_all)
    }
}

/// How a non-sample set picks an RRPV from its bank's counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Always this RRPV.
    Fixed(u8),
    /// 3 if `fill > t * hit`, else `otherwise`: the Z rule (otherwise 2) and
    /// the texture rules (otherwise 0).
    Learned {
        fill: Counter,
        hit: Counter,
        otherwise: u8,
    },
    /// GSPC's render-target fill: 3 if `PROD > rt_hi * CONS`, else 2 if
    /// `PROD > rt_lo * CONS`, else 0.
    ProdCons,
}

/// The thresholds [`Rule`]s compare with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// `t`: "FILL > t.HIT".
    pub t: u32,
    /// GSPC's 16 in "PROD > 16.CONS".
    pub rt_hi: u32,
    /// GSPC's 8 in "PROD > 8.CONS".
    pub rt_lo: u32,
}

/// The counters of every bank.
pub struct Counters {
    banks: Vec<BankCounters>,
    max: u16,
    acc_max: u16,
}

impl Counters {
    /// `banks` groups of `bits`-bit counters and an `acc_bits`-bit ACC(ALL),
    /// all zero; both widths 1 to 16.
    pub fn new(banks: usize, bits: u32, acc_bits: u32) -> Result<Counters, CacheError> {
        assert!((1..=16).contains(&bits) && (1..=16).contains(&acc_bits));
        Ok(Counters {
            banks: table::filled(banks, BankCounters::default(), "the counters of the banks")?,
            max: ((1u32 << bits) - 1) as u16,
            acc_max: ((1u32 << acc_bits) - 1) as u16,
        })
    }

    /// One access to a sample set of `bank` whose table row increments
    /// `events`: those, then ACC(ALL), then the halving if it saturated.
    #[inline]
    pub fn learn(&mut self, bank: usize, events: &[Counter]) {
        let max = self.max;
        let b = &mut self.banks[bank];
        for &c in events {
            let v = &mut b.values[c as usize];
            if *v < max {
                *v += 1;
            }
        }
        b.acc_all += 1;
        if b.acc_all >= self.acc_max {
            for v in &mut b.values {
                *v >>= 1;
            }
            b.acc_all = 0;
        }
    }

    pub fn bank(&self, bank: usize) -> &BankCounters {
        &self.banks[bank]
    }

    /// Counter `c` summed over the banks.
    pub fn sum(&self, c: Counter) -> u64 {
        self.banks.iter().map(|b| u64::from(b.get(c))).sum()
    }

    /// The RRPV `rule` gives in a non-sample set of `bank`.
    #[inline]
    pub fn rrpv(&self, bank: usize, rule: Rule, th: &Thresholds) -> u8 {
        match rule {
            Rule::Fixed(v) => v,
            Rule::Learned {
                fill,
                hit,
                otherwise,
            } => {
                let b = &self.banks[bank];
                if b.get(fill) > th.t * b.get(hit) {
                    3
                } else {
                    otherwise
                }
            }
            Rule::ProdCons => {
                let b = &self.banks[bank];
                let (prod, cons) = (b.get(Counter::Prod), b.get(Counter::Cons));
                if prod > th.rt_hi * cons {
                    3
                } else if prod > th.rt_lo * cons {
                    2
                } else {
                    0
                }
            }
        }
    }
}

/// What the table policies (GSPZTC, GSPZTC+TSE, GSPC) share: the counters
/// of every bank, the thresholds, and the split of the sets into samples
/// ([`crate::samples`]), which learn and run two-bit SRRIP, and the rest,
/// which apply their table's [`Rule`].
pub struct Learning {
    counters: Counters,
    th: Thresholds,
    mix: FillMix,
    /// Texture hits on render-target lines (the RT bit or state 11).
    rt_to_tex: u64,
}

impl Learning {
    /// From the parameters `t` (1 to 1024, default 8), `counter-bits` (1
    /// to 16, default 8), `acc-bits` (1 to 16, default 7) and, with
    /// `prod_cons` (GSPC), `rt-hi` (default 16) and `rt-lo` (default 8),
    /// 1 to 1024.
    pub fn take(p: &mut Params, g: &Geometry, prod_cons: bool) -> Result<Learning, CacheError> {
        let t = p.take_u32("t", 8, 1, 1024)?;
        let bits = p.take_u32("counter-bits", 8, 1, 16)?;
        let acc_bits = p.take_u32("acc-bits", 7, 1, 16)?;
        let mut th = Thresholds {
            t,
            rt_hi: 16,
            rt_lo: 8,
        };
        if prod_cons {
            th.rt_hi = p.take_u32("rt-hi", 16, 1, 1024)?;
            th.rt_lo = p.take_u32("rt-lo", 8, 1, 1024)?;
        }
        Ok(Learning {
            counters: Counters::new(g.banks as usize, bits, acc_bits)?,
            th,
            mix: FillMix::default(),
            rt_to_tex: 0,
        })
    }

    /// The RRPV of an access to the set of `ctx` whose table row
    /// increments `events`: a sample set learns them and takes `sample`
    /// (SRRIP's: [`SAMPLE_FILL`] on a fill, 0 on a hit); any other set
    /// applies `rule`.
    #[inline(always)]
    pub fn rrpv(&mut self, ctx: &Ctx, events: &[Counter], rule: Rule, sample: u8) -> u8 {
        if is_sample(ctx.set) {
            self.counters.learn(ctx.bank, events);
            sample
        } else {
            self.counters.rrpv(ctx.bank, rule, &self.th)
        }
    }

    /// [`Learning::rrpv`] of a fill of `class`, counted in the fill mix
    /// (fills at RRPV 3 per class, [`Learning::report`]).
    #[inline(always)]
    pub fn fill(&mut self, ctx: &Ctx, class: Class, events: &[Counter], rule: Rule) -> u8 {
        let v = self.rrpv(ctx, events, rule, SAMPLE_FILL);
        self.mix.count(class, v == 3);
        v
    }

    /// Counts a texture hit on a render-target line: the sampler consumed
    /// a render target through the LLC.
    #[inline(always)]
    pub fn consumed(&mut self) {
        self.rt_to_tex += 1;
    }

    /// The policy's report: each of `sums` (a name and a counter summed
    /// over the banks), the fill mix ([`FillMix::report`]) and
    /// `rt_to_tex_hits`.
    pub fn report(&self, sums: &[(&'static str, Counter)]) -> Vec<(&'static str, f64)> {
        let mut r: Vec<_> = sums
            .iter()
            .map(|&(name, c)| (name, self.counters.sum(c) as f64))
            .collect();
        r.extend(self.mix.report());
        r.push(("rt_to_tex_hits", self.rt_to_tex as f64));
        r
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    pub fn thresholds(&self) -> Thresholds {
        self.th
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturate_then_halve() {
        let mut c = Counters::new(2, 3, 4).unwrap(); // counters to 7, ACC(ALL) to 15
        for _ in 0..10 {
            c.learn(1, &[Counter::FillZ, Counter::Cons]);
        }
        assert_eq!(c.bank(1).get(Counter::FillZ), 7);
        assert_eq!(c.bank(1).acc_all(), 10);
        assert_eq!(c.bank(0), &BankCounters::default());
        for _ in 0..4 {
            c.learn(1, &[Counter::HitZ]);
        }
        assert_eq!(c.bank(1).acc_all(), 14);
        assert_eq!(c.bank(1).get(Counter::HitZ), 4);
        // The 15th: HIT(Z) 5, then ACC(ALL) 15 = max: halve, reset.
        c.learn(1, &[Counter::HitZ]);
        assert_eq!(c.bank(1).acc_all(), 0);
        assert_eq!(c.bank(1).get(Counter::HitZ), 2);
        assert_eq!(c.bank(1).get(Counter::FillZ), 3);
        assert_eq!(c.bank(1).get(Counter::Cons), 3);
    }
}
