//! Hand-built sequences for the MRU and DRRIP Attribute Caches, fully
//! associative (one set: DRRIP has no leaders and inserts as SRRIP, at 2),
//! including how locked lines (primitives still in the output queue) are
//! skipped: never victims, and never aged by DRRIP.

use gfxcache_cache::Ways;
use gfxcache_tcor::*;

fn full(lines: u32, entries: u32, r: Replacement) -> AttributeCache {
    AttributeCache::new(AttributeCacheConfig {
        entries,
        lines,
        ways: Ways::Full,
        replacement: r,
    })
    .unwrap()
}

fn req(prim: u32, attributes: u32) -> Request {
    Request {
        id: 0x8000_0000 + u64::from(prim) * 64 * 8,
        prim,
        attributes,
        // Ignored by MRU and DRRIP.
        opt: OptNumber(99),
    }
}

fn cached(c: &AttributeCache, prims: &[u32]) -> Vec<u32> {
    prims
        .iter()
        .copied()
        .filter(|&p| c.lookup(req(p, 1).id).is_some())
        .collect()
}

fn read_now(c: &mut AttributeCache, p: u32) -> bool {
    let out = c.read(req(p, 1), &mut |_| {});
    let (ReadOutcome::Hit(q) | ReadOutcome::Miss(q)) = out else {
        panic!("{out:?}")
    };
    c.rasterizer_read(q);
    matches!(out, ReadOutcome::Hit(_))
}

#[test]
fn mru_evicts_the_most_recently_used_and_never_bypasses_writes() {
    let mut c = full(2, 8, Replacement::Mru);
    let mut l2 = |_| {};
    c.write(req(0, 1), &mut l2);
    c.write(req(1, 1), &mut l2);
    assert!(read_now(&mut c, 0));
    // p0 was read last: it goes, not p1.
    assert_eq!(c.write(req(2, 1), &mut l2), WriteOutcome::Allocated);
    assert_eq!(cached(&c, &[0, 1, 2]), [1, 2]);
    // p2 was written last: it goes.
    assert!(!read_now(&mut c, 0));
    assert_eq!(cached(&c, &[0, 1, 2]), [0, 1]);
    assert_eq!(c.stats().write_bypasses, 0);
}

#[test]
fn mru_keeps_part_of_a_cycle_larger_than_the_cache_where_lru_keeps_none() {
    let hits = |r| {
        let mut c = full(2, 8, r);
        for p in 0..3 {
            c.write(req(p, 1), &mut |_| {});
        }
        (0..6).filter(|i| read_now(&mut c, i % 3)).count()
    };
    // MRU: writes leave {p0, p2}; reads p0 hit, p1 miss (evicts p0), p2
    // hit, p0 miss (evicts p2), p1 hit, p2 miss.
    assert_eq!(hits(Replacement::Mru), 3);
    assert_eq!(hits(Replacement::Lru), 0);
}

#[test]
fn mru_skips_a_locked_line_even_if_most_recent() {
    let mut c = full(2, 8, Replacement::Mru);
    let mut l2 = |_| {};
    c.write(req(0, 1), &mut l2);
    c.write(req(1, 1), &mut l2);
    // p0 read and still queued (locked): the most recent, but not a victim.
    let ReadOutcome::Hit(q0) = c.read(req(0, 1), &mut l2) else {
        panic!()
    };
    let ReadOutcome::Miss(q2) = c.read(req(2, 1), &mut l2) else {
        panic!()
    };
    assert_eq!(cached(&c, &[0, 1, 2]), [0, 2]);
    // Both locked: the read waits.
    assert_eq!(c.read(req(3, 1), &mut l2), ReadOutcome::Stall);
    c.rasterizer_read(q0);
    c.rasterizer_read(q2);
    // p2 is the most recent unlocked line now.
    assert!(!read_now(&mut c, 3));
    assert_eq!(cached(&c, &[0, 1, 2, 3]), [0, 3]);
}

fn rrpv(c: &AttributeCache, p: u32) -> u8 {
    c.lookup(req(p, 1).id).unwrap().rrpv
}

#[test]
fn drrip_hits_set_zero_fills_insert_at_two_and_victims_age_the_set() {
    let mut c = full(2, 8, Replacement::Drrip);
    let mut l2 = |_| {};
    c.write(req(0, 1), &mut l2);
    c.write(req(1, 1), &mut l2);
    assert_eq!((rrpv(&c, 0), rrpv(&c, 1)), (2, 2));
    assert!(read_now(&mut c, 0));
    assert_eq!(rrpv(&c, 0), 0);
    // No line at 3: age by one (p0 1, p1 3), evict p1.
    assert_eq!(c.write(req(2, 1), &mut l2), WriteOutcome::Allocated);
    assert_eq!(cached(&c, &[0, 1, 2]), [0, 2]);
    assert_eq!((rrpv(&c, 0), rrpv(&c, 2)), (1, 2));
    // Ages by one again: p0 2, p2 3: p2 goes.
    c.write(req(3, 1), &mut l2);
    assert_eq!(cached(&c, &[0, 2, 3]), [0, 3]);
    assert_eq!(c.drrip_psel(), Some(511));
    assert_eq!(c.stats().write_bypasses, 0);
}

#[test]
fn drrip_never_evicts_nor_ages_a_locked_line() {
    let mut c = full(2, 8, Replacement::Drrip);
    let mut l2 = |_| {};
    c.write(req(0, 1), &mut l2);
    c.write(req(1, 1), &mut l2);
    let ReadOutcome::Hit(q0) = c.read(req(0, 1), &mut l2) else {
        panic!()
    };
    // p0 locked at 0; only p1 (2) may go, aged to 3 alone.
    let ReadOutcome::Miss(q2) = c.read(req(2, 1), &mut l2) else {
        panic!()
    };
    assert_eq!(cached(&c, &[0, 1, 2]), [0, 2]);
    assert_eq!((rrpv(&c, 0), rrpv(&c, 2)), (0, 2));
    // Both locked: a stall changes nothing.
    assert_eq!(c.read(req(3, 1), &mut l2), ReadOutcome::Stall);
    assert_eq!((rrpv(&c, 0), rrpv(&c, 2)), (0, 2));
    c.rasterizer_read(q0);
    c.rasterizer_read(q2);
}

#[test]
fn drrip_frees_attribute_entries_by_the_same_rule() {
    // Three lines, 3 entries.
    let mut c = full(3, 3, Replacement::Drrip);
    let mut l2 = |_| {};
    c.write(req(0, 1), &mut l2);
    c.write(req(1, 1), &mut l2);
    assert!(read_now(&mut c, 0));
    // A free line, but 2 entries needed and 1 free: p1 (2) goes after
    // every line ages by one (p0 to 1).
    assert!(matches!(
        c.read(req(2, 2), &mut l2),
        ReadOutcome::Miss(q) if c.rasterizer_read(q) == 2
    ));
    assert_eq!(cached(&c, &[0, 1, 2]), [0, 2]);
    assert_eq!(rrpv(&c, 0), 1);
}
