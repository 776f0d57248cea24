//! The Tile Fetcher's output queue: a primitive's Attribute Cache line
//! stays locked, and so is never evicted, while the primitive waits in the
//! queue for the Rasterizer.

use crate::common;

use gfxcache_cache::Ways;
use gfxcache_tcor::{
    AttributeCache, AttributeCacheConfig, BinnedFrame, BinnedPrimitive, Binning, L2Request,
    OptNumber, OutputQueue, PbLayout, Replacement, Request, Section,
};
use proptest::prelude::*;

/// A full-associative OPT cache of three lines: reads of D, A, B and then
/// C, with A read again last, then B, then D (OPT Numbers 9, 5, 3). At
/// depth 0, C evicts A (read farthest in the future); at depth 2, A and B
/// still wait in the queue, locked, and C evicts D instead.
#[test]
fn a_queued_primitive_keeps_its_line() {
    let req = |id: u64, opt: u32| Request {
        id: id * 64,
        prim: id as u32,
        attributes: 1,
        opt: OptNumber(opt),
    };
    let (d, a, b, c) = (req(1, 3), req(2, 9), req(3, 5), req(4, 7));
    let config = AttributeCacheConfig {
        entries: 16,
        lines: 3,
        ways: Ways::Full,
        replacement: Replacement::Opt,
    };
    let run = |depth| {
        let mut cache = AttributeCache::new(config).unwrap();
        let mut queue = OutputQueue::new(depth);
        for r in [d, a, b, c] {
            cache.fetch(r, &mut queue, &mut |_| {});
        }
        let cached = |r: Request| cache.lookup(r.id).is_some();
        (cached(a), cached(d), cache.stats().stalls)
    };
    assert_eq!(run(0), (false, true, 0), "depth 0 evicts A");
    assert_eq!(run(2), (true, false, 0), "depth 2 keeps A locked");
    // Depth 3: A, B and D all wait; C stalls until the Rasterizer takes D.
    assert_eq!(run(3), (true, false, 1));
}

/// Random frames: (attributes, tiles) per primitive on a 4x4 grid.
fn frames() -> impl Strategy<Value = Vec<(u32, std::collections::BTreeSet<u32>)>> {
    prop::collection::vec(
        (1u32..=6, prop::collection::btree_set(0u32..16, 1..6)),
        1..300,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_line_is_evicted_while_its_primitive_waits(
        prims in frames(),
        depth in 1usize..24,
        entries in 4u32..64,
        ways in common::ways(),
        r in prop_oneof![
            Just(Replacement::Opt),
            Just(Replacement::Lru),
            Just(Replacement::Mru),
            Just(Replacement::Drrip),
        ],
    ) {
        let b = Binning::new(&BinnedFrame {
            tiles_x: 4,
            tiles_y: 4,
            tile_size: 32,
            order: gfxcache_tcor::TileOrder::ZOrder,
            primitives: prims
                .iter()
                .map(|(n, t)| BinnedPrimitive { attributes: *n, tiles: t.iter().copied().collect() })
                .collect(),
        })
        .unwrap();
        let lines = match ways {
            Ways::Full => entries / 2,
            Ways::N(w) => w << (entries / 2 / w).max(1).ilog2(),
        }
        .max(1);
        let config = AttributeCacheConfig { entries, lines, ways, replacement: r };
        let mut cache = AttributeCache::new(config).unwrap();
        let mut queue = OutputQueue::new(depth);
        let layout = PbLayout::default();
        let mut l2 = |_: L2Request| {};
        for a in layout.stream(&b).filter(|a| a.section == Section::PbAttributes) {
            // What waits before the access, and so stays locked through it
            // unless a stall hands it to the Rasterizer first.
            let before: Vec<u64> = queue.waiting().filter(|q| q.abp.is_some()).map(|q| q.id).collect();
            let stalls = cache.stats().stalls;
            cache.access(&a, &mut queue, &mut l2);
            let consumed = (cache.stats().stalls - stalls) as usize;
            prop_assert!(queue.waiting().count() <= depth);
            // Those a stall did not hand over were locked through every
            // eviction of the access (the Rasterizer takes what overflows
            // the queue only after the read).
            for id in before.iter().skip(consumed) {
                prop_assert!(cache.lookup(*id).is_some(), "queued primitive {id:#x} was evicted");
            }
            for q in queue.waiting().filter(|q| q.abp.is_some()) {
                prop_assert!(cache.lookup(q.id).is_some_and(|l| l.lock > 0));
            }
        }
        cache.drain(&mut queue);
        prop_assert!(cache.primitive_buffer().lines().iter().all(|l| l.lock == 0));
    }
}
