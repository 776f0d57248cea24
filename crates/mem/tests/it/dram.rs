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
//!
//! A lone request's latency is the same under both schedulers, so the
//! hand-computed single-request tests run under both; the FCFS-specific
//! results are kept under `Scheduler::Fcfs`, and the bank-parallel ones
//! (a busy bank not holding up an idle one, the bus calendar) follow.

use gfxcache_mem::dram::BUS_WINDOW_SLOTS;
use gfxcache_mem::{Dram, DramConfig, DramPreset, MemError, Scheduler};
use proptest::prelude::*;

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

fn with(cfg: DramConfig, scheduler: Scheduler) -> Dram {
    Dram::new(&DramConfig { scheduler, ..cfg }).unwrap()
}

fn ddr3_fcfs() -> Dram {
    with(DramConfig::ddr3_1600(), Scheduler::Fcfs)
}

const BOTH: [Scheduler; 2] = [Scheduler::Fcfs, Scheduler::BankParallel];

#[test]
fn closed_row_then_row_hit_then_row_conflict() {
    for scheduler in BOTH {
        closed_row_then_row_hit_then_row_conflict_under(scheduler);
    }
}

fn closed_row_then_row_hit_then_row_conflict_under(scheduler: Scheduler) {
    let mut d = with(DramConfig::ddr3_1600(), scheduler);
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
    for scheduler in BOTH {
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        assert_eq!(d.access(0, 0, true), 42_500);
        assert_eq!((d.stats().reads, d.stats().writes), (0, 1));
    }
}

#[test]
fn two_channels_overlap_completely() {
    for scheduler in BOTH {
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        assert_eq!(d.access(0, 0, false), 42_500);
        assert_eq!(d.access(0, 1, false), 42_500);
    }
}

#[test]
fn two_banks_of_one_channel_overlap_their_activations_but_share_the_bus() {
    for scheduler in BOTH {
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        assert_eq!(d.access(0, 0, false), 42_500);
        // Bank 1 activates in parallel; its data waits for bank 0's burst.
        assert_eq!(d.access(0, 2, false), 42_500 + BURST);
    }
}

/// What a request waited beyond its own service: nothing alone, whatever
/// its row's state; tRAS and the first request's service behind a
/// conflict in its bank; the other bank's burst on a shared bus.
#[test]
fn a_request_waits_only_for_others() {
    for scheduler in BOTH {
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        assert_eq!(d.access_wait(0, 0, false), (42_500, 0), "row miss");
        assert_eq!(
            d.access_wait(100 * NS, 16, false),
            (100 * NS + TCAS + BURST, 0)
        );
        let far = 1000 * NS;
        assert_eq!(
            d.access_wait(far, 2048, false),
            (far + TRP + TRCD + TCAS + BURST, 0),
            "a row conflict long after the row opened"
        );
        // Issued together with its bank's first request: it waits for
        // tRAS after that activate (96.25 ns done, 55 of them its own).
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        d.access(0, 0, false);
        assert_eq!(
            d.access_wait(0, 2048, false),
            (96_250, 96_250 - (TRP + TRCD + TCAS + BURST))
        );
        // Another bank of the channel: one burst behind on the bus.
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        d.access(0, 0, false);
        assert_eq!(d.access_wait(0, 2, false), (42_500 + BURST, BURST));
    }
    let mut fixed = Dram::new(&DramConfig::fixed(50.0)).unwrap();
    fixed.access(0, 0, false);
    assert_eq!(fixed.access_wait(0, 0, false), (50 * NS, 0));
}

#[test]
fn each_preset_is_its_config_by_name() {
    for p in DramPreset::ALL {
        let c = p.config();
        assert_eq!(c.name, p.name());
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, format!("\"{}\"", p.name()));
        assert_eq!(serde_json::from_str::<DramPreset>(&json).unwrap(), p);
        Dram::new(&c).unwrap();
    }
}

#[test]
fn same_bank_different_rows_serialize() {
    for scheduler in BOTH {
        // Issued long apart: the second pays the full tRP + tRCD + tCAS.
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        let first = d.access(0, 0, false);
        let second = d.access(first, 2048, false);
        assert_eq!(second - first, TRP + TRCD + TCAS + BURST);

        // Issued together: the precharge waits for tRAS after the first
        // activate (at 0), then precharge, activate, read: 96.25 ns.
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        assert_eq!(d.access(0, 0, false), 42_500);
        assert_eq!(d.access(0, 2048, false), TRAS + TRP + TRCD + TCAS + BURST);
        assert_eq!(TRAS + TRP + TRCD + TCAS + BURST, 96_250);

        // Against two banks, the same pair is far slower.
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        d.access(0, 0, false);
        assert!(d.access(0, 2, false) < 50 * NS);
    }
}

#[test]
fn row_hits_to_one_bank_stream_at_bus_speed() {
    for scheduler in BOTH {
        let mut d = with(DramConfig::ddr3_1600(), scheduler);
        let mut last = 0;
        for column in 0..128u64 {
            let done = d.access(0, column * 16, false);
            // Each line right behind the one before: back-to-back bursts.
            if column > 0 {
                assert_eq!(done, last + BURST, "{scheduler:?} column {column}");
            }
            last = done;
        }
        assert_eq!(last, TRCD + TCAS + BURST + 127 * BURST);
        assert_eq!(d.stats().row_hits, 127);
    }
}

#[test]
fn one_channel_is_bounded_by_bus_occupancy() {
    for scheduler in BOTH {
        one_channel_is_bounded_by_bus_occupancy_under(scheduler);
    }
}

fn one_channel_is_bounded_by_bus_occupancy_under(scheduler: Scheduler) {
    // 4000 even lines (all channel 0), all arriving at once, spread over
    // banks and rows by a fixed scramble.
    let n = 4000u64;
    let mut d = with(DramConfig::ddr3_1600(), scheduler);
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
    for scheduler in BOTH {
        let mut d = with(DramConfig::ddr3_1867(), scheduler);
        assert_eq!(d.access(0, 0, false), 10_718 + 10_718 + 4_287);
    }
}

#[test]
fn lpddr3_needs_two_bursts_per_line() {
    // 32-bit channel, BL8: 32 bytes per burst, two bursts = 8 clocks = 10 ns.
    // tRCD = 18 ns -> 15 clocks; RL = 12 clocks.
    for scheduler in BOTH {
        let mut d = with(DramConfig::lpddr3_1600(), scheduler);
        assert_eq!(d.access(0, 0, false), (15 + 12) * TCK + 8 * TCK);
        assert_eq!(d.line_ps(), 10 * NS);
    }
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

#[test]
fn presets_schedule_bank_parallel_and_old_json_means_the_default() {
    for cfg in [
        DramConfig::ddr3_1600(),
        DramConfig::ddr3_1867(),
        DramConfig::lpddr3_1600(),
        DramConfig::default(),
    ] {
        assert_eq!(cfg.scheduler, Scheduler::BankParallel, "{}", cfg.name);
    }
    assert_eq!(Scheduler::default(), Scheduler::BankParallel);
}

/// Bank 0 gets a row conflict behind its first access (data at 91.25 ns),
/// then a request to idle bank 1 of the same channel arrives at 10 ns.
#[test]
fn a_busy_bank_does_not_hold_up_an_idle_one() {
    let mut d = ddr3();
    assert_eq!(d.access(0, 0, false), 42_500);
    assert_eq!(d.access(0, 2048, false), 96_250);
    // Bank 1: its own latency, TRCD + TCAS + BURST after it arrived.
    assert_eq!(d.access(10 * NS, 2, false), 10 * NS + TRCD + TCAS + BURST);
    // Under FCFS it waits for bank 0's conflict to leave the bus.
    let mut d = ddr3_fcfs();
    assert_eq!(d.access(0, 0, false), 42_500);
    assert_eq!(d.access(0, 2048, false), 96_250);
    assert_eq!(d.access(10 * NS, 2, false), 96_250 + BURST);
}

#[test]
fn requests_ready_together_take_consecutive_bus_slots() {
    let mut d = ddr3();
    d.access(0, 0, false);
    assert_eq!(d.access(0, 2048, false), 96_250); // bus 91.25-96.25 ns
                                                  // Banks 1, 2 and 3 all ready at 10 ns + 37.5 ns: one after another,
                                                  // in the gap before bank 0's reserved transfer.
    let at = 10 * NS;
    let ready = at + TRCD + TCAS;
    assert_eq!(d.access(at, 2, false), ready + BURST);
    assert_eq!(d.access(at, 4, false), ready + 2 * BURST);
    assert_eq!(d.access(at, 6, false), ready + 3 * BURST);
    // Bank 4 ready at 87.5 ns: ending at 92.5 ns would run into bank 0's
    // transfer at 91.25 ns, so it goes right after that one.
    assert_eq!(d.access(50 * NS, 8, false), 96_250 + BURST);
    // The other channel is untouched.
    assert_eq!(d.access(at, 3, false), ready + BURST);
    assert_eq!(d.stats().busy_ps, vec![6 * BURST, BURST]);
}

/// `n` lines of channel 0 arriving at once over its 8 banks, either
/// round-robin over the banks or bank by bank (all of bank 0's first);
/// each bank changes rows every `per_row` of its lines. Returns the last
/// completion.
fn eight_banks(scheduler: Scheduler, n: u64, round_robin: bool, per_row: u64) -> u64 {
    let mut d = with(DramConfig::ddr3_1600(), scheduler);
    let per_bank = n / 8;
    let mut last = 0;
    for j in 0..n {
        let (bank, i) = if round_robin {
            (j % 8, j / 8)
        } else {
            (j / per_bank, j % per_bank)
        };
        let (row, column) = (i / per_row, i % per_row);
        let line = row << 11 | column << 4 | bank << 1;
        last = last.max(d.access(0, line, false));
    }
    assert_eq!(d.stats().row_conflicts, 8 * (per_bank / per_row - 1));
    last
}

#[test]
fn eight_banks_of_one_channel_are_bus_bound() {
    // Per bank a pair of lines of one row takes tRAS + tRP = 53.75 ns
    // activate to activate, so 8 banks could feed 16 lines per 53.75 ns,
    // faster than the bus's 5 ns a line: the bus bounds the channel.
    let n = 1024u64;
    let last = eight_banks(Scheduler::BankParallel, n, true, 2);
    assert!(last >= n * BURST);
    assert!(last <= n * BURST + 200 * NS, "{last} vs {}", n * BURST);
}

#[test]
fn eight_banks_of_one_channel_overlap_their_conflicts() {
    // Every line a row conflict, bank 0's all first: each bank needs
    // tRAS + tRP = 53.75 ns a line, and the 8 banks overlap, so about an
    // eighth of that per line.
    let n = 1024u64;
    let bound = n / 8 * (TRAS + TRP);
    let last = eight_banks(Scheduler::BankParallel, n, false, 1);
    assert!(last >= bound);
    assert!(last <= bound + 200 * NS, "{last} vs {bound}");
    // FCFS serves bank 0's chain before any of bank 1's data, and so on:
    // about a conflict's latency per line.
    let fcfs = eight_banks(Scheduler::Fcfs, n, false, 1);
    assert!(fcfs >= n * 50 * NS, "{fcfs}");
}

#[test]
fn a_ready_time_far_beyond_the_bus_window_slides_it() {
    // 20 000 conflicts queued on bank 0 reach about 1.07 ms, three bus
    // windows (65 536 slots of 5 ns) ahead; bank 1's data, ready at 37.5 ns,
    // then lies before the window and is held to its start: late, but
    // never on top of another transfer.
    let mut d = ddr3();
    let mut starts = Vec::new();
    let mut last = 0;
    for row in 0..20_000u64 {
        last = d.access(0, row << 11, false);
        starts.push(last - BURST);
    }
    assert!(last > 1_000_000 * NS);
    let window = BUS_WINDOW_SLOTS * BURST;
    let other = d.access(0, 2, false);
    assert!((last - window..last).contains(&other), "{other}");
    starts.push(other - BURST);
    // And bank 1 arriving later, its row open: tCAS and the burst.
    let late = d.access(last, 2, false);
    assert_eq!(late, last + TCAS + BURST);
    starts.push(late - BURST);
    starts.sort_unstable();
    for w in starts.windows(2) {
        assert!(w[1] >= w[0] + BURST, "{} then {}", w[0], w[1]);
    }
}

fn t_cas_ps(cfg: &DramConfig) -> u64 {
    let mhz = u64::from(cfg.clock_mhz);
    (u64::from(cfg.t_cas) * 1_000_000 + mhz / 2) / mhz
}

proptest! {
    /// Under the bank-parallel scheduler no two transfers of a channel
    /// overlap on its bus, and no request beats tCAS plus its burst.
    #[test]
    fn bank_parallel_transfers_never_overlap(
        reqs in prop::collection::vec((0u64..400_000, 0u64..1 << 14, any::<bool>()), 1..600),
        which in 0usize..3,
        spread in prop::sample::select(vec![1u64, 1000, 100_000]),
    ) {
        let cfg = [DramConfig::ddr3_1600(), DramConfig::ddr3_1867(), DramConfig::lpddr3_1600()]
            [which].clone();
        let mut d = Dram::new(&cfg).unwrap();
        let line_ps = d.line_ps();
        let min = t_cas_ps(&cfg) + line_ps;
        let mut bus: Vec<Vec<u64>> = vec![Vec::new(); cfg.channels as usize];
        for &(at, line, write) in &reqs {
            let at = at * spread;
            let done = d.access(at, line, write);
            prop_assert!(done >= at + min, "done {} at {} min {}", done, at, min);
            bus[(line % u64::from(cfg.channels)) as usize].push(done - line_ps);
        }
        for (channel, starts) in bus.iter_mut().enumerate() {
            starts.sort_unstable();
            for w in starts.windows(2) {
                prop_assert!(w[1] >= w[0] + line_ps, "channel {}: {} then {}", channel, w[0], w[1]);
            }
            prop_assert_eq!(d.stats().busy_ps[channel], starts.len() as u64 * line_ps);
        }
    }
}

/// `DramConfig::map` is the module's mapping: on DDR3-1600 byte-address
/// bit 6 the channel, bits 6-9 the bank (channel-major), bits 17 and up
/// the row; and a row hit, miss or conflict on the DRAM is one of the
/// same row, a fresh bank, another row of the bank by `map`.
#[test]
fn map_is_the_documented_mapping_and_the_dram_s() {
    let c = DramConfig::ddr3_1600();
    let at = |byte: u64| c.map(byte / 64);
    assert_eq!((at(0).channel, at(0).bank, at(0).row), (0, 0, 0));
    assert_eq!((at(64).channel, at(64).bank), (1, 1));
    assert_eq!((at(128).channel, at(128).bank), (0, 2));
    assert_eq!(at(1 << 10).bank, 0);
    assert_eq!((at((1 << 17) - 64).row, at(1 << 17).row), (0, 1));
    let mut dram = Dram::new(&c).unwrap();
    let mut open = std::collections::HashMap::new();
    for (i, line) in [0u64, 16, 2048, 5, 16 + 2048, 0, 7].into_iter().enumerate() {
        let before = dram.stats().clone();
        dram.access(i as u64 * 1_000_000, line, false);
        let s = dram.stats();
        let m = c.map(line);
        let expected = match open.insert(m.bank, m.row) {
            None => "miss",
            Some(r) if r == m.row => "hit",
            Some(_) => "conflict",
        };
        let got = if s.row_hits > before.row_hits {
            "hit"
        } else if s.row_misses > before.row_misses {
            "miss"
        } else {
            "conflict"
        };
        assert_eq!(got, expected, "line {line}");
    }
}
