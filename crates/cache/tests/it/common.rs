//! Shared by the integration tests: trace generators and a deliberately
//! simple reference simulator, written apart from the engine and the
//! policies (ordered scans, explicit time stamps, one-step ageing, OPT by
//! scanning the trace forward) so that the two can be checked against each
//! other.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;

use gfxcache_cache::{
    build_cache, CacheSim, Counts, Env, Geometry, IndexFn, NextUseBuilder, PolicySpec, Stats,
    WritePolicy,
};
use gfxcache_trace::{Access, Op, Stream};

/// A small deterministic generator for test traces (SplitMix64).
pub struct TestRng(pub u64);

impl TestRng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Streams a generated trace draws from; `Rt` and `Tex` share one surface,
/// so there is inter-stream reuse.
pub const STREAMS: [Stream; 5] = [
    Stream::Tex,
    Stream::Rt,
    Stream::Z,
    Stream::Display,
    Stream::Vtx,
];

/// A random trace of `n` accesses over about `footprint` blocks of `block`
/// bytes: several streams, reads and writes, skewed reuse, unaligned
/// multi-block accesses, some high addresses.
pub fn random_trace(seed: u64, n: usize, footprint: u64, block: u32) -> Vec<Access> {
    let mut rng = TestRng(seed);
    let block = u64::from(block);
    let footprint = footprint.max(1);
    let mut out = Vec::with_capacity(n);
    let mut recent: Vec<u64> = Vec::new();
    for _ in 0..n {
        let stream = STREAMS[rng.below(STREAMS.len() as u64) as usize];
        let base: u64 = match stream {
            Stream::Rt | Stream::Tex => 0x10_0000,
            Stream::Z => 0x1_0000_0000,
            Stream::Display => 0x40_0000,
            _ => 0xFFFF_FF00_0000_0000,
        };
        let addr = if !recent.is_empty() && rng.chance(30) {
            recent[rng.below(recent.len() as u64) as usize]
        } else {
            // Skewed towards low block numbers: min of two uniforms.
            let a = rng.below(footprint);
            let b = rng.below(footprint);
            let blk = if rng.chance(50) { a.min(b) } else { a };
            base + blk * block + rng.below(block)
        };
        if recent.len() < 16 {
            recent.push(addr);
        } else {
            let i = rng.below(16) as usize;
            recent[i] = addr;
        }
        let size = match rng.below(10) {
            0 => 0,
            1 => (2 * block + rng.below(block)) as u32,
            2 => block as u32,
            _ => 1 + rng.below(8) as u32,
        };
        let op = if rng.chance(25) { Op::Write } else { Op::Read };
        out.push(Access {
            addr,
            size,
            unit: rng.below(4) as u16,
            stream,
            op,
        });
    }
    out
}

/// Block addresses an access touches, in order (the reference's own split).
pub fn blocks_of(a: &Access, block: u32) -> Vec<u64> {
    let b = u64::from(block);
    let first = a.addr / b;
    let last_byte = a.addr.saturating_add(u64::from(a.size.max(1)) - 1);
    let last = last_byte / b;
    (first..=last).collect()
}

pub fn geometry(
    block: u32,
    sets: u32,
    ways: u32,
    banks: u32,
    xor: bool,
    write: WritePolicy,
    allocate: bool,
) -> Geometry {
    let g = Geometry::new(block, sets, ways)
        .unwrap()
        .with_banks(banks)
        .unwrap();
    let g = if xor {
        g.with_index(IndexFn::XorFold).unwrap()
    } else {
        g
    };
    g.with_write(write, allocate)
}

/// The next-use environment for `trace` at `g`'s block size.
pub fn env_for(trace: &[Access], g: &Geometry) -> Env {
    let mut b = NextUseBuilder::new(g.block);
    b.push_all(trace).unwrap();
    Env {
        next_use: Some(Arc::new(b.finish())),
    }
}

/// Runs `spec` on `trace` through the registry.
pub fn run_registry(spec: &str, g: &Geometry, trace: &[Access]) -> Box<dyn CacheSim> {
    let spec: PolicySpec = spec.parse().unwrap();
    let env = env_for(trace, g);
    let mut c = build_cache(&spec, g, &env).unwrap();
    c.access_batch(trace);
    c
}

// ---------------------------------------------------------------------
// The reference simulator.
// ---------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Lru,
    Fifo,
    Mru,
    Random,
    Nru,
    Srrip,
    Brrip,
    Drrip,
    Ship,
    Opt,
}

/// Everything a reference policy may be configured with.
#[derive(Clone, Debug)]
pub struct RefConfig {
    pub kind: Kind,
    pub ucd: bool,
    pub seed: u64,
    pub bits: u32,
    pub throttle: u64,
    pub psel_bits: u32,
    pub leaders: u32,
    pub ship_bits: u32,
    pub ship_init: u32,
    pub bypass: bool,
}

impl RefConfig {
    /// The configuration a spec string describes (defaults as documented).
    pub fn from_spec(text: &str) -> RefConfig {
        let spec: PolicySpec = text.parse().unwrap();
        let kind = match spec.name.as_str() {
            "lru" => Kind::Lru,
            "fifo" => Kind::Fifo,
            "mru" => Kind::Mru,
            "random" => Kind::Random,
            "nru" => Kind::Nru,
            "srrip" => Kind::Srrip,
            "brrip" => Kind::Brrip,
            "drrip" => Kind::Drrip,
            "ship-mem" => Kind::Ship,
            "opt" => Kind::Opt,
            other => panic!(
                "policy '{other}' has no reference model: add one to tests/it/common.rs \
                 (RefConfig::from_spec)"
            ),
        };
        let get = |k: &str, d: u64| -> u64 {
            spec.params
                .iter()
                .find(|(pk, _)| pk == k)
                .map(|(_, v)| v.parse().unwrap())
                .unwrap_or(d)
        };
        RefConfig {
            kind,
            ucd: spec.ucd,
            seed: get("seed", 1),
            bits: if kind == Kind::Nru {
                1
            } else {
                get("bits", 2) as u32
            },
            throttle: get("throttle", 32),
            psel_bits: get("psel", 10) as u32,
            leaders: get("leaders", 32) as u32,
            ship_bits: if kind == Kind::Ship {
                get("bits", 3) as u32
            } else {
                3
            },
            ship_init: get("init", 1) as u32,
            bypass: spec
                .params
                .iter()
                .find(|(k, _)| k == "bypass")
                .map(|(_, v)| v == "true")
                .unwrap_or(true),
        }
    }
}

#[derive(Clone, Debug)]
pub struct RefLine {
    pub tag: u64,
    pub dirty: bool,
    pub owner: Stream,
    pub filled_at: u64,
    pub used_at: u64,
    pub rrpv: u32,
    pub sig: u64,
    pub reused: bool,
}

pub struct RefCache {
    pub g: Geometry,
    pub cfg: RefConfig,
    /// `sets[s][w]`, `None` while invalid.
    pub sets: Vec<Vec<Option<RefLine>>>,
    pub stats: [Counts; Stream::COUNT],
    pub clock: u64,
    rng: u64,
    psel: i64,
    bip: u64,
    shct: HashMap<(u64, u64), u32>,
    pub fills: u64,
    pub fills_at_max: u64,
}

impl RefCache {
    pub fn new(g: Geometry, cfg: RefConfig) -> RefCache {
        RefCache {
            sets: vec![vec![None; g.ways as usize]; g.sets as usize],
            stats: [Counts::default(); Stream::COUNT],
            clock: 0,
            rng: cfg.seed,
            psel: (1i64 << (cfg.psel_bits - 1)) - 1,
            bip: 0,
            shct: HashMap::new(),
            fills: 0,
            fills_at_max: 0,
            g,
            cfg,
        }
    }

    pub fn psel(&self) -> i64 {
        self.psel
    }

    fn set_index(&self, block: u64) -> usize {
        let sets = u64::from(self.g.sets);
        match self.g.index {
            IndexFn::Modulo => (block % sets) as usize,
            IndexFn::XorFold => {
                let bits = sets.trailing_zeros();
                if bits == 0 {
                    return 0;
                }
                let mut set = 0;
                let mut i = 0;
                while i < 64 {
                    set ^= (u128::from(block) >> i) as u64 % sets;
                    i += bits;
                }
                set as usize
            }
        }
    }

    fn bank(&self, set: usize) -> u64 {
        set as u64 % u64::from(self.g.banks)
    }

    fn max_rrpv(&self) -> u32 {
        (1 << self.cfg.bits) - 1
    }

    fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn signature(&self, block: u64) -> u64 {
        let byte = block * u64::from(self.g.block);
        (byte >> 14) & 0x3FFF
    }

    fn counter(&mut self, bank: u64, sig: u64) -> &mut u32 {
        let init = self.cfg.ship_init;
        self.shct.entry((bank, sig)).or_insert(init)
    }

    /// The DRRIP role of a set: 1 SRRIP leader, 2 BRRIP leader, 0 follower.
    fn role(&self, set: usize) -> u32 {
        let sets = self.g.sets as usize;
        let l = (self.cfg.leaders as usize).min(sets / 2);
        if l == 0 {
            return 0;
        }
        let r = sets / l;
        if set / r < l && set.is_multiple_of(r) {
            1
        } else if set / r < l && set % r == r / 2 {
            2
        } else {
            0
        }
    }

    /// Next access to `block` after block access `from`, scanning forward.
    fn next_use(blocks: &[u64], from: usize, block: u64) -> usize {
        blocks[from + 1..]
            .iter()
            .position(|&b| b == block)
            .map(|p| from + 1 + p)
            .unwrap_or(usize::MAX)
    }

    /// Runs the whole trace.
    pub fn run(&mut self, trace: &[Access]) {
        let blocks: Vec<(u64, Stream, bool)> = trace
            .iter()
            .flat_map(|a| {
                blocks_of(a, self.g.block)
                    .into_iter()
                    .map(move |b| (b, a.stream, a.op == Op::Write))
            })
            .collect();
        let only: Vec<u64> = blocks.iter().map(|b| b.0).collect();
        for (i, &(block, stream, write)) in blocks.iter().enumerate() {
            self.access(&only, i, block, stream, write);
        }
    }

    fn access(&mut self, blocks: &[u64], i: usize, block: u64, stream: Stream, write: bool) {
        self.clock += 1;
        let now = self.clock;
        let set = self.set_index(block);
        let bank = self.bank(set);
        let wb = self.g.write == WritePolicy::WriteBack;
        let st = stream.index();
        self.stats[st].accesses += 1;

        let hit_way = self.sets[set]
            .iter()
            .position(|l| l.as_ref().is_some_and(|l| l.tag == block));
        if let Some(w) = hit_way {
            self.stats[st].hits += 1;
            if write && !wb {
                self.stats[st].write_throughs += 1;
            }
            let kind = self.cfg.kind;
            let mut ship_sig = None;
            {
                let line = self.sets[set][w].as_mut().unwrap();
                if write && wb {
                    line.dirty = true;
                    line.owner = stream;
                }
                line.used_at = now;
                line.rrpv = 0;
                if kind == Kind::Ship {
                    line.reused = true;
                    ship_sig = Some(line.sig);
                }
            }
            if let Some(sig) = ship_sig {
                let max = (1 << self.cfg.ship_bits) - 1;
                let c = self.counter(bank, sig);
                if *c < max {
                    *c += 1;
                }
            }
            return;
        }

        self.stats[st].misses += 1;
        let bypass_forced =
            (self.cfg.ucd && stream == Stream::Display) || (write && !self.g.write_allocate);
        if bypass_forced {
            self.stats[st].bypasses += 1;
            if write {
                self.stats[st].write_throughs += 1;
            }
            return;
        }

        // Where the block goes: the lowest invalid way, or a victim.
        let way = match self.sets[set].iter().position(|l| l.is_none()) {
            Some(w) => w,
            None => match self.choose_victim(blocks, i, set, block) {
                Some(w) => {
                    let old = self.sets[set][w].take().unwrap();
                    let o = old.owner.index();
                    self.stats[o].evictions += 1;
                    if old.dirty {
                        self.stats[o].writebacks += 1;
                    }
                    if self.cfg.kind == Kind::Ship && !old.reused {
                        let c = self.counter(bank, old.sig);
                        *c = c.saturating_sub(1);
                    }
                    w
                }
                None => {
                    self.stats[st].bypasses += 1;
                    if write {
                        self.stats[st].write_throughs += 1;
                    }
                    return;
                }
            },
        };
        if write && !wb {
            self.stats[st].write_throughs += 1;
        }
        self.stats[st].fills += 1;
        let rrpv = self.insertion_rrpv(set, bank, block);
        self.fills += 1;
        let at_max = match self.cfg.kind {
            Kind::Ship => rrpv == 3,
            _ => rrpv == self.max_rrpv(),
        };
        if at_max {
            self.fills_at_max += 1;
        }
        self.sets[set][way] = Some(RefLine {
            tag: block,
            dirty: write && wb,
            owner: stream,
            filled_at: now,
            used_at: now,
            rrpv,
            sig: self.signature(block),
            reused: false,
        });
    }

    fn brrip_insertion(&mut self) -> u32 {
        self.bip += 1;
        if self.bip == self.cfg.throttle {
            self.bip = 0;
            self.max_rrpv() - 1
        } else {
            self.max_rrpv()
        }
    }

    fn insertion_rrpv(&mut self, set: usize, bank: u64, block: u64) -> u32 {
        match self.cfg.kind {
            Kind::Nru => 0,
            Kind::Srrip => self.max_rrpv() - 1,
            Kind::Brrip => self.brrip_insertion(),
            Kind::Drrip => {
                let psel_max = (1i64 << self.cfg.psel_bits) - 1;
                let msb = 1i64 << (self.cfg.psel_bits - 1);
                let use_brrip = match self.role(set) {
                    1 => {
                        self.psel = (self.psel + 1).min(psel_max);
                        false
                    }
                    2 => {
                        self.psel = (self.psel - 1).max(0);
                        true
                    }
                    _ => self.psel & msb != 0,
                };
                if use_brrip {
                    self.brrip_insertion()
                } else {
                    self.max_rrpv() - 1
                }
            }
            Kind::Ship => {
                let sig = self.signature(block);
                if *self.counter(bank, sig) == 0 {
                    3
                } else {
                    2
                }
            }
            _ => 0,
        }
    }

    fn choose_victim(&mut self, blocks: &[u64], i: usize, set: usize, block: u64) -> Option<usize> {
        let lines: Vec<RefLine> = self.sets[set].iter().map(|l| l.clone().unwrap()).collect();
        let n = lines.len();
        match self.cfg.kind {
            Kind::Lru => (0..n).min_by_key(|&w| (lines[w].used_at, w)),
            Kind::Fifo => (0..n).min_by_key(|&w| (lines[w].filled_at, w)),
            Kind::Mru => (0..n).max_by_key(|&w| (lines[w].used_at, std::cmp::Reverse(w))),
            Kind::Random => {
                let r = self.next_random();
                Some(((u128::from(r) * n as u128) >> 64) as usize)
            }
            Kind::Nru | Kind::Srrip | Kind::Brrip | Kind::Drrip | Kind::Ship => {
                let max = if self.cfg.kind == Kind::Ship {
                    3
                } else {
                    self.max_rrpv()
                };
                loop {
                    if let Some(w) = self.sets[set]
                        .iter()
                        .position(|l| l.as_ref().unwrap().rrpv == max)
                    {
                        return Some(w);
                    }
                    for l in self.sets[set].iter_mut() {
                        l.as_mut().unwrap().rrpv += 1;
                    }
                }
            }
            Kind::Opt => {
                // Next use of every resident, found by scanning forward.
                let mut want: HashMap<u64, usize> =
                    lines.iter().map(|l| (l.tag, usize::MAX)).collect();
                let mut missing = want.len();
                for (j, b) in blocks.iter().enumerate().skip(i + 1) {
                    if missing == 0 {
                        break;
                    }
                    if let Some(v) = want.get_mut(b) {
                        if *v == usize::MAX {
                            *v = j;
                            missing -= 1;
                        }
                    }
                }
                let mut far = 0;
                let mut victim = 0;
                for (w, l) in lines.iter().enumerate() {
                    let v = want[&l.tag];
                    if w == 0 || v > far {
                        far = v;
                        victim = w;
                    }
                }
                let incoming = Self::next_use(blocks, i, block);
                if self.cfg.bypass && incoming >= far {
                    None
                } else {
                    Some(victim)
                }
            }
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            per_stream: self.stats,
        }
    }

    /// `(block, dirty)` of every way, set by set.
    pub fn contents(&self) -> Vec<Vec<Option<(u64, bool)>>> {
        self.sets
            .iter()
            .map(|s| {
                s.iter()
                    .map(|l| l.as_ref().map(|l| (l.tag, l.dirty)))
                    .collect()
            })
            .collect()
    }
}

/// Compares two `Stats`, naming the first stream and field that differs.
pub fn assert_stats_eq(engine: &Stats, reference: &Stats, what: &str) {
    for s in Stream::ALL {
        let (e, r) = (engine.stream(s), reference.stream(s));
        assert_eq!(e, r, "{what}: stream {s} differs (engine, reference)");
    }
}
