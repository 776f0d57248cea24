//! The reuse analyses ([`gfxcache_cache::observe`]): hand-walked sequences
//! with known answers, and on random traces, that watching never changes
//! what a policy does and that the tallies hold together.

use crate::common::*;
use gfxcache_cache::registry::lookup;
use gfxcache_cache::{
    BlockOutcome, Geometry, PolicySpec, Reuse, WritePolicy, POLICIES, RRPV_BANDS,
};
use gfxcache_trace::{Access, Op, Stream};

fn acc(block: u64, stream: Stream) -> Access {
    Access {
        addr: block * 64,
        size: 64,
        op: if matches!(stream, Stream::Rt | Stream::Display) {
            Op::Write
        } else {
            Op::Read
        },
        stream,
        unit: 0,
    }
}

fn observed(spec: &str, g: &Geometry, trace: &[Access]) -> Box<dyn gfxcache_cache::CacheSim> {
    let spec: PolicySpec = spec.parse().unwrap();
    let env = env_for(trace, g);
    let mut c = lookup(POLICIES.iter(), &spec)
        .unwrap()
        .build_observed(&spec, g, &env)
        .unwrap();
    c.access_batch(trace);
    c
}

fn reuse_of(spec: &str, g: &Geometry, trace: &[Access]) -> Reuse {
    observed(spec, g, trace)
        .reuse()
        .expect("observed caches report reuse")
}

/// One set of four ways: nothing is evicted in these walks unless asked.
fn one_set() -> Geometry {
    Geometry::new(64, 1, 4).unwrap()
}

#[test]
fn render_target_consumed_by_the_sampler_is_an_inter_stream_hit() {
    use Stream::*;
    // Block 1 is produced as a render target, then sampled three times:
    // the first sample consumes it (inter-stream, enters E0), the next two
    // are intra-stream hits in E0 and E1. Block 2 is a static texture hit once.
    let t = [
        acc(1, Rt),
        acc(1, Tex),
        acc(1, Tex),
        acc(1, Tex),
        acc(2, Tex),
        acc(2, Tex),
    ];
    let r = reuse_of("lru", &one_set(), &t);
    assert_eq!(r.rt_produced, 1);
    assert_eq!(r.rt_consumed, 1);
    assert_eq!(r.tex_hits_inter, 1);
    assert_eq!(r.tex_hits_intra, 3);
    assert_eq!(r.tex_hits_by_epoch, [2, 1, 0, 0]);
    // Entries: E0 by block 1 (consumed) and 2 (filled); E1 by both; E2 by block 1.
    assert_eq!(r.tex_epoch_entries, [2, 2, 1, 0]);
    assert_eq!(r.tex_epoch_resident, [0, 1, 1, 0]);
    assert_eq!(r.rt_consumed_fraction(), 1.0);
    assert_eq!(r.tex_death_ratios(), [0.0, 0.5, 1.0]);
}

#[test]
fn epochs_past_the_third_gather_in_the_last() {
    let mut t = vec![acc(5, Stream::Z)];
    t.extend(std::iter::repeat_n(acc(5, Stream::Z), 6));
    let r = reuse_of("lru", &one_set(), &t);
    assert_eq!(r.z_epoch_entries, [1, 1, 1, 1]);
    assert_eq!(r.z_hits_by_epoch, [1, 1, 1, 3]);
    assert_eq!(r.z_epoch_resident, [0, 0, 0, 1]);
}

#[test]
fn eviction_ends_a_render_target_and_a_rewrite_makes_a_new_one() {
    use Stream::*;
    // Four-way set: RT block 1, then four texture fills evict it (LRU);
    // sampling block 1 again is a miss, so nothing is consumed.
    let t = [
        acc(1, Rt),
        acc(2, Tex),
        acc(3, Tex),
        acc(4, Tex),
        acc(6, Tex),
        acc(1, Tex),
        // Block 6 rewritten as a render target, then consumed.
        acc(6, Rt),
        acc(6, Tex),
    ];
    let r = reuse_of("lru", &one_set(), &t);
    assert_eq!(r.rt_produced, 2);
    assert_eq!(r.rt_consumed, 1);
    assert_eq!(r.tex_hits_inter, 1);
    assert_eq!(r.tex_hits_intra, 0);
}

#[test]
fn rrip_fills_at_the_largest_rrpv_are_counted_per_stream() {
    // BRRIP with throttle 1 inserts every fill at max - 1; with a huge
    // throttle, at max (but the first of each period).
    let t: Vec<Access> = (0..40).map(|b| acc(b, Stream::Tex)).collect();
    let g = Geometry::new(64, 4, 4).unwrap();
    let r = reuse_of("brrip:throttle=1", &g, &t);
    assert!(r.has_rrpv);
    assert_eq!(r.fills[Stream::Tex.index()], 40);
    assert_eq!(r.fills_at_max_rrpv(Stream::Tex), 0);
    // Two-bit RRPVs: max - 1 is band 1 (RRPV 2).
    assert_eq!(r.fills_by_rrpv[Stream::Tex.index()], [0, 40, 0, 0]);
    let r = reuse_of("brrip:throttle=1000", &g, &t);
    assert_eq!(r.fills_at_max_rrpv(Stream::Tex), 40);
    assert_eq!(r.fills_by_rrpv[Stream::Tex.index()], [40, 0, 0, 0]);
    assert_eq!(r.fills_at_max_fraction(Stream::Tex), 1.0);
    // SRRIP with three-bit RRPVs inserts at max - 1 = 6.
    let r = reuse_of("srrip:bits=3", &g, &t);
    assert_eq!(r.fills_by_rrpv[Stream::Tex.index()], [0, 40, 0, 0]);
    let r = reuse_of("lru", &g, &t);
    assert!(!r.has_rrpv);
    assert_eq!(r.fills_at_max_rrpv(Stream::Tex), 0);
    assert_eq!(r.fills_by_rrpv[Stream::Tex.index()], [0; RRPV_BANDS]);
}

#[test]
fn fills_by_rrpv_bands_sum_to_the_fills_of_rrip_policies() {
    let t: Vec<Access> = (0..500u64)
        .map(|i| {
            acc(
                (i * 7919) % 97,
                [Stream::Tex, Stream::Rt, Stream::Z][(i % 3) as usize],
            )
        })
        .collect();
    let g = Geometry::new(64, 4, 4).unwrap();
    for spec in ["srrip", "drrip", "brrip", "drrip:bits=4"] {
        let r = reuse_of(spec, &g, &t);
        for s in [Stream::Tex, Stream::Rt, Stream::Z] {
            let bands: u64 = r.fills_by_rrpv[s.index()].iter().sum();
            assert_eq!(bands, r.fills[s.index()], "{spec} {s:?}");
        }
    }
}

/// Every registered policy with its defaults, and a few variants.
fn specs() -> Vec<String> {
    POLICIES
        .iter()
        .map(|p| p.name)
        .chain(["drrip+ucd", "random:seed=3"])
        .map(String::from)
        .collect()
}

#[test]
fn watching_changes_nothing_and_the_tallies_hold_together() {
    for seed in 0..12u64 {
        let g = geometry(
            64,
            [16, 64, 128][seed as usize % 3],
            [1, 4, 16][seed as usize / 3 % 3],
            [1, 4][seed as usize % 2],
            seed % 5 == 0,
            WritePolicy::WriteBack,
            true,
        );
        let t = random_trace(seed, 4000, 600, 64);
        for spec in &specs() {
            let plain = run_registry(spec, &g, &t);
            let watched = observed(spec, &g, &t);
            let what = format!("{spec} seed {seed}");
            assert_stats_eq(watched.stats(), plain.stats(), &what);
            let r = watched.reuse().unwrap();
            assert_eq!(r.tex_hits_inter, r.rt_consumed, "{what}");
            assert!(r.rt_consumed <= r.rt_produced, "{what}");
            let tex_hits = watched.stats().stream(Stream::Tex).hits;
            assert_eq!(r.tex_hits_inter + r.tex_hits_intra, tex_hits, "{what}");
            assert!(r.tex_hits_by_epoch.iter().sum::<u64>() <= r.tex_hits_intra);
            let z_hits = watched.stats().stream(Stream::Z).hits;
            assert!(r.z_hits_by_epoch.iter().sum::<u64>() <= z_hits, "{what}");
            for e in [r.tex_epoch_entries, r.z_epoch_entries] {
                assert!(e.windows(2).all(|w| w[0] >= w[1]), "{what}: {e:?}");
            }
            for d in r.tex_death_ratios().iter().chain(&r.z_death_ratios()) {
                assert!((0.0..=1.0).contains(d), "{what}: {d}");
            }
            let fills: u64 = r.fills.iter().sum();
            assert_eq!(fills, watched.stats().total().fills, "{what}");
        }
    }
}

#[test]
fn events_tell_the_same_story_as_the_statistics() {
    let g = geometry(64, 64, 8, 4, false, WritePolicy::WriteBack, true);
    let t = random_trace(99, 5000, 900, 64);
    for spec in &specs() {
        let plain = run_registry(spec, &g, &t);
        let spec_p: PolicySpec = spec.parse().unwrap();
        let env = env_for(&t, &g);
        let mut c = gfxcache_cache::build_cache(&spec_p, &g, &env).unwrap();
        let mut events = Vec::new();
        let (mut hits, mut fills, mut bypasses, mut writebacks, mut n) = (0, 0, 0, 0, 0);
        for chunk in t.chunks(333) {
            c.access_batch_events(chunk, &mut events);
            n += events.len() as u64;
            for e in &events {
                match e.outcome {
                    BlockOutcome::Hit => hits += 1,
                    BlockOutcome::Fill { victim } => {
                        fills += 1;
                        writebacks += u64::from(victim.is_some_and(|(_, dirty)| dirty));
                    }
                    BlockOutcome::Bypass => bypasses += 1,
                }
            }
        }
        assert_stats_eq(c.stats(), plain.stats(), spec);
        let total = plain.stats().total();
        assert_eq!(n, total.accesses, "{spec}");
        assert_eq!(hits, total.hits, "{spec}");
        assert_eq!(fills, total.fills, "{spec}");
        assert_eq!(bypasses, total.bypasses, "{spec}");
        assert_eq!(writebacks, total.writebacks, "{spec}");
    }
}
