//! The frame's other L2 traffic in time (`TimingConfig::other_traffic`):
//! untimed it holds no bank; under `tiles` a tile's accesses leave the
//! other units' port a block every `other_port_cycles`, no earlier than
//! the tile's latest texture issue (its start before the first), and
//! take their L2 bank and a read miss's DRAM bank and bus, and a tile
//! waits for its tile buffer, as worked by hand; the binning pass stays
//! untimed; in trace order the timing
//! changes no served count and no L2 count, and every timed read miss is
//! a DRAM read.

use crate::common::machine_and_stream;
use gfxcache_nuca::{
    replay, NucaConfig, OrgKind, OrgResult, OtherPhase, OtherTraffic, ReplayEvent, ReplayOrder,
    ReplayReport, TextureAccess, Threads,
};
use gfxcache_trace::Stream;
use proptest::prelude::*;

fn tex(fp: u32, block: u64, work: u32) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess::new(fp, block * 64, work))
}

fn read(block: u64, phase: OtherPhase) -> ReplayEvent {
    ReplayEvent::Other {
        addr: block * 64,
        stream: Stream::Rt,
        write: false,
        phase,
    }
}

/// One processor with one context, the L2's banks on (8, block b in
/// bank b mod 8), DRAM's off unless asked.
fn one_processor(traffic: OtherTraffic, port_cycles: u32, dram_banks: bool) -> NucaConfig {
    let mut config = NucaConfig {
        fps: 1,
        ..NucaConfig::default()
    };
    config.timing.other_traffic = traffic;
    config.timing.other_port_cycles = port_cycles;
    config.timing.dram_banks = dram_banks;
    config
}

fn private(r: &ReplayReport) -> &OrgResult {
    r.results
        .iter()
        .find(|x| x.organization == OrgKind::Private)
        .unwrap()
}

/// Five reads of the tile's own traffic to blocks 0, 8, ..., 32 (all in L2
/// bank 0) before its first texture access, a miss on block 40 (bank 0
/// too) issued at 0. Timed, the port sends them at 0, 1, 2, 3, 4 (waiting
/// 0 + 1 + 2 + 3 + 4 = 10 cycles for it) and they hold bank 0 those
/// cycles; the texture request, at the L2 at 4 (2 to probe, the bus's
/// grant and beat), takes the bank at 5: 103 cycles where alone it takes
/// 102. A port of 3 cycles a block sends them at 0, 3, 6, 9, 12: the
/// request takes the bank at 4, and the port waits 30. Untimed, or as the
/// binning pass's, they hold nothing.
#[test]
fn a_tiles_loads_hold_its_l2_bank() {
    let events = |phase| {
        let mut e: Vec<ReplayEvent> = (0..5).map(|i| read(8 * i, phase)).collect();
        e.extend([tex(0, 40, 0), ReplayEvent::TileEnd]);
        e
    };
    let run = |traffic, port, phase| {
        let r = replay(
            &one_processor(traffic, port, false),
            events(phase),
            Threads::One,
        )
        .unwrap();
        let p = private(&r);
        (
            p.timing.cycles,
            p.l2.other_timed,
            p.l2.other_port_wait_cycles,
            p.l2.other_bank_wait_cycles,
            p.l2.bank_wait_cycles,
        )
    };
    use OtherPhase::{Binning, Tile};
    use OtherTraffic::{Tiles, Untimed};
    assert_eq!(run(Tiles, 1, Tile), (103, 5, 10, 0, 1));
    assert_eq!(run(Tiles, 3, Tile), (102, 5, 30, 0, 0));
    assert_eq!(run(Untimed, 1, Tile), (102, 0, 0, 0, 0));
    assert_eq!(run(Tiles, 1, Binning), (102, 0, 0, 0, 0));
}

/// A tile's access after a texture access leaves no earlier than that
/// access's issue; the next tile's before its first, no earlier than the
/// tile's start. Tile 1: a request issued after 50 cycles of work (data
/// at 152), then three accesses: sent at 50, 51, 52 (port waits 0 + 1 +
/// 2). Tile 2 starts at 152 with one access: sent at 152, waiting 0.
#[test]
fn the_port_follows_the_tiles_texture_issue() {
    let events = [
        tex(0, 1, 50),
        read(9, OtherPhase::Tile),
        read(10, OtherPhase::Tile),
        read(11, OtherPhase::Tile),
        ReplayEvent::TileEnd,
        read(12, OtherPhase::Tile),
        tex(0, 2, 0),
        ReplayEvent::TileEnd,
    ];
    let config = one_processor(OtherTraffic::Tiles, 1, false);
    let r = replay(&config, events, Threads::One).unwrap();
    let p = private(&r);
    assert_eq!(p.l2.other_timed, 4);
    assert_eq!(p.l2.other_port_wait_cycles, 3);
    assert_eq!(p.l2.other_bank_wait_cycles, 0);
}

/// Three tiles of one texture miss each (102 cycles, on blocks 2, 3, 4),
/// the first with a flush of 300 blocks after its access (in L2 bank 1,
/// which no texture access uses): the port sends them from 0 to 299 and
/// is done with them at 300. With two tile buffers the second tile takes
/// the free one at 102 and ends at 204, and the third, which takes the
/// first's buffer, waits for it to 300: the frame takes 402 cycles, 96 of
/// them waiting. With one buffer the second tile waits to 300 (198 cycles)
/// and the third none: 504. With none, or untimed, no tile waits: 306.
#[test]
fn a_tile_waits_for_its_tile_buffer() {
    let mut events = vec![tex(0, 2, 0)];
    events.extend((0..300).map(|k| ReplayEvent::Other {
        addr: (8 * k + 1) * 64,
        stream: Stream::Rt,
        write: true,
        phase: OtherPhase::Tile,
    }));
    events.extend([
        ReplayEvent::TileEnd,
        tex(0, 3, 0),
        ReplayEvent::TileEnd,
        tex(0, 4, 0),
        ReplayEvent::TileEnd,
    ]);
    let run = |traffic, buffers| {
        let mut config = one_processor(traffic, 1, false);
        config.timing.tile_buffers = buffers;
        let r = replay(&config, events.iter().copied(), Threads::One).unwrap();
        let p = private(&r);
        (p.timing.cycles, p.l2.tile_buffer_wait_cycles)
    };
    assert_eq!(run(OtherTraffic::Tiles, 2), (402, 96));
    assert_eq!(run(OtherTraffic::Tiles, 1), (504, 198));
    assert_eq!(run(OtherTraffic::Tiles, 0), (306, 0));
    assert_eq!(run(OtherTraffic::Untimed, 2), (306, 0));
}

/// With DRAM's banks: a tile's read of block 16 misses the L2 and reaches
/// DRAM at 0 + 18; it opens the row (LPDDR3-1600 at 600 MHz: tRCD 12,
/// tCAS 9, 6 cycles a 64-byte block) and holds the bank 18-35, the
/// channel's bus 39-44. The texture miss on block 0, the same bank and
/// row, reaches DRAM at 22: a row hit, it takes the bank at 36, its data
/// at 45 where alone it would be at 31: it waits 14, and the frame takes
/// 102 + 14 = 116 cycles. Untimed, the texture miss opens the row itself
/// and waits 0.
#[test]
fn a_tiles_read_miss_holds_dram() {
    let events = [
        read(16, OtherPhase::Tile),
        tex(0, 0, 0),
        ReplayEvent::TileEnd,
    ];
    let timed = replay(
        &one_processor(OtherTraffic::Tiles, 1, true),
        events,
        Threads::One,
    )
    .unwrap();
    let p = private(&timed);
    assert_eq!(p.timing.cycles, 116);
    let d = &p.dram;
    assert_eq!(
        (d.reads, d.other_reads, d.wait_cycles, d.other_wait_cycles),
        (1, 1, 14, 0)
    );
    assert_eq!((d.row_misses, d.row_hits), (1, 1));
    let untimed = replay(
        &one_processor(OtherTraffic::Untimed, 1, true),
        events,
        Threads::One,
    )
    .unwrap();
    let p = private(&untimed);
    assert_eq!(p.timing.cycles, 102);
    assert_eq!(
        (p.dram.reads, p.dram.other_reads, p.dram.wait_cycles),
        (1, 0, 0)
    );
}

/// The L2's write-backs in time (`--dram-writes on`): an L2 of one set of
/// 8 ways holds blocks 0 to 7, written dirty by the binning pass (untimed).
/// Processor 0's miss on block 16 evicts block 0, processor 1's on block 32
/// block 1; the misses reach DRAM at 22 and 23 (as in `dram.rs`: blocks 0,
/// 16 and 32 share a DRAM bank and row). Read 16 opens the row and holds
/// the bank 22-39; the write-back of 0, a row hit, takes it 40-45 and the
/// bus 49-54; read 32, a row hit, takes the bank 46-51, its data at 55
/// where alone it would be at 32: it waits 23, and processor 1's data is
/// back at 23 + 75 + 23 + 5 = 126. Untimed, the write-backs take nothing,
/// read 32 takes the bank at 40 and waits 17: 120 cycles.
#[test]
fn write_backs_take_the_dram_after_their_misses_read() {
    let mut events: Vec<ReplayEvent> = (0..8)
        .map(|b| ReplayEvent::Other {
            addr: b * 64,
            stream: Stream::Rt,
            write: true,
            phase: OtherPhase::Binning,
        })
        .collect();
    events.extend([tex(0, 16, 0), tex(1, 32, 0), ReplayEvent::TileEnd]);
    let run = |writes: bool| {
        let mut config = NucaConfig {
            fps: 4,
            l2: gfxcache_nuca::L2Config {
                bytes: 512,
                ways: 8,
                ..Default::default()
            },
            ..NucaConfig::default()
        };
        config.timing.dram_banks = true;
        config.timing.dram_writes = writes;
        let r = replay(&config, events.iter().copied(), Threads::One).unwrap();
        let p = private(&r);
        assert_eq!(p.l2.dram_writes, 2);
        (
            p.timing.cycles,
            p.dram.reads,
            p.dram.wait_cycles,
            p.dram.writes,
        )
    };
    assert_eq!(run(true), (126, 2, 23, 2));
    assert_eq!(run(false), (120, 2, 17, 0));
}

/// `stream` with a tile's other access (a read, or every third a write)
/// after every second texture access and a tile end every 40.
fn with_other_traffic(stream: &[(usize, u64)], work: u32) -> Vec<ReplayEvent> {
    let mut events = Vec::new();
    for (i, &(fp, block)) in stream.iter().enumerate() {
        events.push(tex(fp as u32, block, work * (i as u32 % 3)));
        if i % 2 == 1 {
            events.push(ReplayEvent::Other {
                addr: (1 << 30) + (i as u64 % 97) * 64,
                stream: Stream::Z,
                write: i % 3 == 0,
                phase: OtherPhase::Tile,
            });
        }
        if i % 40 == 39 {
            events.push(ReplayEvent::TileEnd);
        }
    }
    events
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// In trace order where an access is served does not depend on time:
    /// timing the other traffic changes no served count and no L2 count,
    /// times every tile access, and reads DRAM once for each of its read
    /// misses and once for each write-back; threads change nothing.
    #[test]
    fn timing_the_other_traffic_changes_when_not_where(
        (config, stream) in machine_and_stream(200),
        contexts in 1u32..=4,
        work in 0u32..4,
        port in 1u32..4,
    ) {
        let mut config = config;
        config.timing.contexts = contexts;
        config.timing.order = ReplayOrder::Trace;
        config.timing.dram_banks = true;
        config.timing.other_port_cycles = port;
        config.timing.dram_writes = true;
        let events = with_other_traffic(&stream, work);
        let others = events.iter().filter(|e| matches!(e, ReplayEvent::Other { .. })).count();
        config.timing.other_traffic = OtherTraffic::Untimed;
        let untimed = replay(&config, events.clone(), Threads::One).unwrap();
        config.timing.other_traffic = OtherTraffic::Tiles;
        let timed = replay(&config, events.clone(), Threads::One).unwrap();
        prop_assert_eq!(&timed, &replay(&config, events, Threads::Many).unwrap());
        for (t, u) in timed.results.iter().zip(&untimed.results) {
            let name = t.organization.name();
            prop_assert_eq!(&t.stats, &u.stats, "{}", name);
            prop_assert_eq!(
                (t.l2.other_accesses, t.l2.other_hits, t.l2.dram_reads, t.l2.dram_writes),
                (u.l2.other_accesses, u.l2.other_hits, u.l2.dram_reads, u.l2.dram_writes),
                "{}", name
            );
            prop_assert_eq!(t.l2.other_timed, others as u64, "{}", name);
            prop_assert_eq!((u.l2.other_timed, u.dram.other_reads), (0, 0), "{}", name);
            prop_assert_eq!(t.dram.reads, t.l2.texture_misses, "{}", name);
            prop_assert_eq!(t.dram.other_reads, t.l2.dram_reads - t.l2.texture_misses, "{}", name);
            // Every access here is timed, so every write-back is too.
            prop_assert_eq!(t.dram.writes, t.l2.dram_writes, "{}", name);
            prop_assert_eq!(
                t.dram.row_hits + t.dram.row_misses + t.dram.row_conflicts,
                t.dram.reads + t.dram.other_reads + t.dram.writes
            );
        }
    }
}
