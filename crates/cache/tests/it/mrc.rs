//! One-pass miss-ratio curves against the engine: every figure `mrc` gives
//! must equal what a simulated LRU cache of that geometry counts.

use gfxcache_cache::{build_cache, Env, Geometry, Mrc, MrcBuilder, StackDistances, Stats, Ways};
use gfxcache_trace::{Access, Op, Stream};
use proptest::prelude::*;

/// SplitMix64: the traces must be reproducible from a proptest seed, and
/// the crate has no `rand` dependency.
/// The project's SplitMix64, with this file's own mappings (kept so its
/// sequences stay as they were).
struct Rng(gfxcache_trace::synth::Rng);

impl Rng {
    fn seeded(seed: u64) -> Rng {
        Rng(gfxcache_trace::synth::Rng::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A trace over about `footprint` blocks of `block` bytes with enough reuse
/// at every distance to make curves interesting: re-touches of recent
/// addresses, sequential runs and random jumps, sizes up to `max_size`
/// bytes (so some accesses span blocks), unaligned, in several streams.
fn trace(
    seed: u64,
    len: usize,
    footprint: u64,
    block: u32,
    max_size: u32,
    streams: &[Stream],
) -> Vec<Access> {
    let mut rng = Rng::seeded(seed);
    let base = 0x4000_0000u64;
    let span = footprint * u64::from(block);
    let mut recent = [base; 16];
    let mut addr = base;
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        addr = match rng.below(10) {
            0..=3 => recent[rng.below(16) as usize],
            4..=6 => base + (addr - base + u64::from(block) / 2 + 1) % span,
            _ => base + rng.below(span),
        };
        recent[i % 16] = addr;
        out.push(Access {
            addr,
            size: rng.below(u64::from(max_size) + 1) as u32,
            unit: 0,
            stream: streams[rng.below(streams.len() as u64) as usize],
            op: if rng.below(4) == 0 {
                Op::Write
            } else {
                Op::Read
            },
        });
    }
    out
}

fn lru_stats(trace: &[Access], geom: &Geometry) -> Stats {
    let mut cache = build_cache(&"lru".parse().unwrap(), geom, &Env::default()).unwrap();
    cache.access_batch(trace);
    cache.stats().clone()
}

fn full_lru(trace: &[Access], blocks: u64, block: u32) -> Stats {
    lru_stats(
        trace,
        &Geometry::from_size(blocks * u64::from(block), Ways::Full, block).unwrap(),
    )
}

fn mrc(trace: &[Access], block: u32, sets: Option<(u32, u32)>) -> Mrc {
    let mut b = MrcBuilder::new(block).unwrap();
    if let Some((s, w)) = sets {
        b = b.with_sets(s, w).unwrap();
    }
    // Two batches, to check that state carries across them.
    let (x, y) = trace.split_at(trace.len() / 3);
    b.push_all(x).unwrap();
    b.push_all(y).unwrap();
    b.finish().unwrap()
}

/// Per-stream and total misses of `mrc` at one size equal `stats`.
fn assert_matches(
    what: &str,
    mrc: &Mrc,
    stats: &Stats,
    misses: impl Fn(&gfxcache_cache::MissCurve) -> u64,
) {
    let total = stats.total();
    assert_eq!(mrc.accesses(), total.accesses, "{what}: accesses");
    assert_eq!(misses(mrc.total()), total.misses, "{what}: misses");
    for s in Stream::ALL {
        let c = stats.stream(s);
        match mrc.stream(s) {
            Some(m) => {
                assert_eq!(m.accesses(), c.accesses, "{what}: {s} accesses");
                assert_eq!(misses(m), c.misses, "{what}: {s} misses");
            }
            None => assert_eq!(c.accesses, 0, "{what}: {s} missing from the curve"),
        }
    }
}

/// Mattson's stack, literally: the reference for [`StackDistances`].
struct NaiveStack(Vec<u64>);

impl NaiveStack {
    fn access(&mut self, block: u64) -> Option<u32> {
        let found = self.0.iter().position(|&b| b == block);
        if let Some(i) = found {
            self.0.remove(i);
        }
        self.0.insert(0, block);
        found.map(|i| i as u32)
    }
}

fn streams_strategy() -> impl Strategy<Value = Vec<Stream>> {
    proptest::sample::subsequence(Stream::ALL.to_vec(), 1..=4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn fully_associative_equals_lru_cache(
        seed in any::<u64>(),
        footprint in 1u64..300,
        block_bits in 0u32..8,
        size_blocks in 0u32..4,
        len in 0usize..2500,
        streams in streams_strategy(),
    ) {
        let block = 1u32 << block_bits;
        let t = trace(seed, len, footprint, block, block * size_blocks, &streams);
        let m = mrc(&t, block, None);
        let mut sizes: Vec<u64> = (1..=24).collect();
        let mut c = 32;
        while c <= m.footprint() + 2 {
            sizes.extend([c - 1, c, c + 1]);
            c *= 2;
        }
        sizes.extend([m.footprint().max(1), m.footprint() + 1]);
        let mut rng = Rng::seeded(seed ^ 1);
        sizes.extend((0..8).map(|_| 1 + rng.below(m.footprint() + 2)));
        for c in sizes {
            let stats = full_lru(&t, c, block);
            assert_matches(&format!("{c} blocks"), &m, &stats, |x| x.misses_at_blocks(c));
        }
    }

    #[test]
    fn fixed_sets_equal_lru_cache_at_every_way_count(
        seed in any::<u64>(),
        footprint in 1u64..400,
        block_bits in 0u32..8,
        size_blocks in 0u32..4,
        len in 0usize..2500,
        sets in prop::sample::select(vec![1u32, 2, 3, 4, 8, 16, 24]),
        max_ways in 1u32..14,
        streams in streams_strategy(),
    ) {
        let block = 1u32 << block_bits;
        let t = trace(seed, len, footprint, block, block * size_blocks, &streams);
        let m = mrc(&t, block, Some((sets, max_ways)));
        for a in 1..=max_ways {
            let stats = lru_stats(&t, &Geometry::new(block, sets, a).unwrap());
            assert_matches(&format!("{sets} sets x {a} ways"), &m, &stats, |x| {
                x.misses_at_ways(a).unwrap()
            });
        }
        prop_assert_eq!(m.misses_at_ways(max_ways + 1), None);
        prop_assert_eq!(m.misses_at_ways(0), Some(m.accesses()));
        if sets == 1 {
            for a in 0..=max_ways {
                prop_assert_eq!(m.misses_at_ways(a), Some(m.misses_at_blocks(u64::from(a))));
            }
        }
        // The fully associative curve comes along in the same pass.
        let c = (footprint / 3).max(1);
        let stats = full_lru(&t, c, block);
        prop_assert_eq!(m.misses_at_blocks(c), stats.total().misses);
    }

    #[test]
    fn misses_never_increase_with_size(
        seed in any::<u64>(),
        footprint in 1u64..500,
        len in 0usize..4000,
        streams in streams_strategy(),
    ) {
        let t = trace(seed, len, footprint, 64, 200, &streams);
        let m = mrc(&t, 64, Some((4, 16)));
        let curves = std::iter::once(m.total()).chain(m.streams().map(|(_, c)| c));
        for c in curves {
            prop_assert_eq!(c.misses_at_blocks(0), c.accesses());
            for n in 0..=m.footprint() + 1 {
                prop_assert!(c.misses_at_blocks(n + 1) <= c.misses_at_blocks(n));
                prop_assert!(c.misses_at_blocks(n) >= c.cold_misses());
            }
            prop_assert_eq!(c.misses_at_blocks(m.footprint()), c.cold_misses());
            for a in 0..16 {
                prop_assert!(c.misses_at_ways(a + 1).unwrap() <= c.misses_at_ways(a).unwrap());
            }
        }
        for curve in [m.blocks_curve(), m.curve()] {
            for w in curve.windows(2) {
                prop_assert!(w[0].size < w[1].size);
                prop_assert!(w[1].misses <= w[0].misses);
            }
        }
    }

    #[test]
    fn stack_distances_equal_mattsons_stack(
        seed in any::<u64>(),
        footprint in 1u64..3000,
        len in 0usize..20_000,
        capacity in 1usize..5000,
        spread in prop::sample::select(vec![1u64, 3, 17, 1 << 20, 0x9e37_79b9_7f4a_7c15]),
    ) {
        // Footprints beyond 512 blocks span several bitmap chunks; spread
        // blocks apart to exercise the group index with sparse groups.
        let mut rng = Rng::seeded(seed);
        let mut fast = StackDistances::with_capacity(capacity);
        let mut naive = NaiveStack(Vec::new());
        for _ in 0..len {
            let x = match rng.below(3) {
                0 => rng.below(footprint),
                1 => rng.below(8),
                _ => rng.below(1 + footprint / 8),
            };
            let b = x.wrapping_mul(spread);
            prop_assert_eq!(fast.access(b), naive.access(b));
        }
        prop_assert_eq!(fast.distinct(), naive.0.len());
    }
}

fn blocks(seq: &str) -> Vec<Access> {
    seq.bytes()
        .filter(|b| b.is_ascii_alphabetic())
        .map(|b| Access::read(u64::from(b - b'A') * 64, Stream::Tex))
        .collect()
}

#[test]
fn cyclic_sequence_by_hand() {
    // A B C A B C: the second round is at distance 2 each, so it all misses
    // in two blocks and all hits in three.
    let m = mrc(&blocks("ABCABC"), 64, None);
    assert_eq!(m.accesses(), 6);
    assert_eq!(m.cold_misses(), 3);
    assert_eq!(m.footprint(), 3);
    assert_eq!(m.misses_at_blocks(0), 6);
    assert_eq!(m.misses_at_blocks(1), 6);
    assert_eq!(m.misses_at_blocks(2), 6);
    assert_eq!(m.misses_at_blocks(3), 3);
    assert_eq!(m.misses_at_blocks(1000), 3);
    let sizes: Vec<_> = m.curve().iter().map(|p| (p.size, p.misses)).collect();
    assert_eq!(sizes, [(64, 6), (128, 6), (192, 3)]);
    assert_eq!(m.curve()[2].miss_ratio, 0.5);
}

#[test]
fn distances_by_hand() {
    // A B B A C A B: cold, cold, 0, 1, cold, 1, 2.
    let mut s = StackDistances::new();
    let got: Vec<_> = [0, 1, 1, 0, 2, 0, 1].iter().map(|&b| s.access(b)).collect();
    assert_eq!(got, [None, None, Some(0), Some(1), None, Some(1), Some(2)]);
    let m = mrc(&blocks("ABBACAB"), 64, None);
    assert_eq!(m.misses_at_blocks(1), 6); // only B B hits
    assert_eq!(m.misses_at_blocks(2), 4); // + A at 1, A at 1
    assert_eq!(m.misses_at_blocks(3), 3); // + B at 2: cold only
}

#[test]
fn sets_by_hand() {
    // 2 sets: A C E A all map to set 0 (even blocks), B to set 1. In set 0,
    // the second A is at depth 2: a miss with 2 ways, a hit with 3. B's
    // accesses in set 1 do not disturb set 0.
    let m = mrc(&blocks("ACBEBA"), 64, Some((2, 4)));
    assert_eq!(m.misses_at_ways(1), Some(5));
    assert_eq!(m.misses_at_ways(2), Some(5));
    assert_eq!(m.misses_at_ways(3), Some(4));
    assert_eq!(m.misses_at_ways(4), Some(4));
    let curve = m.curve();
    assert_eq!(curve.len(), 4);
    assert_eq!((curve[0].size, curve[0].blocks, curve[0].ways), (128, 2, 1));
    assert_eq!((curve[3].size, curve[3].blocks, curve[3].ways), (512, 8, 4));
    // Fully associative, A is at distance 3 (C B E), B at 1 (E).
    assert_eq!(m.misses_at_blocks(2), 5);
    assert_eq!(m.misses_at_blocks(4), 4);
}

#[test]
fn accesses_spanning_blocks_are_split_like_the_engine() {
    // 64 bytes from 32 touch blocks 0 and 1; then 1 byte in each again.
    let mut t = vec![Access {
        size: 64,
        ..Access::read(32, Stream::Rt)
    }];
    t.push(Access::write(0, Stream::Tex));
    t.push(Access::read(100, Stream::Tex));
    let m = mrc(&t, 64, None);
    assert_eq!(m.trace_accesses(), 3);
    assert_eq!(m.accesses(), 4);
    assert_eq!(m.cold_misses(), 2);
    assert_eq!(m.misses_at_blocks(1), 4);
    assert_eq!(m.misses_at_blocks(2), 2);
    let tex = m.stream(Stream::Tex).unwrap();
    assert_eq!(
        (tex.accesses(), tex.cold_misses(), tex.misses_at_blocks(2)),
        (2, 0, 0)
    );
    assert_eq!(m.stream(Stream::Z), None);
    let p = m.point_at_blocks(1);
    let names: Vec<_> = p.per_stream.iter().map(|s| (s.stream, s.misses)).collect();
    assert_eq!(names, [(Stream::Rt, 2), (Stream::Tex, 2)]);
}

#[test]
fn empty_trace() {
    let m = mrc(&[], 64, Some((8, 4)));
    assert_eq!((m.accesses(), m.footprint(), m.cold_misses()), (0, 0, 0));
    assert!(m.blocks_curve().is_empty());
    assert_eq!(m.curve().len(), 4);
    assert!(m
        .curve()
        .iter()
        .all(|p| p.misses == 0 && p.miss_ratio == 0.0));
}

#[test]
fn bad_configurations_are_errors() {
    assert!(MrcBuilder::new(0).is_err());
    assert!(MrcBuilder::new(48).is_err());
    assert!(MrcBuilder::new(64).unwrap().with_sets(0, 4).is_err());
    assert!(MrcBuilder::new(64).unwrap().with_sets(8, 0).is_err());
    assert!(MrcBuilder::new(64)
        .unwrap()
        .with_sets(1 << 20, 1 << 13)
        .is_err());
}

#[test]
fn renumbering_many_times_keeps_distances_exact() {
    // Few distinct blocks and a long trace: time wraps the tree's capacity
    // hundreds of times.
    let mut rng = Rng::seeded(7);
    let mut fast = StackDistances::new();
    let mut naive = NaiveStack(Vec::new());
    for i in 0..1_000_000u64 {
        // Phases of 3 to 40 distinct blocks, so renumbering also meets
        // blocks that have gone quiet for a long time.
        let width = [3, 40, 7, 25][(i / 100_000 % 4) as usize];
        let b = if i % 1000 == 999 {
            1000 + i % 5
        } else {
            rng.below(width)
        };
        assert_eq!(fast.access(b), naive.access(b), "access {i}");
    }
    assert!(fast.renumberings() > 200, "{}", fast.renumberings());

    // Growth from a capacity of one position, with the footprint rising.
    let mut fast = StackDistances::with_capacity(1);
    let mut naive = NaiveStack(Vec::new());
    for i in 0..200_000u64 {
        let b = rng.below(1 + i / 200);
        assert_eq!(fast.access(b), naive.access(b), "access {i}");
    }
    assert!(fast.renumberings() > 20);
}

#[test]
fn long_trace_with_few_blocks_equals_lru_cache() {
    let t = trace(
        11,
        400_000,
        9,
        64,
        64,
        &[Stream::Tex, Stream::Z, Stream::Rt],
    );
    let m = mrc(&t, 64, Some((2, 6)));
    for c in 1..=11 {
        let stats = full_lru(&t, c, 64);
        assert_matches(&format!("{c} blocks"), &m, &stats, |x| {
            x.misses_at_blocks(c)
        });
    }
    for a in 1..=6 {
        let stats = lru_stats(&t, &Geometry::new(64, 2, a).unwrap());
        assert_matches(&format!("2 sets x {a} ways"), &m, &stats, |x| {
            x.misses_at_ways(a).unwrap()
        });
    }
}

#[test]
fn large_footprint_equals_lru_cache() {
    // Distances in the thousands, counted in deferred batches, and a
    // footprint spanning many bitmap chunks and group-index growths.
    let t = trace(5, 300_000, 12_000, 64, 100, &[Stream::Tex, Stream::Vtx]);
    let m = mrc(&t, 64, Some((64, 96)));
    assert!(m.footprint() > 10_000);
    for c in [1, 100, 2000, 4095, 4096, 4097, 5000, 8191, 9000, 12_001] {
        let stats = full_lru(&t, c, 64);
        assert_matches(&format!("{c} blocks"), &m, &stats, |x| {
            x.misses_at_blocks(c)
        });
    }
    for a in [1, 63, 64, 65, 96] {
        let stats = lru_stats(&t, &Geometry::new(64, 64, a).unwrap());
        assert_matches(&format!("64 sets x {a} ways"), &m, &stats, |x| {
            x.misses_at_ways(a).unwrap()
        });
    }
}
