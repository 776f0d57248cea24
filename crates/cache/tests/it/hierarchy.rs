//! The cache hierarchy (`gfxcache_cache::hierarchy`) against a deliberately
//! simple reference written here from the module's rules (a list per set,
//! most recent first, LRU at every level), on random traces and random
//! hierarchies of every inclusion policy; its invariants under every
//! policy; and a one-level hierarchy against the single-level engine.

use std::collections::BTreeMap;
use std::sync::Arc;

use gfxcache_cache::hierarchy::{
    Hierarchy, HierarchyConfig, Inclusion, LevelConfig, LevelCounts, MemoryCounts,
};
use gfxcache_cache::{build_cache, Env, Geometry, NextUseBuilder, PolicySpec, POLICIES};
use gfxcache_trace::{Access, Op, Stream};
use proptest::prelude::*;

const STREAMS: [Stream; 4] = [Stream::Tex, Stream::Rt, Stream::Z, Stream::Display];

/// One level of the reference: per set, (block, dirty, owner), most
/// recent first.
struct RefLevel {
    sets: u64,
    ways: usize,
    inclusion: Option<Inclusion>,
    ucd: bool,
    lines: Vec<Vec<(u64, bool, Stream)>>,
    counts: BTreeMap<Stream, LevelCounts>,
}

struct Reference {
    levels: Vec<RefLevel>,
    memory: BTreeMap<Stream, MemoryCounts>,
}

impl RefLevel {
    fn set(&mut self, b: u64) -> &mut Vec<(u64, bool, Stream)> {
        &mut self.lines[(b % self.sets) as usize]
    }
    fn find(&mut self, b: u64) -> Option<usize> {
        self.set(b).iter().position(|l| l.0 == b)
    }
    fn count(&mut self, s: Stream) -> &mut LevelCounts {
        self.counts.entry(s).or_default()
    }
    /// Inserts most recent, evicting the least recent of a full set.
    fn insert(&mut self, line: (u64, bool, Stream)) -> Option<(u64, bool, Stream)> {
        let ways = self.ways;
        self.count(line.2).fills += 1;
        let set = self.set(line.0);
        let victim = (set.len() == ways).then(|| set.pop().unwrap());
        set.insert(0, line);
        if let Some(v) = victim {
            let c = self.count(v.2);
            c.evictions += 1;
            c.writebacks += u64::from(v.1);
        }
        victim
    }
}

impl Reference {
    fn new(config: &HierarchyConfig) -> Reference {
        Reference {
            levels: config
                .levels
                .iter()
                .map(|l| RefLevel {
                    sets: u64::from(l.geometry.sets),
                    ways: l.geometry.ways as usize,
                    inclusion: l.inclusion,
                    ucd: l.policy.ucd,
                    lines: vec![Vec::new(); l.geometry.sets as usize],
                    counts: BTreeMap::new(),
                })
                .collect(),
            memory: BTreeMap::new(),
        }
    }

    fn access(&mut self, a: &Access) {
        let (first, last) = a.block_range(6);
        for b in first..=last {
            self.demand(0, b, a.stream, a.op.is_write(), false);
        }
    }

    /// (handed up, dirty).
    fn demand(&mut self, i: usize, b: u64, s: Stream, write: bool, up: bool) -> (bool, bool) {
        if i == self.levels.len() {
            let m = self.memory.entry(s).or_default();
            if write {
                m.writes += 1;
            } else {
                m.reads += 1;
            }
            return (false, false);
        }
        let exclusive = self.levels[i].inclusion == Some(Inclusion::Exclusive);
        let l = &mut self.levels[i];
        if let Some(w) = l.find(b) {
            let c = l.count(s);
            c.accesses += 1;
            c.hits += 1;
            let set = l.set(b);
            let mut line = set.remove(w);
            if write {
                line = (b, true, s);
            }
            if up && exclusive {
                return (true, line.1);
            }
            set.insert(0, line);
            return (false, false);
        }
        let c = l.count(s);
        c.accesses += 1;
        c.misses += 1;
        if up && exclusive {
            return self.demand(i + 1, b, s, write, true);
        }
        let allocates = !(l.ucd && s == Stream::Display);
        let keeps = up || allocates;
        let (handed, dirty) = self.demand(i + 1, b, s, write && !keeps, keeps);
        if !allocates {
            self.levels[i].count(s).bypasses += 1;
            if up {
                return (handed, dirty);
            }
            if handed || dirty {
                self.send_down(i, (b, dirty, s));
            }
            return (false, false);
        }
        if let Some(v) = self.levels[i].insert((b, write || dirty, s)) {
            self.evicted(i, v);
        }
        (false, false)
    }

    fn evicted(&mut self, i: usize, mut v: (u64, bool, Stream)) {
        if self.levels[i].inclusion == Some(Inclusion::Inclusive) {
            for j in 0..i {
                if let Some(w) = self.levels[j].find(v.0) {
                    let copy = self.levels[j].set(v.0).remove(w);
                    self.levels[i].count(copy.2).back_invalidations += 1;
                    if copy.1 && !v.1 {
                        self.levels[i].count(v.2).writebacks += 1;
                    }
                    v.1 |= copy.1;
                }
            }
        }
        self.send_down(i, v);
    }

    fn send_down(&mut self, i: usize, v: (u64, bool, Stream)) {
        if i + 1 == self.levels.len() {
            if v.1 {
                self.memory.entry(v.2).or_default().writes += 1;
            }
        } else if v.1 || self.levels[i + 1].inclusion == Some(Inclusion::Exclusive) {
            self.absorb(i + 1, v);
        }
    }

    fn absorb(&mut self, k: usize, mut v: (u64, bool, Stream)) {
        self.levels[k].count(v.2).received += 1;
        if self.levels[k].find(v.0).is_none() {
            for m in k + 1..self.levels.len() {
                if self.levels[m].inclusion != Some(Inclusion::Exclusive) {
                    break;
                }
                if let Some(w) = self.levels[m].find(v.0) {
                    v.1 |= self.levels[m].set(v.0).remove(w).1;
                }
            }
        }
        let l = &mut self.levels[k];
        if let Some(w) = l.find(v.0) {
            if v.1 {
                l.set(v.0)[w] = (v.0, true, v.2);
            }
            return;
        }
        if l.ucd && v.2 == Stream::Display {
            self.send_down(k, v);
            return;
        }
        if let Some(x) = self.levels[k].insert(v) {
            self.evicted(k, x);
        }
    }

    fn lines(&self, i: usize) -> Vec<(u64, bool)> {
        let mut all: Vec<(u64, bool)> = self.levels[i]
            .lines
            .iter()
            .flatten()
            .map(|l| (l.0, l.1))
            .collect();
        all.sort_unstable();
        all
    }
}

fn counts_of(h: &Hierarchy) -> Vec<BTreeMap<String, LevelCounts>> {
    h.report()
        .levels
        .iter()
        .map(|l| {
            l.per_stream
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect()
        })
        .collect()
}

fn sorted(mut v: Vec<(u64, bool)>) -> Vec<(u64, bool)> {
    v.sort_unstable();
    v
}

/// A level of `sets` x `ways` 64-byte blocks.
fn level(i: usize, sets: u32, ways: u32, policy: &str, inclusion: Inclusion) -> LevelConfig {
    LevelConfig {
        name: format!("L{}", i + 1),
        geometry: Geometry::new(64, sets, ways).unwrap(),
        policy: policy.parse().unwrap(),
        inclusion: (i > 0).then_some(inclusion),
    }
}

fn trace_of(raw: &[(u64, usize, bool, bool)]) -> Vec<Access> {
    raw.iter()
        .map(|&(block, stream, write, span)| Access {
            addr: block * 64 + if span { 40 } else { 0 },
            size: if span { 64 } else { 8 },
            unit: 0,
            stream: STREAMS[stream],
            op: if write { Op::Write } else { Op::Read },
        })
        .collect()
}

fn inclusion_of(n: usize) -> Inclusion {
    Inclusion::ALL[n % 3]
}

/// Checks the invariants of every level after an access.
fn check_invariants(h: &Hierarchy, config: &HierarchyConfig) -> Result<(), TestCaseError> {
    for (i, l) in config.levels.iter().enumerate() {
        let here = h.lines(i);
        let mut blocks: Vec<u64> = here.iter().map(|x| x.0).collect();
        blocks.sort_unstable();
        let n = blocks.len();
        blocks.dedup();
        prop_assert_eq!(n, blocks.len(), "a block twice in {}", l.name);
        match l.inclusion {
            Some(Inclusion::Inclusive) => {
                for j in 0..i {
                    for (b, _) in h.lines(j) {
                        prop_assert!(
                            h.contains(i, b),
                            "{:#x} in {} but not in inclusive {}",
                            b,
                            config.levels[j].name,
                            l.name
                        );
                    }
                }
            }
            Some(Inclusion::Exclusive) => {
                for (b, _) in h.lines(i - 1) {
                    prop_assert!(
                        !h.contains(i, b),
                        "{:#x} in both {} and exclusive {}",
                        b,
                        config.levels[i - 1].name,
                        l.name
                    );
                }
            }
            _ => {}
        }
    }
    for level in h.report().levels {
        prop_assert_eq!(
            level.counts.hits + level.counts.misses,
            level.counts.accesses
        );
        for c in level.per_stream.values() {
            prop_assert_eq!(c.hits + c.misses, c.accesses);
        }
    }
    Ok(())
}

fn hierarchy_strategy(policies: &'static [&'static str]) -> impl Strategy<Value = HierarchyConfig> {
    prop::collection::vec(
        (
            0u32..3,
            1u32..5,
            0usize..3,
            any::<bool>(),
            0..policies.len(),
        ),
        1..4,
    )
    .prop_map(move |levels| HierarchyConfig {
        levels: levels
            .into_iter()
            .enumerate()
            .map(|(i, (sets, ways, inc, ucd, p))| {
                let inclusion = inclusion_of(inc);
                // Inclusive levels hold every block above: no `+ucd` there.
                let mut l = level(i, 1 << sets, ways, policies[p], inclusion);
                l.policy.ucd = ucd && inclusion != Inclusion::Inclusive;
                l
            })
            .collect(),
    })
}

fn trace_strategy() -> impl Strategy<Value = Vec<(u64, usize, bool, bool)>> {
    prop::collection::vec(
        (
            0u64..48,
            0usize..STREAMS.len(),
            any::<bool>(),
            prop::bool::weighted(0.1),
        ),
        1..400,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// LRU at every level: every count per level and stream, memory's
    /// traffic and every level's contents equal the reference's after
    /// every access, and the invariants hold throughout.
    #[test]
    fn lru_hierarchies_equal_the_reference(
        config in hierarchy_strategy(&["lru"]),
        raw in trace_strategy(),
    ) {
        let trace = trace_of(&raw);
        let mut h = Hierarchy::build(&config, POLICIES.iter(), &Env::default()).unwrap();
        let mut r = Reference::new(&config);
        for a in &trace {
            h.access_all(std::slice::from_ref(a));
            r.access(a);
            for i in 0..config.levels.len() {
                prop_assert_eq!(sorted(h.lines(i)), r.lines(i), "{}", config.levels[i].name);
            }
            check_invariants(&h, &config)?;
        }
        let want: Vec<BTreeMap<String, LevelCounts>> = r
            .levels
            .iter()
            .map(|l| {
                l.counts
                    .iter()
                    .filter(|(_, c)| **c != LevelCounts::default())
                    .map(|(s, c)| (s.name().to_string(), *c))
                    .collect()
            })
            .collect();
        prop_assert_eq!(counts_of(&h), want);
        let memory: BTreeMap<String, MemoryCounts> = r
            .memory
            .iter()
            .filter(|(_, m)| **m != MemoryCounts::default())
            .map(|(s, m)| (s.name().to_string(), *m))
            .collect();
        let report = h.report();
        let got: BTreeMap<String, MemoryCounts> = report
            .memory_per_stream
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        prop_assert_eq!(got, memory);
    }

    /// Whole batches give what access-by-access feeding gives.
    #[test]
    fn batches_equal_single_accesses(
        config in hierarchy_strategy(&["lru", "drrip", "fifo", "srrip"]),
        raw in trace_strategy(),
    ) {
        let trace = trace_of(&raw);
        let mut whole = Hierarchy::build(&config, POLICIES.iter(), &Env::default()).unwrap();
        whole.access_all(&trace);
        let mut one = Hierarchy::build(&config, POLICIES.iter(), &Env::default()).unwrap();
        for a in &trace {
            one.access_all(std::slice::from_ref(a));
        }
        prop_assert_eq!(whole.report(), one.report());
    }

    /// The invariants under every policy (OPT only first), any mix.
    #[test]
    fn invariants_hold_under_every_policy(
        config in hierarchy_strategy(&["lru", "fifo", "mru", "random", "nru", "srrip", "brrip",
                                        "drrip:leaders=1", "ship-mem"]),
        raw in trace_strategy(),
    ) {
        let trace = trace_of(&raw);
        let mut h = Hierarchy::build(&config, POLICIES.iter(), &Env::default()).unwrap();
        for a in &trace {
            h.access_all(std::slice::from_ref(a));
            check_invariants(&h, &config)?;
        }
    }
}

/// Next uses of `trace` at 64-byte blocks.
fn env_for(trace: &[Access]) -> Env {
    let mut b = NextUseBuilder::new(64);
    b.push_all(trace).unwrap();
    Env {
        next_use: Some(Arc::new(b.finish())),
    }
}

#[test]
fn one_level_equals_the_single_level_engine_for_every_policy() {
    let raw: Vec<(u64, usize, bool, bool)> = (0..20_000u64)
        .map(|i| {
            let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
            (
                (x % 3000).min(x % 700),
                (x >> 20) as usize % 4,
                x >> 62 == 0,
                i % 11 == 0,
            )
        })
        .collect();
    let trace = trace_of(&raw);
    let env = env_for(&trace);
    for (sets, ways) in [(64, 16), (16, 4), (1, 100), (12, 3)] {
        for p in POLICIES.iter() {
            for spec in [p.name.to_string(), format!("{}+ucd", p.name)] {
                let spec: PolicySpec = spec.parse().unwrap();
                let g = Geometry::new(64, sets, ways).unwrap();
                let mut sim = build_cache(&spec, &g, &env).unwrap();
                sim.access_batch(&trace);
                let config = HierarchyConfig {
                    levels: vec![LevelConfig {
                        name: "L1".into(),
                        geometry: g,
                        policy: spec.clone(),
                        inclusion: None,
                    }],
                };
                let mut h = Hierarchy::build(&config, POLICIES.iter(), &env).unwrap();
                for chunk in trace.chunks(4096) {
                    h.access_all(chunk);
                }
                let report = h.report();
                let l1 = &report.levels[0];
                for (s, c) in sim.stats().active_streams() {
                    let got = l1.per_stream[s.name()];
                    let at = format!("{spec} {sets}x{ways} {}", s.name());
                    assert_eq!(
                        (got.accesses, got.hits, got.misses, got.fills, got.bypasses),
                        (c.accesses, c.hits, c.misses, c.fills, c.bypasses),
                        "{at}"
                    );
                    assert_eq!(
                        (got.evictions, got.writebacks),
                        (c.evictions, c.writebacks),
                        "{at}"
                    );
                    assert_eq!((got.received, got.back_invalidations), (0, 0), "{at}");
                }
                // Every miss reaches memory once, as a read or (a write not
                // allocated) a write, and so does every write-back. OPT
                // decides to bypass only once memory has answered, so a
                // write it bypasses is a read and a write.
                if spec.name != "opt" {
                    let total = sim.stats().total();
                    assert_eq!(
                        report.memory.reads + report.memory.writes,
                        total.misses + total.writebacks,
                        "{spec} {sets}x{ways}"
                    );
                }
            }
        }
    }
}

#[test]
fn levels_that_cannot_hold_their_policy_are_refused() {
    let refused = |levels: Vec<LevelConfig>, want: &str| {
        let config = HierarchyConfig { levels };
        let e = Hierarchy::check(&config, POLICIES.iter())
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{e}");
    };
    refused(
        vec![
            level(0, 4, 2, "lru", Inclusion::Inclusive),
            level(1, 8, 4, "opt", Inclusion::NonInclusive),
        ],
        "level L2: opt: needs the next uses of its level's accesses",
    );
    refused(
        vec![
            level(0, 4, 2, "lru", Inclusion::Inclusive),
            level(1, 8, 4, "lru+ucd", Inclusion::Inclusive),
        ],
        "expected no +ucd here",
    );
    refused(
        vec![level(0, 4, 2, "lru:foo=1", Inclusion::Inclusive)],
        "unknown parameter(s): foo",
    );
    refused(
        vec![level(0, 4, 2, "belady", Inclusion::Inclusive)],
        "no such policy",
    );
}

#[test]
fn an_inclusive_llc_back_invalidates_and_takes_the_dirty_copy() {
    // L1: one set of 2 ways; L2 inclusive: one set of 2 ways.
    let config = HierarchyConfig {
        levels: vec![
            level(0, 1, 2, "lru", Inclusion::Inclusive),
            level(1, 1, 2, "lru", Inclusion::Inclusive),
        ],
    };
    let mut h = Hierarchy::build(&config, POLICIES.iter(), &Env::default()).unwrap();
    let w = |b: u64| Access::write(b * 64, Stream::Rt);
    let r = |b: u64| Access::read(b * 64, Stream::Tex);
    // A (dirty in L1), B; then C: L2 evicts A (its LRU line), which L1 still
    // holds dirty: invalidated there, its data written back to memory.
    h.access_all(&[w(1), r(2), r(2), r(3)]);
    let report = h.report();
    let l2 = &report.levels[1];
    assert_eq!(l2.counts.back_invalidations, 1);
    assert_eq!(l2.counts.writebacks, 1);
    assert_eq!(report.memory.writes, 1);
    assert!(!h.contains(0, 1) && !h.contains(1, 1));
    assert_eq!(sorted(h.lines(0)), vec![(2, false), (3, false)]);
}

#[test]
fn an_exclusive_level_hands_blocks_up_and_takes_victims() {
    let config = HierarchyConfig {
        levels: vec![
            level(0, 1, 1, "lru", Inclusion::Exclusive),
            level(1, 1, 2, "lru", Inclusion::Exclusive),
        ],
    };
    let mut h = Hierarchy::build(&config, POLICIES.iter(), &Env::default()).unwrap();
    let w = |b: u64| Access::write(b * 64, Stream::Rt);
    let r = |b: u64| Access::read(b * 64, Stream::Tex);
    h.access_all(&[w(1), r(2)]);
    // A went down as L1's victim, dirty; B is in L1 only.
    assert_eq!(h.lines(0), vec![(2, false)]);
    assert_eq!(h.lines(1), vec![(1, true)]);
    h.access_all(&[r(1)]);
    // A came up dirty and B went down clean.
    assert_eq!(h.lines(0), vec![(1, true)]);
    assert_eq!(h.lines(1), vec![(2, false)]);
    let report = h.report();
    let l2 = &report.levels[1];
    assert_eq!(
        (l2.counts.accesses, l2.counts.hits, l2.counts.received),
        (3, 1, 2)
    );
    assert_eq!(report.memory.reads, 2);
    assert_eq!(report.memory.writes, 0);
}
