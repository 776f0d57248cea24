//! Unit tests of the Attribute Cache's rules, on hand-worked sequences.

use super::*;
use crate::binning::OptNumber;
use gfxcache_cache::Ways;

fn full(lines: u32, entries: u32, r: Replacement) -> AttributeCache {
    AttributeCache::new(AttributeCacheConfig {
        entries,
        lines,
        ways: Ways::Full,
        replacement: r,
    })
    .unwrap()
}

fn req(prim: u32, attributes: u32, opt: u32) -> Request {
    Request {
        id: 0x8000_0000 + u64::from(prim) * 64 * 8,
        prim,
        attributes,
        opt: OptNumber(opt),
    }
}

fn none() -> impl FnMut(L2Request) {
    |_| {}
}

#[test]
fn equal_opt_number_bypasses_and_greater_evicts() {
    let mut c = full(1, 8, Replacement::Opt);
    let mut l2 = none();
    assert_eq!(c.write(req(0, 1, 5), &mut l2), WriteOutcome::Allocated);
    assert_eq!(c.write(req(1, 1, 5), &mut l2), WriteOutcome::Bypassed);
    assert_eq!(c.write(req(2, 1, 6), &mut l2), WriteOutcome::Bypassed);
    assert_eq!(c.write(req(3, 2, 4), &mut l2), WriteOutcome::Allocated);
    let s = c.stats();
    assert_eq!((s.writes, s.write_bypasses, s.evictions), (4, 2, 1));
    // Bypasses write 1 + 1 attributes, the dirty eviction 1.
    assert_eq!(s.l2_writes, 3);
    assert!(c.lookup(req(3, 2, 4).id).is_some());
    assert_eq!(c.dirty_attributes(), 2);
}

#[test]
fn a_write_evicts_only_lines_read_later_to_free_attribute_entries() {
    // Three lines, 4 entries: p0 (2 attrs, OPT 1), p1 (2 attrs, OPT 9).
    let mut c = full(3, 4, Replacement::Opt);
    let mut l2 = none();
    c.write(req(0, 2, 1), &mut l2);
    c.write(req(1, 2, 9), &mut l2);
    // A free line, but 3 entries needed: only p1 (OPT 9 > 5) may go,
    // which frees 2: not enough, so bypass and evict nothing.
    assert_eq!(c.write(req(2, 3, 5), &mut l2), WriteOutcome::Bypassed);
    assert_eq!(c.stats().evictions, 0);
    // 2 entries needed: evicting p1 suffices.
    assert_eq!(c.write(req(3, 2, 5), &mut l2), WriteOutcome::Allocated);
    assert!(c.lookup(req(1, 2, 9).id).is_none());
    assert!(c.lookup(req(0, 2, 1).id).is_some());
}

#[test]
fn read_miss_evicts_greatest_opt_number_and_reads_every_attribute() {
    let mut c = full(2, 8, Replacement::Opt);
    let mut l2s = Vec::new();
    let mut l2 = |r: L2Request| l2s.push(r);
    c.write(req(0, 1, 3), &mut l2);
    c.write(req(1, 1, 7), &mut l2);
    let out = c.read(req(2, 3, 4), &mut l2);
    let ReadOutcome::Miss(q) = out else {
        panic!("{out:?}")
    };
    c.rasterizer_read(q);
    assert!(c.lookup(req(1, 1, 7).id).is_none());
    // The dirty victim's write-back, then three attribute reads.
    let kinds: Vec<bool> = l2s.iter().map(|r| r.write).collect();
    assert_eq!(kinds, [true, false, false, false]);
    assert_eq!(l2s[1].block + 2, l2s[3].block);
    assert_eq!((c.stats().l2_reads, c.stats().l2_writes), (3, 1));
}

#[test]
fn a_read_hit_updates_the_opt_number_and_locks_until_the_rasterizer_reads() {
    let mut c = full(1, 4, Replacement::Opt);
    let mut l2 = none();
    c.write(req(0, 2, 0), &mut l2);
    let ReadOutcome::Hit(q) = c.read(req(0, 2, 6), &mut l2) else {
        panic!()
    };
    assert_eq!(c.lookup(q.id).unwrap().opt, OptNumber(6));
    // Locked: a miss cannot evict it.
    assert_eq!(c.read(req(1, 1, 2), &mut l2), ReadOutcome::Stall);
    assert_eq!(c.stats().stalls, 1);
    assert_eq!(c.rasterizer_read(q), 2);
    assert!(matches!(
        c.read(req(1, 1, 2), &mut l2),
        ReadOutcome::Miss(_)
    ));
}

#[test]
fn a_deep_output_queue_stalls_then_proceeds() {
    let mut c = full(1, 4, Replacement::Opt);
    let mut l2 = none();
    let mut q = OutputQueue::new(4);
    assert!(matches!(
        c.fetch(req(0, 1, 1), &mut q, &mut l2),
        ReadOutcome::Miss(_)
    ));
    // p0 is still queued (locked): the Tile Fetcher waits for it.
    assert!(matches!(
        c.fetch(req(1, 1, 1), &mut q, &mut l2),
        ReadOutcome::Miss(_)
    ));
    assert_eq!(c.stats().stalls, 1);
    c.drain(&mut q);
    assert!(!c
        .attribute_buffer()
        .is_locked(c.lookup(req(1, 1, 1).id).unwrap().abp));
}

#[test]
fn attribute_buffer_shortage_evicts_more_primitives_by_opt() {
    // Four lines, 4 entries; four 1-attribute primitives fill it.
    let mut c = full(4, 4, Replacement::Opt);
    let mut l2 = none();
    for (p, opt) in [(0, 2), (1, 8), (2, 5), (3, 9)] {
        c.write(req(p, 1, opt), &mut l2);
    }
    // A 3-attribute read: evict p3 (9) for the line, then p1 (8) and
    // p2 (5) for entries; p0 (2) stays.
    assert!(matches!(
        c.read(req(4, 3, 1), &mut l2),
        ReadOutcome::Miss(_)
    ));
    let kept: Vec<u32> = (0..4)
        .filter(|&p| c.lookup(req(p, 1, 0).id).is_some())
        .collect();
    assert_eq!(kept, [0]);
    assert_eq!(c.stats().evictions, 3);
}

#[test]
fn lru_evicts_the_least_recent_and_never_bypasses_writes() {
    let mut c = full(2, 8, Replacement::Lru);
    let mut l2 = none();
    c.write(req(0, 1, 0), &mut l2);
    c.write(req(1, 1, 0), &mut l2);
    let ReadOutcome::Hit(q) = c.read(req(0, 1, 9), &mut l2) else {
        panic!()
    };
    c.rasterizer_read(q);
    assert_eq!(c.write(req(2, 1, 99), &mut l2), WriteOutcome::Allocated);
    assert!(c.lookup(req(1, 1, 0).id).is_none());
    assert!(c.lookup(req(0, 1, 0).id).is_some());
}

#[test]
fn a_primitive_larger_than_the_buffer_is_streamed() {
    let mut c = full(2, 2, Replacement::Opt);
    let mut l2 = none();
    assert_eq!(c.write(req(0, 3, 0), &mut l2), WriteOutcome::Bypassed);
    assert!(matches!(
        c.read(req(0, 3, 0), &mut l2),
        ReadOutcome::Streamed(_)
    ));
    let s = c.stats();
    assert_eq!((s.l2_writes, s.l2_reads, s.streamed_reads), (3, 3, 1));
}

#[test]
fn paper_configurations() {
    let c = AttributeCacheConfig::tcor_48k();
    assert_eq!((c.entries, c.lines, c.ways), (1024, 512, Ways::N(4)));
    assert_eq!(AttributeCacheConfig::tcor_112k().entries, 2389);
    assert!(AttributeCache::new(AttributeCacheConfig::tcor_112k()).is_ok());
}
