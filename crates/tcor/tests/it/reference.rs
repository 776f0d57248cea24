//! The Attribute Cache's LRU, MRU and DRRIP variants against the cache
//! engine's `lru`, `mru` and `drrip` (built from the registry with
//! `build_cache`): with one attribute per primitive, an Attribute Buffer as
//! large as the Primitive Buffer and an output queue of depth 0 (so no lock
//! ever blocks a victim), a primitive is a block, and the two must agree
//! access by access: hit or miss, and which dirty lines are written back.
//! The engine uses the same XOR-folded set index as the Primitive Buffer,
//! so the comparison holds fully associative and with 1, 2, 4 or 8 ways.

use gfxcache_cache::{
    build_cache, BlockEvent, BlockOutcome, CacheSim, Env, Geometry, IndexFn, PolicySpec, Ways,
};
use gfxcache_tcor::*;
use gfxcache_trace::{Access, Stream};
use proptest::prelude::*;

use crate::common::ways;

fn frames(max_prims: usize) -> impl Strategy<Value = BinnedFrame> {
    (1u32..7, 1u32..7).prop_flat_map(move |(tx, ty)| {
        let tiles = tx * ty;
        let prim = proptest::collection::btree_set(0..tiles, 1..=tiles as usize).prop_map(|t| {
            BinnedPrimitive {
                attributes: 1,
                tiles: t.into_iter().collect(),
            }
        });
        proptest::collection::vec(prim, 1..max_prims).prop_map(move |primitives| BinnedFrame {
            tiles_x: tx,
            tiles_y: ty,
            tile_size: 32,
            order: TileOrder::ZOrder,
            primitives,
        })
    })
}

/// The engine's name of a policy.
fn engine_name(r: Replacement) -> &'static str {
    match r {
        Replacement::Lru => "lru",
        Replacement::Mru => "mru",
        Replacement::Drrip => "drrip",
        Replacement::Opt => unreachable!("OPT bypasses writes; the engine's opt does not"),
    }
}

/// Replays `f` through both caches, asserting they agree access by access;
/// returns the Attribute Cache.
fn agree(
    f: &BinnedFrame,
    r: Replacement,
    ways: Ways,
    sets_log: u32,
    full_lines: u32,
) -> Result<AttributeCache, TestCaseError> {
    let b = Binning::new(f).unwrap();
    let layout = PbLayout::default();
    let (sets, w) = match ways {
        Ways::Full => (1, full_lines),
        Ways::N(w) => (1 << sets_log, w),
    };
    let lines = sets * w;
    let mut ac = AttributeCache::new(AttributeCacheConfig {
        entries: lines,
        lines,
        ways,
        replacement: r,
    })
    .unwrap();
    let geom = Geometry::new(64, sets, w)
        .unwrap()
        .with_index(IndexFn::XorFold)
        .unwrap();
    let spec: PolicySpec = engine_name(r).parse().unwrap();
    let mut engine: Box<dyn CacheSim> = build_cache(&spec, &geom, &Env::default()).unwrap();
    let mut queue = OutputQueue::new(0);
    let mut events: Vec<BlockEvent> = Vec::new();
    let (mut reads, mut writes) = (0u64, 0u64);
    for a in layout
        .stream(&b)
        .filter(|a| a.section == Section::PbAttributes)
    {
        let before = *ac.stats();
        ac.access(&a, &mut queue, &mut |_| {});
        let after = *ac.stats();
        let access = if a.write {
            Access::write(a.addr, Stream::PbAttr)
        } else {
            Access::read(a.addr, Stream::PbAttr)
        };
        engine.access_batch_events(&[access], &mut events);
        prop_assert_eq!(events.len(), 1);
        let out = events[0].outcome;
        if a.write {
            prop_assert_eq!(after.write_bypasses, before.write_bypasses);
        } else {
            prop_assert_eq!(
                after.read_hits > before.read_hits,
                out == BlockOutcome::Hit,
                "{:?}: read of {:#x}",
                r,
                a.addr
            );
            reads += u64::from(out != BlockOutcome::Hit);
        }
        if let BlockOutcome::Fill {
            victim: Some((_, true)),
        } = out
        {
            writes += 1;
        }
    }
    prop_assert_eq!(ac.stats().l2_reads, reads);
    prop_assert_eq!(ac.stats().l2_writes, writes);
    if r == Replacement::Drrip {
        let psel = engine
            .report()
            .into_iter()
            .find(|&(k, _)| k == "psel")
            .map(|(_, v)| v as u32);
        prop_assert_eq!(ac.drrip_psel(), psel);
    }
    Ok(ac)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn lru_mru_and_drrip_attribute_caches_are_the_engines(
        f in frames(120),
        ways in ways(),
        sets_log in 0u32..5,
        full_lines in 1u32..24,
    ) {
        for r in [Replacement::Lru, Replacement::Mru, Replacement::Drrip] {
            agree(&f, r, ways, sets_log, full_lines)?;
        }
    }

    /// Enough sets (128 or 256) that DRRIP has 32 leaders per policy and
    /// followers too, and PSEL moves.
    #[test]
    fn drrip_with_leaders_and_followers_is_the_engines(
        f in frames(600),
        w in prop_oneof![Just(1u32), Just(2)],
        sets_log in 7u32..9,
    ) {
        agree(&f, Replacement::Drrip, Ways::N(w), sets_log, 1)?;
    }
}
