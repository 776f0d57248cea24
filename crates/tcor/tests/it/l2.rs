//! The L2 models against the cache engine and over whole frames.

use gfxcache_cache::policies::lru::Lru;
use gfxcache_cache::{BlockOutcome, Cache, Env, Geometry, Params, Policy, PolicySpec, StreamMask};
use gfxcache_tcor::*;
use gfxcache_trace::Stream;
use proptest::prelude::*;

proptest! {
    /// The baseline L2 is exactly the engine's LRU: same hits, same
    /// write-backs, access by access.
    #[test]
    fn baseline_l2_is_the_engines_lru(
        seq in proptest::collection::vec((0u64..64, any::<bool>()), 1..400),
        ways in 1u32..5,
        sets_log in 0u32..3,
    ) {
        let sets = 1u32 << sets_log;
        let mut ours = L2Cache::new(L2Config {
            bytes: u64::from(sets * ways) * 64,
            ways,
            policy: L2Policy::Lru,
        })
        .unwrap();
        let geom = Geometry::new(64, sets, ways).unwrap();
        let spec: PolicySpec = "lru".parse().unwrap();
        let lru = Lru::build(&mut Params::new(&spec), &geom, &Env::default()).unwrap();
        let mut engine = Cache::new(geom, lru, StreamMask::default());
        let mut writebacks = 0;
        for (block, write) in seq {
            let hit = ours.access(block, write, LineKind::NonPb, 0);
            let out = engine.access_block(block, Stream::Other, write, 0);
            prop_assert_eq!(hit, out == BlockOutcome::Hit);
            if let BlockOutcome::Fill { victim: Some((_, true)) } = out {
                writebacks += 1;
            }
        }
        prop_assert_eq!(ours.stats().memory_writes, writebacks);
    }
}

fn frame(prims: u32) -> Binning {
    let (tx, ty) = (62, 24);
    Binning::new(&BinnedFrame {
        tiles_x: tx,
        tiles_y: ty,
        tile_size: 32,
        order: TileOrder::ZOrder,
        // Primitives a few tiles wide, drifting across the screen in
        // program order, as meshes do.
        primitives: (0..prims)
            .map(|p| {
                let (x, y) = ((p * 7) % tx, (p / 40) % ty);
                let w = 1 + p % 3;
                BinnedPrimitive {
                    attributes: 1 + p % 4,
                    tiles: (0..w)
                        .flat_map(|dx| (0..2).map(move |dy| (x + dx, y + dy)))
                        .filter(|&(x, y)| x < tx && y < ty)
                        .map(|(x, y)| y * tx + x)
                        .collect(),
                }
            })
            .collect(),
    })
    .unwrap()
}

#[test]
fn dead_dirty_parameter_buffer_lines_are_dropped_not_written() {
    let b = frame(40_000);
    let run = |policy| {
        let mut l2 = L2Cache::new(L2Config {
            bytes: 256 * 1024,
            ways: 8,
            policy,
        })
        .unwrap();
        let config = TcorConfig::kib64();
        let mut port = PbL2Port {
            l2: &mut l2,
            binning: &b,
            layout: config.layout,
            overflow: None,
        };
        let s = simulate_tcor(&b, &config, &mut port).unwrap();
        (s, *l2.stats())
    };
    let (tcor, dead_aware) = run(L2Policy::DeadAware);
    let (tcor_lru, lru) = run(L2Policy::Lru);
    // The L1s do not depend on the L2.
    assert_eq!(tcor, tcor_lru);
    assert_eq!(dead_aware.pb_accesses, tcor.l2_accesses());
    assert!(dead_aware.dead_dirty_dropped > 0);
    assert_eq!(lru.dead_dirty_dropped, 0);
    assert!(
        dead_aware.memory_writes < lru.memory_writes,
        "{} vs {}",
        dead_aware.memory_writes,
        lru.memory_writes
    );
}

#[test]
fn other_traffic_shares_the_l2() {
    let b = frame(5_000);
    let mut l2 = L2Cache::new(L2Config::default()).unwrap();
    // Texture-like reads before the Tiling Engine's traffic...
    for blk in 0..4096u64 {
        l2.access(0x10_0000 + blk, false, LineKind::NonPb, 0);
    }
    let config = BaselineConfig::kib64();
    let mut port = PbL2Port {
        l2: &mut l2,
        binning: &b,
        layout: config.layout,
        overflow: None,
    };
    let s = simulate_baseline(&b, &config, &mut port).unwrap();
    let st = *l2.stats();
    assert_eq!(st.other_accesses, 4096);
    assert_eq!(st.pb_accesses, s.l2_accesses());
    assert_eq!(l2.last_finished_tile(), Some(b.tiles() - 1));
}
