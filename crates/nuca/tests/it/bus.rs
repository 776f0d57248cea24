//! The bus between the texture caches and the L2 as a resource: replies
//! serialize and queue, by hand; arrivals out of time order wait only for
//! the cycles taken; without occupancy the bus is the fixed-latency bus of
//! earlier versions, report for report; utilisation never passes 1.

use crate::common::{machine_and_stream, synthetic};
use gfxcache_nuca::{
    replay, AnnouncedCount, BusChannels, ContextUnit, NucaConfig, OrgKind, OrgResult, OtherPhase,
    ReplayEvent, ReplayOrder, ReplayReport, TextureAccess, Threads,
};
use gfxcache_trace::Stream;
use proptest::prelude::*;

fn tex(fp: u32, block: u64, work: u32) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess::new(fp, block * 64, work))
}

fn result(report: &ReplayReport, kind: OrgKind) -> &OrgResult {
    report
        .results
        .iter()
        .find(|r| r.organization == kind)
        .unwrap()
}

/// Three fragment processors miss on blocks of three L2 banks at cycle 0
/// (cold L2: 18 + 75 cycles). Probes end at 2; the requests are granted
/// at 3 and take the bus one beat each: 3, 4, 5 (waits 0, 1, 2), at the
/// banks at 4, 5, 6, the blocks ready at 97, 98, 99. The replies are
/// granted at 98, 99, 100: the first holds 98-101 and is back at 102, the
/// second waits for it (3 cycles) and holds 102-105, the third waits 6
/// and holds 106-109: back at 110, the tile's end.
#[test]
fn the_bus_serializes_two_replies_and_queues_a_third() {
    let events = [
        tex(0, 0, 0),
        tex(1, 1, 0),
        tex(2, 2, 0),
        ReplayEvent::TileEnd,
    ];
    let config = NucaConfig {
        fps: 4,
        ..NucaConfig::default()
    };
    let r = replay(&config, events, Threads::One).unwrap();
    for kind in [OrgKind::Private, OrgKind::IdealShared] {
        let x = result(&r, kind);
        assert_eq!(x.timing.cycles, 110, "{}", kind.name());
        assert_eq!(x.timing.texture_latency_cycles, 102 + 106 + 110);
        let b = &x.bus;
        assert_eq!(
            (
                b.transfers,
                b.busy_cycles,
                b.queue_cycles,
                b.max_wait_cycles
            ),
            (6, 3 + 3 * 4, (1 + 2) + (3 + 6), 6),
            "{}",
            kind.name()
        );
        assert!((b.utilisation(x.timing.cycles) - 15.0 / 110.0).abs() < 1e-12);
        assert!((b.mean_wait_cycles() - 2.0).abs() < 1e-12);
    }
    // Without occupancy none waits: each is back at its unloaded 2 + 2 +
    // 18 + 75 + 5 = 102, though the three replies overlap on one bus.
    let mut fixed = config.clone();
    fixed.timing.bus_occupancy = false;
    let r = replay(&fixed, events, Threads::One).unwrap();
    let x = result(&r, OrgKind::Private);
    assert_eq!(x.timing.cycles, 102);
    assert_eq!((x.bus.queue_cycles, x.bus.busy_cycles), (0, 15));
    // Split channels: the requests wait on their own channel as before,
    // and the replies on theirs.
    let mut split = config.clone();
    split.timing.bus_channels = BusChannels::Split;
    let r = replay(&split, events, Threads::One).unwrap();
    assert_eq!(result(&r, OrgKind::Private).timing.cycles, 110);
    // A bus twice as wide carries a block in 2 beats: the replies hold
    // 98-99, 100-101 and 102-103 (waits 1 and 2): back at 100, 102, 104.
    let mut wide = config;
    wide.timing.bus_width_bits = 256;
    let r = replay(&wide, events, Threads::One).unwrap();
    let x = result(&r, OrgKind::Private);
    assert_eq!(x.timing.cycles, 104);
    assert_eq!(x.timing.texture_latency_cycles, 100 + 102 + 104);
    assert_eq!((x.bus.busy_cycles, x.bus.queue_cycles), (3 + 3 * 2, 3 + 3));
}

/// In trace order, fragment processor 0's access (after 50 cycles of
/// work) is played first and takes the bus at 53 and 148-151; fragment
/// processor 1's, played next but issued at 0, takes it at 3 and 98-101
/// without waiting for the later ones; fragment processor 2's, issued at
/// 96, asks at 99 for its request and waits for 98-101: granted at 102.
#[test]
fn arrivals_out_of_time_order_wait_only_for_cycles_taken() {
    let events = [
        tex(0, 0, 50),
        tex(1, 1, 0),
        tex(2, 2, 96),
        ReplayEvent::TileEnd,
    ];
    let mut config = NucaConfig {
        fps: 4,
        ..NucaConfig::default()
    };
    config.timing.order = ReplayOrder::Trace;
    let r = replay(&config, events, Threads::One).unwrap();
    let x = result(&r, OrgKind::Private);
    // 50 + 102; 102; 96 + 2 + (1 + 3 wait + 1) + 18 + 75 + 5.
    assert_eq!(
        x.timing.texture_latency_cycles,
        102 + 102 + (2 + 5 + 18 + 75 + 5)
    );
    assert_eq!(x.timing.cycles, 96 + 105);
    assert_eq!((x.bus.queue_cycles, x.bus.max_wait_cycles), (3, 3));
    // Clock order plays them by issue (1, 0, 2): the same cycles.
    config.timing.order = ReplayOrder::Clock;
    let clock = replay(&config, events, Threads::One).unwrap();
    assert_eq!(result(&clock, OrgKind::Private).timing, x.timing);
}

/// The random frame of the fixed-latency bus's reference report: 8
/// fragment processors, 20,000 texture accesses with shader work, other L2
/// traffic every 7th access, a tile end every 500, replayed with four
/// contexts per fragment processor so that transfers overlap on the bus.
fn fixed_bus_frame() -> (NucaConfig, Vec<ReplayEvent>) {
    let mut config = NucaConfig {
        fps: 8,
        epoch: 1000,
        ..NucaConfig::default()
    };
    config.timing.contexts = 4;
    let mut events = Vec::new();
    for (i, a) in synthetic(8, 4000, 20_000, 11).into_iter().enumerate() {
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
        if i % 500 == 499 {
            events.push(ReplayEvent::TileEnd);
        }
    }
    (config, events)
}

/// `report` in the form of the reports before the bus was a resource: its
/// bus's beats as `machine.bus_beats`, the bus's unloaded latencies as
/// `bus_request_cycles` and `bus_reply_cycles`, none of the new fields
/// (the bus's, the announced count, the L2's policy, what a context
/// holds, the DRAM's banks).
fn in_the_old_form(report: &ReplayReport) -> serde_json::Value {
    let mut v = serde_json::to_value(report).unwrap();
    let timing = v["config"]["timing"].as_object_mut().unwrap();
    let arbitration = timing["bus_arbitration_cycles"].as_u64().unwrap();
    let beats = 512 / timing["bus_width_bits"].as_u64().unwrap();
    for field in [
        "bus_occupancy",
        "bus_arbitration_cycles",
        "bus_width_bits",
        "bus_channels",
        "context_unit",
    ] {
        timing.remove(field);
    }
    // No DRAM banks then: every miss took the latency alone.
    assert_eq!(timing.remove("dram_banks").unwrap(), false);
    timing.remove("dram");
    timing.remove("clock_mhz");
    // The other traffic took no time then, and it was not a setting.
    assert_eq!(timing.remove("other_traffic").unwrap(), "untimed");
    timing.remove("other_port_cycles");
    timing.remove("tile_buffers");
    assert_eq!(timing.remove("dram_writes").unwrap(), false);
    timing.insert("bus_request_cycles".into(), (arbitration + 1).into());
    timing.insert("bus_reply_cycles".into(), (arbitration + beats).into());
    v["config"]
        .as_object_mut()
        .unwrap()
        .remove("announced_count");
    // The L2's policy was LRU then, and not a field.
    let l2 = v["config"]["l2"].as_object_mut().unwrap();
    assert_eq!(l2.remove("policy").unwrap(), "lru");
    // Merged lookups were neither a setting nor a count then (the replay
    // merges none).
    let merged = v["config"].as_object_mut().unwrap().remove("merged");
    assert_eq!(merged.unwrap(), "counted");
    for r in v["results"].as_array_mut().unwrap() {
        let stats = r["stats"].as_object_mut().unwrap();
        assert_eq!(stats.remove("merged_lookups").unwrap(), 0);
        let l2 = r["l2"].as_object_mut().unwrap();
        for field in [
            "other_timed",
            "other_port_wait_cycles",
            "other_bank_wait_cycles",
            "tile_buffer_wait_cycles",
        ] {
            assert_eq!(l2.remove(field).unwrap(), 0);
        }
        let dram = r.as_object_mut().unwrap().remove("dram").unwrap();
        assert_eq!(dram["reads"], 0);
        let bus = r.as_object_mut().unwrap().remove("bus").unwrap();
        r["machine"]["bus_beats"] = bus["busy_cycles"].clone();
    }
    v
}

/// Without occupancy, and with the distributed tables' announced count
/// halved as they kept it then, the whole report is the one the
/// fixed-latency bus gave (`tests/data/fixed_bus_report.json`, written by
/// the model at commit 254a9e9 on this frame). With occupancy the
/// transfers wait and the frame takes longer.
#[test]
fn without_occupancy_the_bus_is_the_fixed_latency_bus() {
    let (mut config, events) = fixed_bus_frame();
    config.timing.bus_occupancy = false;
    config.announced_count = AnnouncedCount::Halved;
    // Contexts took requests in turn then.
    config.timing.context_unit = ContextUnit::Request;
    let report = replay(&config, events.iter().copied(), Threads::Many).unwrap();
    // Both through text, as the reference was written: equal numbers
    // print, and parse back, alike.
    let text = serde_json::to_string(&in_the_old_form(&report)).unwrap();
    let ours: serde_json::Value = serde_json::from_str(&text).unwrap();
    let old: serde_json::Value =
        serde_json::from_str(include_str!("../data/fixed_bus_report.json")).unwrap();
    assert_eq!(ours, old);
    for r in &report.results {
        assert_eq!(r.bus.queue_cycles, 0, "{}", r.organization.name());
    }

    config.timing.bus_occupancy = true;
    let loaded = replay(&config, events.iter().copied(), Threads::Many).unwrap();
    for (a, b) in loaded.results.iter().zip(&report.results) {
        let name = a.organization.name();
        // (Where accesses are served may change too: clock order follows
        // the clocks.)
        assert_eq!(a.bus.busy_cycles, 5 * a.l2.texture_requests, "{name}");
        assert!(a.bus.queue_cycles > 0, "{name}");
        assert!(a.timing.cycles > b.timing.cycles, "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// With occupancy the bus is never held more than all the frame's
    /// cycles, per channel; every L2 request is a request and a reply on
    /// it; the beats are the transfers'.
    #[test]
    fn utilisation_never_passes_one(
        (config, stream) in machine_and_stream(300),
        contexts in 1u32..=4,
        split in any::<bool>(),
        work in 0u32..4,
    ) {
        let mut config = config;
        config.timing.contexts = contexts;
        if split {
            config.timing.bus_channels = BusChannels::Split;
        }
        let events: Vec<ReplayEvent> = stream
            .iter()
            .enumerate()
            .map(|(i, &(fp, block))| tex(fp as u32, block, work * (i as u32 % 3)))
            .collect();
        let r = replay(&config, events, Threads::One).unwrap();
        for x in &r.results {
            let b = &x.bus;
            prop_assert!(b.utilisation(x.timing.cycles) <= 1.0, "{:?}", b);
            prop_assert_eq!(b.transfers, 2 * x.l2.texture_requests);
            prop_assert_eq!(b.busy_cycles, x.l2.texture_requests * (1 + 4));
            prop_assert!(b.max_wait_cycles * b.transfers >= b.queue_cycles);
        }
    }
}
