//! Every row of the GSPC paper's Tables 3, 4 and 5, walked with hand-built
//! access sequences on 1024 sets x 4 ways x 64 B.
//!
//! Set 0 is a sample (`65 * k`), set 1 is not; with one bank both share the
//! counters of bank 0, so a test trains the counters in set 0 and reads
//! their effect in set 1. Block `k` of set `s` is `k * 1024 + s`; the ways
//! of a set fill in order 0, 1, 2, 3.

use crate::common::{cache, geometry};
use gfxcache_cache::{BlockOutcome, Cache, Policy};
use gfxcache_llc::class::Class;
use gfxcache_llc::counters::Counter::{self, *};
use gfxcache_llc::policies::gs_drrip::GsDrrip;
use gfxcache_llc::policies::gspc::Gspc;
use gfxcache_llc::policies::gspztc::Gspztc;
use gfxcache_llc::policies::gspztc_tse::{GspztcTse, State};
use gfxcache_llc::samples::is_sample;
use gfxcache_trace::Stream::{self, Display, Other, Rt, Tex, Vtx, Z};

const S: u64 = 0;
const N: u64 = 1;

struct H<P: Policy> {
    c: Cache<P>,
    sets: u64,
}

impl<P: Policy> H<P> {
    fn new(spec: &str) -> H<P> {
        H::with(spec, 1024, 4, 1)
    }

    fn with(spec: &str, sets: u32, ways: u32, banks: u32) -> H<P> {
        H {
            c: cache(spec, geometry(sets, ways, banks)),
            sets: u64::from(sets),
        }
    }

    fn block(&self, set: u64, k: u64) -> u64 {
        k * self.sets + set
    }

    fn go(&mut self, set: u64, k: u64, s: Stream) -> BlockOutcome {
        self.c.access_block(self.block(set, k), s, false, 0)
    }

    /// An access that must miss and fill.
    fn fill(&mut self, set: u64, k: u64, s: Stream) {
        let o = self.go(set, k, s);
        assert!(
            matches!(o, BlockOutcome::Fill { .. }),
            "block {k} of set {set} by {s}: {o:?}, expected a fill"
        );
    }

    /// An access that must hit.
    fn hit(&mut self, set: u64, k: u64, s: Stream) {
        let o = self.go(set, k, s);
        assert_eq!(o, BlockOutcome::Hit, "block {k} of set {set} by {s}");
    }

    fn way(&self, set: u64, k: u64) -> usize {
        let b = self.block(set, k);
        (0..self.c.geometry().ways as usize)
            .find(|&w| self.c.line(set as usize, w).map(|l| l.0) == Some(b))
            .unwrap_or_else(|| panic!("block {k} of set {set} not resident"))
    }

    fn rrpv(&self, set: u64, k: u64) -> u8 {
        let (v, max) = self
            .c
            .policy()
            .rrpv(set as usize, self.way(set, k))
            .unwrap();
        assert_eq!(max, 3);
        v
    }

    fn p(&self) -> &P {
        self.c.policy()
    }
}

impl H<Gspztc> {
    fn n(&self, c: Counter) -> u32 {
        self.p().counters(0).get(c)
    }
    fn acc(&self) -> u32 {
        self.p().counters(0).acc_all()
    }
    fn rt(&self, set: u64, k: u64) -> bool {
        self.p().rt_bit(set as usize, self.way(set, k))
    }
}

impl<const G: bool> H<gfxcache_llc::policies::gspztc_tse::Epochs<G>> {
    fn n(&self, c: Counter) -> u32 {
        self.p().counters(0).get(c)
    }
    fn acc(&self) -> u32 {
        self.p().counters(0).acc_all()
    }
    fn st(&self, set: u64, k: u64) -> State {
        self.p().state(set as usize, self.way(set, k))
    }
}

#[test]
fn the_sets_under_test() {
    assert!(is_sample(S as usize) && !is_sample(N as usize));
    assert!(is_sample(65) && is_sample(130) && !is_sample(2));
}

// ---------------------------------------------------------------------
// Table 3: GSPZTC.
// ---------------------------------------------------------------------

#[test]
fn gspztc_sample_rows() {
    let mut h: H<Gspztc> = H::new("gspztc");
    // Z fill: RRPV 2, FILL(Z)++, ACC(ALL)++.
    h.fill(S, 0, Z);
    assert_eq!((h.rrpv(S, 0), h.n(FillZ), h.n(HitZ), h.acc()), (2, 1, 0, 1));
    // Z hit: RRPV 0, HIT(Z)++, ACC(ALL)++.
    h.hit(S, 0, Z);
    assert_eq!((h.rrpv(S, 0), h.n(FillZ), h.n(HitZ), h.acc()), (0, 1, 1, 2));
    // TEX fill: RRPV 2, FILL(TEX)++.
    h.fill(S, 1, Tex);
    assert_eq!((h.rrpv(S, 1), h.n(Counter::FILL_TEX), h.acc()), (2, 1, 3));
    assert!(!h.rt(S, 1));
    // TEX hit (RT bit clear): RRPV 0, HIT(TEX)++.
    h.hit(S, 1, Tex);
    assert_eq!(
        (
            h.rrpv(S, 1),
            h.n(Counter::FILL_TEX),
            h.n(Counter::HIT_TEX),
            h.acc()
        ),
        (0, 1, 1, 4)
    );
    // RT fill ("other fill"): RRPV 2, ACC(ALL)++ only; RT bit set.
    h.fill(S, 2, Rt);
    assert_eq!((h.rrpv(S, 2), h.acc()), (2, 5));
    assert!(h.rt(S, 2));
    // RT -> TEX hit: RRPV 0, FILL(TEX)++ (not HIT(TEX)), RT bit cleared.
    h.hit(S, 2, Tex);
    assert_eq!(
        (
            h.rrpv(S, 2),
            h.n(Counter::FILL_TEX),
            h.n(Counter::HIT_TEX),
            h.acc()
        ),
        (0, 2, 1, 6)
    );
    assert!(!h.rt(S, 2));
    // A second TEX hit on it is a plain TEX hit.
    h.hit(S, 2, Tex);
    assert_eq!((h.n(Counter::FILL_TEX), h.n(Counter::HIT_TEX)), (2, 2));
    // Other fill and hit: RRPV 2 then 0, ACC(ALL)++ each, no counter.
    h.fill(S, 3, Vtx);
    assert_eq!((h.rrpv(S, 3), h.acc()), (2, 8));
    h.hit(S, 3, Other);
    assert_eq!((h.rrpv(S, 3), h.acc()), (0, 9));
    // RT hit (an "other hit"): RRPV 0, RT bit set, ACC(ALL)++.
    h.hit(S, 3, Rt);
    assert!(h.rt(S, 3));
    assert_eq!(h.acc(), 10);
    for c in [Fill1, Hit1, Prod, Cons] {
        assert_eq!(h.n(c), 0);
    }
    assert_eq!((h.n(FillZ), h.n(HitZ)), (1, 1));
}

/// Trains FILL(Z) = `fills`, HIT(Z) = `hits` in sample set 0.
fn train_z<P: Policy>(h: &mut H<P>, fills: u64, hits: u64) {
    h.fill(S, 100, Z);
    for _ in 0..hits {
        h.hit(S, 100, Z);
    }
    for k in 1..fills {
        h.fill(S, 100 + k, Z);
    }
}

#[test]
fn gspztc_z_fill_threshold_is_strict() {
    // t = 8: FILL(Z) = 16 = 8 * HIT(Z) -> 2; FILL(Z) = 17 -> 3.
    let mut h: H<Gspztc> = H::new("gspztc");
    h.fill(N, 0, Z);
    assert_eq!(h.rrpv(N, 0), 2, "0 > 8 * 0 is false");
    train_z(&mut h, 16, 2);
    assert_eq!((h.n(FillZ), h.n(HitZ)), (16, 2));
    let acc = h.acc();
    h.fill(N, 1, Z);
    assert_eq!(h.rrpv(N, 1), 2);
    assert_eq!(h.acc(), acc, "non-samples do not count");
    assert_eq!(h.n(FillZ), 16);
    h.fill(S, 200, Z);
    assert_eq!(h.n(FillZ), 17);
    h.fill(N, 2, Z);
    assert_eq!(h.rrpv(N, 2), 3);
    // t = 4: 12 = 4 * 3 -> 2; 13 -> 3.
    let mut h: H<Gspztc> = H::new("gspztc:t=4");
    train_z(&mut h, 12, 3);
    h.fill(N, 1, Z);
    assert_eq!(h.rrpv(N, 1), 2);
    h.fill(S, 200, Z);
    h.fill(N, 2, Z);
    assert_eq!(h.rrpv(N, 2), 3);
}

#[test]
fn gspztc_non_sample_rows() {
    let mut h: H<Gspztc> = H::new("gspztc:t=2");
    // TEX fill with FILL(TEX) = 0 = 2 * HIT(TEX): RRPV 0.
    h.fill(N, 0, Tex);
    assert_eq!(h.rrpv(N, 0), 0);
    // Train FILL(TEX) = 2, HIT(TEX) = 1: equal to t * HIT -> 0.
    h.fill(S, 0, Tex);
    h.hit(S, 0, Tex);
    h.fill(S, 1, Tex);
    assert_eq!((h.n(Counter::FILL_TEX), h.n(Counter::HIT_TEX)), (2, 1));
    h.fill(N, 1, Tex);
    assert_eq!(h.rrpv(N, 1), 0);
    // FILL(TEX) = 3 through an RT -> TEX hit in the sample: above -> 3.
    h.fill(S, 2, Rt);
    h.hit(S, 2, Tex);
    assert_eq!((h.n(Counter::FILL_TEX), h.n(Counter::HIT_TEX)), (3, 1));
    h.fill(N, 2, Tex);
    assert_eq!(h.rrpv(N, 2), 3);
    assert!(!h.rt(N, 2));
    // Any hit: RRPV 0 (a Z hit on that texture line).
    h.hit(N, 2, Z);
    assert_eq!(h.rrpv(N, 2), 0);
    // RT fill: RRPV 0, RT bit; display is a render target too.
    let mut h: H<Gspztc> = H::new("gspztc");
    h.fill(N, 0, Rt);
    h.fill(N, 1, Display);
    assert_eq!((h.rrpv(N, 0), h.rrpv(N, 1)), (0, 0));
    assert!(h.rt(N, 0) && h.rt(N, 1));
    // Other fill: RRPV 2; an RT hit on it sets the bit.
    h.fill(N, 2, Vtx);
    assert_eq!(h.rrpv(N, 2), 2);
    assert!(!h.rt(N, 2));
    h.hit(N, 2, Rt);
    assert_eq!(h.rrpv(N, 2), 0);
    assert!(h.rt(N, 2));
    // RT -> TEX hit in a non-sample: RRPV 0, bit cleared, no counter.
    h.hit(N, 0, Tex);
    assert_eq!(h.rrpv(N, 0), 0);
    assert!(!h.rt(N, 0));
    assert_eq!((h.n(Counter::FILL_TEX), h.acc()), (0, 0));
    // A fill over an RT line starts without the bit: four RT lines at 0,
    // the fifth fill ages them to 3 and replaces way 0.
    let mut h: H<Gspztc> = H::new("gspztc");
    for k in 0..4 {
        h.fill(N, k, Rt);
    }
    h.fill(N, 4, Z);
    assert_eq!(h.way(N, 4), 0);
    assert!(!h.rt(N, 4));
    assert_eq!((h.rrpv(N, 4), h.rrpv(N, 1)), (2, 3));
}

#[test]
fn acc_all_halves_the_counters_when_it_saturates() {
    let mut h: H<Gspztc> = H::new("gspztc");
    // FILL(Z) 1, HIT(Z) 124, FILL(TEX) 1: 126 sample accesses.
    h.fill(S, 0, Z);
    for _ in 0..124 {
        h.hit(S, 0, Z);
    }
    h.fill(S, 1, Tex);
    assert_eq!(
        (h.n(FillZ), h.n(HitZ), h.n(Fill0), h.acc()),
        (1, 124, 1, 126)
    );
    // The 127th: HIT(Z) 125, then ACC(ALL) 127: halve, reset.
    h.hit(S, 0, Z);
    assert_eq!((h.n(FillZ), h.n(HitZ), h.n(Fill0), h.acc()), (0, 62, 0, 0));
    h.hit(S, 0, Z);
    assert_eq!((h.n(HitZ), h.acc()), (63, 1));
    // Non-sample accesses never advance ACC(ALL).
    h.fill(N, 0, Z);
    h.hit(N, 0, Z);
    assert_eq!(h.acc(), 1);
}

#[test]
fn counters_saturate_at_their_width() {
    // acc-bits=16 so that no halving intervenes: HIT(Z) stops at 255.
    let mut h: H<Gspztc> = H::new("gspztc:acc-bits=16");
    h.fill(S, 0, Z);
    for _ in 0..300 {
        h.hit(S, 0, Z);
    }
    assert_eq!((h.n(HitZ), h.acc()), (255, 301));
    // counter-bits=4: 15.
    let mut h: H<GspztcTse> = H::new("gspztc-tse:counter-bits=4,acc-bits=16");
    for k in 0..20 {
        h.fill(S, k, Tex);
    }
    assert_eq!((h.n(Fill0), h.acc()), (15, 20));
    // acc-bits=2: every third sample access halves.
    let mut h: H<Gspc> = H::new("gspc:acc-bits=2");
    h.fill(S, 0, Rt); // PROD 1
    h.fill(S, 1, Rt); // PROD 2
    assert_eq!((h.n(Prod), h.acc()), (2, 2));
    h.hit(S, 0, Tex); // CONS 1, FILL(0) 1, PROD 2, then halve
    assert_eq!((h.n(Prod), h.n(Cons), h.n(Fill0), h.acc()), (1, 0, 0, 0));
}

#[test]
fn counters_are_per_bank() {
    // Four banks: sample 65 is in bank 1, 130 in bank 2; set 1 is bank 1.
    let mut h: H<Gspztc> = H::with("gspztc", 1024, 4, 4);
    for k in 0..9 {
        h.fill(65, k, Z);
    }
    let p = h.p();
    assert_eq!(p.counters(1).get(FillZ), 9);
    assert_eq!(p.counters(1).acc_all(), 9);
    for b in [0, 2, 3] {
        assert_eq!(p.counters(b).get(FillZ), 0);
        assert_eq!(p.counters(b).acc_all(), 0);
    }
    h.fill(1, 0, Z); // bank 1: 9 > 8 * 0
    h.fill(2, 0, Z); // bank 2: 0 > 0 is false
    assert_eq!((h.rrpv(1, 0), h.rrpv(2, 0)), (3, 2));
}

// ---------------------------------------------------------------------
// Table 4: GSPZTC+TSE (and the Z/other rows of Table 3 it keeps).
// ---------------------------------------------------------------------

#[test]
fn tse_sample_rows() {
    let mut h: H<GspztcTse> = H::new("gspztc-tse");
    // TEX fill: FILL(0)++, state 00, RRPV 2.
    h.fill(S, 0, Tex);
    assert_eq!(
        (h.st(S, 0), h.rrpv(S, 0), h.n(Fill0), h.acc()),
        (State::E0, 2, 1, 1)
    );
    // TEX hit in 00: HIT(0)++, FILL(1)++, state 01, RRPV 0.
    h.hit(S, 0, Tex);
    assert_eq!((h.st(S, 0), h.rrpv(S, 0)), (State::E1, 0));
    assert_eq!((h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1)), (1, 1, 1, 0));
    // TEX hit in 01: HIT(1)++, state 10.
    h.hit(S, 0, Tex);
    assert_eq!(h.st(S, 0), State::E2);
    assert_eq!((h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1)), (1, 1, 1, 1));
    // TEX hit in 10: state 10, no counter but ACC(ALL).
    h.hit(S, 0, Tex);
    assert_eq!(h.st(S, 0), State::E2);
    assert_eq!((h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1)), (1, 1, 1, 1));
    assert_eq!(h.acc(), 4);
    // RT fill: state 11, RRPV 2 (no PROD in TSE).
    h.fill(S, 1, Rt);
    assert_eq!((h.st(S, 1), h.rrpv(S, 1), h.n(Prod)), (State::Rt, 2, 0));
    // RT -> TEX hit: FILL(0)++, state 00, RRPV 0 (no CONS in TSE).
    h.hit(S, 1, Tex);
    assert_eq!(
        (h.st(S, 1), h.rrpv(S, 1), h.n(Fill0), h.n(Cons)),
        (State::E0, 0, 2, 0)
    );
    // TEX hit in 00 again, then an RT hit on the E1 line: state 11.
    h.hit(S, 1, Tex);
    assert_eq!(h.st(S, 1), State::E1);
    h.hit(S, 1, Rt);
    assert_eq!((h.st(S, 1), h.rrpv(S, 1)), (State::Rt, 0));
    // Z fill: FILL(Z)++, state 10 (neutral); Z hit: HIT(Z)++, state kept.
    h.fill(S, 2, Z);
    assert_eq!((h.st(S, 2), h.rrpv(S, 2), h.n(FillZ)), (State::E2, 2, 1));
    h.hit(S, 2, Z);
    assert_eq!((h.st(S, 2), h.rrpv(S, 2), h.n(HitZ)), (State::E2, 0, 1));
    h.hit(S, 1, Z); // a Z hit on an RT line keeps 11
    assert_eq!(h.st(S, 1), State::Rt);
    // A TEX hit on the Z line (shadow map): the "else" row, nothing counted.
    let before = (h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1));
    h.hit(S, 2, Tex);
    assert_eq!(h.st(S, 2), State::E2);
    assert_eq!((h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1)), before);
    // Other fill/hit: state 10, RRPV 2/0.
    h.fill(S, 3, Other);
    assert_eq!((h.st(S, 3), h.rrpv(S, 3)), (State::E2, 2));
    h.hit(S, 3, Other);
    assert_eq!(h.rrpv(S, 3), 0);
    assert_eq!(h.acc(), 14);
}

#[test]
fn tse_non_sample_rows() {
    // t = 2. Train FILL(0) = 2, HIT(0) = 1, FILL(1) = 1, HIT(1) = 0.
    let mut h: H<GspztcTse> = H::new("gspztc-tse:t=2");
    h.fill(S, 0, Tex);
    h.hit(S, 0, Tex);
    h.fill(S, 1, Tex);
    assert_eq!((h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1)), (2, 1, 1, 0));
    // TEX fill: FILL(0) 2 = 2 * 1 -> RRPV 0, state 00.
    h.fill(N, 0, Tex);
    assert_eq!((h.rrpv(N, 0), h.st(N, 0)), (0, State::E0));
    // TEX hit in 00: FILL(1) 1 > 2 * 0 -> RRPV 3, state 01.
    h.hit(N, 0, Tex);
    assert_eq!((h.rrpv(N, 0), h.st(N, 0)), (3, State::E1));
    // TEX hit in 01: RRPV 0, state 10; in 10: RRPV 0, 10.
    h.hit(N, 0, Tex);
    assert_eq!((h.rrpv(N, 0), h.st(N, 0)), (0, State::E2));
    h.hit(N, 0, Tex);
    assert_eq!((h.rrpv(N, 0), h.st(N, 0)), (0, State::E2));
    // HIT(1) 1, FILL(1) 2 (= 2 * 1): E1 entry gets 0.
    h.hit(S, 0, Tex); // block 0 of S: 01 -> 10, HIT(1)
    h.hit(S, 1, Tex); // block 1 of S: 00 -> 01, HIT(0), FILL(1)
    assert_eq!((h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1)), (2, 2, 2, 1));
    h.fill(N, 1, Tex);
    h.hit(N, 1, Tex);
    assert_eq!((h.rrpv(N, 1), h.st(N, 1)), (0, State::E1));
    // FILL(1) 3 > 2 * 1: 3.
    h.fill(S, 2, Tex);
    h.hit(S, 2, Tex);
    h.fill(N, 2, Tex);
    // FILL(0) 3 > 2 * HIT(0) 3 is false: 0.
    assert_eq!((h.n(Fill0), h.n(Hit0), h.n(Fill1), h.n(Hit1)), (3, 3, 3, 1));
    assert_eq!(h.rrpv(N, 2), 0);
    h.hit(N, 2, Tex);
    assert_eq!((h.rrpv(N, 2), h.st(N, 2)), (3, State::E1));
    // RT hit on that E1 texture line: state 11, RRPV 0.
    h.hit(N, 2, Rt);
    assert_eq!((h.rrpv(N, 2), h.st(N, 2)), (0, State::Rt));
    // FILL(0) above t * HIT(0): 7 > 2 * 3.
    for k in 3..7 {
        h.fill(S, k, Tex);
    }
    assert_eq!(h.n(Fill0), 7);
    // RT -> TEX hit in a non-sample: state 00 with the E0 rule -> 3.
    h.hit(N, 2, Tex);
    assert_eq!((h.rrpv(N, 2), h.st(N, 2)), (3, State::E0));
    // RT fill: RRPV 0, state 11; RT hit: 0, 11; Z fill: Z rule, state 10.
    let mut h: H<GspztcTse> = H::new("gspztc-tse");
    h.fill(N, 0, Rt);
    assert_eq!((h.rrpv(N, 0), h.st(N, 0)), (0, State::Rt));
    h.fill(N, 1, Z);
    assert_eq!((h.rrpv(N, 1), h.st(N, 1)), (2, State::E2));
    h.fill(N, 2, Other);
    assert_eq!((h.rrpv(N, 2), h.st(N, 2)), (2, State::E2));
    h.hit(N, 2, Rt);
    assert_eq!((h.rrpv(N, 2), h.st(N, 2)), (0, State::Rt));
    h.hit(N, 1, Z);
    assert_eq!((h.rrpv(N, 1), h.st(N, 1)), (0, State::E2));
    assert_eq!(h.acc(), 0);
}

// ---------------------------------------------------------------------
// Table 5: GSPC.
// ---------------------------------------------------------------------

#[test]
fn gspc_sample_rows() {
    let mut h: H<Gspc> = H::new("gspc");
    // RT fill: state 11, PROD++, RRPV 2.
    h.fill(S, 0, Rt);
    assert_eq!(
        (h.st(S, 0), h.rrpv(S, 0), h.n(Prod), h.acc()),
        (State::Rt, 2, 1, 1)
    );
    // RT hit (blending): state 11, RRPV 0, PROD unchanged.
    h.hit(S, 0, Rt);
    assert_eq!(
        (h.st(S, 0), h.rrpv(S, 0), h.n(Prod), h.acc()),
        (State::Rt, 0, 1, 2)
    );
    // RT -> TEX hit: state 00, CONS++ and FILL(0)++.
    h.hit(S, 0, Tex);
    assert_eq!((h.st(S, 0), h.rrpv(S, 0)), (State::E0, 0));
    assert_eq!((h.n(Cons), h.n(Fill0), h.n(Prod), h.acc()), (1, 1, 1, 3));
    // Display fills are render-target fills.
    h.fill(S, 1, Display);
    assert_eq!((h.st(S, 1), h.n(Prod)), (State::Rt, 2));
    // A TEX hit on a TEX line is no consumption.
    h.fill(S, 2, Tex);
    h.hit(S, 2, Tex);
    assert_eq!(h.n(Cons), 1);
}

#[test]
fn gspc_rt_fill_three_outcomes() {
    let mut h: H<Gspc> = H::new("gspc");
    // PROD = CONS = 0: 0 > 0 is false twice -> 0.
    h.fill(N, 0, Rt);
    assert_eq!((h.rrpv(N, 0), h.st(N, 0)), (0, State::Rt));
    // CONS 1, then PROD up to 8: 8 > 8 * 1 is false -> 0.
    h.fill(S, 0, Rt);
    h.hit(S, 0, Tex);
    for k in 1..8 {
        h.fill(S, k, Rt);
    }
    assert_eq!((h.n(Prod), h.n(Cons)), (8, 1));
    h.fill(N, 1, Rt);
    assert_eq!(h.rrpv(N, 1), 0);
    // PROD 9 > 8: 2.
    h.fill(S, 8, Rt);
    h.fill(N, 2, Rt);
    assert_eq!(h.rrpv(N, 2), 2);
    // PROD 16: 16 > 16 is false, 16 > 8 -> 2.
    for k in 9..16 {
        h.fill(S, k, Rt);
    }
    assert_eq!(h.n(Prod), 16);
    h.fill(N, 3, Rt);
    assert_eq!(h.rrpv(N, 3), 2);
    // PROD 17 > 16: 3.
    h.fill(S, 16, Rt);
    h.fill(N, 4, Display);
    assert_eq!((h.rrpv(N, 4), h.st(N, 4)), (3, State::Rt));
    // RT hit (blending) in a non-sample: RRPV 0, state 11.
    h.hit(N, 4, Rt);
    assert_eq!((h.rrpv(N, 4), h.st(N, 4)), (0, State::Rt));
    // The thresholds are parameters.
    let mut h: H<Gspc> = H::new("gspc:rt-hi=2,rt-lo=1");
    h.fill(S, 0, Rt);
    h.hit(S, 0, Tex);
    h.fill(S, 1, Rt); // PROD 2, CONS 1
    h.fill(N, 0, Rt);
    assert_eq!(h.rrpv(N, 0), 2);
    h.fill(S, 2, Rt); // PROD 3
    h.fill(N, 1, Rt);
    assert_eq!(h.rrpv(N, 1), 3);
}

#[test]
fn gspc_rt_to_tex_non_sample_uses_table_4() {
    let mut h: H<Gspc> = H::new("gspc");
    h.fill(N, 0, Rt);
    h.fill(N, 1, Rt);
    // FILL(0) 0: RRPV 0, state 00; no CONS outside samples.
    h.hit(N, 0, Tex);
    assert_eq!((h.rrpv(N, 0), h.st(N, 0), h.n(Cons)), (0, State::E0, 0));
    // FILL(0) 1 > 8 * 0: 3.
    h.fill(S, 0, Tex);
    h.hit(N, 1, Tex);
    assert_eq!((h.rrpv(N, 1), h.st(N, 1)), (3, State::E0));
    // Then E0 -> E1 with FILL(1) 0 > 0 false: RRPV 0.
    h.hit(N, 1, Tex);
    assert_eq!((h.rrpv(N, 1), h.st(N, 1)), (0, State::E1));
}

#[test]
fn ucd_display_touches_no_counter() {
    let mut h: H<Gspc> = H::new("gspc+ucd");
    assert_eq!(h.go(S, 0, Display), BlockOutcome::Bypass);
    assert_eq!((h.n(Prod), h.acc()), (0, 0));
    h.fill(S, 0, Rt);
    assert_eq!((h.n(Prod), h.acc()), (1, 1));
}

#[test]
fn victims_are_the_lowest_way_at_3() {
    // Non-sample, 4 ways: RT 0, Z 2, other 2, TEX 0; the fifth fill ages
    // by one (Z and other reach 3) and evicts way 1 (the Z line).
    let mut h: H<GspztcTse> = H::new("gspztc-tse");
    h.fill(N, 0, Rt);
    h.fill(N, 1, Z);
    h.fill(N, 2, Other);
    h.fill(N, 3, Tex);
    h.fill(N, 4, Vtx);
    assert_eq!(h.way(N, 4), 1);
    assert_eq!(
        (h.rrpv(N, 0), h.rrpv(N, 2), h.rrpv(N, 3), h.rrpv(N, 4)),
        (1, 3, 1, 2)
    );
}

// ---------------------------------------------------------------------
// GS-DRRIP.
// ---------------------------------------------------------------------

#[test]
fn gs_drrip_one_psel_per_stream() {
    use gfxcache_cache::duel::Role;
    let mut h: H<GsDrrip> = H::new("gs-drrip:bits=4");
    let p = h.p();
    assert_eq!(p.leader(0), Some((Class::Z, Role::LeaderA)));
    assert_eq!(p.leader(4), Some((Class::Z, Role::LeaderB)));
    assert_eq!(p.leader(8), Some((Class::Tex, Role::LeaderA)));
    assert_eq!(p.leader(1), None);
    for c in Class::ALL {
        assert_eq!(p.psel(c), 511);
    }
    // A Z fill in Z's SRRIP leader: PSEL(Z)++, inserted at 14.
    h.fill(0, 0, Z);
    assert_eq!(h.p().psel(Class::Z), 512);
    assert_eq!(h.c.policy().rrpv(0, 0), Some((14, 15)));
    // A TEX fill there follows PSEL(TEX) (SRRIP) and moves nothing.
    h.fill(0, 1, Tex);
    assert_eq!(h.c.policy().rrpv(0, 1), Some((14, 15)));
    assert_eq!((h.p().psel(Class::Z), h.p().psel(Class::Tex)), (512, 511));
    // Followers: Z now runs BRRIP (15), TEX still SRRIP (14).
    h.fill(1, 0, Z);
    h.fill(1, 1, Tex);
    assert_eq!(h.c.policy().rrpv(1, 0), Some((15, 15)));
    assert_eq!(h.c.policy().rrpv(1, 1), Some((14, 15)));
    // A Z fill in Z's BRRIP leader: PSEL(Z)--, inserted at 15.
    h.fill(4, 0, Z);
    assert_eq!(h.p().psel(Class::Z), 511);
    assert_eq!(h.c.policy().rrpv(4, 0), Some((15, 15)));
    // A TEX fill in TEX's BRRIP leader (12): PSEL(TEX)--, at 15.
    h.fill(12, 0, Tex);
    assert_eq!(h.p().psel(Class::Tex), 510);
    assert_eq!(h.c.policy().rrpv(12, 0), Some((15, 15)));
    // Hits: 0.
    h.hit(12, 0, Rt);
    assert_eq!(h.c.policy().rrpv(12, 0), Some((0, 15)));
    // Display moves RT's counter in RT's SRRIP leader (16).
    h.fill(16, 0, Display);
    assert_eq!(h.p().psel(Class::Rt), 512);
}

#[test]
fn gs_drrip_throttle_is_shared() {
    // psel=1: PSEL starts at 0; one fill in a Z SRRIP leader sets the MSB.
    let mut h: H<GsDrrip> = H::new("gs-drrip:psel=1,throttle=3");
    h.fill(0, 0, Z);
    assert_eq!(h.p().psel(Class::Z), 1);
    // BRRIP insertions 1, 2 at 3; the 3rd at 2. TEX's BRRIP leader (12)
    // shares the throttle with Z's followers.
    h.fill(1, 0, Z);
    h.fill(12, 0, Tex);
    h.fill(1, 1, Z);
    assert_eq!((h.rrpv(1, 0), h.rrpv(12, 0), h.rrpv(1, 1)), (3, 3, 2));
}
