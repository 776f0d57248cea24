//! SHARDS curves (`gfxcache_cache::shards`): at rate 1 the sample is the
//! trace and every mini-cache is its cache, so every point equals the exact
//! simulation, for every policy; the one-pass LRU curve beside it; how
//! SHARDS-adj normalises; what cannot be resolved is said.

use std::sync::Arc;

use gfxcache_cache::shards::{
    power_of_two_sizes, ExactSource, ShardsConfig, ShardsPass, ShardsPlan, ShardsReport,
};
use gfxcache_cache::{build_cache, Env, Geometry, NextUseBuilder, PolicySpec, Ways, POLICIES};
use gfxcache_trace::{Access, Op, Stream};
use proptest::prelude::*;

const STREAMS: [Stream; 4] = [Stream::Tex, Stream::Rt, Stream::Z, Stream::Display];

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

fn next_uses(trace: &[Access]) -> Env {
    let mut b = NextUseBuilder::new(64);
    b.push_all(trace).unwrap();
    Env {
        next_use: Some(Arc::new(b.finish())),
    }
}

fn run(plan: ShardsPlan, trace: &[Access], env: &Env) -> ShardsReport {
    let mut pass = ShardsPass::new(plan, POLICIES.iter(), env, env).unwrap();
    for chunk in trace.chunks(1000) {
        pass.push(chunk, gfxcache_cache::run::Threads::Many)
            .unwrap();
    }
    pass.finish(gfxcache_cache::run::Threads::Many).unwrap()
}

fn config(rate: f64, adjust: bool) -> ShardsConfig {
    ShardsConfig {
        rate,
        adjust,
        ..ShardsConfig::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// At R = 1 every point is the cache itself: its misses equal `sim`'s
    /// for every policy and size, and `exact` (full size) agrees exactly.
    #[test]
    fn rate_one_is_the_exact_simulation(
        raw in prop::collection::vec((0u64..300, 0usize..4, any::<bool>(), prop::bool::weighted(0.1)), 1..2000),
        shape in 0..3,
        adjust in any::<bool>(),
    ) {
        let trace = trace_of(&raw);
        let env = next_uses(&trace);
        let specs: Vec<PolicySpec> = POLICIES.iter().map(|p| p.name.parse().unwrap())
            .chain(["drrip+ucd".parse().unwrap()]).collect();
        // Fully associative, fixed ways, fixed sets: the one-pass curve
        // serves the first and the last.
        let sizes = match shape {
            0 => power_of_two_sizes(64, Ways::Full, 300).unwrap(),
            1 => power_of_two_sizes(64, Ways::N(4), 300).unwrap(),
            _ => (1..=6).map(|w| Geometry::new(64, 8, w).unwrap()).collect(),
        };
        let plan = ShardsPlan { config: config(1.0, adjust), sizes: sizes.clone(), specs: specs.clone(), exact: true };
        let report = run(plan, &trace, &env);
        prop_assert_eq!(report.sampling.threshold, report.sampling.modulus);
        prop_assert_eq!(report.sampled_block_accesses, report.block_accesses);
        for (spec, curve) in specs.iter().zip(&report.curves) {
            prop_assert_eq!(curve.points.len(), sizes.len());
            for (g, p) in sizes.iter().zip(&curve.points) {
                let mut c = build_cache(spec, g, &env).unwrap();
                c.access_batch(&trace);
                let t = c.stats().total();
                prop_assert_eq!((p.scaled_sets, p.scaled_ways), (g.sets, g.ways));
                prop_assert_eq!(p.misses, t.misses, "{} at {} blocks", spec, g.blocks());
                prop_assert_eq!(p.miss_ratio, t.miss_ratio());
                let exact = p.exact.as_ref().unwrap();
                prop_assert_eq!(exact.abs_error, 0.0, "{}", spec);
                let want = if spec.to_string() == "lru" && shape != 1 { ExactSource::OnePass } else { ExactSource::Simulation };
                prop_assert_eq!(exact.source, want);
                for sp in &p.per_stream {
                    let s = c.stats().stream(sp.stream);
                    prop_assert_eq!((sp.accesses, sp.misses), (s.accesses, s.misses));
                }
            }
        }
    }
}

/// A trace with a hot block, which the sample holds or misses wholly.
fn skewed_trace() -> Vec<Access> {
    (0..200_000u64)
        .map(|i| {
            let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let block = if i % 3 == 0 { 7 } else { x % 50_000 };
            Access::read(block * 64, STREAMS[(x % 4) as usize])
        })
        .collect()
}

#[test]
fn shards_adj_divides_by_the_expected_sample() {
    let trace = skewed_trace();
    let sizes = power_of_two_sizes(64, Ways::N(8), 50_000).unwrap();
    let spec: Vec<PolicySpec> = vec!["srrip".parse().unwrap()];
    let plain = run(
        ShardsPlan {
            config: config(0.05, false),
            sizes: sizes.clone(),
            specs: spec.clone(),
            exact: false,
        },
        &trace,
        &Env::default(),
    );
    let adj = run(
        ShardsPlan {
            config: config(0.05, true),
            sizes,
            specs: spec,
            exact: false,
        },
        &trace,
        &Env::default(),
    );
    let n = plain.block_accesses as f64;
    let s = plain.sampled_block_accesses as f64;
    assert_eq!(n, 200_000.0);
    assert!((plain.expected_sampled - adj.sampling.effective_rate * n).abs() < 1e-6);
    for (p, a) in plain.curves[0].points.iter().zip(&adj.curves[0].points) {
        assert_eq!(p.misses, a.misses, "the same mini-caches");
        assert_eq!(p.miss_ratio, p.misses as f64 / s);
        let want = (a.misses as f64 / (adj.sampling.effective_rate * n)).min(1.0);
        assert!((a.miss_ratio - want).abs() < 1e-12);
        for sp in &a.per_stream {
            assert!(sp.miss_ratio <= 1.0);
        }
    }
}

#[test]
fn sizes_too_small_for_the_rate_are_omitted_and_named() {
    let trace = skewed_trace();
    let sizes: Vec<Geometry> = [1u64 << 10, 64 << 10, 1 << 20]
        .iter()
        .map(|&s| Geometry::from_size(s, Ways::N(4), 64).unwrap())
        .collect();
    let report = run(
        ShardsPlan {
            config: config(0.01, true),
            sizes,
            specs: vec!["lru".parse().unwrap()],
            exact: false,
        },
        &trace,
        &Env::default(),
    );
    let curve = &report.curves[0];
    // 4 sets x 0.01 rounds to 0; 256 sets to 3; 4096 sets to 41.
    assert_eq!(curve.omitted, vec![1 << 10]);
    assert_eq!(curve.points.len(), 2);
    assert_eq!(curve.points[0].scaled_sets, 3);
    assert!(!curve.points[0].resolved);
    assert_eq!(curve.points[1].scaled_blocks, 164);
    // Fixed ways and varying sets: no one-pass curve, and no `exact` asked.
    assert!(curve.points.iter().all(|p| p.exact.is_none()));
}

#[test]
fn plans_that_cannot_run_say_why() {
    let err = |plan: ShardsPlan| {
        ShardsPass::new(plan, POLICIES.iter(), &Env::default(), &Env::default())
            .err()
            .expect("refused")
            .to_string()
    };
    let sizes = power_of_two_sizes(64, Ways::N(16), 1 << 20).unwrap();
    let plan = |rate, sizes: &[Geometry], spec: &str| ShardsPlan {
        config: config(rate, true),
        sizes: sizes.to_vec(),
        specs: vec![spec.parse().unwrap()],
        exact: false,
    };
    assert!(err(plan(0.0, &sizes, "lru")).contains("expected a rate above 0"));
    assert!(err(plan(1e-3, &sizes[..4], "lru")).contains("rounds to nothing"));
    assert!(err(plan(0.01, &sizes, "drrip:bits=0")).contains("bits=0"));
    assert!(err(plan(0.01, &sizes, "opt")).contains("needs next-use information"));
    assert!(err(plan(0.01, &[], "lru")).contains("no cache size"));
}
