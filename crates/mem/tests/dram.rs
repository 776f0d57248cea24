//! The DRAM model against latencies worked out by hand from the datasheet
//! numbers, never from the model's own helpers.
//!
//! DDR3-1600 15-15-15: tCK = 1 / 800 MHz = 1250 ps, so tCAS = tRCD = tRP =
//! 15 * 1250 = 18 750 ps; tRAS = 28 * 1250 = 35 000 ps. A 64-byte line on a
//! 64-bit bus is one BL8 burst: 8 beats, 2 per clock, 4 clocks = 5 000 ps.
//! Mapping (2 channels, 8 banks, 8 KiB rows = 128 lines): line bit 0 is the
//! channel, bits 1-3 the bank, bits 4-10 the column, bits 11 up the row.
//! So line 0 and line 16 share channel 0, bank 0, row 0; line 2048 is
//! channel 0, bank 0, row 1; line 1 is channel 1; line 2 is channel 0, bank 1.

use gfxcache_mem::{Dram, DramConfig, MemError};

const TCK: u64 = 1250;
const TCAS: u64 = 15 * TCK;
const TRCD: u64 = 15 * TCK;
const TRP: u64 = 15 * TCK;
const TRAS: u64 = 28 * TCK;
const BURST: u64 = 4 * TCK;
const NS: u64 = 1000;

fn ddr3() -> Dram {
    Dram::new(&DramConfig::ddr3_1600()).unwrap()
}

#[test]
fn closed_row_then_row_hit_then_row_conflict() {
    let mut d = ddr3();
    // First access to bank 0: activate, then read.
    assert_eq!(d.access(0, 0, false), 42_500);
    assert_eq!(42_500, TRCD + TCAS + BURST);
    // Same row, long after: the row is still open.
    assert_eq!(d.access(100 * NS, 16, false), 100 * NS + 23_750);
    assert_eq!(23_750, TCAS + BURST);
    // Another row of the same bank, tRAS long past: precharge first.
    assert_eq!(d.access(200 * NS, 2048, false), 200 * NS + 61_250);
    assert_eq!(61_250, TRP + TRCD + TCAS + BURST);
    let s = d.stats();
    assert_eq!((s.row_misses, s.row_hits, s.row_conflicts), (1, 1, 1));
    assert_eq!((s.reads, s.writes), (3, 0));
    assert_eq!(s.busy_ps, vec![3 * BURST, 0]);
}

#[test]
fn writes_are_timed_like_reads_and_counted_apart() {
    let mut d = ddr3();
    assert_eq!(d.access(0, 0, true), 42_500);
    assert_eq!((d.stats().reads, d.stats().writes), (0, 1));
}

#[test]
fn two_channels_overlap_completely() {
    let mut d = ddr3();
    assert_eq!(d.access(0, 0, false), 42_500);
    assert_eq!(d.access(0, 1, false), 42_500);
}

#[test]
fn two_banks_of_one_channel_overlap_their_activations_but_share_the_bus() {
    let mut d = ddr3();
    assert_eq!(d.access(0, 0, false), 42_500);
    // Bank 1 activates in parallel; its data waits for bank 0's burst.
    assert_eq!(d.access(0, 2, false), 42_500 + BURST);
}

#[test]
fn same_bank_different_rows_serialize() {
    // Issued long apart: the second pays the full tRP + tRCD + tCAS.
    let mut d = ddr3();
    let first = d.access(0, 0, false);
    let second = d.access(first, 2048, false);
    assert_eq!(second - first, TRP + TRCD + TCAS + BURST);

    // Issued together: the precharge waits for tRAS after the first
    // activate (at 0), then precharge, activate, read: 96.25 ns.
    let mut d = ddr3();
    assert_eq!(d.access(0, 0, false), 42_500);
    assert_eq!(d.access(0, 2048, false), TRAS + TRP + TRCD + TCAS + BURST);
    assert_eq!(TRAS + TRP + TRCD + TCAS + BURST, 96_250);

    // Against two banks, the same pair is far slower.
    let mut d = ddr3();
    d.access(0, 0, false);
    assert!(d.access(0, 2, false) < 50 * NS);
}

#[test]
fn row_hits_to_one_bank_stream_at_bus_speed() {
    let mut d = ddr3();
    let mut last = 0;
    for column in 0..128u64 {
        last = d.access(0, column * 16, false);
    }
    assert_eq!(last, TRCD + TCAS + BURST + 127 * BURST);
    assert_eq!(d.stats().row_hits, 127);
}

#[test]
fn one_channel_is_bounded_by_bus_occupancy() {
    // 4000 even lines (all channel 0), all arriving at once, spread over
    // banks and rows by a fixed scramble.
    let n = 4000u64;
    let mut d = ddr3();
    let mut last = 0;
    let mut x = 12345u64;
    for _ in 0..n {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let line = (x >> 20) & !1;
        last = last.max(d.access(0, line, false));
    }
    assert!(last >= n * BURST, "{last} < {}", n * BURST);
    assert_eq!(d.stats().busy_ps[0], n * BURST);
    assert_eq!(d.stats().busy_ps[1], 0);
}

#[test]
fn ddr3_1867_is_faster_per_access() {
    // tCK = 1 / 933 MHz = 1071.8 ps; 10 + 10 cycles = 21 436 ps; a burst is
    // 4 clocks = 4287 ps.
    let mut d = Dram::new(&DramConfig::ddr3_1867()).unwrap();
    assert_eq!(d.access(0, 0, false), 10_718 + 10_718 + 4_287);
}

#[test]
fn lpddr3_needs_two_bursts_per_line() {
    // 32-bit channel, BL8: 32 bytes per burst, two bursts = 8 clocks = 10 ns.
    // tRCD = 18 ns -> 15 clocks; RL = 12 clocks.
    let mut d = Dram::new(&DramConfig::lpddr3_1600()).unwrap();
    assert_eq!(d.access(0, 0, false), (15 + 12) * TCK + 8 * TCK);
    assert_eq!(d.line_ps(), 10 * NS);
}

#[test]
fn fixed_latency_has_no_banks_and_no_bus() {
    let mut d = Dram::new(&DramConfig::fixed(100.0)).unwrap();
    for _ in 0..10 {
        assert_eq!(d.access(7, 0, false), 7 + 100 * NS);
    }
    let s = d.stats();
    assert_eq!(s.reads, 10);
    assert_eq!(s.row_hits + s.row_misses + s.row_conflicts, 0);
}

#[test]
fn bad_configs_are_errors_naming_the_field() {
    let cfg = DramConfig {
        channels: 3,
        ..DramConfig::ddr3_1600()
    };
    match Dram::new(&cfg) {
        Err(MemError::Config { part, what, .. }) => {
            assert_eq!((part, what.as_str()), ("dram", "channels"))
        }
        other => panic!("expected a config error, got {other:?}"),
    }
    assert!(Dram::new(&DramConfig::fixed(f64::NAN)).is_err());
    let cfg = DramConfig {
        row_bytes: 32,
        ..DramConfig::ddr3_1600()
    };
    assert!(cfg.validate().is_err());
}

#[test]
fn peak_bandwidth_of_dual_channel_ddr3_1600_is_25_6_gbps() {
    assert!((DramConfig::ddr3_1600().peak_gbps() - 25.6).abs() < 1e-9);
}
