//! Hand-worked runs: cycle counts computed by hand from the timing rules
//! in `texture_unit.rs`, written out so a reviewer can follow them.

use crate::common::{end, req};
use gfxcache_nbtc::{Mode, NbtcConfig, TextureUnit, UnitStats};

fn run(config: &NbtcConfig, events: &[gfxcache_nbtc::UnitEvent]) -> UnitStats {
    let stats = TextureUnit::new(config).unwrap().run(events).unwrap();
    assert_eq!(stats.accounted_cycles(), stats.cycles, "{stats:?}");
    stats
}

fn small(mode: Mode, latency: u64, fragments: u32) -> NbtcConfig {
    NbtcConfig {
        memory_latency: latency,
        fragments_in_flight: fragments,
        mode,
        ..NbtcConfig::default()
    }
}

/// Five one-request fragments, four in flight, memory latency 10, H = 1,
/// F = 4, no shader work. Blocks A = 0, B = 1.
///   r0 (0,0) [A]   r1 (1,0) [A]   r2 (2,0) [B]   r3 (0,0) [B]   r4 (3,0) [A, B]
fn five() -> Vec<gfxcache_nbtc::UnitEvent> {
    vec![
        req(0, 0, 0, &[0]),
        end(0),
        req(1, 0, 0, &[0]),
        end(0),
        req(2, 0, 0, &[1]),
        end(0),
        req(0, 0, 0, &[1]),
        end(0),
        req(3, 0, 0, &[0, 1]),
        end(0),
    ]
}

/// NBTC, cycle by cycle:
///  0: r0 misses A (primary): WLB e0, BAB A, A sent, back at 10.
///  1: r1 misses A (in the BAB: secondary): WLB e1, nothing sent.
///  2: r2 misses B (primary): WLB e2, B sent, back at 12.
///  3: r3 misses B (secondary): WLB e3.
///  4-9: all four fragments wait: PS stall (6).
/// 10: A filled; e0, e1 ready; MUX e0 -> r0 ready at 14. PS stall.
/// 11: MUX e1 -> r1 ready at 15. PS stall.
/// 12: B filled; MUX e2 -> r2 ready at 16. PS stall.
/// 13: MUX e3 -> r3 ready at 17. PS stall.
/// 14: r0 completes, its fragment ends, r4's is admitted; r4 hits A and B,
///     the MUX is free: ready at 14 + 1 + 4 = 19.
/// 15: r1 completes. PS stall.  16: r2 completes. PS stall.
/// 17: r3 completes (r0, the older request of (0,0), has). PS stall.
/// 18: PS stall.  19: r4 completes; nothing left: drain.
/// 20 cycles: 5 issue + 14 PS stall + 1 drain.
#[test]
fn nbtc_five_requests_by_hand() {
    let s = run(&small(Mode::Nbtc, 10, 4), &five());
    assert_eq!(s.cycles, 20);
    assert_eq!(s.issue_cycles, 5);
    assert_eq!(s.ps_stall_cycles, 14);
    assert_eq!(s.drain_cycles, 1);
    assert_eq!((s.requests, s.texel_lookups, s.hits), (5, 6, 2));
    assert_eq!((s.primary_misses, s.secondary_misses), (2, 2));
    assert_eq!((s.memory_requests, s.traffic_bytes), (2, 64));
    assert_eq!((s.wlb.max, s.bab.max, s.rb.max), (4, 2, 4));
    assert_eq!((s.rb.end, s.wlb.end, s.bab.end), (0, 0, 0));
}

/// The same five through the blocking cache (serial):
///  0: r0 misses A, sent, back at 10.  1-9: r1 refused (blocked, 9).
/// 10: A filled, MUX e0 -> r0 ready at 14; r1 now hits A but the MUX is
///     taken: MUX conflict.  11: r1 hits, ready at 16.
/// 12: r2 misses B, sent, back at 22.  13-21: r3 refused (blocked, 9).
/// 22: B filled, MUX e2 -> r2 ready at 26; r3 hits B: MUX conflict.
/// 23: r3 hits, ready at 28.  24: r4 hits A and B, ready at 29.
/// 25-28: PS stall (4; r1, r0, r2, r3 complete on the way).
/// 29: r4 completes: drain.  30 cycles: 5 issue + 18 blocked + 2 MUX
/// conflicts + 4 PS stall + 1 drain.
#[test]
fn blocking_five_requests_by_hand() {
    let s = run(&small(Mode::Blocking { serial: true }, 10, 4), &five());
    assert_eq!(s.cycles, 30);
    assert_eq!(s.issue_cycles, 5);
    assert_eq!(s.blocked_cycles, 18);
    assert_eq!(s.mux_conflict_cycles, 2);
    assert_eq!(s.ps_stall_cycles, 4);
    assert_eq!(s.drain_cycles, 1);
    assert_eq!((s.primary_misses, s.secondary_misses, s.hits), (2, 0, 4));
    assert_eq!(s.memory_requests, 2);
}

/// The blocking cache with one fragment in flight, cold cache, distinct
/// blocks: a request after `a` instructions with `m` missing blocks costs
/// a + H + F if m = 0, a + m L + F serially (each block sent when the
/// previous returns), a + L + (m - 1) + F in parallel (one sent a cycle);
/// a fragment's trailing work w costs w. Here L = 20, H = 1, F = 4:
///   frag 1: req alu 3, blocks {0,1,2}      serial 3+60+4 = 67  parallel 3+20+2+4 = 29
///           req alu 2, blocks {0,1} (hits)  2+1+4 = 7           7
///           end 5                           5                   5
///   frag 2: req alu 0, blocks {3}          0+20+4 = 24          24
///           req alu 1, blocks {3,4,4,5}    1+40+4 = 45 (4, 5)   1+20+1+4 = 26
///           end 2                           2                   2
/// serial 67+7+5+24+45+2 = 150; parallel 29+7+5+24+26+2 = 93.
#[test]
fn blocking_matches_closed_form() {
    let events = vec![
        req(0, 0, 3, &[0, 1, 2]),
        req(0, 0, 2, &[0, 1]),
        end(5),
        req(1, 0, 0, &[3]),
        req(1, 0, 1, &[3, 4, 4, 5]),
        end(2),
    ];
    let serial = run(&small(Mode::Blocking { serial: true }, 20, 1), &events);
    assert_eq!(serial.cycles, 150);
    assert_eq!(serial.run_cycles, 3 + 2 + 5 + 1 + 2);
    let parallel = run(&small(Mode::Blocking { serial: false }, 20, 1), &events);
    assert_eq!(parallel.cycles, 93);
    // One fragment in flight: the NBTC overlaps only a request's own
    // blocks, exactly like the parallel blocking cache.
    let nbtc = run(&small(Mode::Nbtc, 20, 1), &events);
    assert_eq!(nbtc.cycles, 93);
    for s in [serial, parallel, nbtc] {
        assert_eq!(s.memory_requests, 6);
        assert_eq!(s.secondary_misses, 1, "the second tap in block 4");
    }
}

/// NBTC <= BTC in cycles is not an invariant: the processor gives its
/// cycle to the oldest fragment that can use it, and a result that comes
/// back earlier can hand the cycle to work off the critical path (a
/// Graham scheduling anomaly). Latency 6, WLB 2, two fragments in flight,
/// all at (0,0), block A = 0:  F0: r0 [A], end 0;  F1: r1 [A], end 1;
/// F2: 1 instruction, r2 [A], end 0.
/// NBTC: 0 r0 misses A (back at 6); 1 r1 secondary miss; 6 MUX r0 (ready
///   10); 7 MUX r1 (ready 11); 10 r0 completes, F2 admitted, runs its
///   instruction; 11 r1 completes and F1, older, takes the cycle for its
///   end work; 12 r2 hits (ready 17); 17 completes: 18 cycles.
/// Parallel BTC: 0 r0 misses; 1-5 r1 blocked; 6 MUX r0 (ready 10), r1
///   loses the MUX; 7 r1 hits (ready 12); 10 r0 completes, F2 runs; 11 r2
///   hits (ready 16); 12 r1 completes, F1 runs; 16 r2 completes: 17.
#[test]
fn an_earlier_result_can_finish_later() {
    let events = vec![
        req(0, 0, 0, &[0]),
        end(0),
        req(0, 0, 0, &[0]),
        end(1),
        req(0, 0, 1, &[0]),
        end(0),
    ];
    let config = |mode| NbtcConfig {
        wlb_entries: 2,
        ..small(mode, 6, 2)
    };
    let nbtc = run(&config(Mode::Nbtc), &events);
    let btc = run(&config(Mode::Blocking { serial: false }), &events);
    assert_eq!((nbtc.cycles, btc.cycles), (18, 17));
    assert_eq!((nbtc.secondary_misses, btc.hits), (1, 2));
}

/// A result ready behind an older one of the same pixel costs nothing to
/// wait for: with H = 10^12 the first request (a hit in the warmed L1) is
/// ready at H + F = 10^12 + 4, the second (a miss, memory latency 10) at
/// about 20 and held back by the first until then; it completes the cycle
/// after the first: 10^12 + 6 cycles. Stepping only where something is
/// due, that takes no time (cycle by cycle the test would not end).
#[test]
fn a_huge_hit_latency_takes_no_longer_than_a_short_one() {
    let c = NbtcConfig {
        hit_latency: 1_000_000_000_000,
        ..small(Mode::Nbtc, 10, 4)
    };
    let events = vec![req(0, 0, 0, &[0]), end(0), req(0, 0, 0, &[1]), end(0)];
    let s = TextureUnit::new(&c)
        .unwrap()
        .run_warm(&events, &[0])
        .unwrap();
    assert_eq!(s.accounted_cycles(), s.cycles, "{s:?}");
    let first_ready = 1_000_000_000_000 + 4;
    assert_eq!(s.cycles, first_ready + 2, "{s:?}");
    assert_eq!(s.hits, 1);
}
