//! The Attribute Cache's LRU variant against the cache engine's LRU: with
//! one attribute per primitive and an Attribute Buffer as large as the
//! Primitive Buffer, a primitive is a block, and the two must agree access
//! by access (the Attribute Cache's XOR index only moves primitives between
//! sets, so the comparison is fully associative).

use gfxcache_cache::policies::lru::Lru;
use gfxcache_cache::{
    BlockOutcome, Cache, Env, Geometry, Params, Policy, PolicySpec, StreamMask, Ways,
};
use gfxcache_tcor::*;
use gfxcache_trace::Stream;
use proptest::prelude::*;

fn frames() -> impl Strategy<Value = BinnedFrame> {
    (1u32..7, 1u32..7).prop_flat_map(|(tx, ty)| {
        let tiles = tx * ty;
        let prim = proptest::collection::btree_set(0..tiles, 1..=tiles as usize).prop_map(|t| {
            BinnedPrimitive {
                attributes: 1,
                tiles: t.into_iter().collect(),
            }
        });
        proptest::collection::vec(prim, 1..80).prop_map(move |primitives| BinnedFrame {
            tiles_x: tx,
            tiles_y: ty,
            tile_size: 32,
            order: TileOrder::ZOrder,
            primitives,
        })
    })
}

proptest! {
    #[test]
    fn lru_attribute_cache_is_the_engines_lru(f in frames(), lines in 1u32..24) {
        let b = f.bin().unwrap();
        let layout = PbLayout::default();
        let mut ac = AttributeCache::new(AttributeCacheConfig {
            entries: lines,
            lines,
            ways: Ways::Full,
            replacement: Replacement::Lru,
        })
        .unwrap();
        let geom = Geometry::new(64, 1, lines).unwrap();
        let spec: PolicySpec = "lru".parse().unwrap();
        let lru = Lru::build(&mut Params::new(&spec), &geom, &Env::default()).unwrap();
        let mut engine = Cache::new(geom, lru, StreamMask::default());
        let mut queue = OutputQueue::new(0);
        let (mut reads, mut writes) = (0u64, 0u64);
        for a in layout.stream(&b).filter(|a| a.section == Section::PbAttributes) {
            let before = *ac.stats();
            ac.access(&a, &mut queue, &mut |_| {});
            let after = *ac.stats();
            let out = engine.access_block(a.addr / 64, Stream::PbAttr, a.write, 0);
            if !a.write {
                prop_assert_eq!(after.read_hits > before.read_hits, out == BlockOutcome::Hit);
                reads += u64::from(out != BlockOutcome::Hit);
            }
            if let BlockOutcome::Fill { victim: Some((_, true)) } = out {
                writes += 1;
            }
        }
        prop_assert_eq!(ac.stats().l2_reads, reads);
        prop_assert_eq!(ac.stats().l2_writes, writes);
    }
}
