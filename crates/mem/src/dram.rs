//! DRAM: channels of banks with an open-row policy, timed in picoseconds.
//!
//! What is modelled, per channel: the data bus, which carries one 64-byte
//! line at a time (a line takes `ceil(64 / (bus_bytes * burst_length))`
//! bursts of `burst_length / 2` clocks each, DDR). Per bank: the open row,
//! when the row was activated (for tRAS) and when the bank can take its next
//! column command. A request finds its row
//!
//! - open (row hit): tCAS, then the data;
//! - closed, the bank's first access (row miss): tRCD + tCAS;
//! - holding another row (row conflict): tRP + tRCD + tCAS, where the
//!   precharge waits until tRAS has passed since that row was activated.
//!
//! Rows are left open after an access (open-row policy).
//!
//! Two schedulers ([`Scheduler`], a field of [`DramConfig`]):
//!
//! - [`Scheduler::BankParallel`] (the default, and every preset's): each
//!   bank serves its own requests in the order [`Dram::access`] is called
//!   (per-bank first-come first-served), and each channel's data bus is a
//!   calendar of line-sized slots: a request takes the earliest free bus
//!   time at or after its data is ready, even if that is before the bus time
//!   an earlier request (held up by its own busy bank) has reserved. So a
//!   request to an idle bank is not held up by one to a busy bank, and the
//!   banks of a channel overlap as under a real controller. This is
//!   FR-FCFS-like bank parallelism without FR-FCFS's row-hit-first
//!   reordering among the requests of one bank: a bank never lets a later
//!   row hit pass an earlier row conflict. A request's bus time is fixed
//!   when it is called, so slots go to requests in call order among those
//!   that want them: a request called later never takes a slot an earlier
//!   one already holds, even if its data was ready first.
//! - [`Scheduler::Fcfs`]: first-come first-served in call order, no
//!   reordering at all. A request's bank starts preparing its row as soon as
//!   the request arrives and the bank is free, so requests to different
//!   banks overlap their activations; but the data of request n+1 never goes
//!   on a channel's bus before that of request n: the bus is one "free at"
//!   time. Kept for comparison; it leaves the bus idle behind row conflicts.
//!
//! Under both, a request's column command is placed tCAS before its data's
//! bus time, and its bank takes the next column command one line-transfer
//! later (tCCD equals the burst on DDR3), so row hits to one bank stream at
//! bus speed; and a lone request has the same latency under both.
//!
//! The bus calendar: per channel, a ring of [`BUS_WINDOW_SLOTS`] slots of one
//! line-transfer each (a bitmap of u64 words, and per slot the picosecond
//! offset of the transfer that starts in it), so transfers keep exact
//! picosecond start times and never overlap (a transfer is one slot long, so
//! at most one starts per slot and placing one checks only its two
//! neighbours). A reservation scans the bitmap a word (64 slots) at a time
//! from the slot of its ready time, with no allocation; the window moves
//! only forward, so clearing recycled slots is O(1) amortised per slot of
//! time. 64 Ki slots take 8 KiB of bitmap and 256 KiB of offsets a channel,
//! allocated by [`Dram::new`]. The
//! window (about 330 us on DDR3-1600) slides forward only when a ready time
//! falls beyond it, recycling its oldest slots; a request whose data would
//! be ready before the window's start (more than a window behind the latest
//! reservation on its channel, which needs thousands of requests queued at
//! one bank) is held to the window's start: the one place this scheduler
//! can delay a request beyond its bank and the bus.
//!
//! Not modelled: refresh, read/write turnaround (tWTR, tRTW), write latency
//! differing from read latency (writes are timed like reads), tRRD/tFAW
//! activation limits, tRTP/tWR before a precharge, command-bus conflicts,
//! ranks, power-down. Each of these would lengthen DRAM time a little; none
//! depends on the LLC policy more than the misses themselves do.
//!
//! Address mapping, on the line number (byte address / 64), low bits first:
//! `log2(channels)` bits of channel, then `log2(banks_per_channel)` bits of
//! bank, then `log2(row_bytes / 64)` bits of column, then the row. So
//! consecutive lines alternate channels, then banks, and a row collects the
//! lines `channels * banks_per_channel` apart. For [`DramConfig::ddr3_1600`]
//! (2 channels, 8 banks, 8 KiB rows) that is byte-address bit 6 channel,
//! bits 7-9 bank, bits 10-16 column, bits 17 and up row. Channels, banks and
//! row size must be powers of two, which keeps the mapping to shifts and
//! masks.

use serde::{Deserialize, Serialize};

use crate::error::MemError;
use crate::LINE_BYTES;

/// How a channel orders its requests; see the module documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scheduler {
    /// First-come first-served in call order: the bus carries the data of
    /// the requests in the order they arrived.
    Fcfs,
    /// Per-bank first-come first-served; the bus carries whichever data is
    /// ready first, in the earliest free slot at or after it is ready.
    #[default]
    BankParallel,
}

/// A DRAM system's organisation and timings. Timings are in DRAM clock
/// cycles (the I/O bus clock: 800 MHz for DDR3-1600), as datasheets give them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DramConfig {
    /// A name for tables and JSON ("ddr3-1600").
    pub name: String,
    /// I/O bus clock in MHz; data moves on both edges.
    pub clock_mhz: u32,
    pub channels: u32,
    pub banks_per_channel: u32,
    /// Beats per burst (BL).
    pub burst_length: u32,
    /// Width of one channel's data bus in bytes.
    pub bus_bytes: u32,
    /// CAS latency (read latency), cycles.
    pub t_cas: u32,
    /// Activate to column command, cycles.
    pub t_rcd: u32,
    /// Precharge to activate, cycles.
    pub t_rp: u32,
    /// Activate to precharge (minimum row open time), cycles; 0 ignores it.
    pub t_ras: u32,
    /// Bytes in one bank's row (page) across the channel's devices.
    pub row_bytes: u32,
    /// When set, every access takes exactly this many nanoseconds and the
    /// DRAM has infinite bandwidth: no banks, no bus (for latency sweeps).
    pub fixed_latency_ns: Option<f64>,
    /// Request scheduling; absent from older JSON, where it means the default
    /// ([`Scheduler::BankParallel`]).
    #[serde(default)]
    pub scheduler: Scheduler,
}

/// Where a line is in the DRAM ([`DramConfig::map`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineMap {
    /// Its channel, `0..channels`.
    pub channel: usize,
    /// Its bank, channel-major in the mapping's order, `0..channels *
    /// banks_per_channel`.
    pub bank: usize,
    /// Its row in that bank.
    pub row: u64,
}

/// A DRAM of the presets below by name, for configurations that must be
/// `Copy` (a [`DramConfig`] holds its name as a `String`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DramPreset {
    #[default]
    #[serde(rename = "lpddr3-1600")]
    Lpddr3_1600,
    #[serde(rename = "ddr3-1600")]
    Ddr3_1600,
    #[serde(rename = "ddr3-1867")]
    Ddr3_1867,
}

impl DramPreset {
    pub const ALL: [DramPreset; 3] = [
        DramPreset::Lpddr3_1600,
        DramPreset::Ddr3_1600,
        DramPreset::Ddr3_1867,
    ];

    pub fn config(self) -> DramConfig {
        match self {
            DramPreset::Lpddr3_1600 => DramConfig::lpddr3_1600(),
            DramPreset::Ddr3_1600 => DramConfig::ddr3_1600(),
            DramPreset::Ddr3_1867 => DramConfig::ddr3_1867(),
        }
    }

    /// Its configuration's name: `lpddr3-1600`, `ddr3-1600`, `ddr3-1867`.
    pub fn name(self) -> &'static str {
        match self {
            DramPreset::Lpddr3_1600 => "lpddr3-1600",
            DramPreset::Ddr3_1600 => "ddr3-1600",
            DramPreset::Ddr3_1867 => "ddr3-1867",
        }
    }
}

impl DramConfig {
    /// The GSPC paper's baseline (section 4): dual-channel DDR3-1600,
    /// 15-15-15, 8 banks, burst 8, 64-bit channels. tRAS = 35 ns (28 clocks)
    /// is JEDEC DDR3-1600's; 8 KiB rows are a rank of eight x8 devices with
    /// 1 KiB pages each.
    pub fn ddr3_1600() -> DramConfig {
        DramConfig {
            name: "ddr3-1600".into(),
            clock_mhz: 800,
            channels: 2,
            banks_per_channel: 8,
            burst_length: 8,
            bus_bytes: 8,
            t_cas: 15,
            t_rcd: 15,
            t_rp: 15,
            t_ras: 28,
            row_bytes: 8192,
            fixed_latency_ns: None,
            scheduler: Scheduler::BankParallel,
        }
    }

    /// The faster DRAM of the paper's Figure 17 (upper panel): dual-channel
    /// DDR3-1867, 10-10-10, otherwise as the baseline. tRAS = 34 ns (JEDEC
    /// DDR3-1866) = 32 clocks at 933 MHz.
    pub fn ddr3_1867() -> DramConfig {
        DramConfig {
            name: "ddr3-1867".into(),
            clock_mhz: 933,
            t_cas: 10,
            t_rcd: 10,
            t_rp: 10,
            t_ras: 32,
            ..DramConfig::ddr3_1600()
        }
    }

    /// A mobile LPDDR3-1600 system for the mobile papers: two 32-bit
    /// channels, 8 banks, BL8, 4 KiB rows. Timings from JEDEC JESD209-3
    /// (LPDDR3) at tCK = 1.25 ns: RL = 12 (read latency, used as tCAS);
    /// tRCD = tRPpb = 18 ns (typical) = 15 clocks rounded up; tRAS = 42 ns =
    /// 34 clocks. With a 4-byte bus a 64-byte line takes two bursts.
    pub fn lpddr3_1600() -> DramConfig {
        DramConfig {
            name: "lpddr3-1600".into(),
            clock_mhz: 800,
            channels: 2,
            banks_per_channel: 8,
            burst_length: 8,
            bus_bytes: 4,
            t_cas: 12,
            t_rcd: 15,
            t_rp: 15,
            t_ras: 34,
            row_bytes: 4096,
            fixed_latency_ns: None,
            scheduler: Scheduler::BankParallel,
        }
    }

    /// Every access takes `latency_ns`, with infinite bandwidth: for sweeps
    /// that ask how the frame depends on memory latency alone.
    pub fn fixed(latency_ns: f64) -> DramConfig {
        DramConfig {
            name: format!("fixed-{latency_ns}ns"),
            fixed_latency_ns: Some(latency_ns),
            ..DramConfig::ddr3_1600()
        }
    }

    /// The bus time of one 64-byte line, in ps: `ceil(64 / (bus_bytes *
    /// burst_length))` bursts of `burst_length` beats, two beats a clock.
    pub fn line_ps(&self) -> u64 {
        let burst_bytes = u64::from(self.bus_bytes) * u64::from(self.burst_length);
        let bursts = LINE_BYTES.div_ceil(burst_bytes.max(1));
        // An odd burst length still ends on a half clock, so count in half
        // clocks before converting.
        let half_clocks = bursts * u64::from(self.burst_length);
        cycles_ps(half_clocks, self.clock_mhz.saturating_mul(2).max(1))
    }

    /// `cycles` of this DRAM's clock in ps (tCAS, tRCD, tRP, tRAS).
    pub fn clocks_ps(&self, cycles: u32) -> u64 {
        cycles_ps(cycles.into(), self.clock_mhz.max(1))
    }

    /// The bank and channel a line (byte address / 64) maps to, and its
    /// row: the mapping of the module's documentation.
    pub fn map(&self, line: u64) -> LineMap {
        let channels = u64::from(self.channels.max(1));
        let all_banks = channels * u64::from(self.banks_per_channel.max(1));
        let lines_per_row = (u64::from(self.row_bytes) / LINE_BYTES).max(1);
        LineMap {
            channel: (line & (channels - 1)) as usize,
            bank: (line & (all_banks - 1)) as usize,
            row: line >> (all_banks.trailing_zeros() + lines_per_row.trailing_zeros()),
        }
    }

    /// Peak data bandwidth of all channels, in GB/s (10^9 bytes per second).
    pub fn peak_gbps(&self) -> f64 {
        f64::from(self.clock_mhz) * 2.0 * f64::from(self.bus_bytes) * f64::from(self.channels)
            / 1000.0
    }

    /// Checks what the model relies on: nonzero clock, power-of-two channels,
    /// banks and rows, a row of at least one line.
    pub fn validate(&self) -> Result<(), MemError> {
        let bad = |what: &str, why: String| {
            Err(MemError::Config {
                part: "dram",
                what: what.to_string(),
                why,
            })
        };
        if let Some(ns) = self.fixed_latency_ns {
            if !(ns.is_finite() && ns >= 0.0) {
                return bad("fixed_latency_ns", format!("{ns} is not a latency"));
            }
            return Ok(());
        }
        if self.clock_mhz == 0 {
            return bad("clock_mhz", "must be positive".into());
        }
        for (what, v) in [
            ("channels", self.channels),
            ("banks_per_channel", self.banks_per_channel),
            ("row_bytes", self.row_bytes),
        ] {
            if !v.is_power_of_two() {
                return bad(what, format!("{v} is not a power of two"));
            }
        }
        if u64::from(self.row_bytes) < LINE_BYTES {
            return bad(
                "row_bytes",
                format!("{} is less than a line", self.row_bytes),
            );
        }
        if self.burst_length == 0 || self.bus_bytes == 0 {
            return bad("burst_length/bus_bytes", "must be positive".into());
        }
        Ok(())
    }
}

impl Default for DramConfig {
    fn default() -> DramConfig {
        DramConfig::ddr3_1600()
    }
}

/// What the DRAM did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DramStats {
    pub reads: u64,
    pub writes: u64,
    /// Accesses that found their row open.
    pub row_hits: u64,
    /// Accesses to a bank with no row open (its first access).
    pub row_misses: u64,
    /// Accesses that had to close another row first.
    pub row_conflicts: u64,
    /// Time each channel's data bus carried data, in ps.
    pub busy_ps: Vec<u64>,
}

#[derive(Clone, Copy, Debug)]
struct Bank {
    /// `NO_ROW` until the first activate.
    open_row: u64,
    /// When the current row was activated.
    activated_ps: u64,
    /// When the bank takes its next command.
    ready_ps: u64,
}

const NO_ROW: u64 = u64::MAX;

/// Converts `cycles` of a `clock_mhz` clock to picoseconds, rounded to
/// nearest, so that non-integer periods (933 MHz) stay deterministic.
fn cycles_ps(cycles: u64, clock_mhz: u32) -> u64 {
    let mhz = u64::from(clock_mhz);
    (cycles * 1_000_000 + mhz / 2) / mhz
}

/// Slots in each channel's bus calendar (a power of two, a multiple of 64).
pub const BUS_WINDOW_SLOTS: u64 = 1 << 16;
const WINDOW_MASK: u64 = BUS_WINDOW_SLOTS - 1;

/// One channel's data bus under [`Scheduler::BankParallel`]: a ring of
/// slots of one line-transfer (`slot_ps`) each, covering absolute slots
/// `base .. base + BUS_WINDOW_SLOTS`. At most one transfer starts in a slot
/// (a transfer is a slot long), at its exact picosecond offset; so a
/// transfer starting in slot k can only overlap those starting in slots
/// k - 1 and k + 1, and placing one checks just those two.
#[derive(Clone, Debug)]
struct BusCalendar {
    /// Bit k & WINDOW_MASK: a transfer starts in absolute slot k.
    used: Box<[u64]>,
    /// Its start, in ps after the slot's start.
    offset: Box<[u32]>,
    base: u64,
    /// No transfer may start before this: the window's start, or the end of
    /// a recycled transfer that reaches into the window.
    floor_ps: u64,
    slot_ps: u64,
    /// `u64::MAX / slot_ps`, for [`BusCalendar::slot_of`].
    recip: u64,
}

impl BusCalendar {
    fn new(slot_ps: u64) -> BusCalendar {
        BusCalendar {
            used: vec![0; (BUS_WINDOW_SLOTS / 64) as usize].into_boxed_slice(),
            offset: vec![0; BUS_WINDOW_SLOTS as usize].into_boxed_slice(),
            base: 0,
            floor_ps: 0,
            slot_ps,
            recip: u64::MAX / slot_ps,
        }
    }

    #[inline]
    fn is_used(&self, slot: u64) -> bool {
        let i = slot & WINDOW_MASK;
        self.used[(i >> 6) as usize] >> (i & 63) & 1 == 1
    }

    /// Start of the transfer in `slot` (meaningful if the slot is used), in
    /// ps; wrapping, as it is also computed for a slot that is not.
    #[inline]
    fn start_ps(&self, slot: u64) -> u64 {
        slot.wrapping_mul(self.slot_ps)
            .wrapping_add(u64::from(self.offset[(slot & WINDOW_MASK) as usize]))
    }

    /// The first unused slot at or after `slot` inside the window, if any.
    #[inline]
    fn first_free(&self, mut slot: u64) -> Option<u64> {
        let end = self.base + BUS_WINDOW_SLOTS;
        while slot < end {
            let bit = slot & 63;
            // Slots below `slot` in its word count as used.
            let word = self.used[((slot & WINDOW_MASK) >> 6) as usize] | ((1u64 << bit) - 1);
            if word != u64::MAX {
                let free = slot - bit + u64::from((!word).trailing_zeros());
                // Past `end` the ring holds the window's first slots.
                return (free < end).then_some(free);
            }
            slot += 64 - bit;
        }
        None
    }

    /// Moves the window's start forward to `new_base`, forgetting the slots
    /// before it.
    fn slide_to(&mut self, new_base: u64, slot_ps: u64) {
        if new_base <= self.base {
            return;
        }
        let last = new_base - 1;
        let mut floor = new_base * slot_ps;
        if (self.base..self.base + BUS_WINDOW_SLOTS).contains(&last) && self.is_used(last) {
            floor = floor.max(self.start_ps(last) + slot_ps);
        }
        self.floor_ps = self.floor_ps.max(floor);
        let (mut from, to) = (self.base, new_base.min(self.base + BUS_WINDOW_SLOTS));
        if to - from == BUS_WINDOW_SLOTS {
            self.used.fill(0);
        } else {
            while from < to {
                let bit = from & 63;
                let n = (64 - bit).min(to - from);
                let mask = if n == 64 {
                    u64::MAX
                } else {
                    ((1u64 << n) - 1) << bit
                };
                self.used[((from & WINDOW_MASK) >> 6) as usize] &= !mask;
                from += n;
            }
        }
        self.base = new_base;
    }

    /// Reserves the bus for `slot_ps` from the earliest time at or after
    /// `ready_ps` that overlaps no reserved transfer; returns that start.
    #[inline]
    fn reserve(&mut self, ready_ps: u64) -> u64 {
        let slot_ps = self.slot_ps;
        let ready = ready_ps.max(self.floor_ps);
        let mut slot = self.slot_of(ready);
        self.fit(slot);
        // Branch-free where the outcome is data-dependent: this runs once per
        // DRAM access, and mispredictions would cost more than the work.
        loop {
            let Some(free) = self.first_free(slot) else {
                slot = self.base + BUS_WINDOW_SLOTS;
                self.fit(slot);
                continue;
            };
            slot = free;
            self.fit(slot);
            // The transfer starting in the previous slot, if any (the slot
            // before the window's first is covered by `floor_ps`).
            let prev = slot.wrapping_sub(1);
            let prev_used = u64::from(self.is_used(prev) & (slot > self.base));
            let prev_end = self.start_ps(prev).wrapping_add(slot_ps) * prev_used;
            let start = ready.max(slot * slot_ps).max(prev_end);
            // `start` is still inside `slot`, as the previous transfer
            // started before it; the next one must not start within a
            // transfer of it.
            let next = slot + 1;
            if self.is_used(next) & (self.start_ps(next) < start + slot_ps) {
                slot += 2;
                self.fit(slot);
                continue;
            }
            let i = slot & WINDOW_MASK;
            self.used[(i >> 6) as usize] |= 1 << (i & 63);
            self.offset[i as usize] = (start - slot * slot_ps) as u32;
            return start;
        }
    }

    /// `ps / slot_ps`, by a multiplication with the reciprocal rather than a
    /// 64-bit division (which costs as much as the rest of a reservation).
    #[inline]
    fn slot_of(&self, ps: u64) -> u64 {
        // Low by at most 2 (both the reciprocal and the product round down).
        let mut slot = ((u128::from(ps) * u128::from(self.recip)) >> 64) as u64;
        while (slot + 1) * self.slot_ps <= ps {
            slot += 1;
        }
        slot
    }

    /// Slides the window, if need be, until it holds `slot` and `slot + 1`;
    /// a whole word at a time, so that the window starts on a word.
    #[inline]
    fn fit(&mut self, slot: u64) {
        if slot + 2 > self.base + BUS_WINDOW_SLOTS {
            let new_base = (slot + 2 - BUS_WINDOW_SLOTS).next_multiple_of(64);
            self.slide_to(new_base, self.slot_ps);
        }
    }
}

/// The DRAM's state. Allocated once; [`Dram::access`] does not allocate.
#[derive(Clone, Debug)]
pub struct Dram {
    /// `Some` in fixed-latency mode, where nothing else is used.
    fixed_ps: Option<u64>,
    /// Per bank, channel-major in the mapping's order: index = line & bank_mask.
    banks: Vec<Bank>,
    /// Per channel, when its bus is next free ([`Scheduler::Fcfs`]).
    bus_free_ps: Vec<u64>,
    /// Per channel, its bus calendar ([`Scheduler::BankParallel`]; empty
    /// under FCFS).
    calendars: Vec<BusCalendar>,
    bank_parallel: bool,
    channel_mask: u64,
    bank_mask: u64,
    row_shift: u32,
    t_cas_ps: u64,
    t_rcd_ps: u64,
    t_rp_ps: u64,
    t_ras_ps: u64,
    /// Bus time of one line.
    line_ps: u64,
    stats: DramStats,
}

impl Dram {
    pub fn new(cfg: &DramConfig) -> Result<Dram, MemError> {
        cfg.validate()?;
        let channels = u64::from(cfg.channels);
        let all_banks = channels * u64::from(cfg.banks_per_channel);
        let lines_per_row = u64::from(cfg.row_bytes) / LINE_BYTES;
        let line_ps = cfg.line_ps();
        let fixed_ps = cfg.fixed_latency_ns.map(|ns| (ns * 1000.0).round() as u64);
        let (banks, bus) = if fixed_ps.is_some() {
            (0, 0)
        } else {
            (all_banks as usize, channels as usize)
        };
        Ok(Dram {
            fixed_ps,
            banks: vec![
                Bank {
                    open_row: NO_ROW,
                    activated_ps: 0,
                    ready_ps: 0,
                };
                banks
            ],
            bus_free_ps: vec![0; bus],
            calendars: if cfg.scheduler == Scheduler::BankParallel {
                vec![BusCalendar::new(line_ps.max(1)); bus]
            } else {
                Vec::new()
            },
            bank_parallel: cfg.scheduler == Scheduler::BankParallel,
            channel_mask: channels - 1,
            bank_mask: all_banks - 1,
            row_shift: all_banks.trailing_zeros() + lines_per_row.trailing_zeros(),
            t_cas_ps: cfg.clocks_ps(cfg.t_cas),
            t_rcd_ps: cfg.clocks_ps(cfg.t_rcd),
            t_rp_ps: cfg.clocks_ps(cfg.t_rp),
            t_ras_ps: cfg.clocks_ps(cfg.t_ras),
            line_ps,
            stats: DramStats {
                busy_ps: vec![0; bus],
                ..DramStats::default()
            },
        })
    }

    /// Serves a read or write of `line` (byte address / 64) arriving at
    /// `at_ps`; returns when its last byte has crossed the bus, in ps.
    #[inline]
    pub fn access(&mut self, at_ps: u64, line: u64, write: bool) -> u64 {
        if write {
            self.stats.writes += 1;
        } else {
            self.stats.reads += 1;
        }
        if let Some(fixed) = self.fixed_ps {
            return at_ps + fixed;
        }
        let row = line >> self.row_shift;
        let channel = (line & self.channel_mask) as usize;
        let bank = &mut self.banks[(line & self.bank_mask) as usize];
        let start = at_ps.max(bank.ready_ps);
        let column_ps = if bank.open_row == row {
            self.stats.row_hits += 1;
            start
        } else if bank.open_row == NO_ROW {
            self.stats.row_misses += 1;
            bank.open_row = row;
            bank.activated_ps = start;
            start + self.t_rcd_ps
        } else {
            self.stats.row_conflicts += 1;
            let precharge = start.max(bank.activated_ps + self.t_ras_ps);
            let activate = precharge + self.t_rp_ps;
            bank.open_row = row;
            bank.activated_ps = activate;
            activate + self.t_rcd_ps
        };
        let data = if self.bank_parallel {
            self.calendars[channel].reserve(column_ps + self.t_cas_ps)
        } else {
            let bus = &mut self.bus_free_ps[channel];
            let data = (column_ps + self.t_cas_ps).max(*bus);
            *bus = data + self.line_ps;
            data
        };
        let done = data + self.line_ps;
        // The column command went out tCAS before its data; the bank takes the
        // next one a line-transfer (tCCD) later.
        bank.ready_ps = data - self.t_cas_ps + self.line_ps;
        self.stats.busy_ps[channel] += self.line_ps;
        done
    }

    /// [`Dram::access`], and how long the request waited beyond its own
    /// service (its row's precharge, activate and read, and its line's
    /// transfer): for its bank, busy with an earlier request or holding a
    /// row tRAS keeps open, and for its channel's bus; in ps. A request
    /// alone in the DRAM waits 0, whatever the state of its row.
    pub fn access_wait(&mut self, at_ps: u64, line: u64, write: bool) -> (u64, u64) {
        let (hits, misses) = (self.stats.row_hits, self.stats.row_misses);
        let done = self.access(at_ps, line, write);
        if self.fixed_ps.is_some() {
            return (done, 0);
        }
        let open = if self.stats.row_hits > hits {
            0
        } else if self.stats.row_misses > misses {
            self.t_rcd_ps
        } else {
            self.t_rp_ps + self.t_rcd_ps
        };
        let service = open + self.t_cas_ps + self.line_ps;
        (done, (done - at_ps).saturating_sub(service))
    }

    /// Bus time of one 64-byte line, in ps (0 in fixed-latency mode, where
    /// there is no bus).
    pub fn line_ps(&self) -> u64 {
        if self.fixed_ps.is_some() {
            0
        } else {
            self.line_ps
        }
    }

    pub fn channels(&self) -> usize {
        self.bus_free_ps.len()
    }

    pub fn stats(&self) -> &DramStats {
        &self.stats
    }

    pub fn into_stats(self) -> DramStats {
        self.stats
    }
}
