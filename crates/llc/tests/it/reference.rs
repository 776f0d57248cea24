//! The four policies against deliberately simple reference models written
//! here from the paper's tables: a `Vec` of sets of `Vec<Line>`, plain
//! loops, counters in plain arrays, nothing shared with the implementation
//! but `Stream`. Random traces mix the z, tex, rt, display and other
//! streams over a few sets (samples, non-samples and dueling leaders) and a
//! few blocks per set, so that hits, evictions, halvings and every table
//! row happen. Engine and reference must agree on every stream's hits and
//! misses, every line's block, RRPV and state, and every bank's counters.

use crate::common::{cache, geometry, Rng};
use gfxcache_cache::{Cache, Geometry, Policy, PolicySpec, Stats};
use gfxcache_llc::counters::Counter;
use gfxcache_llc::policies::gs_drrip::GsDrrip;
use gfxcache_llc::policies::gspc::Gspc;
use gfxcache_llc::policies::gspztc::Gspztc;
use gfxcache_llc::policies::gspztc_tse::{Epochs, GspztcTse};
use gfxcache_trace::{Access, Op, Stream};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    GsDrrip,
    Gspztc,
    Tse,
    Gspc,
}

#[derive(Clone, Debug)]
struct Line {
    block: u64,
    rrpv: u32,
    /// Table policies: 0 = E0, 1 = E1, 2 = E>=2, 3 = RT (GSPZTC: 3 = RT
    /// bit set, 0 = clear). GS-DRRIP: unused.
    state: u32,
}

/// Counter slots in `Ref::cnt`.
const FZ: usize = 0;
const HZ: usize = 1;
const F0: usize = 2;
const H0: usize = 3;
const F1: usize = 4;
const H1: usize = 5;
const PROD: usize = 6;
const CONS: usize = 7;
const ACC: usize = 8;

struct Ref {
    kind: Kind,
    sets: Vec<Vec<Line>>,
    ways: usize,
    banks: usize,
    ucd: bool,
    // Table policies.
    t: u32,
    rt_hi: u32,
    rt_lo: u32,
    cmax: u32,
    accmax: u32,
    cnt: Vec<[u32; 9]>,
    // GS-DRRIP.
    max: u32,
    psel: [u32; 4],
    psel_max: u32,
    leaders: u32,
    throttle: u32,
    bip: u32,
    hits: [u64; Stream::COUNT],
    misses: [u64; Stream::COUNT],
}

fn param(spec: &PolicySpec, key: &str, default: u32) -> u32 {
    spec.params
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.parse().unwrap())
        .unwrap_or(default)
}

/// 0 = Z, 1 = TEX, 2 = RT, 3 = other.
fn class(s: Stream) -> usize {
    if s == Stream::Z {
        0
    } else if s == Stream::Tex {
        1
    } else if s == Stream::Rt || s == Stream::Display {
        2
    } else {
        3
    }
}

fn sample(set: usize) -> bool {
    let s = set % 1024;
    (0..16).any(|k| s == 65 * k)
}

impl Ref {
    fn new(text: &str, g: &Geometry) -> Ref {
        let spec: PolicySpec = text.parse().unwrap();
        let kind = match spec.name.as_str() {
            "gs-drrip" => Kind::GsDrrip,
            "gspztc" => Kind::Gspztc,
            "gspztc-tse" => Kind::Tse,
            "gspc" => Kind::Gspc,
            n => panic!(
                "registered policy '{n}' has no reference model: add one (a `Kind`) to \
                 tests/it/reference.rs"
            ),
        };
        let bits = if kind == Kind::GsDrrip {
            param(&spec, "bits", 2)
        } else {
            2
        };
        let psel_bits = param(&spec, "psel", 10);
        Ref {
            kind,
            sets: vec![Vec::new(); g.sets as usize],
            ways: g.ways as usize,
            banks: g.banks as usize,
            ucd: spec.ucd,
            t: param(&spec, "t", 8),
            rt_hi: param(&spec, "rt-hi", 16),
            rt_lo: param(&spec, "rt-lo", 8),
            cmax: (1 << param(&spec, "counter-bits", 8)) - 1,
            accmax: (1 << param(&spec, "acc-bits", 7)) - 1,
            cnt: vec![[0; 9]; g.banks as usize],
            max: (1 << bits) - 1,
            psel: [(1 << (psel_bits - 1)) - 1; 4],
            psel_max: (1 << psel_bits) - 1,
            leaders: param(&spec, "leaders", 32),
            throttle: param(&spec, "throttle", 32),
            bip: 0,
            hits: [0; Stream::COUNT],
            misses: [0; Stream::COUNT],
        }
    }

    /// GS-DRRIP leaders: (class, 1 = SRRIP leader / 2 = BRRIP leader).
    fn leader(&self, set: usize) -> Option<(usize, u32)> {
        let sets = self.sets.len();
        let l = (4 * self.leaders as usize).min(sets / 2);
        if l == 0 {
            return None;
        }
        let r = sets / l;
        let pair = set / r;
        if pair >= l {
            return None;
        }
        if set.is_multiple_of(r) {
            Some((pair % 4, 1))
        } else if set % r == r / 2 {
            Some((pair % 4, 2))
        } else {
            None
        }
    }

    fn bump(&mut self, bank: usize, which: &[usize]) {
        for &w in which {
            if self.cnt[bank][w] < self.cmax {
                self.cnt[bank][w] += 1;
            }
        }
        self.cnt[bank][ACC] += 1;
        if self.cnt[bank][ACC] == self.accmax {
            for w in 0..8 {
                self.cnt[bank][w] /= 2;
            }
            self.cnt[bank][ACC] = 0;
        }
    }

    fn above(&self, bank: usize, f: usize, h: usize) -> bool {
        self.cnt[bank][f] > self.t * self.cnt[bank][h]
    }

    fn access(&mut self, block: u64, stream: Stream) {
        let n = self.sets.len();
        let set = (block % n as u64) as usize;
        let bank = set % self.banks;
        let smp = sample(set);
        let c = class(stream);
        let tables = self.kind != Kind::GsDrrip;
        let gspc = self.kind == Kind::Gspc;
        let tse = self.kind == Kind::Tse || gspc;

        if let Some(w) = self.sets[set].iter().position(|l| l.block == block) {
            self.hits[stream.index()] += 1;
            let mut rrpv = 0;
            let mut state = self.sets[set][w].state;
            if tables {
                let mut ev: Vec<usize> = Vec::new();
                if c == 0 {
                    ev.push(HZ);
                } else if c == 2 {
                    state = 3;
                } else if c == 1 && !tse {
                    if state == 3 {
                        ev.push(F0);
                        state = 0;
                    } else {
                        ev.push(H0);
                    }
                } else if c == 1 {
                    if state == 3 {
                        ev.push(F0);
                        if gspc {
                            ev.push(CONS);
                        }
                        state = 0;
                        if !smp && self.above(bank, F0, H0) {
                            rrpv = 3;
                        }
                    } else if state == 0 {
                        ev.push(H0);
                        ev.push(F1);
                        state = 1;
                        if !smp && self.above(bank, F1, H1) {
                            rrpv = 3;
                        }
                    } else if state == 1 {
                        ev.push(H1);
                        state = 2;
                    } else {
                        state = 2;
                    }
                }
                if smp {
                    self.bump(bank, &ev);
                    rrpv = 0;
                }
            }
            self.sets[set][w].rrpv = rrpv;
            self.sets[set][w].state = state;
            return;
        }

        self.misses[stream.index()] += 1;
        if self.ucd && stream == Stream::Display {
            return;
        }
        let max = if tables { 3 } else { self.max };
        let way = if self.sets[set].len() < self.ways {
            self.sets[set].push(Line {
                block,
                rrpv: 0,
                state: 0,
            });
            self.sets[set].len() - 1
        } else {
            loop {
                if let Some(w) = self.sets[set].iter().position(|l| l.rrpv == max) {
                    break w;
                }
                for l in self.sets[set].iter_mut() {
                    l.rrpv += 1;
                }
            }
        };

        let (rrpv, state);
        if !tables {
            let brrip = match self.leader(set) {
                Some((lc, 1)) if lc == c => {
                    self.psel[c] = (self.psel[c] + 1).min(self.psel_max);
                    false
                }
                Some((lc, 2)) if lc == c => {
                    self.psel[c] = self.psel[c].saturating_sub(1);
                    true
                }
                _ => self.psel[c] > self.psel_max / 2,
            };
            rrpv = if brrip {
                self.bip += 1;
                if self.bip == self.throttle {
                    self.bip = 0;
                    self.max - 1
                } else {
                    self.max
                }
            } else {
                self.max - 1
            };
            state = 0;
        } else {
            let mut ev: Vec<usize> = Vec::new();
            let r;
            if c == 0 {
                ev.push(FZ);
                r = if self.above(bank, FZ, HZ) { 3 } else { 2 };
                state = if tse { 2 } else { 0 };
            } else if c == 1 {
                ev.push(F0);
                r = if self.above(bank, F0, H0) { 3 } else { 0 };
                state = 0;
            } else if c == 2 {
                state = 3;
                if gspc {
                    ev.push(PROD);
                    let (p, k) = (self.cnt[bank][PROD], self.cnt[bank][CONS]);
                    r = if p > self.rt_hi * k {
                        3
                    } else if p > self.rt_lo * k {
                        2
                    } else {
                        0
                    };
                } else {
                    r = 0;
                }
            } else {
                r = 2;
                state = if tse { 2 } else { 0 };
            }
            if smp {
                self.bump(bank, &ev);
                rrpv = 2;
            } else {
                rrpv = r;
            }
        }
        self.sets[set][way] = Line { block, rrpv, state };
    }
}

const STREAMS: [Stream; 8] = [
    Stream::Z,
    Stream::Tex,
    Stream::Tex,
    Stream::Rt,
    Stream::Display,
    Stream::Other,
    Stream::Vtx,
    Stream::Hiz,
];

/// `n` single-block accesses over a few sets of each kind and about
/// `2 * ways + 2` blocks per set; runs of one block by RT then TEX (render
/// to texture) so that consumption happens.
fn trace(seed: u64, n: usize, sets: u32, ways: u32) -> Vec<Access> {
    let mut rng = Rng::new(seed);
    let pick: Vec<u64> = [
        0u64, 1, 2, 3, 4, 8, 12, 16, 20, 24, 28, 65, 66, 130, 195, 260, 1023, 1024, 1089, 2047,
    ]
    .iter()
    .map(|s| s % u64::from(sets))
    .collect();
    let per_set = 2 * u64::from(ways) + 2;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let set = pick[rng.below(pick.len() as u64) as usize];
        let block = rng.below(per_set) * u64::from(sets) + set;
        let op = if rng.below(4) == 0 {
            Op::Write
        } else {
            Op::Read
        };
        if rng.below(8) == 0 {
            // Produce, then consume a few times.
            out.push(Access {
                addr: block * 64,
                size: 64,
                unit: 0,
                stream: Stream::Rt,
                op: Op::Write,
            });
            for _ in 0..rng.below(4) {
                out.push(Access::read(block * 64 + 8, Stream::Tex));
            }
            continue;
        }
        let stream = STREAMS[rng.below(STREAMS.len() as u64) as usize];
        out.push(Access {
            addr: block * 64 + rng.below(64),
            size: 1,
            unit: 0,
            stream,
            op,
        });
    }
    out
}

/// Runs `spec` on the engine (directly and through the registry) and the
/// reference; compares stats and lines; returns both for policy checks.
fn run<P: Policy>(spec: &str, g: Geometry, tr: &[Access]) -> (Cache<P>, Ref) {
    let mut engine: Cache<P> = cache(spec, g);
    engine.access_all(tr);
    let mut reg =
        gfxcache_llc::build_cache(&spec.parse().unwrap(), &g, &Default::default()).unwrap();
    reg.access_batch(tr);
    let r = reference(spec, g, tr);
    let what = format!("{spec} on {}x{}x{} banks", g.sets, g.ways, g.banks);
    assert_streams(engine.stats(), &r, &what);
    for s in Stream::ALL {
        let e = engine.stats().stream(s);
        assert_eq!(reg.stats().stream(s), e, "{what}: registry, stream {s}");
    }
    for (set, lines) in r.sets.iter().enumerate() {
        for w in 0..g.ways as usize {
            let want = lines.get(w).map(|l| l.block);
            let got = engine.line(set, w).map(|l| l.0);
            assert_eq!(got, want, "{what}: block of set {set} way {w}");
            if let Some(l) = lines.get(w) {
                let v = engine.policy().rrpv(set, w).unwrap().0;
                assert_eq!(u32::from(v), l.rrpv, "{what}: RRPV of set {set} way {w}");
            }
        }
    }
    (engine, r)
}

/// The reference model of `spec` after `tr`.
fn reference(spec: &str, g: Geometry, tr: &[Access]) -> Ref {
    let mut r = Ref::new(spec, &g);
    for a in tr {
        r.access(a.addr / 64, a.stream);
    }
    r
}

/// Every stream's hits and misses in `stats` are the reference's.
fn assert_streams(stats: &Stats, r: &Ref, what: &str) {
    for s in Stream::ALL {
        let e = stats.stream(s);
        let (h, m) = (r.hits[s.index()], r.misses[s.index()]);
        assert_eq!(
            (e.hits, e.misses),
            (h, m),
            "{what}: stream {s} (engine, ref)"
        );
    }
}

fn check_counters<const G: bool>(p: &Epochs<G>, r: &Ref, what: &str) {
    let pairs = [
        (Counter::FillZ, FZ),
        (Counter::HitZ, HZ),
        (Counter::Fill0, F0),
        (Counter::Hit0, H0),
        (Counter::Fill1, F1),
        (Counter::Hit1, H1),
        (Counter::Prod, PROD),
        (Counter::Cons, CONS),
    ];
    for b in 0..r.banks {
        for (c, i) in pairs {
            assert_eq!(p.counters(b).get(c), r.cnt[b][i], "{what}: bank {b} {c:?}");
        }
        assert_eq!(
            p.counters(b).acc_all(),
            r.cnt[b][ACC],
            "{what}: bank {b} ACC"
        );
    }
}

fn check_states<const G: bool>(e: &Cache<Epochs<G>>, r: &Ref, what: &str) {
    check_counters(e.policy(), r, what);
    for (set, lines) in r.sets.iter().enumerate() {
        for (w, l) in lines.iter().enumerate() {
            assert_eq!(
                e.policy().state(set, w) as u32,
                l.state,
                "{what}: state of set {set} way {w}"
            );
        }
    }
}

const GEOMETRIES: [(u32, u32, u32); 8] = [
    (1024, 4, 1),
    (1024, 4, 4),
    (2048, 16, 4),
    (1024, 1, 1),
    (1024, 7, 2),
    (2048, 2, 1),
    (1024, 16, 1),
    (64, 3, 1),
];

const N: usize = 6000;

#[test]
fn gspztc_equals_its_reference() {
    for (i, &(sets, ways, banks)) in GEOMETRIES.iter().enumerate() {
        let g = geometry(sets, ways, banks);
        let tr = trace(10 + i as u64, N, sets, ways);
        for spec in [
            "gspztc",
            "gspztc+ucd",
            "gspztc:t=1",
            "gspztc:t=2,acc-bits=4,counter-bits=3",
        ] {
            let (e, r) = run::<Gspztc>(spec, g, &tr);
            for b in 0..r.banks {
                let c = e.policy().counters(b);
                let got = [
                    c.get(Counter::FillZ),
                    c.get(Counter::HitZ),
                    c.get(Counter::FILL_TEX),
                    c.get(Counter::HIT_TEX),
                    c.acc_all(),
                ];
                let k = r.cnt[b];
                assert_eq!(
                    got,
                    [k[FZ], k[HZ], k[F0], k[H0], k[ACC]],
                    "{spec}: bank {b}"
                );
            }
            for (set, lines) in r.sets.iter().enumerate() {
                for (w, l) in lines.iter().enumerate() {
                    assert_eq!(e.policy().rt_bit(set, w), l.state == 3, "{spec}: RT bit");
                }
            }
        }
    }
}

#[test]
fn gspztc_tse_equals_its_reference() {
    for (i, &(sets, ways, banks)) in GEOMETRIES.iter().enumerate() {
        let g = geometry(sets, ways, banks);
        let tr = trace(20 + i as u64, N, sets, ways);
        for spec in [
            "gspztc-tse",
            "gspztc-tse+ucd",
            "gspztc-tse:t=1",
            "gspztc-tse:t=2,acc-bits=4,counter-bits=3",
        ] {
            let (e, r) = run::<GspztcTse>(spec, g, &tr);
            check_states(&e, &r, spec);
        }
    }
}

#[test]
fn gspc_equals_its_reference() {
    for (i, &(sets, ways, banks)) in GEOMETRIES.iter().enumerate() {
        let g = geometry(sets, ways, banks);
        let tr = trace(30 + i as u64, N, sets, ways);
        for spec in [
            "gspc",
            "gspc+ucd",
            "gspc:t=1,rt-hi=2,rt-lo=1",
            "gspc+ucd:t=2,acc-bits=4,counter-bits=3,rt-hi=4,rt-lo=2",
        ] {
            let (e, r) = run::<Gspc>(spec, g, &tr);
            check_states(&e, &r, spec);
        }
    }
}

#[test]
fn gs_drrip_equals_its_reference() {
    use gfxcache_llc::class::Class;
    for (i, &(sets, ways, banks)) in GEOMETRIES.iter().enumerate() {
        let g = geometry(sets, ways, banks);
        let tr = trace(40 + i as u64, N, sets, ways);
        for spec in [
            "gs-drrip",
            "gs-drrip+ucd",
            "gs-drrip:bits=4",
            "gs-drrip:psel=2,leaders=2,throttle=3",
            "gs-drrip+ucd:bits=3,psel=1,leaders=1,throttle=2",
        ] {
            let (e, r) = run::<GsDrrip>(spec, g, &tr);
            for c in Class::ALL {
                assert_eq!(e.policy().psel(c), r.psel[c.index()], "{spec}: PSEL {c:?}");
            }
        }
    }
}

/// Every policy this crate registers, built by name through the registry,
/// against its reference model on every geometry, with and without
/// `+ucd`: a policy registered without a reference model fails here, by
/// name. (The tests above also check each policy's own state.)
#[test]
fn every_registered_policy_equals_its_reference() {
    for p in gfxcache_llc::POLICIES {
        for (i, &(sets, ways, banks)) in GEOMETRIES.iter().enumerate() {
            let g = geometry(sets, ways, banks);
            let tr = trace(50 + i as u64, N, sets, ways);
            for spec in [p.name.to_string(), format!("{}+ucd", p.name)] {
                let mut reg =
                    gfxcache_llc::build_cache(&spec.parse().unwrap(), &g, &Default::default())
                        .unwrap();
                reg.access_batch(&tr);
                let what = format!("{spec} on {sets}x{ways}x{banks} banks");
                assert_streams(reg.stats(), &reference(&spec, g, &tr), &what);
            }
        }
    }
}

/// The traces exercise what they are meant to: every table-4 transition,
/// consumption, halving and both RRPV-3 and RRPV-0 texture fills.
#[test]
fn the_traces_reach_every_row() {
    let g = geometry(1024, 4, 1);
    let tr = trace(20, N, 1024, 4);
    let (e, r) = run::<Gspc>("gspc:acc-bits=4", g, &tr);
    let rep = gfxcache_cache::Policy::report(e.policy());
    let get = |k: &str| rep.iter().find(|(n, _)| *n == k).unwrap().1;
    assert!(get("rt_to_tex_hits") > 10.0);
    assert!(get("tex_fills_at_max") > 0.0 && get("tex_fills_at_max") < 1.0);
    assert!(r.cnt[0][ACC] < 15);
    let states: std::collections::HashSet<u32> = r.sets.iter().flatten().map(|l| l.state).collect();
    assert_eq!(states.len(), 4, "{states:?}");
}
