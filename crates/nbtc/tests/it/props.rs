//! Invariants on random streams and configurations.

use crate::common::{end, req};
use gfxcache_nbtc::{Mode, NbtcConfig, TextureUnit, UnitEvent, UnitStats};
use proptest::prelude::*;

/// Fragments of 0-3 requests of 1-8 texels over `blocks` blocks, on a
/// few pixels (so that same-(x, y) ordering matters), with shader work.
fn events(blocks: u64) -> impl Strategy<Value = Vec<UnitEvent>> {
    let request = (
        0u16..3,
        0u32..6,
        prop::collection::vec(0..blocks, 1..=8usize),
    );
    let fragment = (prop::collection::vec(request, 0..4), 0u32..8);
    prop::collection::vec(fragment, 1..50).prop_map(|fragments| {
        let mut events = Vec::new();
        for (requests, work) in fragments {
            for (x, alu, taps) in requests {
                events.push(req(x, 0, alu, &taps));
            }
            events.push(end(work));
        }
        events
    })
}

fn configs() -> impl Strategy<Value = NbtcConfig> {
    (
        prop_oneof![Just((1024u64, 2u32)), Just((4096, 4)), Just((32 * 1024, 4))],
        0u64..60,
        (1u32..10, 1u32..10, 8u32..14, 1u32..8),
        // H and F short, or long enough that results wait behind older
        // ones of their pixel for many cycles.
        prop_oneof![(1u64..3, 1u64..6), (50u64..400, 1u64..100)],
    )
        .prop_map(
            |((l1_bytes, l1_ways), memory_latency, (rb, wlb, bab, frags), (hit, filter))| {
                NbtcConfig {
                    l1_bytes,
                    l1_ways,
                    memory_latency,
                    rb_entries: rb,
                    wlb_entries: wlb,
                    bab_entries: bab,
                    fragments_in_flight: frags,
                    hit_latency: hit,
                    filter_latency: filter,
                    ..NbtcConfig::default()
                }
            },
        )
}

/// Every mode, its buffers sized from `c`'s (so that they fill).
fn modes(c: &NbtcConfig, targets: u32) -> [Mode; 5] {
    // (the NBTC's BAB keeping or forgetting sent blocks: see `variants`)
    [
        Mode::Nbtc,
        Mode::Blocking { serial: true },
        Mode::Blocking { serial: false },
        Mode::Mshr {
            mshrs: c.bab_entries,
            targets,
        },
        Mode::Prefetching {
            fragment_fifo: c.rb_entries,
            request_fifo: targets,
            rob: c.bab_entries,
        },
    ]
}

/// Every mode with the BAB keeping sent blocks, and the NBTC with a BAB
/// that forgets them.
fn variants(c: &NbtcConfig, targets: u32) -> Vec<(Mode, bool)> {
    let mut v: Vec<(Mode, bool)> = modes(c, targets).into_iter().map(|m| (m, true)).collect();
    v.push((Mode::Nbtc, false));
    v
}

fn run(config: &NbtcConfig, events: &[UnitEvent]) -> UnitStats {
    TextureUnit::new(config).unwrap().run(events).unwrap()
}

fn check_counts(c: &NbtcConfig, events: &[UnitEvent], s: &UnitStats) -> Result<(), TestCaseError> {
    let requests = events
        .iter()
        .filter(|e| matches!(e, UnitEvent::Request(_)))
        .count() as u64;
    let texels: u64 = events
        .iter()
        .map(|e| match e {
            UnitEvent::Request(r) => u64::from(r.len),
            _ => 0,
        })
        .sum();
    prop_assert_eq!(s.requests, requests);
    prop_assert_eq!(s.texel_lookups, texels);
    prop_assert_eq!(s.hits + s.misses(), s.texel_lookups);
    prop_assert_eq!(s.memory_requests, s.primary_misses);
    prop_assert_eq!(s.accounted_cycles(), s.cycles);
    prop_assert_eq!((s.rb.end, s.wlb.end, s.bab.end), (0, 0, 0));
    prop_assert!(s.rb.max <= c.rb_capacity() as u64);
    prop_assert!(s.wlb.max <= c.wlb_capacity() as u64);
    prop_assert!(s.bab.max <= c.miss_queue().capacity() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Counts add up, every buffer entry is freed, and the BAB never holds
    /// a duplicate (`BlockAddressBuffer::push` asserts it in debug builds,
    /// which tests are).
    #[test]
    fn counts_add_up_and_buffers_drain(c in configs(), events in events(64), targets in 1u32..4) {
        if !cfg!(debug_assertions) {
            panic!("the BAB's duplicate check needs debug assertions");
        }
        for (mode, bab_merges_sent) in variants(&c, targets) {
            let c = NbtcConfig { mode, bab_merges_sent, ..c };
            let s = run(&c, &events);
            check_counts(&c, &events, &s)?;
            prop_assert_eq!(run(&c, &events), s, "not deterministic");
            if matches!(mode, Mode::Blocking { .. }) {
                // Its secondary misses are a request's taps in one missing block.
                prop_assert_eq!(s.nbtc_stall_cycles + s.miss_queue_full_cycles, 0);
                prop_assert!(s.wlb.max <= 1);
            }
        }
    }

    /// Skipping quiet stretches changes nothing: the fast path equals the
    /// loop that steps every cycle, count for count.
    #[test]
    fn quiet_stretches_skip_nothing(c in configs(), events in events(64), targets in 1u32..4) {
        for (mode, bab_merges_sent) in variants(&c, targets) {
            let c = NbtcConfig { mode, bab_merges_sent, ..c };
            let mut unit = TextureUnit::new(&c).unwrap();
            let every = unit.run_every_cycle(&events, &[]).unwrap();
            prop_assert_eq!(unit.run(&events).unwrap(), every);
        }
    }

    /// "NBTC cycles <= BTC cycles" is not an invariant (see
    /// `hand_traces::an_earlier_result_can_finish_later`); this is: with
    /// one fragment in flight a request is issued only after the previous
    /// result returned, so the unit is idle at every lookup and the NBTC
    /// is exactly the blocking cache that fetches a request's blocks in
    /// parallel, count for count.
    #[test]
    fn one_fragment_in_flight_nbtc_is_the_parallel_blocking_cache(
        c in configs(),
        events in events(64),
    ) {
        let c = NbtcConfig { fragments_in_flight: 1, ..c };
        let nbtc = run(&NbtcConfig { mode: Mode::Nbtc, ..c }, &events);
        let btc = run(&NbtcConfig { mode: Mode::Blocking { serial: false }, ..c }, &events);
        prop_assert_eq!(nbtc, btc);
        prop_assert_eq!(nbtc.blocked_cycles + nbtc.nbtc_stall_cycles, 0);
    }
}
