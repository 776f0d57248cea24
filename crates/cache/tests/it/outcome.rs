//! `Cache::access_block` reports what it did to the block: hit, fill (and
//! the victim it evicted, with its dirty bit), or bypass.

use gfxcache_cache::policies::lru::Lru;
use gfxcache_cache::{BlockOutcome, Cache, Env, Geometry, Params, Policy, PolicySpec, StreamMask};
use gfxcache_trace::Stream;

fn lru(sets: u32, ways: u32) -> Cache<Lru> {
    let g = Geometry::new(64, sets, ways).unwrap();
    let spec: PolicySpec = "lru".parse().unwrap();
    let p = Lru::build(&mut Params::new(&spec), &g, &Env::default()).unwrap();
    Cache::new(g, p, StreamMask::default().with(Stream::Display))
}

#[test]
fn outcomes_of_hits_fills_evictions_and_bypasses() {
    let mut c = lru(1, 2);
    assert_eq!(
        c.access_block(1, Stream::Rt, true, 0),
        BlockOutcome::Fill { victim: None }
    );
    assert_eq!(
        c.access_block(2, Stream::Rt, false, 0),
        BlockOutcome::Fill { victim: None }
    );
    assert_eq!(c.access_block(2, Stream::Rt, false, 0), BlockOutcome::Hit);
    // LRU is block 1, dirty.
    assert_eq!(
        c.access_block(3, Stream::Rt, false, 0),
        BlockOutcome::Fill {
            victim: Some((1, true))
        }
    );
    assert_eq!(
        c.access_block(4, Stream::Rt, false, 0),
        BlockOutcome::Fill {
            victim: Some((2, false))
        }
    );
    assert_eq!(
        c.access_block(9, Stream::Display, true, 0),
        BlockOutcome::Bypass
    );
}

#[test]
fn outcome_matches_a_snapshot_of_the_set() {
    // The reference: the set's lines before the access; after it, the way
    // that holds the block held the victim before.
    for (sets, ways) in [(4, 4), (2, 128), (8, 16)] {
        let mut c = lru(sets, ways);
        let mut x = 12345u64;
        for i in 0..20_000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let block = (x >> 33) % (u64::from(sets * ways) * 3);
            let write = (x >> 20) & 3 == 0;
            let stream = if i % 7 == 0 {
                Stream::Display
            } else {
                Stream::Z
            };
            let set = c.geometry().set_of(block);
            let before: Vec<_> = (0..ways as usize).map(|w| c.line(set, w)).collect();
            let was = c.contains(block);
            let outcome = c.access_block(block, stream, write, 0);
            let now = (0..ways as usize).find(|&w| c.line(set, w).is_some_and(|(b, _)| b == block));
            let expected = match (was, now) {
                (true, _) => BlockOutcome::Hit,
                (false, Some(way)) => BlockOutcome::Fill {
                    victim: before[way],
                },
                (false, None) => BlockOutcome::Bypass,
            };
            assert_eq!(outcome, expected, "access {i} of block {block}");
        }
    }
}

#[test]
fn clean_dirty_returns_exactly_the_dirty_lines_and_cleans_them() {
    for (sets, ways) in [(4, 4), (2, 128), (8, 16)] {
        let mut c = lru(sets, ways);
        let mut x = 99u64;
        for _ in 0..5_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let block = (x >> 33) % (u64::from(sets * ways) * 2);
            c.access_block(block, Stream::Rt, (x >> 20) & 1 == 0, 0);
        }
        let lines = |c: &Cache<Lru>| {
            let mut v = Vec::new();
            for s in 0..sets as usize {
                for w in 0..ways as usize {
                    v.extend(c.line(s, w));
                }
            }
            v
        };
        let before = lines(&c);
        let mut expected: Vec<u64> = before.iter().filter(|l| l.1).map(|l| l.0).collect();
        expected.sort_unstable();
        assert!(!expected.is_empty());
        let stats = c.stats().clone();
        assert_eq!(c.clean_dirty(), expected);
        let after = lines(&c);
        assert!(after.iter().all(|l| !l.1), "every line clean");
        assert_eq!(
            after.iter().map(|l| l.0).collect::<Vec<_>>(),
            before.iter().map(|l| l.0).collect::<Vec<_>>(),
            "every line still valid"
        );
        assert_eq!(c.stats(), &stats);
        assert!(c.clean_dirty().is_empty());
    }
}
