//! The shared L2 under each policy of the cache engine's registry and of
//! the GSPC paper's (`gfxcache-llc`, added as the command line adds it):
//! every access's hit or miss, its stream kept, and the DRAM reads and
//! write-backs, as the engine's batch path (`build_cache`) has them on the
//! same accesses; a hand-worked LRU sequence; and the policies it refuses,
//! by name, GSPC's too without the registry that adds them.

use gfxcache_cache::{BlockOutcome, Env, Geometry, PolicySpec, Ways};
use gfxcache_gpu::l2::{L2Config, PolicyRegistry, SharedL2};
use gfxcache_trace::{Access, Op, Stream};
use proptest::prelude::*;

const BLOCK: u32 = 64;

/// Every policy of the engine's registry the L2 takes (all but OPT).
const POLICIES: [&str; 9] = [
    "lru", "fifo", "mru", "random", "nru", "srrip", "brrip", "drrip", "ship-mem",
];

/// The GSPC paper's policies (`gfxcache-llc`'s registry).
const LLC_POLICIES: [&str; 4] = ["gs-drrip", "gspztc", "gspztc-tse", "gspc"];

/// A small L2: 4 sets of 4 ways, whose policy may be the engine's or the
/// GSPC paper's.
fn config(policy: &str) -> L2Config {
    L2Config {
        bytes: 16 * u64::from(BLOCK),
        ways: 4,
        banks: 2,
        policy: policy.into(),
        registry: PolicyRegistry::with(gfxcache_llc::POLICIES),
        ..L2Config::default()
    }
}

/// One access: a texture read (`None`) or the frame's other traffic of a
/// stream, a write or a read.
type Step = (u64, Option<(Stream, bool)>);

/// The streams of the frame's other traffic the tests draw from.
const OTHER_STREAMS: [Stream; 5] = [
    Stream::Other,
    Stream::Rt,
    Stream::Z,
    Stream::Vtx,
    Stream::Display,
];

/// Each access's hit, and the DRAM reads and writes, on the shared L2.
fn on_l2(policy: &str, steps: &[Step]) -> (Vec<bool>, u64, u64) {
    let mut l2 = SharedL2::new(&config(policy), BLOCK).unwrap();
    let hits = steps
        .iter()
        .map(|&(block, other)| match other {
            None => l2.texture_read(block).hit,
            Some((stream, write)) => l2.other(block, stream, write).hit,
        })
        .collect();
    let s = l2.stats();
    (hits, s.dram_reads, s.dram_writes)
}

/// The same on the engine's batch path: a read miss reads a line, a dirty
/// victim writes one.
fn on_engine(policy: &str, steps: &[Step]) -> (Vec<bool>, u64, u64) {
    let geom = Geometry::from_size(16 * u64::from(BLOCK), Ways::N(4), BLOCK).unwrap();
    let spec: PolicySpec = policy.parse().unwrap();
    let mut cache = gfxcache_llc::build_cache(&spec, &geom, &Env::default()).unwrap();
    let (mut hits, mut reads, mut writes) = (Vec::new(), 0, 0);
    let mut events = Vec::new();
    for &(block, other) in steps {
        let (stream, write) = other.unwrap_or((Stream::Tex, false));
        let op = if write { Op::Write } else { Op::Read };
        let access = Access {
            addr: block * u64::from(BLOCK),
            size: 1,
            unit: 0,
            stream,
            op,
        };
        cache.access_batch_events(&[access], &mut events);
        let hit = events[0].outcome == BlockOutcome::Hit;
        reads += u64::from(!hit && !write);
        if let BlockOutcome::Fill {
            victim: Some((_, true)),
        } = events[0].outcome
        {
            writes += 1;
        }
        hits.push(hit);
    }
    (hits, reads, writes)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_policy_counts_as_the_engine(
        steps in prop::collection::vec(
            (0u64..48, prop::option::of((prop::sample::select(OTHER_STREAMS.to_vec()), any::<bool>()))),
            1..400,
        ),
    ) {
        for policy in POLICIES.iter().chain(&LLC_POLICIES) {
            prop_assert_eq!(on_l2(policy, &steps), on_engine(policy, &steps), "{}", policy);
        }
    }
}

/// Blocks 0, 4, 8, 12 and 16 share set 0 of the 4-way L2; 0 hits once
/// the set is full. Under LRU that hit makes 4 the least recent, so 16
/// evicts 4 and 0 hits again. Under FIFO a hit moves nothing, so 16 evicts
/// 0, the first in, and 0 misses. Under MRU 16 evicts 0, the most recent;
/// 0 then evicts 16, and 12's hit makes 12 the one 16 evicts.
#[test]
fn a_hand_worked_set() {
    let steps: Vec<Step> = [0, 4, 8, 12, 0, 16, 0, 12, 16]
        .iter()
        .map(|&b| (b, None))
        .collect();
    let hits = |policy| on_l2(policy, &steps).0;
    let (f, t) = (false, true);
    assert_eq!(hits("lru"), [f, f, f, f, t, f, t, t, t]);
    assert_eq!(hits("fifo"), [f, f, f, f, t, f, f, t, t]);
    assert_eq!(hits("mru"), [f, f, f, f, t, f, f, t, f]);
}

/// Without the registry that adds them the GSPC paper's policies are
/// unknown, and the error lists the engine's; with it, they build.
#[test]
fn the_gspc_policies_need_the_registry_that_adds_them() {
    let engine_only = L2Config {
        registry: PolicyRegistry::default(),
        ..config("gspc")
    };
    let err = engine_only.check(BLOCK).unwrap_err().to_string();
    assert!(err.contains("gspc") && err.contains("ship-mem"), "{err}");
    for p in LLC_POLICIES {
        config(p).check(BLOCK).unwrap();
    }
    assert_ne!(engine_only.registry, config("gspc").registry);
    let names = format!("{:?}", config("gspc").registry);
    assert!(
        names.starts_with("[\"lru\", \"fifo\"") && names.ends_with("\"gspc\"]"),
        "{names}"
    );
}

#[test]
fn opt_and_unknown_policies_are_refused_by_name() {
    let err = config("opt").check(BLOCK).unwrap_err().to_string();
    assert!(err.contains("opt") && err.contains("future"), "{err}");
    let err = config("belady").check(BLOCK).unwrap_err().to_string();
    assert!(err.contains("belady") && err.contains("lru"), "{err}");
    let err = config("srrip:bits=0").check(BLOCK).unwrap_err().to_string();
    assert!(err.contains("bits"), "{err}");
    assert!(SharedL2::new(&config("opt"), BLOCK).is_err());
    config("drrip:bits=3").check(BLOCK).unwrap();
}
