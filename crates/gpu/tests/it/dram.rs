//! DRAM's banks and buses behind the L2: LPDDR3-1600's timing in a 600
//! MHz GPU's cycles by hand; a read alone waits nothing, whatever its
//! row; reads that share a bank or a channel's bus wait as worked by
//! hand; and on random reads out of time order the waits are those of a
//! plain model that keeps every reserved cycle in a set.

use std::collections::{BTreeSet, HashMap};

use gfxcache_gpu::dram::{DramBanks, DramTiming};
use gfxcache_mem::DramPreset;
use proptest::prelude::*;

/// LPDDR3-1600 (tCK 1.25 ns) on the DTM-NUCA paper's 600 MHz GPU.
fn lpddr3() -> DramTiming {
    DramTiming::of(DramPreset::Lpddr3_1600, 600)
}

/// tRCD = tRP = 15 clocks = 18.75 ns = 11.25 GPU cycles, up to 12; RL =
/// 12 clocks = 15 ns = 9 cycles exactly; a 64-byte line is two bursts of
/// 8 beats on 4 bytes, 8 clocks = 10 ns = 6 cycles.
#[test]
fn lpddr3_1600_in_cycles_of_600_mhz() {
    let t = lpddr3();
    assert_eq!((t.t_rcd, t.t_rp, t.t_cas, t.line_cycles), (12, 12, 9, 6));
    // DDR3-1600 at 1 GHz: 15 clocks of 1.25 ns are 18.75 cycles, up to 19;
    // a line of 8 beats on 8 bytes is 4 clocks, 5 cycles.
    let d = DramTiming::of(DramPreset::Ddr3_1600, 1000);
    assert_eq!((d.t_rcd, d.t_rp, d.t_cas, d.line_cycles), (19, 19, 19, 5));
}

/// 64-byte blocks are lines: block 0 is channel 0, bank 0, row 0; block
/// 2 channel 0, bank 2; block 1 channel 1; block 16 bank 0 again, the
/// next column of row 0 (4 KiB rows of 64 lines, 16 banks); block 16 x
/// 64 = 1024 bank 0, row 1.
const ROW_1_OF_BANK_0: u64 = 16 * 64;

#[test]
fn a_read_alone_waits_nothing_whatever_its_row() {
    let mut d = DramBanks::new(&lpddr3());
    assert_eq!(d.read(0, 64, 0), 0); // row miss
    assert_eq!(d.read(16, 64, 1000), 0); // row hit
    assert_eq!(d.read(ROW_1_OF_BANK_0, 64, 2000), 0); // row conflict
    let s = d.stats();
    assert_eq!(
        (
            s.reads,
            s.row_hits,
            s.row_misses,
            s.row_conflicts,
            s.wait_cycles
        ),
        (3, 1, 1, 1, 0)
    );
}

/// Two reads of one row at cycle 0: the first opens it (12) and holds the
/// bank 0-17 (its row and its line), its data on the bus 21-26 (12 + 9).
/// The second, a row hit, takes the bank's first free 6 cycles, 18-23,
/// its data ready at 27 and the bus free then: 27, where alone it would
/// have had it at 9. It waits 18.
#[test]
fn a_second_read_of_the_bank_waits_for_the_first() {
    let mut d = DramBanks::new(&lpddr3());
    assert_eq!(d.read(0, 64, 0), 0);
    assert_eq!(d.read(16, 64, 0), 18);
    // A third, a conflict at 0: the bank is free from 24; tRP + tRCD =
    // 24 then tCAS: ready 57, the bus free: waits 24 (57 against 33).
    assert_eq!(d.read(ROW_1_OF_BANK_0, 64, 0), 24);
    assert_eq!(d.stats().wait_cycles, 42);
}

/// Blocks 0 and 2 are two banks of channel 0: both open their rows at 0
/// and want the bus at 21; the second takes it at 27 (waits 6). Block 1
/// is channel 1's: it waits for nothing.
#[test]
fn two_banks_of_a_channel_wait_for_its_bus_and_not_for_each_other() {
    let mut d = DramBanks::new(&lpddr3());
    assert_eq!(d.read(0, 64, 0), 0);
    assert_eq!(d.read(2, 64, 0), 6);
    assert_eq!(d.read(1, 64, 0), 0);
    // A third bank of channel 0 at cycle 0: ready at 21, the bus held
    // 21-32 by the first two: 33, waits 12.
    assert_eq!(d.read(4, 64, 0), 12);
}

/// A read placed after one that is later in time waits only for the
/// cycles that one holds: bank 0 is read at 100 (held 100-117), then at
/// 0 (a row hit on the row the first opened: held 0-5, the bus at 9).
#[test]
fn a_read_earlier_in_time_does_not_wait_for_a_later_one() {
    let mut d = DramBanks::new(&lpddr3());
    assert_eq!(d.read(0, 64, 100), 0);
    assert_eq!(d.read(16, 64, 0), 0);
    assert_eq!(d.stats().row_hits, 1);
}

/// 32-byte blocks: two blocks a line, both read from it. 128-byte blocks:
/// two lines each, held twice as long: a second block of the bank (a row
/// hit) waits 12 + 12 for the first's row and two lines.
#[test]
fn blocks_of_other_sizes_are_read_as_their_lines() {
    let mut d = DramBanks::new(&lpddr3());
    assert_eq!(d.read(0, 32, 0), 0);
    assert_eq!(d.read(1, 32, 1000), 0);
    assert_eq!(d.stats().row_hits, 1);
    let mut d = DramBanks::new(&lpddr3());
    assert_eq!(d.read(0, 128, 0), 0);
    // Block 8 of 128 bytes is line 16: bank 0, row 0.
    assert_eq!(d.read(8, 128, 0), 24);
}

/// The rule, plainly: every reserved cycle of every bank and bus in a
/// set; a read takes the first run of free cycles it needs.
struct Plain {
    t: DramTiming,
    banks: HashMap<usize, BTreeSet<u64>>,
    buses: HashMap<usize, BTreeSet<u64>>,
    rows: HashMap<usize, u64>,
}

fn first_free(taken: &mut BTreeSet<u64>, from: u64, len: u64) -> u64 {
    let mut c = from;
    while (c..c + len).any(|x| taken.contains(&x)) {
        c += 1;
    }
    taken.extend(c..c + len);
    c
}

impl Plain {
    fn read(&mut self, line: u64, t: u64) -> u64 {
        // Two channels, 8 banks each, 64 lines a row: the mapping's bits.
        let (channel, bank, row) = ((line % 2) as usize, (line % 16) as usize, line / 1024);
        let prepare = match self.rows.insert(bank, row) {
            Some(r) if r == row => 0,
            None => u64::from(self.t.t_rcd),
            Some(_) => u64::from(self.t.t_rp + self.t.t_rcd),
        };
        let line_cycles = u64::from(self.t.line_cycles);
        let start = first_free(
            self.banks.entry(bank).or_default(),
            t,
            prepare + line_cycles,
        );
        let cas = u64::from(self.t.t_cas);
        let data = first_free(
            self.buses.entry(channel).or_default(),
            start + prepare + cas,
            line_cycles,
        );
        data - (t + prepare + cas)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn waits_are_the_plain_rule_s_in_any_order(
        reads in proptest::collection::vec((0u64..4096, 0u64..600), 1..120),
    ) {
        let t = lpddr3();
        let mut d = DramBanks::new(&t);
        let mut plain = Plain {
            t,
            banks: HashMap::new(),
            buses: HashMap::new(),
            rows: HashMap::new(),
        };
        let mut total = 0;
        for &(line, at) in &reads {
            let wait = d.read(line, 64, at);
            prop_assert_eq!(wait, plain.read(line, at), "line {} at {}", line, at);
            total += wait;
        }
        let s = d.stats();
        prop_assert_eq!(s.reads, reads.len() as u64);
        prop_assert_eq!(s.row_hits + s.row_misses + s.row_conflicts, s.reads);
        prop_assert_eq!(s.wait_cycles, total);
        prop_assert_eq!(s.late_reservations, 0);
    }
}
