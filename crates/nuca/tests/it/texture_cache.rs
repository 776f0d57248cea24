//! One fragment processor's texture cache: LRU, and the hit that keeps
//! its LRU place.

use gfxcache_cache::Geometry;
use gfxcache_nuca::texture_cache::Lookup::{self, Hit};
use gfxcache_nuca::TextureCache;

const COLD: Lookup = Lookup::Miss { evicted: None };

fn evicts(b: u64) -> Lookup {
    Lookup::Miss { evicted: Some(b) }
}

fn cache(sets: u32, ways: u32) -> TextureCache {
    TextureCache::new(&Geometry::new(64, sets, ways).unwrap())
}

#[test]
fn lru_within_a_set() {
    let mut c = cache(2, 3);
    // Blocks 0, 2, 4, 6 are all in set 0.
    assert_eq!(c.access(0), COLD);
    assert_eq!(c.access(2), COLD);
    assert_eq!(c.access(4), COLD);
    assert_eq!(c.access(0), Hit);
    assert_eq!(c.recency_order(0), [0, 4, 2]);
    assert_eq!(c.access(6), evicts(2));
    assert_eq!(c.access(1), COLD, "set 1 is apart");
    assert_eq!(c.recency_order(0), [6, 0, 4]);
    let mut all: Vec<u64> = c.blocks().collect();
    all.sort_unstable();
    assert_eq!(all, [0, 1, 4, 6]);
}

#[test]
fn a_hit_without_refresh_keeps_the_lru_place() {
    let mut c = cache(1, 2);
    assert_eq!(c.access(10), COLD);
    assert_eq!(c.access(11), COLD);
    assert!(c.hit(10, false));
    assert_eq!(c.recency_order(10), [11, 10]);
    assert_eq!(c.fill(12), Some(10), "the unrefreshed block is the victim");
    assert!(!c.hit(10, false), "a miss changes nothing");
    assert!(c.hit(11, true));
    assert_eq!(c.recency_order(11), [11, 12]);
}

#[test]
fn non_power_of_two_sets() {
    let mut c = cache(3, 1);
    for b in 0..3 {
        assert_eq!(c.access(b), COLD);
    }
    assert_eq!(c.access(3), evicts(0), "3 mod 3 = set 0");
    assert!(c.contains(1) && c.contains(2) && !c.contains(0));
}

/// The paper's machine under modulo indexing keeps one bucket's blocks
/// in 8 of a texture cache's 64 sets (bucket bits 3-7 of the block
/// address share bits 3-5 with the set index): 32 of them fit. XOR-folded
/// indexing spreads them over every set.
#[test]
fn a_buckets_blocks_fill_an_eighth_of_a_modulo_cache_and_all_of_a_xor_one() {
    use gfxcache_nuca::{Buckets, NucaConfig, TcIndex};
    let held = |index: TcIndex| {
        let config = NucaConfig {
            tc_index: index,
            ..NucaConfig::default()
        };
        let buckets = Buckets::new(config.page_blocks, config.buckets);
        let mut c = TextureCache::new(&config.tc_geometry().unwrap());
        let blocks: Vec<u64> = (0..100_000u64)
            .filter(|&b| buckets.bucket_of(b) == buckets.bucket_of(5 * 8))
            .take(256)
            .collect();
        for &b in &blocks {
            if !c.contains(b) {
                let _ = c.access(b);
            }
        }
        blocks.iter().filter(|&&b| c.contains(b)).count()
    };
    assert_eq!(held(TcIndex::Modulo), 32);
    assert_eq!(held(TcIndex::XorFold), 256);
}
