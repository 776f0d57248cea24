//! The timing model against hand computations: local hits cost the same
//! everywhere, a short mixed sequence sums to its hand-worked latencies,
//! contexts overlap, and the L2's and energy's counts add up.

use crate::common::synthetic;
use gfxcache_nuca::{
    replay, NucaConfig, NucaEnergyModel, OrgKind, OrgResult, OtherPhase, Replay, ReplayEvent,
    ReplayOrder, TextureAccess, Threads,
};
use gfxcache_trace::Stream;

fn tex(fp: u32, block: u64, work: u32) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess::new(fp, block * 64, work))
}

fn result(report: &gfxcache_nuca::ReplayReport, kind: OrgKind) -> &OrgResult {
    report
        .results
        .iter()
        .find(|r| r.organization == kind)
        .unwrap()
}

/// After a warm-up that leaves block 8p in fragment processor p's cache
/// (its own bucket p, so S-NUCA's home too), every access is a local hit,
/// and every organization takes the texture cache's 2 cycles plus the work
/// per access: the frame grows by the largest per-FP sum.
#[test]
fn all_local_hits_cost_the_same_in_every_organization() {
    let config = NucaConfig {
        fps: 8,
        epoch: 1 << 40,
        ..NucaConfig::default()
    };
    let mut run = Replay::new(&config, &OrgKind::ALL).unwrap();
    let warm: Vec<ReplayEvent> = (0..8)
        .map(|p| tex(p, 8 * u64::from(p), 0))
        .chain([ReplayEvent::TileEnd])
        .collect();
    run.feed(&warm, Threads::One).unwrap();
    let before = run.report();
    // Fragment processor p accesses its block p + 1 times, with work
    // 3p + i before its i-th access.
    let mut events = Vec::new();
    let mut sums = [0u64; 8];
    for i in 0..8u32 {
        for p in 0..8u32 {
            if i <= p {
                let work = 3 * p + i;
                events.push(tex(p, 8 * u64::from(p), work));
                sums[p as usize] += u64::from(work) + 2;
            }
        }
    }
    run.feed(&events, Threads::Many).unwrap();
    run.finish(Threads::Many);
    let after = run.report();
    let longest = *sums.iter().max().unwrap();
    assert_eq!(longest, 8 * 2 + (0..8).map(|i| 21 + i).sum::<u64>());
    for kind in OrgKind::ALL {
        let (b, a) = (result(&before, kind), result(&after, kind));
        assert_eq!(
            a.stats.local_hits - b.stats.local_hits,
            events.len() as u64,
            "{}",
            kind.name()
        );
        assert_eq!(
            a.timing.cycles - b.timing.cycles,
            longest,
            "{}",
            kind.name()
        );
    }
}

/// One fragment processor at a time (a tile end after each access, so the
/// frame is the sum of the latencies), zero work, on 8 fragment processors
/// (a 4x2 mesh, the Affinity Table at node 1) with one-block texture
/// caches: an L2 miss, a remote hit, a local hit, an L2 miss evicting the
/// first block, and an L2 hit on it.
#[test]
fn a_mixed_sequence_sums_to_its_hand_worked_latencies() {
    let config = NucaConfig {
        fps: 8,
        tc_bytes: 64,
        tc_ways: 1,
        epoch: 1 << 40,
        ..NucaConfig::default()
    };
    let seq = [(2, 0), (0, 0), (2, 0), (2, 1), (2, 0)];
    let events: Vec<ReplayEvent> = seq
        .iter()
        .flat_map(|&(fp, block)| [tex(fp, block, 0), ReplayEvent::TileEnd])
        .collect();
    let report = replay(&config, events.iter().copied(), Threads::One).unwrap();

    // DTM-NUCA: probe 2; to the table (node 2 -> 1, 1 hop), lookup 1, and
    // back (1 hop): 5 cycles to learn that fragment processor 2 owns the
    // bucket; then the bus (2), the L2 (18), DRAM (75) and the bus back (5).
    let ask_self = 2 + 1 + 1 + 1;
    let l2_miss = 2 + 18 + 75 + 5;
    let l2_hit = 2 + 18 + 5;
    // Fragment processor 0: probe 2, to the table 1 hop, lookup 1, to the
    // owner 1 hop, its cache 2, the block back over 2 hops in 5 flits.
    let remote = 2 + 1 + 1 + 1 + 2 + (2 + 4);
    let dtm = result(&report, OrgKind::Dtm);
    let want = (ask_self + l2_miss) + remote + 2 + (ask_self + l2_miss) + (ask_self + l2_hit);
    assert_eq!(want, 105 + 13 + 2 + 105 + 30);
    assert_eq!(dtm.timing.cycles, want);
    let s = &dtm.stats;
    assert_eq!(
        (
            s.local_hits,
            s.remote_hits,
            s.l2_requests,
            s.l2_hits,
            s.l2_misses
        ),
        (1, 1, 3, 1, 2)
    );
    // Flit-hops: two 1-hop grants per L2 request (3 x 2), the remote hit's
    // request and forward (2) and block (2 hops x 5 flits), the local hit's
    // count update to the table (1).
    assert_eq!(dtm.mesh.flit_hops, 6 + 2 + 10 + 1);
    assert_eq!((dtm.machine.tc_reads, dtm.machine.tc_fills), (6, 3));
    assert_eq!(dtm.bus.busy_cycles, 3 * (1 + 4));
    assert_eq!((dtm.bus.transfers, dtm.bus.queue_cycles), (6, 0));
    assert_eq!((s.at_lookups, s.at_updates), (4, 5));

    // The private caches: no table, no remote hits.
    let private = result(&report, OrgKind::Private);
    let p = 2;
    assert_eq!(
        private.timing.cycles,
        (p + l2_miss) + (p + l2_hit) + 2 + (p + l2_miss) + (p + l2_hit)
    );
    assert_eq!(private.mesh.flit_hops, 0);
    assert_eq!(private.timing.tiles, 5);

    // Energy is the counts times the per-event energies, by hand.
    let m = NucaEnergyModel::mobile();
    let tc_pj = m.memory.sram_ref_pj * (64.0 / m.memory.sram_ref_bytes as f64).sqrt();
    let l2_pj = m.memory.sram_ref_pj * ((1u64 << 20) as f64 / 8192.0).sqrt();
    let pj = (6.0 + 3.0) * tc_pj
        + 4.0 * m.at_lookup_pj
        + 5.0 * m.at_update_pj
        + 19.0 * (m.router_pj_per_flit + m.link_pj_per_flit)
        + 15.0 * m.bus_pj_per_beat
        + 3.0 * l2_pj
        + 2.0 * m.memory.dram_read_pj;
    let e = dtm.energy;
    assert!((e.total_nj - pj / 1000.0).abs() < 1e-9, "{e:?} vs {pj} pJ");
    assert!((e.memory_nj - 2.0 * 10.24).abs() < 1e-9, "{e:?}");
    assert_eq!(e.static_nj, 0.0);
}

/// Two contexts let a fragment processor's second L2 miss overlap the
/// first: it issues a cycle later and is back a cycle later, instead of
/// after the first.
#[test]
fn contexts_overlap_accesses() {
    let mut config = NucaConfig {
        fps: 1,
        ..NucaConfig::default()
    };
    let miss = 2 + 2 + 18 + 75 + 5;
    let events = [tex(0, 0, 0), tex(0, 1, 0)];
    let one = replay(&config, events, Threads::One).unwrap();
    assert_eq!(result(&one, OrgKind::Private).timing.cycles, 2 * miss);
    config.timing.contexts = 2;
    let two = replay(&config, events, Threads::One).unwrap();
    // Its reply waits on the bus for the first's four beats: back 4
    // cycles after the first, not 1.
    assert_eq!(result(&two, OrgKind::Private).timing.cycles, miss + 4);
    // Work is done on one core: 10 cycles each, the second after the
    // first, issued 11 cycles later; its reply finds the bus free.
    let worked = replay(&config, [tex(0, 0, 10), tex(0, 1, 10)], Threads::One).unwrap();
    assert_eq!(
        result(&worked, OrgKind::Private).timing.cycles,
        20 + miss + 1
    );
    // A bus with no occupancy lets the replies overlap.
    config.timing.bus_occupancy = false;
    let fixed = replay(&config, events, Threads::One).unwrap();
    assert_eq!(result(&fixed, OrgKind::Private).timing.cycles, miss + 1);
}

/// Over a random stream with tile ends and other L2 traffic: the L2 answers
/// every request once, the distributed tables' broadcasts cross the mesh,
/// and nothing depends on the thread count.
#[test]
fn l2_answers_every_request_and_threads_do_not_matter() {
    let config = NucaConfig {
        fps: 8,
        epoch: 2000,
        // Twice the texture caches together, so that the ideal shared cache's
        // victims can still hit; small enough for the other traffic's dirty
        // lines to be written back.
        l2: gfxcache_nuca::L2Config {
            bytes: 256 * 1024,
            ..Default::default()
        },
        ..NucaConfig::default()
    };
    let mut events = Vec::new();
    for (i, a) in synthetic(8, 5000, 40_000, 3).into_iter().enumerate() {
        events.push(ReplayEvent::Texture(a));
        if i % 7 == 0 {
            let addr = (1 << 30) + (i as u64 % 3000) * 64;
            events.push(ReplayEvent::Other {
                addr,
                stream: Stream::Other,
                write: i % 2 == 0,
                phase: OtherPhase::Tile,
            });
        }
        if i % 1000 == 999 {
            events.push(ReplayEvent::TileEnd);
        }
    }
    let one = replay(&config, events.iter().copied(), Threads::One).unwrap();
    let many = replay(&config, events.iter().copied(), Threads::Many).unwrap();
    assert_eq!(one, many);
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&many).unwrap()
    );
    for r in &one.results {
        let (s, name) = (&r.stats, r.organization.name());
        assert_eq!(s.l2_hits + s.l2_misses, s.l2_requests, "{name}");
        assert_eq!(r.l2.texture_requests, s.l2_requests, "{name}");
        assert!(s.l2_hits > 0 && s.l2_misses > 0, "{name}");
        assert_eq!(r.l2.other_accesses, 40_000 / 7 + 1, "{name}");
        assert!(r.l2.dram_writes > 0, "{name}");
        assert_eq!(r.machine.tc_fills, s.l2_requests, "{name}");
        assert_eq!(r.timing.tiles, 40, "{name}");
        assert!(r.timing.cycles > 0 && r.energy.total_nj > 0.0, "{name}");
    }
    let dist = result(&one, OrgKind::DtmDist);
    assert_eq!(dist.mesh.broadcast_packets, dist.stats.broadcasts);
    assert!(dist.mesh.broadcast_packets > 0);
    let private = result(&one, OrgKind::Private);
    assert_eq!(private.mesh.flit_hops, 0);
    assert_eq!(private.machine.tc_reads, 40_000);
}

/// A request's second block issues the cycle after its first, without
/// waiting for its data; the next request waits for both. Two requests of
/// one block each wait for each other.
#[test]
fn a_requests_blocks_overlap() {
    let config = NucaConfig {
        fps: 1,
        ..NucaConfig::default()
    };
    let miss = 2 + 2 + 18 + 75 + 5;
    let more = ReplayEvent::Texture(TextureAccess {
        more: true,
        ..TextureAccess::new(0, 64, 0)
    });
    let one_request = replay(&config, [tex(0, 0, 0), more, tex(0, 2, 4)], Threads::One).unwrap();
    // The second block reaches the L2 a cycle after the first (different
    // banks) and its reply waits for the first's four beats on the bus:
    // back 4 cycles after it; the third request's work starts then.
    assert_eq!(
        result(&one_request, OrgKind::Private).timing.cycles,
        (miss + 4) + 4 + miss
    );
    let two_requests = replay(
        &config,
        [tex(0, 0, 0), tex(0, 1, 0), tex(0, 2, 4)],
        Threads::One,
    )
    .unwrap();
    assert_eq!(
        result(&two_requests, OrgKind::Private).timing.cycles,
        2 * miss + 4 + miss
    );
}

/// In clock order a request later in the input but earlier on the clocks
/// is served first: fragment processor 1 reads block 0 before processor 0,
/// whose request comes after 100 cycles of work, so D-NUCA keeps the block
/// in processor 1's cache and its second read hits locally. In trace order
/// processor 0 fills it first and processor 1 reads it remotely twice.
#[test]
fn clock_order_serves_the_earliest_request_first() {
    let events = [
        tex(0, 0, 100),
        tex(1, 0, 0),
        tex(1, 0, 0),
        ReplayEvent::TileEnd,
    ];
    for (order, local, remote) in [(ReplayOrder::Clock, 1, 1), (ReplayOrder::Trace, 0, 2)] {
        let mut config = NucaConfig {
            fps: 2,
            ..NucaConfig::default()
        };
        config.timing.order = order;
        let r = replay(&config, events, Threads::One).unwrap();
        let s = &result(&r, OrgKind::DNuca).stats;
        assert_eq!(
            (s.local_hits, s.remote_hits, s.l2_requests),
            (local, remote, 1),
            "{order:?}"
        );
    }
}

/// Shader work that ends no request runs after the data of the last one
/// and lengthens the tile.
#[test]
fn trailing_work_lengthens_the_tile() {
    let config = NucaConfig {
        fps: 2,
        ..NucaConfig::default()
    };
    let miss = 2 + 2 + 18 + 75 + 5;
    let events = [
        tex(0, 0, 3),
        ReplayEvent::Work { fp: 0, work: 50 },
        ReplayEvent::Work { fp: 1, work: 7 },
        ReplayEvent::TileEnd,
    ];
    let r = replay(&config, events, Threads::One).unwrap();
    assert_eq!(result(&r, OrgKind::Private).timing.cycles, 3 + miss + 50);
    assert_eq!(result(&r, OrgKind::Private).timing.work_cycles, 60);
}
