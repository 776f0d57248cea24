//! A texture unit's texture cache: LRU, the hit that keeps its LRU place,
//! and the fill when memory returns, against a plain LRU list.

use gfxcache_cache::Geometry;
use gfxcache_gpu::texture_cache::Lookup::{self, Hit};
use gfxcache_gpu::TextureCache;

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

/// A deliberately simple LRU texture cache: per set, its blocks from the
/// least to the most recently used (what the NBTC's L1 was, a stamp per
/// line, restated as an ordered list).
struct Reference {
    sets: u64,
    ways: usize,
    order: Vec<Vec<u64>>,
}

impl Reference {
    fn new(sets: u32, ways: u32) -> Reference {
        Reference {
            sets: u64::from(sets),
            ways: ways as usize,
            order: vec![Vec::new(); sets as usize],
        }
    }

    fn set(&mut self, block: u64) -> &mut Vec<u64> {
        &mut self.order[(block % self.sets) as usize]
    }

    fn contains(&mut self, block: u64) -> bool {
        self.set(block).contains(&block)
    }

    fn hit(&mut self, block: u64, refresh: bool) -> bool {
        let set = self.set(block);
        match set.iter().position(|&b| b == block) {
            Some(i) => {
                if refresh {
                    set.remove(i);
                    set.push(block);
                }
                true
            }
            None => false,
        }
    }

    fn fill_unless_present(&mut self, block: u64) -> Option<u64> {
        let ways = self.ways;
        let set = self.set(block);
        if set.contains(&block) {
            return None;
        }
        let victim = (set.len() == ways).then(|| set.remove(0));
        set.push(block);
        victim
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Contains(u64),
    Hit(u64, bool),
    Fill(u64),
}

fn op() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    prop_oneof![
        (0u64..24).prop_map(Op::Contains),
        (0u64..24, any::<bool>()).prop_map(|(b, r)| Op::Hit(b, r)),
        (0u64..24).prop_map(Op::Fill),
    ]
}

proptest::proptest! {
    /// On random probes, hits with and without refresh and fills as
    /// memory returns blocks, the texture cache answers as the plain list
    /// does, and holds the same blocks in the same recency order.
    #[test]
    fn the_texture_cache_is_the_plain_lru_list(
        sets in 1u32..5,
        ways in 1u32..5,
        ops in proptest::collection::vec(op(), 1..400),
    ) {
        let mut c = cache(sets, ways);
        let mut r = Reference::new(sets, ways);
        for op in ops {
            match op {
                Op::Contains(b) => proptest::prop_assert_eq!(c.contains(b), r.contains(b)),
                Op::Hit(b, refresh) => {
                    proptest::prop_assert_eq!(c.hit(b, refresh), r.hit(b, refresh))
                }
                Op::Fill(b) => proptest::prop_assert_eq!(
                    c.fill_unless_present(b),
                    r.fill_unless_present(b)
                ),
            }
        }
        for s in 0..u64::from(sets) {
            let mut expected = r.set(s).clone();
            expected.reverse();
            proptest::prop_assert_eq!(c.recency_order(s), expected);
        }
    }
}
